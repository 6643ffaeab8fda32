"""Finding 17, the smaller findings not tested beside their features (those are named `test_f17_…` there)."""

from __future__ import annotations

import json
import os
import sqlite3
import time
from pathlib import Path

import pytest

from app.console import create_app
from engine.runtime import Runtime, Switches
from engine.store import StoreError
from engine.tasks.task import TaskSpec, TaskStatus, scripted
from engine.tools.call import ToolCall
from tests.cli.test_submit import warden
from tests.console.test_demo_flow import SIZE, until
from widgets.task_queue import TaskQueue


@pytest.mark.parametrize("version", [0, 3])
async def test_f17_another_applications_sqlite_file_is_refused_untouched(tmp_path, version):
    home = tmp_path / "home"
    home.mkdir()
    with sqlite3.connect(home / "warden.db") as other:
        other.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)")
        other.execute("INSERT INTO notes (body) VALUES ('mine')")
        other.execute(f"PRAGMA user_version = {version}")
    other.close()
    before = (home / "warden.db").read_bytes()
    with pytest.raises(StoreError, match="another program's SQLite database"):
        await Runtime.open(home, tmp_path / "ws", Switches())
    assert (home / "warden.db").read_bytes() == before
    assert not (home / "warden.db-wal").exists(), "not switched to WAL"


@pytest.mark.parametrize("how", ["a file", "read-only"])
def test_f17_a_warden_home_that_cannot_be_used_is_said_in_one_line(tmp_path, how):
    home = tmp_path / "home" if how == "a file" else Path("/sys/kernel")  # sysfs: not writable, even by root
    if how == "a file":
        home.write_text("not a directory\n")
    tasks = tmp_path / "tasks.json"
    tasks.write_text(json.dumps({"goal": "x", "plan": [{"tool": "fs.mkdir", "args": {"path": "x"}}]}))
    result = warden(home, "submit", str(tasks))
    assert result.returncode == 2 and result.stderr.count("\n") == 1
    assert str(home) in result.stderr and "WARDEN_HOME" in result.stderr


async def test_f17_the_console_on_an_unusable_home_says_why_and_exits_2(tmp_path):
    home = tmp_path / "home"
    home.write_text("not a directory\n")
    app = create_app(home)
    async with app.run_test(size=SIZE) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
    assert app.return_code == 2 and "is a file, not a directory" in app.failure


async def test_f17_a_task_with_no_evaluator_is_shown_done_but_unchecked(tmp_path):
    home, ws = tmp_path / "home", tmp_path / "ws"
    runtime = await Runtime.open(home, ws, Switches())
    try:
        write = [ToolCall("fs.write", {"path": "a.txt", "content": "a"})]
        unchecked = await runtime.submit(TaskSpec(goal="Write a", agent=scripted(write)))
        checked = await runtime.submit(TaskSpec(goal="Write a, checked", agent=scripted(write),
                                                evaluator={"exists": "a.txt"}))
    finally:
        await runtime.close()
    app = create_app(home, ws, switches=Switches())
    async with app.run_test(size=SIZE) as pilot:
        tasks = app.query_one(TaskQueue)
        await until(pilot, lambda: tasks.row_count == 2 and "running" not in str(tasks.rows), "both rows")
        await until(pilot, lambda: "done" in str(tasks.get_row(checked.id)[1]), "the checked task to finish")
        await until(pilot, lambda: "unchecked" in str(tasks.get_row(unchecked.id)[1]), "the unchecked one")
        assert "unchecked" not in str(tasks.get_row(checked.id)[1])


async def test_f17_snapshots_a_dead_runner_took_but_never_wrote_ahead_are_swept(tmp_path):
    home, ws = tmp_path / "home", tmp_path / "ws"
    runtime = await Runtime.open(home, ws, Switches())
    try:
        task = await runtime.submit(TaskSpec(goal="Write a", agent=scripted(
            [ToolCall("fs.write", {"path": "a.txt", "content": "a"})])))
        await runtime.run_until_idle()
        assert (await runtime.task(task.id)).status is TaskStatus.SUCCEEDED
        [receipt] = await runtime.receipts()
        orphan, fresh = home / "snapshots" / "0rphan000000", home / "snapshots" / "fresh0000000"
        for path in (orphan, fresh):
            path.mkdir()
            (path / "data-0").write_text("x")
        long_ago = time.time() - 3600
        os.utime(orphan, (long_ago, long_ago))
        os.utime(home / "snapshots" / receipt.id, (long_ago, long_ago))
        await runtime.run_until_idle()
        kept = {p.name for p in (home / "snapshots").iterdir()}
        assert kept == {receipt.id, fresh.name}, "the receipt's snapshot stays, however old; a fresh one may be live"
    finally:
        await runtime.close()
