"""The fence around a step's side effect: a per-task file lock, and the claim checked inside it.

The claim's epoch fences every database write, but not the effect between them: a runner
stopped after writing its step ahead, and reclaimed, would still act when it woke. So the
effect runs holding the task's lock, after checking that the claim still holds; a runner
that takes the task over settles an interrupted step holding the same lock. Either the
stale runner checked before the takeover and its effect is complete (and visible) before
the new runner looks, or it checked after and acts no more. Killing a process frees its
lock; a process stopped while holding it stops the task's effects with it, never doubles them.
"""

from __future__ import annotations

import asyncio
import fcntl
import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from engine.tasks.claim import Claim
from engine.tasks.queue import TaskQueue

_POLL_S = (0.002, 0.1)


class EffectFence:
    def __init__(self, folder: Path, queue: TaskQueue) -> None:
        self._folder = folder
        self._queue = queue

    @asynccontextmanager
    async def hold(self, claim: Claim) -> AsyncIterator[None]:
        """Act for `claim` inside; LeaseLost (and nothing run) when another runner has taken the task."""
        handle = await asyncio.to_thread(self._open, claim.task_id)
        try:
            wait = _POLL_S[0]
            while True:
                try:
                    fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    break
                except BlockingIOError:
                    await asyncio.sleep(wait)
                    wait = min(wait * 2, _POLL_S[1])
            await self._queue.check(claim)
            yield
        finally:
            os.close(handle)  # closing the only descriptor releases the lock

    def _open(self, task_id: str) -> int:
        self._folder.mkdir(parents=True, exist_ok=True)
        return os.open(self._folder / f"{task_id}.lock", os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
