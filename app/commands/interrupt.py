"""Ctrl-C (SIGINT) or SIGTERM on a command that runs tasks in this process (`warden run`, `warden submit --run`):
the work is cancelled (a confined command in flight is killed with its sandbox), the tasks this process held go
back in the queue at once, not after their lease (the next runner settles a step left in flight by its evidence,
as after a crash), and the command says so in one line and exits with 128 + the signal's number."""

from __future__ import annotations

import asyncio
import signal
from collections.abc import Coroutine
from typing import Any

from app.commands.record_text import error
from engine.events.records import TaskResumed
from engine.runtime import Runtime
from engine.store import StoreError

SIGNALS = (signal.SIGINT, signal.SIGTERM)


async def until_signalled(work: Coroutine[Any, Any, None]) -> signal.Signals | None:
    """Run `work` to its end; SIGINT or SIGTERM cancels it. The signal that stopped it, or None."""
    loop = asyncio.get_running_loop()
    job = asyncio.ensure_future(work)
    stopped: list[signal.Signals] = []

    def stop(signum: int) -> None:
        if not stopped:
            stopped.append(signal.Signals(signum))
        job.cancel()

    for signum in SIGNALS:
        loop.add_signal_handler(signum, stop, signum)
    try:
        try:
            await job
        except asyncio.CancelledError:
            if not stopped:
                raise
    finally:
        for signum in SIGNALS:
            loop.remove_signal_handler(signum)
    return stopped[0] if stopped else None


async def release(runtime: Runtime, signum: signal.Signals, command: str) -> list[str]:
    """Put the tasks this runtime's runner holds back in the queue; the ids put back (none if the database
    would not take it: their leases then run out, and recovery takes them up)."""
    try:
        released = await runtime.queue.release(runtime.runner.identity)
        for task_id in released:
            await runtime.bus.publish(TaskResumed(task_id, f"released: `warden {command}` was stopped by {signum.name}"))
    except StoreError:
        return []
    return released


def stopped(command: str, signum: signal.Signals, released: list[str], then: str = "") -> int:
    """Say in one line that `command` was stopped and what became of its tasks; its exit status."""
    back = f"; {', '.join(released)} back in the queue" if released else ""
    error(f"{command} stopped by {signum.name}{back}{then}")
    return 128 + signum.value
