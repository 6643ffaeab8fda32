"""The selector: which stored program, if any, serves a new goal, and with which parameters."""

from __future__ import annotations

from engine.programs.program import Program


def select(goal: str, programs: list[Program]) -> tuple[Program, dict[str, str]] | None:
    """The most specific program whose goal template matches the goal, with its bound params."""
    matches = []
    for program in programs:
        params = program.bind(goal)
        if params is not None:
            literal = len(program.goal_template) - sum(len(name) + 2 for name in program.params)
            matches.append((literal, program, params))
    if not matches:
        return None
    _, program, params = max(matches, key=lambda match: match[0])
    return program, params
