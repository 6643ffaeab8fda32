"""The program list: every stored program, the family it serves, and how it was verified."""

from __future__ import annotations

from engine.programs.program import Program
from widgets.record_table import RecordTable


class ProgramList(RecordTable):
    COLUMNS = ("goal template", "states", "verified")
    EMPTY = "no programs yet"
    KEEP_SELECTION = True

    def show_programs(self, programs: list[Program]) -> None:
        self.show(
            (
                program.id,
                (
                    program.goal_template,
                    str(len(program.states)),
                    "✔" if program.verification.get("passed") else "–",
                ),
            )
            for program in programs
        )
