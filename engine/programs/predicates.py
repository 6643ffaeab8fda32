"""Screen predicates: a small declarative language checked against an environment.

Forms: `{"exists": T}`, `{"absent": T}`, `{"text": {"path": T, "contains"|"equals": S}}`,
`{"all": [...]}`, `{"any": [...]}`, `{"not": P}`; strings may hold `{param}`.
"""

from __future__ import annotations

import re
from typing import Any, Protocol

from engine.errors import WardenError

_PARAM = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")
FORMS = frozenset({"exists", "absent", "text", "all", "any", "not"})


class PredicateError(WardenError):
    """A predicate uses a form or shape the language does not have."""


class Observable(Protocol):
    """An environment as predicates see it; `exists` raises `WardenError` for a target it cannot see."""

    def exists(self, target: str) -> bool: ...
    def read_text(self, target: str) -> str | None: ...


def interpolate(value: Any, params: dict[str, str]) -> Any:
    """Replace `{name}` with bound parameters in every string of a JSON value."""
    if isinstance(value, str):
        return _PARAM.sub(lambda m: params.get(m.group(1), m.group(0)), value)
    if isinstance(value, list):
        return [interpolate(item, params) for item in value]
    if isinstance(value, dict):
        return {key: interpolate(item, params) for key, item in value.items()}
    return value


def validate(predicate: Any, where: str = "predicate") -> None:
    if not isinstance(predicate, dict) or len(predicate) != 1:
        raise PredicateError(f"{where}: a predicate is an object with one key of {sorted(FORMS)}, got {predicate!r:.60}")
    (form, body), = predicate.items()
    if form not in FORMS:
        raise PredicateError(f"{where}: unknown predicate form {form!r}")
    if form in ("all", "any"):
        if not isinstance(body, list):
            raise PredicateError(f"{where}: {form} takes a list")
        for number, item in enumerate(body):
            validate(item, f"{where}.{form}[{number}]")
    elif form == "not":
        validate(body, f"{where}.not")
    elif form == "text":
        if not isinstance(body, dict) or "path" not in body or not ({"contains", "equals"} & set(body)):
            raise PredicateError(f"{where}: text takes {{path, contains|equals}}")
    elif not isinstance(body, str):
        raise PredicateError(f"{where}: {form} takes a target string")


def holds(predicate: dict, env: Observable, params: dict[str, str] | None = None) -> bool:
    (form, body), = interpolate(predicate, params or {}).items()
    if form == "all":
        return all(holds(item, env) for item in body)
    if form == "any":
        return any(holds(item, env) for item in body)
    if form == "not":
        return not holds(body, env)
    if form in ("exists", "absent"):
        try:
            return env.exists(body) == (form == "exists")
        except WardenError:
            return False
    text = env.read_text(body["path"])
    if text is None:
        return False
    if "equals" in body:
        return text == body["equals"]
    return body["contains"] in text


def conjoin(*predicates: dict | None) -> dict:
    """`all` of the given predicates, flattened; the empty conjunction always holds."""
    parts: list[dict] = []
    for predicate in predicates:
        if predicate is None:
            continue
        parts.extend(predicate["all"] if "all" in predicate else [predicate])
    return parts[0] if len(parts) == 1 else {"all": parts}
