"""Screen predicates: a small declarative language checked against a live environment.

The combinators `all`, `any` and `not` are the language's own; every other form belongs
to an environment kind, which registers its forms (a name, the shape of its body) and
answers them through `Environment.check`. Strings may hold `{param}`.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, Protocol

from engine.errors import WardenError

_PARAM = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")
_KIND = re.compile(r"[a-z][a-z0-9_]*")
COMBINATORS = frozenset({"all", "any", "not"})


class PredicateError(WardenError):
    """A predicate uses a form or shape its environment kind does not have."""


@dataclass(frozen=True)
class Form:
    """One leaf form of a kind: its name, its body's shape in words, and a check of that shape."""

    name: str
    shape: str
    accepts: Callable[[Any], bool]


_FORMS: dict[str, dict[str, Form]] = {}


def register_forms(kind: str, forms: Iterable[Form]) -> None:
    """An environment kind declares its predicate forms (called when its module is imported)."""
    _FORMS[kind] = {form.name: form for form in forms}


def forms(kind: str) -> dict[str, Form]:
    """The forms of a kind; a built-in kind's module (`engine.envs.<kind>`) is imported on first use."""
    if kind not in _FORMS and _KIND.fullmatch(kind):
        try:
            importlib.import_module(f"engine.envs.{kind}")
        except ModuleNotFoundError:
            pass
    try:
        return _FORMS[kind]
    except KeyError:
        raise PredicateError(f"no environment of kind {kind!r} is known; known: {sorted(_FORMS)}") from None


class Checker(Protocol):
    """What `holds` needs of an environment: an answer for one leaf form."""

    async def check(self, form: str, body: Any) -> bool: ...


def interpolate(value: Any, params: dict[str, str]) -> Any:
    """Replace `{name}` with bound parameters in every string of a JSON value."""
    if isinstance(value, str):
        return _PARAM.sub(lambda m: params.get(m.group(1), m.group(0)), value)
    if isinstance(value, list):
        return [interpolate(item, params) for item in value]
    if isinstance(value, dict):
        return {key: interpolate(item, params) for key, item in value.items()}
    return value


def validate(predicate: Any, kind: str, where: str = "predicate") -> None:
    known = forms(kind)
    if not isinstance(predicate, dict) or len(predicate) != 1:
        names = sorted(COMBINATORS | set(known))
        raise PredicateError(f"{where}: a predicate is an object with one key of {names}, got {predicate!r:.60}")
    (form, body), = predicate.items()
    if form in ("all", "any"):
        if not isinstance(body, list):
            raise PredicateError(f"{where}: {form} takes a list")
        for number, item in enumerate(body):
            validate(item, kind, f"{where}.{form}[{number}]")
    elif form == "not":
        validate(body, kind, f"{where}.not")
    elif form not in known:
        raise PredicateError(f"{where}: unknown predicate form {form!r} for a {kind} environment")
    elif not known[form].accepts(body):
        raise PredicateError(f"{where}: {form} takes {known[form].shape}")


async def holds(predicate: dict, env: Checker, params: dict[str, str] | None = None) -> bool:
    """Whether the predicate holds on the live environment; a target it cannot see does not hold."""
    return await _holds(interpolate(predicate, params) if params else predicate, env)


async def _holds(predicate: dict, env: Checker) -> bool:
    (form, body), = predicate.items()
    if form == "all":
        for item in body:
            if not await _holds(item, env):
                return False
        return True
    if form == "any":
        for item in body:
            if await _holds(item, env):
                return True
        return False
    if form == "not":
        return not await _holds(body, env)
    try:
        return await env.check(form, body)
    except WardenError:
        return False


def conjoin(*predicates: dict | None) -> dict:
    """`all` of the given predicates, flattened; the empty conjunction always holds."""
    parts: list[dict] = []
    for predicate in predicates:
        if predicate is None:
            continue
        parts.extend(predicate["all"] if "all" in predicate else [predicate])
    return parts[0] if len(parts) == 1 else {"all": parts}
