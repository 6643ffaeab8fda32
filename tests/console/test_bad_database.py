"""A console pointed at a file that is not a Warden database says so in one line and touches nothing."""

from __future__ import annotations

import json
from pathlib import Path

from app.console import create_app
from engine.runtime import Switches
from tests.cli.test_worker import warden
from tests.cli.test_worker_stops_on_a_damaged_database import damage
from tests.console.test_demo_flow import until
from widgets.status_line import StatusLine
from widgets.task_queue import TaskQueue


async def test_console_refuses_a_foreign_database(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    foreign = b"these are somebody's notes, not a database\n" * 50
    (home / "warden.db").write_bytes(foreign)
    app = create_app(home)
    async with app.run_test(size=(120, 30)) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
    assert app.return_code == 2
    assert app.failure is not None and "not a Warden database" in app.failure and "\n" not in app.failure
    assert (home / "warden.db").read_bytes() == foreign


async def test_a_database_with_damaged_pages_is_named_first_in_the_status_line(tmp_path: Path) -> None:
    """Damaged pages in one table: the console does not show "● engine running" over "no tasks" — the status
    line's first words name the problem, and the panes say why they are empty."""
    home, ws = tmp_path / "home", tmp_path / "ws"
    file = tmp_path / "tasks.json"
    file.write_text(json.dumps([{"goal": f"Write {n}", "learn": False, "plan": [
        {"tool": "fs.write", "args": {"path": f"{n}.txt", "content": "x"}}]} for n in range(3)]), encoding="utf-8")
    assert warden(home, "submit", str(file), "--run", "--workspace", str(ws)).returncode == 0
    damage(home, "task_events")
    assert "Write 2" in warden(home, "tasks", "list").stdout  # the tasks themselves are still there

    app = create_app(home, ws, switches=Switches())
    async with app.run_test(size=(120, 30)) as pilot:
        status = app.query_one(StatusLine)
        await until(pilot, lambda: bool(status.damaged), "the status line to name the damage")
        said = str(status.render())
        assert said.startswith("✖ database damaged: ") and "warden.db" in said and "\n" not in said, said
        assert "engine running" not in said
        tasks = app.query_one(TaskQueue)
        await pilot.pause(0.5)
        assert "database is damaged" in tasks.body.empty  # what an empty pane says

