"""Goal templates ("Archive the file {file}") matched in linear time, without regular expressions.

A template alternates literal text and `{param}` holes. Matching ignores case and treats
any run of whitespace as one space; each hole takes at least one character, as few as
the literals around it allow. Literals are placed leftmost with `str.find`, the last one
anchored at the end, so a goal of any length or shape costs a few scans of it: there is
no backtracking for a hostile goal to exploit.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

PARAM = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")
GOAL_LIMIT = 4096


def _fold(text: str) -> str:
    """Whitespace runs become one space and letters lose case, keeping one character per character."""
    spaced = " ".join(text.split())
    return "".join(lower if len(lower := char.lower()) == 1 else char for char in spaced)


def _literal(part: str) -> str:
    """A literal as the folded goal spells it: any whitespace at its edges is one space."""
    text = _fold(part)
    if not text:
        return " " if part else ""
    return (" " if part[0].isspace() else "") + text + (" " if part[-1].isspace() else "")


@dataclass(frozen=True)
class GoalTemplate:
    literals: tuple[str, ...]
    names: tuple[str, ...]

    @classmethod
    def parse(cls, template: str) -> "GoalTemplate":
        literals, names, last = [], [], 0
        for hole in PARAM.finditer(template):
            literals.append(template[last : hole.start()])
            names.append(hole.group(1))
            last = hole.end()
        literals.append(template[last:])
        folded = [_literal(part) for part in literals]
        folded[0] = folded[0].lstrip()
        folded[-1] = folded[-1].rstrip()
        return cls(tuple(folded), tuple(names))

    def match(self, goal: str) -> dict[str, str] | None:
        """Each hole's text, or None when the goal is not of this family (or too long to be a goal)."""
        if len(goal) > GOAL_LIMIT:
            return None
        spaced = " ".join(goal.split())
        folded = _fold(spaced)
        if not self.names:
            return {} if folded == self.literals[0] else None
        head, tail = self.literals[0], self.literals[-1]
        if not folded.startswith(head) or not folded.endswith(tail):
            return None
        end = len(folded) - len(tail)
        values, at = [], len(head)
        for literal in self.literals[1:-1]:
            found = folded.find(literal, at + 1, end) if literal else at + 1
            if found < 0 or found > end - 1:
                return None
            values.append(spaced[at:found])
            at = found + len(literal)
        if at >= end:
            return None
        values.append(spaced[at:end])
        if any(not value.strip() for value in values):
            return None
        return {name: value.strip() for name, value in zip(self.names, values)}
