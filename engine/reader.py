"""A read-only view of a home's database on a connection of its own.

The console reads through one, on its own event loop, so following events and fetching
the rows they changed never waits behind the engine's work; the same queries as the
runtime's, since it is built from the same parts.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

from engine.events.bus import EventBus, Recorded
from engine.gate.approvals import Approval, ApprovalBook
from engine.journal.journal import Journal
from engine.journal.receipt import Receipt
from engine.programs.corpus import Corpus
from engine.programs.program import Program
from engine.store import Store
from engine.tasks.queue import TaskQueue
from engine.tasks.task import Task


class Reader:
    def __init__(self, home: Path, store: Store) -> None:
        self._store = store
        self.bus = EventBus(store)
        self._queue = TaskQueue(store)
        self._approvals = ApprovalBook(store, 0)
        self._journal = Journal(store, home / "snapshots")
        self._corpus = Corpus(store, home / "programs")

    @classmethod
    async def open(cls, home: Path) -> "Reader":
        return cls(home, await Store.open_readonly(home / "warden.db"))

    def nudge(self) -> None:
        """Something was just written: tails look now instead of at their next poll."""
        self.bus.nudge()

    async def last_event_seq(self) -> int:
        return await self.bus.last_seq()

    def tail(self, after: int | None = None) -> AsyncIterator[Recorded]:
        return self.bus.tail(after)

    async def task(self, task_id: str) -> Task:
        return await self._queue.get(task_id)

    async def tasks(self) -> list[Task]:
        return await self._queue.all()

    async def pending_approvals(self) -> list[Approval]:
        return await self._approvals.pending()

    async def receipt(self, receipt_id: str) -> Receipt:
        return await self._journal.get(receipt_id)

    async def receipts(self, limit: int = 200) -> list[Receipt]:
        return await self._journal.receipts(limit)

    async def program(self, program_id: str) -> Program | None:
        return await self._corpus.get(program_id)

    async def programs(self) -> list[Program]:
        return await self._corpus.all()

    async def close(self) -> None:
        await self._store.close()
