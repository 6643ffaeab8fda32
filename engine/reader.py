"""Reading a home's records: the queries the runtime and the console share.

`Records` is what both answer with. `Reader` is a read-only view on a connection of its
own: the console reads through one, on its own event loop, so following events and
fetching the rows they changed never waits behind the engine's work.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

from engine.events.bus import EventBus, Recorded
from engine.gate.approvals import Approval, ApprovalBook
from engine.gate.classifier import Classifier
from engine.gate.explain import ApprovalDetail, explain
from engine.gate.policy import Policy
from engine.journal.diff import (ReceiptDetail, conflicts, paths_of, proposed, receipt_changes, snapshot_contents,
                                 snapshot_state, workspace_root)
from engine.journal.journal import Journal, UndoError
from engine.journal.receipt import Receipt, Reversal
from engine.programs.corpus import Corpus
from engine.programs.detail import ProgramDetail
from engine.programs.program import Program
from engine.store import Store, StoreError
from engine.tasks.queue import TaskQueue
from engine.tasks.task import Task
from engine.tasks.timeline import TaskDetail, build as build_timeline
from engine.tier import Tier


class Records:
    """Reads over `queue`, `approvals`, `journal` (None when recovery is off) and `corpus`."""

    queue: TaskQueue
    approvals: ApprovalBook
    journal: Journal | None
    corpus: Corpus

    async def task(self, task_id: str) -> Task:
        return await self.queue.get(task_id)

    async def tasks(self) -> list[Task]:
        return await self.queue.all()

    async def pending_approvals(self) -> list[Approval]:
        return await self.approvals.pending()

    def _receipts(self) -> Journal:
        """The journal; `UndoError` when recovery is off and there is none."""
        if self.journal is None:
            raise UndoError("recovery is switched off: there are no receipts")
        return self.journal

    async def receipt(self, receipt_id: str) -> Receipt:
        return await self._receipts().get(receipt_id)

    async def receipts(self, limit: int = 200) -> list[Receipt]:
        return await self.journal.receipts(limit) if self.journal else []

    async def task_page(self, offset: int, limit: int, text: str = "") -> tuple[list[Task], int]:
        """A page of tasks newest first, and how many match `text` in all: the console pages through these."""
        return await self.queue.page(offset, limit, text)

    async def task_place(self, task_id: str, text: str = "") -> int | None:
        return await self.queue.place(task_id, text)

    async def task_count(self, text: str = "") -> int:
        return await self.queue.count(text)

    async def listed_tasks(self, task_ids: list[str]) -> list[Task]:
        """These tasks as a page lists them (with when each started), read in one query."""
        return await self.queue.listed(task_ids)

    async def receipt_page(self, offset: int, limit: int, text: str = "") -> tuple[list[Receipt], int]:
        """A page of receipts newest first, and how many match `text` in all (none when recovery is off)."""
        return await self.journal.page(offset, limit, text) if self.journal else ([], 0)

    async def receipt_place(self, receipt_id: str, text: str = "") -> int | None:
        return await self.journal.place(receipt_id, text) if self.journal else None

    async def receipt_count(self, text: str = "") -> int:
        return await self.journal.count(text) if self.journal else 0

    async def listed_receipts(self, receipt_ids: list[str]) -> list[Receipt]:
        return await self.journal.listed(receipt_ids) if self.journal else []

    async def programs(self) -> list[Program]:
        return await self.corpus.all()

    async def program(self, program_id: str) -> Program | None:
        return await self.corpus.get(program_id)

    bus: EventBus

    async def approval_detail(self, approval_id: str, policy: Policy) -> ApprovalDetail:
        """An approval rated again under `policy`, with what its call would change in the files now."""
        approval = await self.approvals.get(approval_id)
        task = await self.queue.get(approval.task_id)
        step = await self.queue.step(approval.task_id, approval.step_idx)
        explanation = explain(approval.call, Classifier(policy), Tier(approval.tier),
                              task.spec.env.get("allowed_origins") or ())
        root = workspace_root(task.env)
        changes = await asyncio.to_thread(proposed, root, approval.call) if root is not None else ()
        return ApprovalDetail(approval, task.goal, explanation, changes, step["status"] if step else None)

    async def receipt_detail(self, receipt_id: str) -> ReceiptDetail:
        """A receipt with its change, its snapshot's contents, its step, and later receipts an undo would meet."""
        journal = self._receipts()
        receipt = await journal.get(receipt_id)
        task = await self.queue.get(receipt.task_id) if receipt.task_id else None
        step = await self.queue.step(task.id, receipt.step_idx) if task and receipt.step_idx is not None else None
        later = await journal.later(receipt) if receipt.reversal is Reversal.REVERSIBLE else []

        def look() -> ReceiptDetail:
            state = snapshot_state(receipt)
            mine = paths_of(receipt)
            return ReceiptDetail(
                receipt, task.goal if task else None, step["status"] if step else None, state,
                snapshot_contents(Path(receipt.snapshot_path)) if state == "kept" and receipt.snapshot_path else (),
                receipt_changes(receipt, workspace_root(receipt.env)),
                conflicts(mine, ((other, paths_of(other)) for other in later)) if mine is not None else ())

        return await asyncio.to_thread(look)

    async def task_detail(self, task_id: str) -> TaskDetail:
        """A task's event timeline and budget use."""
        task = await self.queue.get(task_id)
        return build_timeline(task, await self.bus.recorded(task_id), await self.queue.spent(task_id),
                              await self.queue.budget(task))

    async def program_detail(self, program_id: str) -> ProgramDetail | None:
        """A stored program with its replay statistics; None when it is no longer stored."""
        program = await self.corpus.get(program_id)
        return ProgramDetail(program, await self.corpus.stats(program_id)) if program is not None else None


class Reader(Records):
    def __init__(self, home: Path, store: Store) -> None:
        self._store = store
        self.bus = EventBus(store)
        self.queue = TaskQueue(store)
        self.approvals = ApprovalBook(store, 0)
        self.journal = Journal(store, home / "snapshots")
        self.corpus = Corpus(store, home / "programs")

    @classmethod
    async def open(cls, home: Path) -> "Reader":
        return cls(home, await Store.open_readonly(home / "warden.db"))

    def nudge(self) -> None:
        """Something was just written: tails look now instead of at their next poll."""
        self.bus.nudge()

    async def last_event_seq(self) -> int:
        return await self.bus.last_seq()

    async def problem(self) -> str | None:
        """What is wrong with the database's file, in one line (damaged pages: SQLite's `quick_check`), or None.
        A damaged table reads as an empty one in places, so the console asks once, and says so first."""
        try:
            rows = await self._store.fetchall("PRAGMA quick_check(1)")
        except StoreError as exc:
            return str(exc)
        found = str(rows[0][0]) if rows else "ok"
        if found == "ok":
            return None
        said = "; ".join(part.strip() for part in found.splitlines() if part.strip() and not part.startswith("***"))
        return f"database {self._store.path} has damaged pages ({said or found})"

    def tail(self, after: int | None = None) -> AsyncIterator[Recorded]:
        """Every event written after `after` (default: from now on), by any process, in order."""
        return self.bus.tail(after)

    async def close(self) -> None:
        await self._store.close()
