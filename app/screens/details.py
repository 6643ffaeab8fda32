"""Which detail screen a pane's row opens: Enter (or a click on the highlighted row) on a task, an
approval, a receipt or a program shows that record in full."""

from __future__ import annotations

from app.screens.approval_detail import ApprovalDetailScreen
from app.screens.program_detail import ProgramDetailScreen
from app.screens.receipt_detail import ReceiptDetailScreen
from app.screens.record_detail import DetailScreen
from app.screens.task_detail import TaskDetailScreen
from widgets.approval_list import ApprovalList
from widgets.program_list import ProgramList
from widgets.receipt_journal import ReceiptJournal
from widgets.record_table import RecordTable
from widgets.task_queue import TaskQueue

SCREENS: tuple[tuple[type[RecordTable], type[DetailScreen]], ...] = (
    (TaskQueue, TaskDetailScreen),
    (ApprovalList, ApprovalDetailScreen),
    (ReceiptJournal, ReceiptDetailScreen),
    (ProgramList, ProgramDetailScreen),
)


def detail_screen(table: RecordTable, key: str | None) -> DetailScreen | None:
    """The detail screen of the record keyed `key` in `table`; None for a table without one."""
    if key is None:
        return None
    for pane, screen in SCREENS:
        if isinstance(table, pane):
            return screen(key)
    return None
