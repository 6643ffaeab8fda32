"""Programs in a few words: how the console and the command line print predicates and actions."""

from __future__ import annotations

from typing import Any


def describe(predicate: dict) -> str:
    """A predicate in a few words, as a graph prints it under a state."""
    (form, body), = predicate.items()
    if form in ("all", "any"):
        joiner = " and " if form == "all" else " or "
        return joiner.join(describe(part) for part in body) if body else "always"
    if form == "not":
        return f"not ({describe(body)})"
    if isinstance(body, dict) and ("equals" in body or "contains" in body):
        relation = "=" if "equals" in body else "∋"
        value = _short(str(body.get("equals", body.get("contains", ""))), 18)
        if "path" in body:
            return f"{body['path']} {relation} {value!r}"
        where = f" {element(body['target'])}" if "target" in body else ""
        return f"{form}{where} {relation} {value!r}"
    if form in ("exists", "absent") and isinstance(body, dict):
        return f"{form} {element(body)}"
    return f"{form} {body}"


def element(target: Any) -> str:
    """A screen target as a person reads it: `button "Save"`, `label "Email"`, `at (120, 340)`."""
    if not isinstance(target, dict):
        return str(target)
    if "x" in target and "y" in target:
        return f"at ({target['x']}, {target['y']})"
    if "role" in target:
        return f'{target["role"]} "{target["name"]}"' if "name" in target else str(target["role"])
    return " ".join(f'{kind} "{_short(str(value), 40)}"' for kind, value in target.items())


def target(args: dict) -> str:
    """What an action acts on, in a few characters: its path, its move, its element or its command."""
    if "src" in args and "dst" in args:
        return f"{args['src']} → {args['dst']}"
    if isinstance(args.get("target"), dict):
        return element(args["target"])
    for key in ("path", "command", "url", "selector"):
        if key in args:
            return _short(str(args[key]), 40)
    return ""


def _short(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"
