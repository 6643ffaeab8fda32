"""A runner killed with SIGKILL mid-step: the task is recovered, nothing done is repeated, the torn step is
rolled back to its snapshot and run once."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

from engine.runtime import Runtime, Switches
from engine.tasks.task import TaskStatus

PLAN = [
    {"tool": "fs.append", "args": {"path": "log.txt", "content": "one\n"}},
    {"tool": "shell.run", "args": {"command": "echo mid >> log.txt; sleep 2"}},
    {"tool": "fs.append", "args": {"path": "log.txt", "content": "two\n"}},
]


def step_status(home: Path, idx: int) -> str | None:
    if not (home / "warden.db").exists():
        return None
    try:
        with sqlite3.connect(f"file:{home / 'warden.db'}?mode=ro", uri=True) as db:
            row = db.execute("SELECT status FROM steps WHERE idx = ?", (idx,)).fetchone()
    except sqlite3.OperationalError:
        return None
    return row[0] if row else None


async def test_sigkilled_runner_resumes_without_repeating_side_effects(tmp_path: Path) -> None:
    home = tmp_path / "home"
    tasks = tmp_path / "task.json"
    home.mkdir()
    (home / "policy.toml").write_text('[approvals]\nauto_approve_rules = ["fs.redirect-write"]\n')
    tasks.write_text(json.dumps({"goal": "Log one, wait, log two", "plan": PLAN,
                                 "evaluator": {"text": {"path": "log.txt", "equals": "one\nmid\ntwo\n"}}}))
    child = subprocess.Popen(
        [sys.executable, "-m", "app.cli", "submit", str(tasks), "--run"],
        env={**os.environ, "WARDEN_HOME": str(home)}, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    try:
        for _ in range(3000):
            log = home / "workspace" / "log.txt"
            if step_status(home, 1) == "dispatching" and log.exists() and "mid" in log.read_text():
                break  # killed with the step's effect half done
            await asyncio.sleep(0.01)
        else:
            raise AssertionError("the runner never reached the second step")
        os.kill(child.pid, signal.SIGKILL)
        assert child.wait(timeout=10) == -signal.SIGKILL
    finally:
        child.kill()

    runtime = await Runtime.open(home, None, Switches(), lease_seconds=0.1)
    try:
        await asyncio.sleep(0.2)
        await runtime.run_until_idle()
        [task] = await runtime.tasks()
        assert await runtime.pending_approvals() == [], "rolled back and run again, on the policy's standing approval"
        assert task.status is TaskStatus.SUCCEEDED, task.error
        assert (home / "workspace" / "log.txt").read_text() == "one\nmid\ntwo\n", "the torn step's line is there once"
        kinds = [event.kind for event in await runtime.history(task.id)]
        assert "TaskResumed" in kinds
    finally:
        await runtime.close()
