"""Undoing a whole task: its receipts newest first, stopping at the first one that cannot be undone.

Undoing an earlier effect while a later one stays would leave a state no run ever produced, so the
walk never skips past an effect it cannot reverse: it stops there and says why. Receipts already
undone, the audit records of calls the gate blocked (they never ran), and the receipts undos wrote of
themselves are passed over.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass

from engine.journal.journal import UndoError
from engine.journal.receipt import Receipt, Reversal


@dataclass(frozen=True)
class Stop:
    """Where the walk stopped: the receipt, and why it could not be undone."""

    receipt_id: str
    reason: str

    def as_json(self) -> dict:
        return {"receipt_id": self.receipt_id, "reason": self.reason}


@dataclass(frozen=True)
class TaskUndo:
    """What undoing the task did (or, from `plan`, would do): the receipts undone in order, and any stop."""

    task_id: str
    undone: tuple[str, ...] = ()
    stopped_at: Stop | None = None

    @property
    def ok(self) -> bool:
        return self.stopped_at is None

    def as_json(self) -> dict:
        return {"task_id": self.task_id, "ok": self.ok, "undone": list(self.undone),
                "stopped_at": self.stopped_at.as_json() if self.stopped_at else None}


def newest_first(receipts: Sequence[Receipt]) -> list[Receipt]:
    return sorted(receipts, key=lambda receipt: (receipt.step_idx if receipt.step_idx is not None else -1,
                                                 receipt.created_at), reverse=True)


def static_stop(receipt: Receipt) -> str | None:
    """Why this receipt stops the walk before anything is tried, or None when it can be undone or passed over."""
    if receipt.reversal is Reversal.REVERSIBLE:
        return None if receipt.snapshot_path else "it has no snapshot"
    if receipt.reversal is Reversal.AUDIT_ONLY:
        return f"{receipt.summary}: audit only, what it changed cannot be put back"
    if receipt.reversal is Reversal.COMPENSABLE:
        return None if receipt.compensation else f"{receipt.summary}: compensable, but no compensation was recorded"
    if receipt.reversal is Reversal.IRRECOVERABLE:
        return f"{receipt.summary}: irrecoverable"
    return None


def plan(task_id: str, receipts: Sequence[Receipt], blocked: set[str]) -> tuple[list[Receipt], TaskUndo]:
    """The receipts an undo of the task would try, newest first, and the result if none of them conflicts."""
    tried: list[Receipt] = []
    for receipt in newest_first(receipts):
        if receipt.reversal is Reversal.REVERSED or receipt.id in blocked or receipt.undoes is not None:
            continue
        reason = static_stop(receipt)
        if reason is not None:
            return tried, TaskUndo(task_id, tuple(r.id for r in tried), Stop(receipt.id, reason))
        tried.append(receipt)
    return tried, TaskUndo(task_id, tuple(r.id for r in tried))


async def undo_task(task_id: str, receipts: Sequence[Receipt], blocked: set[str],
                    undo: Callable[[str], Awaitable[Receipt]]) -> TaskUndo:
    """Undo the planned receipts one by one; a refusal (a later change to the same paths) stops the walk."""
    tried, planned = plan(task_id, receipts, blocked)
    undone: list[str] = []
    for receipt in tried:
        try:
            await undo(receipt.id)
        except UndoError as exc:
            return TaskUndo(task_id, tuple(undone), Stop(receipt.id, str(exc)))
        undone.append(receipt.id)
    return TaskUndo(task_id, tuple(undone), planned.stopped_at)
