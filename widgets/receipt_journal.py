"""The journal pane: one receipt per effect, with its tier and whether it can still be undone."""

from __future__ import annotations

from textual.content import Content

from engine.journal.receipt import Receipt, Reversal
from widgets.record_table import RecordTable


REVERSAL = {
    Reversal.REVERSIBLE: "[$success]reversible[/]",
    Reversal.COMPENSABLE: "[$warning]compensable[/]",
    Reversal.AUDIT_ONLY: "[$text-muted]audit only[/]",
    Reversal.REVERSED: "[$accent]↺ reversed[/]",
    Reversal.IRRECOVERABLE: "[$error]irrecoverable[/]",
}


class ReceiptJournal(RecordTable):
    COLUMNS = ("receipt", "effect", "tier", ("reversal", 13), "task")
    EMPTY = "no effects yet"

    def show_receipts(self, receipts: list[Receipt]) -> None:
        self.show(
            (
                receipt.id,
                (
                    receipt.id,
                    receipt.summary,
                    receipt.tier.value,
                    Content.from_markup(REVERSAL[receipt.reversal]),
                    receipt.task_id or "",
                ),
            )
            for receipt in receipts
        )
