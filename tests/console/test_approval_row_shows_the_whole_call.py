"""An approval row shows a shell call as the command itself (`$ echo hello > hello.txt`), whole at 80
columns; a command too long for its column wraps onto a second line with nothing cut from its middle."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import time
from pathlib import Path

import pytest

from app.console import create_app
from engine.runtime import Runtime, Switches
from engine.tasks.task import TaskSpec
from engine.tools.call import ToolCall
from tests.console.test_demo_flow import until
from widgets.approval_list import ApprovalList, CallCell, call_line
from widgets.record_rows import RecordRows

EPOCH = 1_700_000_000.0
SIZE = (80, 24)
LONG = "cp build/warden-1.2.3.tar.gz dist/warden-1.2.3.tar.gz"
"""Too long for the call column at 80 columns, short enough for two of its lines."""


async def seeded(home: Path, workspace: Path, commands: list[str]) -> None:
    """A home holding one paused task per command, each waiting on the approval of its `shell.run`."""
    runtime = await Runtime.open(home, workspace, Switches())
    await runtime.close()
    with sqlite3.connect(home / "warden.db") as db:
        for n, command in enumerate(commands):
            task_id, call = f"t-{n + 1:08d}", ToolCall("shell.run", {"command": command})
            spec = json.dumps(TaskSpec(goal=f"Run {command}", learn=False).to_json())
            db.execute("INSERT INTO tasks (id, goal, spec, status, mode, error, created_at, updated_at, env, usage)"
                       " VALUES (?, ?, ?, 'paused', 'agent', NULL, ?, ?, ?, '{}')",
                       (task_id, f"Run {command}", spec, EPOCH + n, EPOCH + n, f"workspace:{workspace}"))
            db.execute("INSERT INTO steps (task_id, idx, call, status, source) VALUES (?, 0, ?, 'waiting', 'agent')",
                       (task_id, call.canonical()))
            db.execute("INSERT INTO approvals (id, task_id, step_idx, call, call_hash, level, tier, rules, reason,"
                       " status, created_at, expires_at) VALUES (?, ?, 0, ?, ?, 'dangerous', 'local_reversible', ?,"
                       " ?, 'pending', ?, ?)",
                       (f"a-{n + 1:08d}", task_id, call.canonical(), "0" * 64, json.dumps(["fs.redirect-write"]),
                        "writes output into a file", EPOCH + n, EPOCH + 10 ** 9))


@pytest.fixture
def utc(monkeypatch):
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    yield
    monkeypatch.delenv("TZ")
    time.tzset()


def drawn(rows: RecordRows, place: int) -> list[str]:
    """The lines drawn for the record at `place` (which must be on screen), one per line of its row."""
    first = (place - rows.scroll_top) * rows.row_height + 1
    return ["".join(segment.text for segment in rows.render_line(first + part))
            for part in range(rows.row_height)]


def call_column(rows: RecordRows, lines: list[str]) -> str:
    """The call column's text across a row's lines, as a person reads it (a line is broken at a space)."""
    layout = rows.column_layout(rows.scrollable_content_region.width)
    index = layout.columns.index(next(i for i, column in enumerate(rows.columns) if column.label == "call"))
    start = 1 + sum(width + 1 for width in layout.widths[:index])
    return " ".join(part for line in lines if (part := line[start:start + layout.widths[index]].strip()))


async def on_approvals(pilot, count: int) -> ApprovalList:
    app = pilot.app
    approvals = app.query_one(ApprovalList)
    await until(pilot, lambda: app.engine is not None and approvals.row_count == count, "the approvals")
    await pilot.press("2")
    await until(pilot, lambda: approvals.region.width > 0, "the Approvals tab")
    await pilot.pause(0.1)
    return approvals


def test_the_approval_row_shows_the_shell_command_whole_at_80_columns(snap_compare, tmp_path: Path, utc) -> None:
    home, workspace = tmp_path / "home", tmp_path / "ws"
    workspace.mkdir()
    asyncio.run(seeded(home, workspace, ["echo hello > hello.txt"]))

    async def shown(pilot) -> None:
        await on_approvals(pilot, 1)
        pilot.app.sub_title = "~/workspace"
        await pilot.pause(0.3)
        await pilot.wait_for_scheduled_animations()

    assert snap_compare(create_app(home, workspace, switches=Switches()), terminal_size=SIZE, run_before=shown)


async def test_the_row_reads_the_command_and_a_long_one_wraps_whole(tmp_path: Path, utc) -> None:
    home, workspace = tmp_path / "home", tmp_path / "ws"
    workspace.mkdir()
    await seeded(home, workspace, ["echo hello > hello.txt", "mv old.txt new.txt"])
    app = create_app(home, workspace, switches=Switches())
    async with app.run_test(size=SIZE) as pilot:
        approvals = await on_approvals(pilot, 2)
        rows = approvals.body
        assert rows.row_height == 1, "short commands take one line each"
        texts = {" ".join(drawn(rows, place)) for place in (0, 1)}
        assert any("$ echo hello > hello.txt" in text for text in texts), texts
        assert any("$ mv old.txt new.txt" in text for text in texts), texts
        assert {call_column(rows, drawn(rows, place)) for place in (0, 1)} == {
            "$ echo hello > hello.txt", "$ mv old.txt new.txt"}, "the call column holds the command and no more"

    home, workspace = tmp_path / "home2", tmp_path / "ws2"
    workspace.mkdir()
    await seeded(home, workspace, ["echo hello > hello.txt", LONG])
    app = create_app(home, workspace, switches=Switches())
    async with app.run_test(size=SIZE) as pilot:
        approvals = await on_approvals(pilot, 2)
        rows = approvals.body
        await until(pilot, lambda: rows.row_height == 2, "the rows to grow to two lines for the long command")
        calls = [call_column(rows, drawn(rows, place)) for place in (0, 1)]
        assert "$ " + LONG in calls, calls
        assert "$ echo hello > hello.txt" in calls, calls
        assert not any("…" in call for call in calls), calls


def test_a_command_is_wrapped_with_every_character_kept_and_a_line_feed_stays_a_literal() -> None:
    call = ToolCall("shell.run", {"command": LONG})
    parts = [part.plain for part in CallCell(call).wrap(30, 2)]
    assert len(parts) == 2 and all(len(part) <= 30 for part in parts) and "".join(parts) == "$ " + LONG
    assert [part.plain for part in CallCell(call).wrap(80, 2)] == ["$ " + LONG], "one line when it fits"
    hidden = ToolCall("shell.run", {"command": "echo ok\nrm -rf ~"})
    assert call_line(hidden) == "shell.run command='echo ok\\nrm -rf ~'", "a second command is not hidden in `$ …`"
