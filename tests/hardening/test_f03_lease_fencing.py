"""Finding 3: the lease had no fencing. A runner stalled mid-step was reclaimed, and both ran the step."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
import time
from contextlib import asynccontextmanager

import pytest

from engine.runtime import Runtime, Switches
from engine.tasks.task import TaskSpec, TaskStatus, scripted
from engine.tools.call import ToolCall


def append_once() -> TaskSpec:
    return TaskSpec(goal="Log a hit", agent=scripted([ToolCall("fs.append", {"path": "log.txt", "content": "hit\n"})]))


async def test_f03_a_runner_reclaimed_while_stalled_cannot_act_when_it_wakes(tmp_path):
    home, ws = tmp_path / "home", tmp_path / "ws"
    stalled = await Runtime.open(home, ws, Switches(), lease_seconds=60)
    rescuer = await Runtime.open(home, ws, Switches(), lease_seconds=0.3)
    stalled.runner.identity, rescuer.runner.identity = "host:stalled", "host:rescuer"
    try:
        task = await stalled.submit(append_once())
        stall, reached = asyncio.Event(), asyncio.Event()
        prepare = stalled.journal.prepare

        async def slow_snapshot(*args, **kwargs):
            reached.set()
            await stall.wait()
            return await prepare(*args, **kwargs)

        stalled.journal.prepare = slow_snapshot
        first = asyncio.create_task(stalled.run_until_idle())
        await reached.wait()
        await asyncio.sleep(0.4)  # the stalled runner's last beat is now older than the rescuer's lease
        await rescuer.run_until_idle()
        assert (await rescuer.task(task.id)).status is TaskStatus.SUCCEEDED
        stall.set()
        await first

        assert (ws / "log.txt").read_text() == "hit\n", "the step ran once"
        assert len(await rescuer.journal.for_task(task.id)) == 1, "one receipt for step 0"
        finished = await rescuer.task(task.id)
        assert finished.status is TaskStatus.SUCCEEDED and finished.claimed_by == "host:rescuer"
        assert finished.epoch == 2
    finally:
        await stalled.close()
        await rescuer.close()


async def test_f03_blocking_work_on_the_loop_does_not_silence_the_heartbeat(tmp_path):
    """A 1.2 s synchronous stall on the engine's loop, a 0.3 s lease, and a reaper in another thread:
    the heartbeat beats from its own thread, so the reaper never finds the task stale."""
    home, ws = tmp_path / "home", tmp_path / "ws"
    runtime = await Runtime.open(home, ws, Switches(), lease_seconds=0.3)
    requeued, done = [], threading.Event()

    def reaper() -> None:
        with sqlite3.connect(home / "warden.db", timeout=5, isolation_level=None) as db:
            while not done.is_set():
                changed = db.execute("UPDATE tasks SET status = 'queued' WHERE status = 'running'"
                                     " AND heartbeat_at < ?", (time.time() - 0.3,)).rowcount
                requeued.extend([1] * changed)
                time.sleep(0.02)

    try:
        task = await runtime.submit(append_once())
        prepare = runtime.journal.prepare

        async def blocking_snapshot(*args, **kwargs):
            time.sleep(1.2)  # blocks the event loop, as a synchronous snapshot did
            return await prepare(*args, **kwargs)

        runtime.journal.prepare = blocking_snapshot
        watcher = threading.Thread(target=reaper)
        watcher.start()
        try:
            await runtime.run_until_idle()
        finally:
            done.set()
            watcher.join()
        assert requeued == [], "the task was never taken for abandoned"
        assert (await runtime.task(task.id)).status is TaskStatus.SUCCEEDED
        assert (ws / "log.txt").read_text() == "hit\n"
    finally:
        await runtime.close()



@pytest.fixture
async def two_runners(tmp_path):
    """A runner that will stall (a long lease) and a rescuer (a short one) on one home and workspace."""
    home, ws = tmp_path / "home", tmp_path / "ws"
    stalled = await Runtime.open(home, ws, Switches(), lease_seconds=60)
    rescuer = await Runtime.open(home, ws, Switches(), lease_seconds=0.3)
    stalled.runner.identity, rescuer.runner.identity = "host:stalled", "host:rescuer"
    yield stalled, rescuer
    await stalled.close()
    await rescuer.close()


def stall_at(runtime: Runtime, inside: bool) -> tuple[asyncio.Event, asyncio.Event]:
    """Stop `runtime`'s next effect after its step is written ahead: before it takes the task's fence,
    or inside it once its claim was checked. Returns (reached, release)."""
    reached, release = asyncio.Event(), asyncio.Event()
    hold = runtime.fence.hold

    @asynccontextmanager
    async def stalled(claim):
        if not inside:
            reached.set()
            await release.wait()
        async with hold(claim):
            if inside:
                reached.set()
                await release.wait()
            yield

    runtime.fence.hold = stalled
    return reached, release


async def test_f03_a_runner_stalled_between_write_ahead_and_effect_never_acts_after_it_is_reclaimed(
        tmp_path, two_runners):
    """The kill loop's finding: a runner stopped after writing its step ahead, before the append itself,
    was reclaimed; the rescuer saw the file as at dispatch and appended; the stalled runner then woke
    and appended too. The effect itself is fenced now, not only the writes around it."""
    ws = tmp_path / "ws"
    stalled, rescuer = two_runners
    task = await stalled.submit(append_once())
    reached, release = stall_at(stalled, inside=False)
    first = asyncio.create_task(stalled.run_until_idle())
    await reached.wait()
    await asyncio.sleep(0.4)
    await rescuer.run_until_idle()
    assert (await rescuer.task(task.id)).status is TaskStatus.SUCCEEDED
    release.set()
    await first

    assert (ws / "log.txt").read_text() == "hit\n", "the stalled runner did not append after waking"
    assert (await rescuer.task(task.id)).claimed_by == "host:rescuer"


async def test_f03_a_runner_stalled_inside_the_fence_finishes_its_effect_before_the_rescuer_looks(
        tmp_path, two_runners):
    """Stopped after its claim was checked, the stale runner still holds the task's fence: the rescuer
    waits for it, then finds the append done by its witness and does not append again."""
    ws = tmp_path / "ws"
    stalled, rescuer = two_runners
    task = await stalled.submit(append_once())
    reached, release = stall_at(stalled, inside=True)
    first = asyncio.create_task(stalled.run_until_idle())
    await reached.wait()
    await asyncio.sleep(0.4)
    second = asyncio.create_task(rescuer.run_until_idle())
    await asyncio.sleep(0.3)
    assert not second.done(), "the rescuer waits while the stale runner holds the fence"
    assert not (ws / "log.txt").exists()
    release.set()
    await asyncio.gather(first, second)

    assert (ws / "log.txt").read_text() == "hit\n", "the append happened once"
    finished = await rescuer.task(task.id)
    assert finished.status is TaskStatus.SUCCEEDED and finished.claimed_by == "host:rescuer"
    assert len(await rescuer.journal.for_task(task.id)) == 1
