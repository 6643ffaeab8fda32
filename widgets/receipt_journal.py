"""The journal pane: one receipt per effect, with its tier and whether it can still be undone."""

from __future__ import annotations

from dataclasses import dataclass

from textual.content import Content
from textual.message import Message

from engine.journal.receipt import Receipt, Reversal
from widgets.record_table import RecordTable


REVERSAL = {
    Reversal.REVERSIBLE: "[$success]reversible[/]",
    Reversal.COMPENSABLE: "[$warning]compensable[/]",
    Reversal.AUDIT_ONLY: "[$text-muted]audit only[/]",
    Reversal.REVERSING: "[$warning]↺ undoing[/]",
    Reversal.REVERSED: "[$accent]↺ reversed[/]",
    Reversal.IRRECOVERABLE: "[$error]irrecoverable[/]",
}


class ReceiptJournal(RecordTable):
    COLUMNS = ("receipt", ("reversal", 13), "effect", "tier", "task")
    EMPTY = "no effects yet"
    NEWEST_FIRST = True
    LIMIT = 200

    @dataclass
    class UndoRequested(Message):
        """The operator asked to undo the highlighted receipt (`force`: even past a later unknown change)."""

        receipt_id: str
        force: bool = False

    def request_undo(self, force: bool = False) -> bool:
        return self.request(lambda receipt_id: self.UndoRequested(receipt_id, force))

    def show_receipts(self, receipts: list[Receipt]) -> None:
        """The newest receipts, newest first."""
        self.show((receipt.id, self.cells(receipt), receipt.created_at) for receipt in receipts)

    def update_receipt(self, receipt: Receipt) -> None:
        self.upsert(receipt.id, self.cells(receipt), receipt.created_at)

    @staticmethod
    def cells(receipt: Receipt) -> tuple:
        return (
            receipt.id,
            Content.from_markup(REVERSAL[receipt.reversal]),
            receipt.summary if len(receipt.summary) <= 44 else receipt.summary[:43] + "…",
            receipt.tier.value,
            receipt.task_id or "",
        )
