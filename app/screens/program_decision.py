"""Accept or discard a program: a modal that names what is decided, confirmed with Enter/y, cancelled with Escape/n."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Static

from engine.programs.program import Program

Verb = Literal["accept", "discard"]


def decision_lines(program: Program, verb: Verb, file: Path) -> list[Content]:
    """What the person is about to decide: which program, why it waits, and what the decision does."""
    how = str(program.verification.get("how") or "no reason was recorded")
    why = "why it is unverified" if program.status == "unverified" else f"how it was {program.status}"
    lines = [
        Content.from_markup("[b]id[/b]     $id", id=program.id),
        Content.from_markup("[b]goal[/b]   $goal", goal=program.goal_template),
        Content.from_markup("[b]status[/b] $status", status=program.status),
        Content.from_markup("[b]$why[/b]: $how", why=why, how=how),
        Content(""),
    ]
    if verb == "accept":
        lines.append(Content.from_markup(
            "Accepting serves it from now on: a task whose goal fits its template replays it "
            "(each step still passes the gate and leaves a receipt)."))
    else:
        lines.append(Content.from_markup(
            "Discarding forgets it: it is deleted from the database and its file [b]$file[/b] is removed.", file=str(file)))
    lines += [Content(""), Content.from_markup("[$text-muted]enter/y confirm · escape/n cancel[/]")]
    return lines


class ProgramDecisionScreen(ModalScreen[bool]):
    """Dismissed with True when the person confirms, False when they cancel."""

    BINDINGS = [
        Binding("enter,y", "confirm", "Confirm", id="program_decision.confirm"),
        Binding("escape,n", "cancel", "Cancel", id="program_decision.cancel"),
    ]
    DEFAULT_CSS = """
    ProgramDecisionScreen { align: center middle; }
    ProgramDecisionScreen > Vertical {
        width: 80%; height: auto; max-height: 80%; border: round $warning; background: $surface; padding: 1 2;
    }
    ProgramDecisionScreen.-discard > Vertical { border: round $error; }
    """

    def __init__(self, program: Program, verb: Verb, file: Path) -> None:
        super().__init__(classes=f"-{verb}")
        self.program = program
        self.verb = verb
        self.file = file

    def compose(self) -> ComposeResult:
        with Vertical() as box:
            box.border_title = f"{self.verb.capitalize()} program {self.program.id}?"
            yield Static(Content("\n").join(decision_lines(self.program, self.verb, self.file)), id="decision")

    def action_confirm(self) -> None:
        self.dismiss(True)

    def action_cancel(self) -> None:
        self.dismiss(False)
