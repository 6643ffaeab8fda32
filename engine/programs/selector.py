"""The selector: which stored program, if any, serves a new goal, and with which parameters.

Two steps. The corpus's full-text index narrows thousands of programs to the few whose
words the goal shares (`match_query` builds that query); then each candidate's goal
template must bind the goal exactly (`select`), so lexical rank never picks a program by
itself: it only orders the ones that match.
"""

from __future__ import annotations

import re

from engine.programs.program import Program

_WORD = re.compile(r"[^\W_]+")  # letters and digits, as FTS5's unicode61 tokenizer splits text


def match_query(goal: str) -> str | None:
    """An FTS5 query matching any word of the goal, or None when it has none.

    Each word is a quoted string joined by OR, so nothing a person typed (quotes, `*`,
    `NEAR`, `AND`, `-`, parentheses, column filters) is read as query syntax.
    """
    words = dict.fromkeys(word.lower() for word in _WORD.findall(goal))  # lower, as the index folds case
    if not words:
        return None
    return " OR ".join('"' + word.replace('"', '""') + '"' for word in words)


def binds(program: Program, params: dict[str, str] | None) -> bool:
    """Whether a template's binding gives every declared parameter a non-blank value."""
    return params is not None and all(str(params.get(name, "")).strip() for name in program.params)


def select(goal: str, programs: list[Program]) -> tuple[Program, dict[str, str]] | None:
    """The most specific program whose goal template binds every parameter it declares, with them.

    Most specific is most literal characters in the template; among equals, the first in
    `programs` wins (the corpus's candidates come best BM25 rank first).
    """
    best: tuple[int, Program, dict[str, str]] | None = None
    for program in programs:
        params = program.bind(goal)
        if params is None or not binds(program, params):
            continue
        literal = sum(len(part) for part in program.template.literals)
        if best is None or literal > best[0]:
            best = (literal, program, params)
    return (best[1], best[2]) if best else None
