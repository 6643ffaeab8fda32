"""Finding 6: the workspace was not stored with the task or the receipt.

A task submitted with `--workspace A` ran in the default workspace, and a receipt made in
A, undone from a runtime opened on B, replaced B's files with A's snapshot.
"""

from __future__ import annotations

import json
from pathlib import Path

from app.console import create_app
from engine.runtime import Runtime, Switches
from tests.cli.test_submit import warden
from tests.console.test_demo_flow import SIZE, until
from widgets.task_queue import TaskQueue


def submit_hello(tmp_path: Path, home: Path, workspace: Path) -> None:
    file = tmp_path / "hello.json"
    file.write_text(json.dumps({"goal": "Write hello.txt", "agent": {"kind": "scripted", "steps": [
        {"tool": "fs.write", "args": {"path": "hello.txt", "content": "hello\n"}}]}}))
    result = warden(home, "submit", str(file), "--workspace", str(workspace))
    assert result.returncode == 0, result.stderr


async def test_f06_a_task_runs_and_is_undone_in_the_workspace_it_was_submitted_for(tmp_path):
    home, a, b = tmp_path / "home", tmp_path / "A", tmp_path / "B"
    submit_hello(tmp_path, home, a)
    runtime = await Runtime.open(home, b, Switches())
    try:
        await runtime.run_until_idle()
        [task] = await runtime.tasks()
        assert task.env == f"workspace:{a.resolve()}"
        assert (a / "hello.txt").read_text() == "hello\n"
        assert not (b / "hello.txt").exists()

        (b / "hello.txt").write_text("B's own\n")
        [receipt] = await runtime.receipts()
        assert receipt.env == task.env
        await runtime.undo(receipt.id)
        assert not (a / "hello.txt").exists(), "undone where it was done"
        assert (b / "hello.txt").read_text() == "B's own\n", "the runtime's own workspace is untouched"
    finally:
        await runtime.close()


async def test_f06_the_console_shows_tasks_of_every_workspace_of_its_home(tmp_path):
    home, a, b = tmp_path / "home", tmp_path / "site-a", tmp_path / "site-b"
    submit_hello(tmp_path, home, a)
    submit_hello(tmp_path, home, b)
    app = create_app(home, tmp_path / "console-ws", switches=Switches())
    async with app.run_test(size=SIZE) as pilot:
        tasks = app.query_one(TaskQueue)
        await until(pilot, lambda: tasks.row_count == 2, "both tasks")
        await until(pilot, lambda: (a / "hello.txt").exists() and (b / "hello.txt").exists(), "both to run")
        where = {str(tasks.get_row(key)[3]) for key in tasks.rows}
        assert where == {"site-a", "site-b"}
    assert not (tmp_path / "console-ws" / "hello.txt").exists()
