"""Whether text and JSON a person hands Warden (a goal, a program file) can be stored and shown as they are.

JSON may spell a lone surrogate (`"\\ud800"`): it decodes to a Python string that no UTF-8 file, SQLite
database or terminal can hold, so it fails far from where it came in, with a traceback. Nesting thousands
deep overflows every recursive walker downstream (deepcopy, repr, a predicate's validation). Both are
refused where the data comes in, in one line that says where.
"""

from __future__ import annotations

from typing import Any

DEPTH = 64
"""Levels of nesting a program file or spec may use: far more than any real one, far less than recursion allows."""


def lone_surrogate(text: str) -> str | None:
    """The first lone surrogate in `text`, written as an escape (`\\ud800`), or None when it is all characters."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        return ascii(text[exc.start])[1:-1]
    return None


def json_problem(value: Any, depth: int = DEPTH) -> str | None:
    """What makes a decoded JSON value unfit to store, in a few words (`"nested deeper than 64 levels"`,
    `"a lone surrogate (\\udc80) in a string"`), or None. Walks without recursion, so any depth is safe."""
    pending: list[tuple[Any, int]] = [(value, 1)]
    while pending:
        item, level = pending.pop()
        if isinstance(item, str):
            bad = lone_surrogate(item)
            if bad is not None:
                return f"a lone surrogate ({bad}) in a string: it is not text"
        elif isinstance(item, (dict, list)):
            if level > depth:
                return f"nested deeper than {depth} levels"
            if isinstance(item, dict):
                pending.extend((key, level) for key in item)
                pending.extend((child, level + 1) for child in item.values())
            else:
                pending.extend((child, level + 1) for child in item)
    return None
