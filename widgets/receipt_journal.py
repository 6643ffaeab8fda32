"""The journal pane: one receipt per effect, newest first, with when it happened, its tier and whether it
can still be undone. It pages through the database: every receipt is reachable, and the subtitle counts
them all."""

from __future__ import annotations

import time
from dataclasses import dataclass

from textual.content import Content
from textual.message import Message

from engine.journal.receipt import Receipt, Reversal
from engine.reader import Records
from engine.tier import Tier
from widgets.record_rows import Column, Row
from widgets.record_table import RecordTable
from widgets.record_text import shown
from widgets.record_time import clock

REVERSAL = {
    Reversal.REVERSIBLE: "[$success]reversible[/]",
    Reversal.COMPENSABLE: "[$warning]compensable[/]",
    Reversal.AUDIT_ONLY: "[$text-muted]audit only[/]",
    Reversal.REVERSING: "[$warning]↺ undoing[/]",
    Reversal.REVERSED: "[$accent]↺ reversed[/]",
    Reversal.IRRECOVERABLE: "[$error]irrecoverable[/]",
}
REVERSAL_CELLS = {reversal: Content.from_markup(markup) for reversal, markup in REVERSAL.items()}
TIER = {Tier.LOCAL_REVERSIBLE: "local", Tier.RUNTIME_COMPENSABLE: "runtime", Tier.EXTERNALLY_IRREVERSIBLE: "external"}


def _reversal(receipt: Receipt) -> Content:
    """Whether the receipt can be undone; a compensable one says until when its compensator can still act."""
    compensation = receipt.compensation
    if receipt.reversal is not Reversal.COMPENSABLE or compensation is None:
        return REVERSAL_CELLS[receipt.reversal]
    until = time.strftime("%H:%M", time.localtime(compensation.deadline))
    if compensation.deadline <= time.time():
        return Content.styled(f"closed {until}", "$text-muted")
    return Content.styled(f"until {until}", "$text-warning")


class ReceiptJournal(RecordTable):
    COLUMNS = (
        Column("receipt", 12),
        Column("time", 8),
        Column("reversal", 13),
        Column("tier", 8, shown_from=100),
        Column("effect", least=12),
        Column("task", 10, shown_from=80),
    )
    EMPTY = "no effects yet"
    NOUNS = ("receipt", "receipts")
    PAGED = True

    @dataclass
    class UndoRequested(Message):
        """The operator asked to undo the highlighted receipt (`force`: even past a later unknown change)."""

        receipt_id: str
        force: bool = False

    def request_undo(self, force: bool = False) -> bool:
        return self.request(lambda receipt_id: self.UndoRequested(receipt_id, force))

    def update_receipt(self, receipt: Receipt, new: bool = False) -> None:
        """The receipt changed (`new`: it was just written); only its line is redrawn."""
        self.update_row(self.row_of(receipt), new)

    async def fetch_page(self, records: Records, offset: int, limit: int, text: str) -> tuple[list[Row], int]:
        receipts, total = await records.receipt_page(offset, limit, text)
        return [self.row_of(receipt) for receipt in receipts], total

    async def fetch_place(self, records: Records, key: str, text: str) -> int | None:
        return await records.receipt_place(key, text)

    async def fetch_count(self, records: Records, text: str) -> int:
        return await records.receipt_count(text)

    def row_of(self, receipt: Receipt) -> Row:
        return Row(receipt.id, self.cells(receipt), receipt.created_at)

    @staticmethod
    def cells(receipt: Receipt) -> tuple[Content, ...]:
        return (
            shown(receipt.id),
            Content(clock(receipt.created_at)),
            _reversal(receipt),
            Content(TIER.get(receipt.tier, receipt.tier.value)),
            shown(receipt.summary),
            shown(receipt.task_id or ""),
        )
