"""Accept or discard a program: the confirmation names the program, why it waits, and what the decision does."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from textual.content import Content

from app.screens.confirm import ConfirmScreen
from engine.programs.program import Program
from engine.visible import visible

Verb = Literal["accept", "discard"]


def decision_lines(program: Program, verb: Verb, file: Path) -> list[Content]:
    """What the person is about to decide: which program, why it waits, and what the decision does."""
    how = str(program.verification.get("how") or "no reason was recorded")
    why = "why it is unverified" if program.status == "unverified" else f"how it was {program.status}"
    lines = [
        Content.from_markup("[b]id[/b]     $id", id=visible(program.id)),
        Content.from_markup("[b]goal[/b]   $goal", goal=visible(program.goal_template)),
        Content.from_markup("[b]status[/b] $status", status=visible(program.status)),
        Content.from_markup("[b]$why[/b]: $how", why=visible(why), how=visible(how)),
        Content(""),
    ]
    if verb == "accept":
        lines.append(Content.from_markup(
            "Accepting serves it from now on: a task whose goal fits its template replays it "
            "(each step still passes the gate and leaves a receipt)."))
    else:
        lines.append(Content.from_markup(
            "Discarding forgets it: it is deleted from the database and its file [b]$file[/b] is removed.",
            file=visible(str(file))))
    return lines


class ProgramDecisionScreen(ConfirmScreen):
    """Dismissed with True when the person confirms, False when they cancel."""

    def __init__(self, program: Program, verb: Verb, file: Path) -> None:
        super().__init__(f"{verb.capitalize()} program {visible(program.id)}?", decision_lines(program, verb, file),
                         verb=verb, danger=verb == "discard")
        self.program = program
