"""The text filter the console's panes share: a row matches when one of its columns contains the text.

SQLite's `lower` folds ASCII only, so the match ignores case for ASCII letters and is exact for others.
"""

from __future__ import annotations


def containing(text: str, columns: tuple[str, ...]) -> tuple[str, tuple[str, ...]]:
    """A condition, and its parameters, true for rows where one of `columns` contains `text` in any case;
    true for every row when there is no text."""
    if not text:
        return "1", ()
    joined = " || ' ' || ".join(f"coalesce({column}, '')" for column in columns)
    return f"instr(lower({joined}), lower(?)) > 0", (text,)
