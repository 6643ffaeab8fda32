"""The main screen (SVG snapshots) at 80×24, 120×40 and 240×60, and in each theme, on a home seeded with fixed
records: fixed ids and times (UTC), finished tasks only, so nothing on screen depends on the clock."""

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
from themes import THEMES
from widgets.approval_list import ApprovalList
from widgets.program_list import ProgramList
from widgets.receipt_journal import ReceiptJournal
from widgets.task_queue import TaskQueue

EPOCH = 1_700_000_000.0
TASKS = (
    ("t-00000001", "Publish the release note for version 1.2", "succeeded", "agent", None),
    ("t-00000002", "Publish the release note for version 1.3", "succeeded", "replay", None),
    ("t-00000003", "Write the quarterly summary into reports/q3-summary.md with the figures from the sales "
                   "spreadsheet and the notes from the planning meeting", "paused", "agent", None),
    ("t-00000004", "Clean up everything on the machine", "failed", "agent",
     "blocked (fs.delete_root): deletes a filesystem root"),
    ("t-00000005", "Archive the file report.txt", "cancelled", None, None),
)
RECEIPTS = (
    ("r00000000001", "t-00000001", 0, ToolCall("fs.mkdir", {"path": "notes"}), "reversible", "mkdir notes"),
    ("r00000000002", "t-00000001", 1, ToolCall("fs.write", {"path": "notes/release-1.2.md", "content": "# 1.2\n"}),
     "reversible", "write notes/release-1.2.md"),
    ("r00000000003", "t-00000002", 0, ToolCall("fs.append", {"path": "CHANGELOG.md", "content": "- 1.3\n"}),
     "reversed", "append to CHANGELOG.md"),
    ("r00000000004", "t-00000004", 0, ToolCall("fs.delete", {"path": "/"}), "audit_only",
     "BLOCKED fs.delete: deletes a filesystem root"),
)
PENDING = ToolCall("fs.write", {"content": "Q3 revenue rose 12% on the year; the planning meeting agreed to " * 3,
                                "path": "reports/q3-summary.md"})


def seed(home: Path, workspace: Path) -> None:
    """A home whose records are all fixed: the runtime makes the schema and the shipped program, then rows are
    written as a finished history would have left them."""
    async def schema() -> None:
        runtime = await Runtime.open(home, workspace, Switches())
        await runtime.close()

    asyncio.run(schema())
    env = f"workspace:{workspace}"
    with sqlite3.connect(home / "warden.db") as db:
        for n, (task_id, goal, status, mode, error) in enumerate(TASKS):
            spec = json.dumps(TaskSpec(goal=goal, learn=False).to_json())
            db.execute("INSERT INTO tasks (id, goal, spec, status, mode, error, created_at, updated_at, env, usage)"
                       " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                       (task_id, goal, spec, status, mode, error, EPOCH + 60 * n, EPOCH + 60 * n + 2.5, env,
                        json.dumps({"steps": 2, "wall_s": 2.5})))
        for n, (receipt_id, task_id, idx, call, reversal, summary) in enumerate(RECEIPTS):
            db.execute("INSERT INTO receipts (id, task_id, step_idx, call, tier, snapshot_kind, snapshot_path,"
                       " reversal, summary, created_at, env) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                       (receipt_id, task_id, idx, call.canonical(), "local_reversible", "none", None, reversal,
                        summary, EPOCH + 60 * n + 1, env))
        db.execute("INSERT INTO steps (task_id, idx, call, status, source) VALUES (?, 0, ?, 'waiting', 'agent')",
                   ("t-00000003", PENDING.canonical()))
        db.execute("INSERT INTO approvals (id, task_id, step_idx, call, call_hash, level, tier, rules, reason, status,"
                   " created_at, expires_at) VALUES (?, ?, 0, ?, ?, 'dangerous', 'local_reversible', ?, ?, 'pending',"
                   " ?, ?)", ("a-00000001", "t-00000003", PENDING.canonical(), "0" * 64,
                              json.dumps(["fs.write_outside_notes"]), "writes a file outside notes/", EPOCH + 150,
                              EPOCH + 10 ** 9))


@pytest.fixture
def seeded(tmp_path: Path, monkeypatch) -> tuple[Path, Path]:
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    home, workspace = tmp_path / "home", tmp_path / "ws"
    workspace.mkdir()
    seed(home, workspace)
    yield home, workspace
    monkeypatch.delenv("TZ")
    time.tzset()


async def loaded(pilot) -> None:
    """Every pane has its rows, the header names no temporary path, and nothing is left to redraw."""
    app = pilot.app
    for _ in range(500):
        if (app.engine is not None and app.query_one(TaskQueue).row_count == len(TASKS)
                and app.query_one(ReceiptJournal).row_count == len(RECEIPTS)
                and app.query_one(ApprovalList).row_count == 1 and app.query_one(ProgramList).row_count == 1):
            break
        await pilot.pause(0.02)
    app.sub_title = "~/workspace"
    await pilot.pause(0.3)
    await pilot.wait_for_scheduled_animations()


@pytest.mark.parametrize("size", [(80, 24), (120, 40), (240, 60)], ids=["80x24", "120x40", "240x60"])
def test_main_screen_at_each_size(snap_compare, seeded, size) -> None:
    home, workspace = seeded
    assert snap_compare(create_app(home, workspace, switches=Switches()), terminal_size=size, run_before=loaded)


@pytest.mark.parametrize("theme", [theme.name for theme in THEMES[1:]])
def test_main_screen_in_each_theme(snap_compare, seeded, theme) -> None:
    home, workspace = seeded

    async def themed(pilot) -> None:
        pilot.app.theme = theme
        await loaded(pilot)

    assert snap_compare(create_app(home, workspace, switches=Switches()), terminal_size=(120, 40), run_before=themed)
