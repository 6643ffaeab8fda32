"""Undo as an action: every undo passes the gate and leaves a receipt of its own.

An undo is rated by the gate like any call (`journal.undo`, with the receipt it undoes, who asks
and whether forced; a compensation is rated as its compensating call). A block refuses it with
the gate's reason; an ask is approved by the person undoing, and the receipt says so. The undo's
receipt (`undoes` names the receipt undone) is audit only: it is never a later change that stands
in the way of undoing an earlier receipt, and a task's undo passes over it.

An undo acts in its environment alone (`EnvironmentFence.alone`): it waits a little for the steps acting
there, then refuses in one line, so it never restores paths a running call may still change or has
snapshotted and not yet receipted.

An undo holds the receipt's lock (`flock` on `fences/undo-<receipt>.lock`) from its claim to its end,
so a receipt left `reversing` whose lock is free was claimed by an undo that died. A restore is
resumed (a snapshot restores the same twice, and each inverse passes over work already done); a
compensation is not run again unless forced, since whether the cooperating system already acted
cannot be told from here.
"""

from __future__ import annotations

import fcntl
import os
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from engine.envs.environment import Environment
from engine.envs.fence import Busy, EnvironmentFence
from engine.gate.gate import Decision, Gate
from engine.gate.verdict import Level
from engine.journal.compensation import Compensated, Compensations
from engine.journal.journal import Journal, UndoError
from engine.journal.receipt import Receipt, Reversal, SnapshotKind
from engine.store import Store
from engine.tier import Tier
from engine.tools.call import ToolCall
from engine.tools.registry import ToolRegistry

UNDO_TOOL = "journal.undo"


class Undoer:
    """The one undo path: the console, the CLI and `undo_task` all come through `undo`."""

    def __init__(self, store: Store, journal: Journal, gate: Gate, registry: ToolRegistry,
                 env_for: Callable[[Receipt], Environment], locks: Path, fence: EnvironmentFence,
                 clock: Callable[[], float] = time.time) -> None:
        self._locks = locks
        self._fence = fence
        self._store = store
        self._journal = journal
        self._gate = gate
        self._env_for = env_for
        self.compensations = Compensations(store, gate, registry, clock)

    async def undo(self, receipt_id: str, force: bool, by: str) -> Receipt:
        """Undo the receipt (restore its snapshot, or run its compensation) and write the undo's own receipt;
        returns the undone receipt as it is now (`reversed`)."""
        receipt = await self._journal.get(receipt_id)  # an unknown id is refused before any lock file is made
        with self._held(receipt_id) as held:
            if not held:
                raise UndoError(f"receipt {receipt_id} is being undone by another process")
            try:
                async with self._fence.alone(self._env_for(receipt).identity):
                    return await self._undo(receipt_id, force, by)
            except Busy as busy:
                raise UndoError(f"receipt {receipt_id}: {busy}") from None

    async def _undo(self, receipt_id: str, force: bool, by: str) -> Receipt:
        receipt = await self._journal.get(receipt_id)
        if receipt.undoes is not None:
            raise UndoError(f"receipt {receipt_id} records an undo (of {receipt.undoes}); an undo is not undone")
        resuming = receipt.reversal is Reversal.REVERSING  # its lock was free: the undo that claimed it died
        if resuming and receipt.compensation is not None:
            compensation = receipt.compensation
            if not force:
                raise UndoError(f"receipt {receipt_id}: an earlier undo stopped while its compensation "
                                f"{compensation.call.tool} ran, so whether {compensation.noun} {compensation.key} in "
                                f"{compensation.system} is gone cannot be told; check, then force to run it again")
            await self._store.execute("UPDATE receipts SET reversal = ? WHERE id = ? AND reversal = ?",
                                      (Reversal.COMPENSABLE.value, receipt_id, Reversal.REVERSING.value))
            receipt = await self._journal.get(receipt_id)
        if receipt.reversal is Reversal.COMPENSABLE:
            compensated = await self.compensations.run(receipt, self._env_for(receipt), by)
            return await self._settle_compensated(receipt, compensated, force, by)
        call = ToolCall(UNDO_TOOL, {"receipt": receipt_id, "by": by, "force": force})
        ruling = self._gate.rule(call, Tier.LOCAL_REVERSIBLE)
        if ruling.decision is Decision.BLOCK:
            raise UndoError(f"receipt {receipt_id}: the gate blocks undoing it ({ruling.verdict.reason})")
        undone = await self._journal.undo(receipt_id, self._env_for, force, resuming)
        held = ruling.decision is Decision.ASK or ruling.verdict.level is not Level.SAFE
        approved_by = by if held else None  # a person undoing what is not safe approves it by undoing
        record = self._record(undone, ToolCall(UNDO_TOOL, {**call.args, "approved_by": approved_by}),
                              ruling.verdict.tier, f"undid {undone.id} ({undone.summary}) by restoring its snapshot"
                              + (", forced" if force else "") + (", resuming an undo that stopped" if resuming else ""))
        async with self._store.transaction() as db:
            await self._journal.write(db, record)
        return undone

    async def _settle_compensated(self, receipt: Receipt, compensated: Compensated, force: bool, by: str) -> Receipt:
        """Mark the receipt `reversed` and write the compensation's receipt, in one transaction."""
        call = ToolCall(UNDO_TOOL, {"receipt": receipt.id, "by": by, "force": force,
                                    "compensation": compensated.call.as_json(), "approved_by": compensated.approved_by})
        compensation = compensated.compensation
        summary = (f"undid {receipt.id} ({receipt.summary}) by its compensator: {compensated.call.tool} "
                   f"{compensation.noun} {compensation.key} in {compensation.system}")
        record = self._record(receipt, call, compensated.tier, summary)
        async with self._store.transaction() as db:
            await db.execute("UPDATE receipts SET reversal = ?, reversed_at = ? WHERE id = ? AND reversal = ?",
                             (Reversal.REVERSED.value, record.created_at, receipt.id, Reversal.REVERSING.value))
            await self._journal.write(db, record)
        return await self._journal.get(receipt.id)

    @contextmanager
    def _held(self, receipt_id: str) -> Iterator[bool]:
        """This receipt's undo lock, if no other undo holds it; released when the block ends (or the process dies)."""
        self._locks.mkdir(parents=True, exist_ok=True)
        handle = os.open(self._locks / f"undo-{receipt_id}.lock", os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
        try:
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                yield False
                return
            yield True
        finally:
            os.close(handle)

    @staticmethod
    def _record(undone: Receipt, call: ToolCall, tier: Tier, summary: str) -> Receipt:
        return Receipt(id=uuid.uuid4().hex[:12], task_id=undone.task_id, step_idx=None, call=call, tier=tier,
                       snapshot_kind=SnapshotKind.NONE, snapshot_path=None, reversal=Reversal.AUDIT_ONLY,
                       summary=summary, created_at=time.time(), env=undone.env, undoes=undone.id)
