"""Programs in a few words: how the console and the command line print predicates and actions."""

from __future__ import annotations


def describe(predicate: dict) -> str:
    """A predicate in a few words, as a graph prints it under a state."""
    (form, body), = predicate.items()
    if form in ("all", "any"):
        joiner = " and " if form == "all" else " or "
        return joiner.join(describe(part) for part in body) if body else "always"
    if form == "not":
        return f"not ({describe(body)})"
    if form == "text":
        relation = "=" if "equals" in body else "∋"
        value = body.get("equals", body.get("contains", ""))
        shown = value if len(value) <= 18 else value[:17] + "…"
        return f"{body['path']} {relation} {shown!r}"
    return f"{form} {body}"


def target(args: dict) -> str:
    """What an action acts on, in a few characters: its path, its move, or its command."""
    if "src" in args and "dst" in args:
        return f"{args['src']} → {args['dst']}"
    for key in ("path", "command", "url", "selector"):
        if key in args:
            value = str(args[key])
            return value if len(value) <= 40 else value[:39] + "…"
    return ""
