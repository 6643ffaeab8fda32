"""The program list: every stored program, the family it serves, and how it was verified."""

from __future__ import annotations

from engine.programs.program import Program
from widgets.record_table import RecordTable


VERIFICATION = {"verified": "✔", "accepted": "✔ accepted", "unverified": "? unverified", "skipped": "– skipped"}


class ProgramList(RecordTable):
    COLUMNS = ("goal template", "states", "verified")
    EMPTY = "no programs yet"
    KEEP_SELECTION = True

    def show_programs(self, programs: list[Program]) -> None:
        self.show((program.id, self.cells(program), None) for program in programs)

    def update_program(self, program: Program) -> None:
        self.upsert(program.id, self.cells(program))

    @staticmethod
    def cells(program: Program) -> tuple:
        return (program.goal_template, str(len(program.states)), VERIFICATION.get(program.status, program.status))
