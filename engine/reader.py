"""Reading a home's records: the queries the runtime and the console share.

`Records` is what both answer with. `Reader` is a read-only view on a connection of its
own: the console reads through one, on its own event loop, so following events and
fetching the rows they changed never waits behind the engine's work.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

from engine.events.bus import EventBus, Recorded
from engine.gate.approvals import Approval, ApprovalBook
from engine.journal.journal import Journal, UndoError
from engine.journal.receipt import Receipt
from engine.programs.corpus import Corpus
from engine.programs.program import Program
from engine.store import Store
from engine.tasks.queue import TaskQueue
from engine.tasks.task import Task


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

    async def receipt(self, receipt_id: str) -> Receipt:
        if self.journal is None:
            raise UndoError("recovery is switched off: there are no receipts")
        return await self.journal.get(receipt_id)

    async def receipts(self, limit: int = 200) -> list[Receipt]:
        return await self.journal.receipts(limit) if self.journal else []

    async def programs(self) -> list[Program]:
        return await self.corpus.all()

    async def program(self, program_id: str) -> Program | None:
        return await self.corpus.get(program_id)


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

    def tail(self, after: int | None = None) -> AsyncIterator[Recorded]:
        """Every event written after `after` (default: from now on), by any process, in order."""
        return self.bus.tail(after)

    async def close(self) -> None:
        await self._store.close()
