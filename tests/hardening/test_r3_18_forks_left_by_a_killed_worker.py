"""Round three, finding 18: a worker killed during verification left `scratch/fork-*` for good.

The verify gate replays a fresh program in a fork of the run's start, made in `$WARDEN_HOME/scratch`,
and removes it when done; a worker killed (SIGKILL) while replaying never did, and nothing else
ever would. Now each verification's fork lives in a place whose lock its process holds while it
works; the next runner's recovery removes every place whose lock is free (its process is dead),
and never one a live verification holds.
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
from pathlib import Path

from engine.programs import rooms
from engine.programs.verifier import Verifier
from engine.runtime import Runtime, Switches
from engine.tasks.task import TaskSpec, TaskStatus, scripted
from engine.tools.call import ToolCall

REPO = Path(__file__).resolve().parents[2]
GOAL = "Publish the release note for version {}"

KILLED_WHILE_VERIFYING = """
import asyncio, os, signal, sys
from pathlib import Path
from engine.programs import verifier
from engine.runtime import Runtime, Switches
from engine.tasks.task import TaskSpec, scripted
from engine.tools.call import ToolCall

async def die_replaying(self, program, params, env, *args, **kwargs):
    print(env.root, flush=True)
    os.kill(os.getpid(), signal.SIGKILL)

verifier.Verifier._rerun = die_replaying

async def main(base):
    runtime = await Runtime.open(base / "home", base / "ws", Switches())
    await runtime.submit(TaskSpec(goal="Publish the release note for version 2.0", agent=scripted([
        ToolCall("fs.write", {"path": "notes/release-2.0.md", "content": "# Release 2.0\\n"})]),
        evaluator={"text": {"path": "notes/release-2.0.md", "contains": "# Release 2.0"}}))
    await runtime.run_until_idle()

asyncio.run(main(Path(sys.argv[1])))
"""


def release(version: str) -> TaskSpec:
    return TaskSpec(goal=GOAL.format(version), agent=scripted([
        ToolCall("fs.write", {"path": f"notes/release-{version}.md", "content": f"# Release {version}\n"})]),
        evaluator={"text": {"path": f"notes/release-{version}.md", "contains": f"# Release {version}"}})


def forks(scratch: Path) -> list[Path]:
    return sorted(scratch.rglob("fork-*")) if scratch.is_dir() else []


async def test_r3_18_the_fork_of_a_worker_killed_while_verifying_is_removed_by_the_next_runner(tmp_path: Path) -> None:
    (tmp_path / "ws").mkdir()
    child = tmp_path / "worker.py"
    child.write_text(KILLED_WHILE_VERIFYING, encoding="utf-8")
    killed = subprocess.run([sys.executable, str(child), str(tmp_path)], capture_output=True, text=True,
                            timeout=300, cwd=REPO)
    assert killed.returncode == -signal.SIGKILL, killed.stderr[-2000:]
    fork = Path(killed.stdout.strip())
    scratch = tmp_path / "home" / "scratch"
    assert fork.is_dir() and fork.is_relative_to(scratch), "the killed worker left its fork"

    runtime = await Runtime.open(tmp_path / "home", tmp_path / "ws", Switches())
    try:
        await runtime.run_until_idle()
    finally:
        await runtime.close()
    assert not fork.exists()
    assert list(scratch.iterdir()) == []


async def test_r3_18_a_fork_a_live_verification_holds_is_never_removed(tmp_path: Path, monkeypatch) -> None:
    (tmp_path / "ws").mkdir()
    replaying, release_it = asyncio.Event(), asyncio.Event()
    seen: list[Path] = []
    rerun = Verifier._rerun

    async def held(self, program, params, env, *args, **kwargs):
        seen.append(Path(env.root))
        replaying.set()
        await release_it.wait()
        return await rerun(self, program, params, env, *args, **kwargs)

    monkeypatch.setattr(Verifier, "_rerun", held)
    runtime = await Runtime.open(tmp_path / "home", tmp_path / "ws", Switches())
    other = await Runtime.open(tmp_path / "home", tmp_path / "ws", Switches())
    try:
        task = await runtime.submit(release("2.0"))
        running = asyncio.create_task(runtime.run_task(task.id))
        await asyncio.wait_for(replaying.wait(), timeout=120)
        try:
            await other.runner.recover()
            assert seen[0].is_dir(), "another runner's recovery left the live verification's fork alone"
        finally:
            release_it.set()
        await asyncio.wait_for(running, timeout=120)
        assert (await runtime.task(task.id)).status is TaskStatus.SUCCEEDED
        assert (await runtime.programs())[0].status == "verified"
    finally:
        release_it.set()
        await runtime.close()
        await other.close()
    assert forks(tmp_path / "home" / "scratch") == []


def test_r3_18_unlocked_leftovers_go_once_old_and_a_held_room_stays(tmp_path: Path) -> None:
    """A fork from before rooms (no lock) is removed once older than the sweep's age, never while young."""
    scratch = tmp_path / "scratch"
    (scratch / "fork-old" / "deep").mkdir(parents=True)
    (scratch / "fork-old" / "deep" / "f.txt").write_text("left\n")
    (scratch / "fork-old" / "deep").chmod(0o500)
    (scratch / "fork-young").mkdir()
    os.utime(scratch / "fork-old", (1, 1))

    async def hold_one() -> list[str]:
        async with rooms.room(scratch) as place:
            (place / "fork-live").mkdir()
            removed = rooms.sweep(scratch, older_than=600)
            assert (place / "fork-live").is_dir()
            return removed

    assert asyncio.run(hold_one()) == ["fork-old"]
    assert sorted(entry.name for entry in scratch.iterdir()) == ["fork-young"], "the room went with its owner"
