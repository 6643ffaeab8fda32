"""A runner killed with SIGKILL mid-step: the task is recovered, nothing done is repeated, the torn step is
rolled back (or, on the overlay, was never applied) and run once.

On the overlay route the command's half-done write sits in its upper layer when the runner dies, and the
workspace never sees it; with the overlay switched off the write is in the workspace, and resume rolls it
back to the whole-workspace snapshot. Either way the line is there once at the end."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from engine.envs.workspace import overlay
from engine.envs.workspace.sandbox import Sandbox
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


def _half_done(home: Path, on_overlay: bool) -> bool:
    """Whether the command has written its line: into its overlay's upper layer, or into the workspace."""
    if on_overlay:
        return any("mid" in log.read_text() for log in (home / "snapshots").glob(f"{overlay.LAYER_PREFIX}*/upper/log.txt"))
    log = home / "workspace" / "log.txt"
    return log.exists() and "mid" in log.read_text()


@pytest.mark.parametrize("route", ["overlay", "whole-workspace"])
async def test_sigkilled_runner_resumes_without_repeating_side_effects(tmp_path: Path, monkeypatch, route: str) -> None:
    on_overlay = route == "overlay"
    if on_overlay:
        (tmp_path / "probe").mkdir()
        problem = overlay.unavailable(Sandbox.detect(), tmp_path / "probe")
        if problem is not None:
            pytest.skip(f"this machine cannot overlay the workspace: {problem}")
    else:
        monkeypatch.setenv(overlay.SWITCH, "off")
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
            if step_status(home, 1) == "dispatching" and _half_done(home, on_overlay):
                break  # killed with the step's effect half done
            await asyncio.sleep(0.01)
        else:
            raise AssertionError("the runner never reached the second step")
        os.kill(child.pid, signal.SIGKILL)
        assert child.wait(timeout=10) == -signal.SIGKILL
    finally:
        child.kill()
    left = (home / "workspace" / "log.txt").read_text()
    assert left == ("one\n" if on_overlay else "one\nmid\n"), "where the killed command's half went"

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
