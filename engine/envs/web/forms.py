"""The predicate forms a web page answers, registered for kind "web" when this package is imported.

`exists` / `absent` a target (visible or not); `text` the page's or a target's visible text;
`value` what an input, select or textarea holds; `url` and `title` of the page. A plain
string means "contains".
"""

from __future__ import annotations

from typing import Any

from engine.envs.web.targets import TARGET_SHAPE, is_point, is_target
from engine.programs.predicates import Form, register_forms

KIND = "web"
MATCHES = ("contains", "equals")


def _match(body: dict, also: frozenset[str] = frozenset()) -> bool:
    """Exactly one of contains/equals, a string, beside only the keys `also` allows."""
    chosen = [key for key in MATCHES if key in body]
    return len(chosen) == 1 and isinstance(body[chosen[0]], str) and set(body) <= {chosen[0], *also}


def _text(body: Any) -> bool:
    if isinstance(body, str):
        return bool(body)
    return isinstance(body, dict) and _match(body, frozenset({"target"})) \
        and ("target" not in body or is_target(body["target"]))


def _value(body: Any) -> bool:
    return isinstance(body, dict) and _match(body, frozenset({"target"})) and is_target(body.get("target"))


def _page_field(body: Any) -> bool:
    return isinstance(body, str) or (isinstance(body, dict) and _match(body))


register_forms(KIND, (
    Form("exists", f"a target: {TARGET_SHAPE}", is_target),
    Form("absent", "a target other than {x, y}", lambda body: is_target(body) and not is_point(body)),
    Form("text", "a string, or {target?, contains|equals}", _text),
    Form("value", "{target, contains|equals}", _value),
    Form("url", "a string (contained), or {contains|equals}", _page_field),
    Form("title", "a string (contained), or {contains|equals}", _page_field),
))
