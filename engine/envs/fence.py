"""An environment's effect fence: steps act in an environment side by side, an undo acts there alone.

A step holds its environment's fence, shared, from the snapshot it takes before its effect until its
receipt is written (`acting`). An undo holds it alone from its checks to its end (`alone`). Without
it an undo could restore paths a running call was changing, report `reversed`, and see the call put
the undone content back when it finished (a confined command applying its overlay layer), or restore
them between a call's snapshot and its receipt, so that undoing that receipt later put back the state
the first undo had removed.

The fence is an `flock` on `$WARDEN_HOME/fences/env-<hash of the identity>.lock`, so it holds across
the processes sharing a home (a worker and a console) and goes with the process that held it. A step
waits for an undo (undos are short); an undo waits a little for the steps in flight, then refuses
(`Busy`) rather than wait out a long command. A process stopped while holding the fence holds up
that environment's undos (or, stopped inside an undo, its steps) until it is killed or woken.
"""

from __future__ import annotations

import asyncio
import fcntl
import hashlib
import os
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from engine.errors import WardenError

PATIENCE_S = 2.0
_POLL_S = (0.002, 0.1)


class Busy(WardenError):
    """A step is acting in the environment now, so an undo there was not started."""


class EnvironmentFence:
    def __init__(self, folder: Path, patience: float = PATIENCE_S) -> None:
        self._folder = folder
        self.patience = patience

    @asynccontextmanager
    async def acting(self, identity: str) -> AsyncIterator[None]:
        """A step acts in `identity` inside, beside other steps; it waits while an undo acts there."""
        handle = await asyncio.to_thread(self._open, identity)
        try:
            await _lock(handle, fcntl.LOCK_SH, None)
            yield
        finally:
            os.close(handle)  # closing the only descriptor releases the lock

    @asynccontextmanager
    async def alone(self, identity: str) -> AsyncIterator[None]:
        """Act in `identity` inside with no step acting there; `Busy` (nothing done) when steps still act
        after `patience` seconds."""
        handle = await asyncio.to_thread(self._open, identity)
        try:
            if not await _lock(handle, fcntl.LOCK_EX, time.monotonic() + self.patience):
                raise Busy(f"a step is acting in {identity} now; try again once it has finished")
            yield
        finally:
            os.close(handle)

    def _open(self, identity: str) -> int:
        self._folder.mkdir(parents=True, exist_ok=True)
        name = "env-" + hashlib.sha256(identity.encode("utf-8", "surrogatepass")).hexdigest()[:16] + ".lock"
        return os.open(self._folder / name, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)


async def _lock(handle: int, kind: int, deadline: float | None) -> bool:
    """Take the lock, polling without blocking the loop; False once `deadline` (monotonic) has passed."""
    wait = _POLL_S[0]
    while True:
        try:
            fcntl.flock(handle, kind | fcntl.LOCK_NB)
            return True
        except BlockingIOError:
            if deadline is not None and time.monotonic() >= deadline:
                return False
            await asyncio.sleep(wait)
            wait = min(wait * 2, _POLL_S[1])
