"""A runner's lease on a task: a heartbeat while it works, and a stop the moment it cannot beat.

The heartbeat runs as its own asyncio task; when a beat cannot be written (the database
is busy or broken) or the task is no longer running under this runner (cancelled, or
reclaimed after a stall), the lease is lost and `ensure` stops the next step.
"""

from __future__ import annotations

import asyncio
import contextlib

from engine.errors import WardenError, one_line
from engine.tasks.queue import TaskQueue


class LeaseLost(WardenError):
    """This runner may no longer act for the task."""


class Lease:
    def __init__(self, queue: TaskQueue, task_id: str, runner: str, seconds: float) -> None:
        self._queue = queue
        self._task_id = task_id
        self._runner = runner
        self._seconds = seconds
        self._beating: asyncio.Task | None = None
        self.lost: str | None = None

    def start(self) -> None:
        self._beating = asyncio.create_task(self._beat())

    async def stop(self) -> None:
        if self._beating is not None:
            self._beating.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._beating

    def ensure(self) -> None:
        if self.lost is not None:
            raise LeaseLost(f"task {self._task_id}: {self.lost}")

    async def _beat(self) -> None:
        while True:
            await asyncio.sleep(self._seconds / 3)
            try:
                held = await self._queue.beat(self._task_id, self._runner)
            except Exception as exc:
                self.lost = f"its heartbeat could not be written ({one_line(exc)})"
                return
            if not held:
                self.lost = "it is no longer running under this runner"
                return
