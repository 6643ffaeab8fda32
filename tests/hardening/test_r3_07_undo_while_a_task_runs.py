"""Round three, finding 7: undo while a task runs.

An undo of a receipt whose paths a running confined command was writing reported `reversed`, and the
undone content came back when the command finished (overlay route: the command had copied the old
content up before the undo, and applying its layer put it back). Without the overlay the command's
whole-workspace snapshot was taken before the undo, so undoing both receipts left `v1`, not `v0`.

A step now holds its environment's fence, shared, from its snapshot to its receipt, and an undo takes
it alone: while a step acts in the same workspace the undo is refused in one line and changes nothing.
The command is held mid-flight by a wrapper around the sandbox (no sleeping): before it runs on the
route without the overlay, after it ran (its layer not yet applied) on the overlay route.
"""

from __future__ import annotations

import asyncio
import signal
import subprocess
import sys
from collections.abc import Callable
from enum import Enum
from pathlib import Path

import pytest

from engine.envs.workspace import overlay
from engine.envs.workspace.sandbox import Sandbox
from engine.journal.journal import UndoError
from engine.journal.receipt import Reversal
from engine.runtime import Runtime, Switches
from engine.tasks.task import TaskSpec, TaskStatus, scripted
from engine.tools.call import ToolCall

REPO = Path(__file__).resolve().parents[2]
SANDBOX = Sandbox.detect()
needs_sandbox = pytest.mark.skipif(not SANDBOX.contains_effects, reason=f"no confining sandbox here: {SANDBOX.reason}")


class Moment(Enum):
    BEFORE = "before the command runs"
    AFTER = "after it ran, before its changes are applied"


class Held:
    """Holds every confined command at one moment until released."""

    def __init__(self, moment: Moment) -> None:
        self.moment = moment
        self.reached = asyncio.Event()
        self.release = asyncio.Event()

    def wrap(self, running: Callable):
        async def run(sandbox, *args, **kwargs):
            if self.moment is Moment.BEFORE:
                await self._hold()
            finished = await running(sandbox, *args, **kwargs)
            if self.moment is Moment.AFTER:
                await self._hold()
            return finished

        return run

    async def _hold(self) -> None:
        self.reached.set()
        await self.release.wait()


@pytest.fixture(params=["overlay", "whole workspace"])
def route(request, tmp_path: Path, monkeypatch) -> Held:
    """The shell route under test, and the hold that stops its command mid-flight."""
    if request.param == "overlay":
        problem = overlay.unavailable(SANDBOX, tmp_path)
        if problem is not None:
            pytest.skip(f"this machine cannot overlay the workspace: {problem}")
        held = Held(Moment.AFTER)
    else:
        monkeypatch.setenv(overlay.SWITCH, "off")
        held = Held(Moment.BEFORE)
    monkeypatch.setattr(Sandbox, "run", held.wrap(Sandbox.run))
    return held


def appending(command: str) -> TaskSpec:
    return TaskSpec(goal="append", learn=False, agent=scripted([ToolCall("shell.run", {"command": command})]))


@needs_sandbox
async def test_r3_07_an_undo_while_a_command_writes_the_same_workspace_is_refused_and_both_undo_to_v0(
        tmp_path: Path, route: Held, run_approving) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    (ws / "notes.txt").write_text("v0\n")
    runtime = await Runtime.open(tmp_path / "home", ws, Switches())
    try:
        first = await runtime.submit(TaskSpec(goal="write v1", learn=False, agent=scripted(
            [ToolCall("fs.write", {"path": "notes.txt", "content": "v1\n"})])))
        route.release.set()  # nothing is held while the first task runs
        await runtime.run_until_idle()
        assert (await runtime.task(first.id)).status is TaskStatus.SUCCEEDED
        [written] = await runtime.journal.for_task(first.id)
        route.release.clear()

        running = asyncio.create_task(run_approving(runtime, appending("echo more >> notes.txt")))
        await asyncio.wait_for(route.reached.wait(), timeout=60)
        try:
            with pytest.raises(UndoError, match="acting in") as refused:
                await runtime.undo(written.id)
            assert "\n" not in str(refused.value)
            assert (await runtime.journal.get(written.id)).reversal is Reversal.REVERSIBLE
        finally:
            route.release.set()
        task_id = (await asyncio.wait_for(running, timeout=120)).id

        assert (await runtime.task(task_id)).status is TaskStatus.SUCCEEDED
        assert (ws / "notes.txt").read_text() == "v1\nmore\n"
        [appended] = await runtime.journal.for_task(task_id)
        with pytest.raises(UndoError, match="later receipt"):
            await runtime.undo(written.id)
        assert (await runtime.undo(appended.id)).reversal is Reversal.REVERSED
        assert (ws / "notes.txt").read_text() == "v1\n"
        assert (await runtime.undo(written.id)).reversal is Reversal.REVERSED
        assert (ws / "notes.txt").read_text() == "v0\n"
    finally:
        route.release.set()
        await runtime.close()


@needs_sandbox
async def test_r3_07_an_undo_in_another_workspace_is_not_held_up(tmp_path: Path, route: Held, run_approving) -> None:
    """The fence is the workspace's: a command running in one workspace does not stop undos in another."""
    (tmp_path / "ws").mkdir()
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "notes.txt").write_text("v0\n")
    runtime = await Runtime.open(tmp_path / "home", tmp_path / "ws", Switches())
    elsewhere = await Runtime.open(tmp_path / "home", tmp_path / "other", Switches())
    try:
        first = await elsewhere.submit(TaskSpec(goal="write v1", learn=False, agent=scripted(
            [ToolCall("fs.write", {"path": "notes.txt", "content": "v1\n"})])))
        route.release.set()
        await elsewhere.run_until_idle()
        [written] = await elsewhere.journal.for_task(first.id)
        route.release.clear()

        running = asyncio.create_task(run_approving(runtime, appending("echo more >> log.txt")))
        await asyncio.wait_for(route.reached.wait(), timeout=60)
        try:
            assert (await elsewhere.undo(written.id)).reversal is Reversal.REVERSED
        finally:
            route.release.set()
        await asyncio.wait_for(running, timeout=120)
        assert (tmp_path / "other" / "notes.txt").read_text() == "v0\n"
    finally:
        route.release.set()
        await runtime.close()
        await elsewhere.close()


KILLED_BEFORE_THE_EFFECT = """
import asyncio, os, signal, sys
from pathlib import Path
from engine.runtime import Runtime, Switches
from engine.tasks.fence import EffectFence
from engine.tasks.task import TaskSpec, scripted
from engine.tools.call import ToolCall

def die(self, claim):
    os.kill(os.getpid(), signal.SIGKILL)  # written ahead, snapshot taken; the write never happens

EffectFence.hold = die

async def main(base):
    runtime = await Runtime.open(base / "home", base / "ws", Switches())
    task = await runtime.submit(TaskSpec(goal="write v2", learn=False, agent=scripted(
        [ToolCall("fs.write", {"path": "notes.txt", "content": "v2\\n"})])))
    print(task.id, flush=True)
    await runtime.run_until_idle()

asyncio.run(main(Path(sys.argv[1])))
"""


async def test_r3_07_an_undo_is_refused_while_a_step_cut_off_mid_dispatch_would_roll_the_same_paths_back(
        tmp_path: Path) -> None:
    """A runner killed after writing a step ahead leaves it `dispatching` with its snapshot; resuming it rolls
    its paths back to that snapshot, which holds what an undo now would remove: the undo would not last."""
    ws = tmp_path / "ws"
    ws.mkdir()
    (ws / "notes.txt").write_text("v0\n")
    runtime = await Runtime.open(tmp_path / "home", ws, Switches())
    try:
        first = await runtime.submit(TaskSpec(goal="write v1", learn=False, agent=scripted(
            [ToolCall("fs.write", {"path": "notes.txt", "content": "v1\n"})])))
        await runtime.run_until_idle()
        [written] = await runtime.journal.for_task(first.id)
        child = tmp_path / "worker.py"
        child.write_text(KILLED_BEFORE_THE_EFFECT, encoding="utf-8")
        killed = subprocess.run([sys.executable, str(child), str(tmp_path)], capture_output=True, text=True,
                                timeout=300, cwd=REPO)
        assert killed.returncode == -signal.SIGKILL, killed.stderr[-2000:]
        assert (ws / "notes.txt").read_text() == "v1\n"

        with pytest.raises(UndoError, match="cut off mid-dispatch"):
            await runtime.undo(written.id)
        assert (ws / "notes.txt").read_text() == "v1\n"

        assert await runtime.queue.reap(0.0), "the killed runner's task goes back in the queue"
        await runtime.run_until_idle()
        [rewritten] = await runtime.journal.for_task(killed.stdout.split()[0])
        assert (ws / "notes.txt").read_text() == "v2\n"
        await runtime.undo(rewritten.id)
        await runtime.undo(written.id)
        assert (ws / "notes.txt").read_text() == "v0\n"
    finally:
        await runtime.close()
