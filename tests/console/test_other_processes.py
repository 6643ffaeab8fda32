"""The console follows the database, not just its own process: another shell's submissions and removals show up."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path

from app.console import create_app
from engine.runtime import Switches
from tests.cli.test_submit import warden
from tests.console.test_demo_flow import SIZE, query, until
from widgets.program_list import ProgramList
from widgets.task_queue import TaskQueue

PROMPT = 2.0


async def within(pilot, seconds: float, condition, what: str) -> None:
    """The acceptance bound: another process's change reaches the pane within `seconds` of that process exiting."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return
        await pilot.pause(0.02)
    raise AssertionError(f"{what} did not show within {seconds}s")


async def test_another_processes_submission_and_removal_reach_the_panes(tmp_path: Path) -> None:
    home = tmp_path / "home"
    app = create_app(home, tmp_path / "workspace", switches=Switches())
    async with app.run_test(size=SIZE) as pilot:
        programs, tasks = app.query_one(ProgramList), app.query_one(TaskQueue)
        await until(pilot, lambda: programs.row_count == 1, "the shipped program")
        [(shipped,)] = query(home, "SELECT id FROM programs")

        file = tmp_path / "task.json"
        file.write_text(json.dumps({"goal": "Write hello.txt", "agent": {"kind": "scripted", "steps": [
            {"tool": "fs.write", "args": {"path": "hello.txt", "content": "hello\n"}}]}}))
        submitted = await asyncio.to_thread(warden, home, "submit", str(file))
        assert submitted.returncode == 0, submitted.stderr
        [(task_id,)] = query(home, "SELECT id FROM tasks")
        await within(pilot, PROMPT, lambda: task_id in tasks.rows, "the other process's task")
        submitted_for = home / "workspace"  # `warden submit`'s default, not the console's: finding 6
        await until(pilot, lambda: (submitted_for / "hello.txt").exists(), "the console's runner to run it")
        assert not (tmp_path / "workspace" / "hello.txt").exists()
        await until(pilot, lambda: "unchecked" in str(tasks.get_row(task_id)[1]), "the row: done, unchecked")

        removed = await asyncio.to_thread(warden, home, "programs", "rm", shipped)
        assert removed.returncode == 0, removed.stderr
        await within(pilot, PROMPT, lambda: shipped not in programs.rows, "the removal")
