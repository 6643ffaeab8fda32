"""The program list: every stored program, the family it serves, and how it was verified.

A program that could not be verified by replay waits for a person: its row says so first, and
`summary` (which the console shows as its pane's subtitle) counts the ones waiting. `a`
asks to accept the highlighted program, `x` (or delete) to discard it; the console confirms
first. `v` asks to verify it again. A program whose file holds an edit the verify gate refused
says so: what is served is not what the file says.
"""

from __future__ import annotations

from dataclasses import dataclass

from textual.binding import Binding
from textual.content import Content
from textual.message import Message
from textual.reactive import var

from engine.programs.program import Program
from widgets.record_rows import Column
from widgets.record_table import RecordTable
from widgets.record_text import shown


VERIFICATION = {
    "verified": "[$success]✔[/]",
    "accepted": "[$success]✔ accepted[/]",
    "unverified": "[$warning]? unverified[/]",
    "skipped": "[$text-muted]– skipped[/]",
}


class ProgramList(RecordTable):
    COLUMNS = (("verified", 12), Column("goal template", least=20), Column("states", 6, shown_from=44))
    """The goal template keeps at least 20 cells; the state count (the graph shows it too) only from 44."""
    EMPTY = "no programs yet"
    NOUNS = ("program", "programs")
    BINDINGS = [
        Binding("a", "accept", "Accept program", id="warden.accept_program"),
        Binding("x,delete", "discard", "Discard program", id="warden.discard_program"),
        Binding("v", "verify", "Verify again", id="warden.verify_program"),
    ]

    summary: var[str] = var("")
    """How many programs there are and how many wait for a person, e.g. `3 · 1 waiting to be accepted`."""

    @dataclass
    class AcceptRequested(Message):
        """The operator asked to accept the highlighted program (it is confirmed before anything happens)."""

        program_id: str

    @dataclass
    class DiscardRequested(Message):
        """The operator asked to discard the highlighted program (it is confirmed before anything happens)."""

        program_id: str

    @dataclass
    class VerifyRequested(Message):
        """The operator asked to run the highlighted program through the verify gate again."""

        program_id: str

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.statuses: dict[str, str] = {}

    def show_programs(self, programs: list[Program]) -> None:
        self.statuses = {program.id: program.status for program in programs}
        self.show((program.id, self.cells(program), None) for program in programs)

    def update_program(self, program: Program) -> None:
        self.statuses[program.id] = program.status
        self.upsert(program.id, self.cells(program))
        self._caption()

    def remove_row(self, key: str) -> None:
        self.statuses.pop(key, None)
        super().remove_row(key)

    @property
    def waiting(self) -> int:
        """Programs held until a person accepts them."""
        return sum(1 for status in self.statuses.values() if status == "unverified")

    def _caption(self) -> None:
        super()._caption()
        if self.row_count and self.waiting:
            self.border_subtitle = f"{self.border_subtitle} · {self.waiting} waiting to be accepted"
        self.summary = str(self.border_subtitle)

    def request_accept(self) -> bool:
        return self.request(self.AcceptRequested)

    def request_discard(self) -> bool:
        return self.request(self.DiscardRequested)

    def action_accept(self) -> None:
        if not self.request_accept():
            self.notify("Select a program first.", severity="warning")

    def action_discard(self) -> None:
        if not self.request_discard():
            self.notify("Select a program first.", severity="warning")

    def action_verify(self) -> None:
        if not self.request(self.VerifyRequested):
            self.notify("Select a program first.", severity="warning")

    @staticmethod
    def cells(program: Program) -> tuple:
        status = program.status
        verified = Content.from_markup(VERIFICATION[status]) if status in VERIFICATION else shown(status)
        if program.verification.get("file_edit"):
            verified = verified + Content.from_markup(" [$warning]✎ edit refused[/]")
        return (verified, shown(program.goal_template), str(len(program.states)))
