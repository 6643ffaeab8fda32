"""Acceptance of the hardening issue: runners SIGKILLed over and over, and one stalled until another
reclaims its task, while tasks append 500 lines; every line ends up written exactly once."""

from __future__ import annotations

import asyncio
import fcntl
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from engine.runtime import Runtime, Switches
from engine.tasks.task import TaskSpec, TaskStatus, scripted
from engine.tools.call import ToolCall
from tests.e2e.kill_loop_runner import LEASE

TASKS, LINES = 5, 100
KILLS, STALLS = 32, 3


def done_steps(home: Path) -> int:
    try:
        with sqlite3.connect(f"file:{home / 'warden.db'}?mode=ro", uri=True, timeout=5) as db:
            return db.execute("SELECT COUNT(*) FROM steps WHERE status = 'done'").fetchone()[0]
    except sqlite3.OperationalError:
        return 0


def runner(home: Path, ws: Path, name: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "tests.e2e.kill_loop_runner", str(home), str(ws), name],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def wait_for_progress(home: Path, since: int, seconds: float = 30.0) -> int:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if (now := done_steps(home)) > since:
            return now
        time.sleep(0.01)
    raise AssertionError(f"no step finished within {seconds}s (stuck at {since})")


def stall(process: subprocess.Popen, home: Path) -> None:
    """SIGSTOP the runner at a moment it holds no write lock and no task's effect fence: a stall of its
    whole process (heartbeat included) between transactions, as a blocked loop stalls it, not a
    database left locked or an effect left half-fenced (that one waits for the runner, by design)."""
    while True:
        process.send_signal(signal.SIGSTOP)
        if not fenced(home):
            with sqlite3.connect(home / "warden.db", timeout=0, isolation_level=None) as db:
                try:
                    db.execute("BEGIN IMMEDIATE")
                    db.execute("ROLLBACK")
                    return
                except sqlite3.OperationalError:
                    pass
        process.send_signal(signal.SIGCONT)
        time.sleep(0.005)


def fenced(home: Path) -> bool:
    """Whether some process holds a task's effect fence (see `engine.tasks.fence`)."""
    for lock in (home / "fences").glob("*.lock"):
        with lock.open("rb") as handle:
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                return True
    return False


def kill(process: subprocess.Popen) -> None:
    process.send_signal(signal.SIGKILL)
    assert process.wait(timeout=10) == -signal.SIGKILL


async def test_kill_loop_writes_every_line_exactly_once(tmp_path: Path) -> None:
    home, ws = tmp_path / "home", tmp_path / "ws"
    runtime = await Runtime.open(home, ws, Switches())
    try:
        await runtime.submit_all([
            TaskSpec(goal=f"Log {LINES} lines to log-{t}.txt", max_steps=LINES + 1, learn=False, agent=scripted([
                ToolCall("fs.append", {"path": f"log-{t}.txt", "content": f"task {t} line {n:03}\n"})
                for n in range(LINES)]))
            for t in range(TASKS)])
    finally:
        await runtime.close()

    chooser, progress, kills, stalls = random.Random(8), 0, 0, 0
    while kills < KILLS:
        first = runner(home, ws, f"runner-{kills}")
        progress = wait_for_progress(home, progress)
        if stalls < STALLS and kills % 10 == 5:
            stall(first, home)  # its heartbeat stops, and another runner reclaims its task
            second = runner(home, ws, f"rescuer-{kills}")
            progress = wait_for_progress(home, progress, seconds=30 + LEASE)
            first.send_signal(signal.SIGCONT)  # it wakes holding a claim that no longer holds
            time.sleep(chooser.uniform(0.05, 0.3))
            kill(second)
            stalls += 1
        else:
            time.sleep(chooser.uniform(0.0, 0.08))
        kill(first)
        kills += 1

    runtime = await Runtime.open(home, ws, Switches(), lease_seconds=LEASE)
    try:
        await asyncio.sleep(LEASE + 0.2)
        await runtime.run_until_idle()
        assert await runtime.pending_approvals() == [], "every interrupted append was settled by its evidence"
        tasks = await runtime.tasks()
        assert [task.status for task in tasks] == [TaskStatus.SUCCEEDED] * TASKS, [task.error for task in tasks]
        assert max(task.epoch for task in tasks) > 1, "tasks were reclaimed"
    finally:
        await runtime.close()
    for t in range(TASKS):
        assert (ws / f"log-{t}.txt").read_text() == "".join(f"task {t} line {n:03}\n" for n in range(LINES))
    assert (kills, stalls) == (KILLS, STALLS)
