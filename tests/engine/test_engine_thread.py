"""The engine thread when its client stops waiting before the runtime has opened (a console quit at once)."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path

import pytest

from engine.runtime import Runtime, Switches
from engine.thread import EngineThread


async def test_a_start_abandoned_while_the_runtime_opens_closes_it_and_raises_nothing(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    failures: list[BaseException | None] = []
    monkeypatch.setattr(threading, "excepthook", lambda args: failures.append(args.exc_value))
    opening, release = threading.Event(), threading.Event()
    opened: list[Runtime] = []

    async def open_runtime() -> Runtime:
        opening.set()
        await asyncio.to_thread(release.wait, 30)
        runtime = await Runtime.open(tmp_path / "home", tmp_path / "ws", Switches())
        opened.append(runtime)
        return runtime

    engine = EngineThread(open_runtime)
    start = asyncio.create_task(engine.start())
    assert await asyncio.to_thread(opening.wait, 30)
    start.cancel()
    with pytest.raises(asyncio.CancelledError):
        await start
    release.set()
    thread = engine._thread
    assert thread is not None
    await asyncio.to_thread(thread.join, 30)
    assert not thread.is_alive()
    assert failures == [], "the engine thread died on a result nobody waited for"
    assert len(opened) == 1 and engine.runtime is None
