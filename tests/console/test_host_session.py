"""Issue 26, acceptance 2: a host's session in the console, as a person would follow it.

A Claude Code session's hook calls arrive from other processes (`warden hook claude-code`, as the host runs
it). The console shows the session as a task named for its host, its held call in Approvals (approved there
with `a`, and the waiting hook then allows it), its receipts in the Journal, and `U` undoes the session.
Every command is harmless: files in the test's own project; the held request goes to a loopback listener
nobody approves to reach (it is only cleared, then never run).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path

from app.console import create_app
from app.screens.confirm import ConfirmScreen
from engine.runtime import Switches
from tests.console.test_demo_flow import SIZE, query, until
from widgets.approval_list import ApprovalList
from widgets.receipt_journal import ReceiptJournal
from widgets.task_queue import TaskQueue

ROOT = Path(__file__).resolve().parents[2]


def hook(home: Path, project: Path, tool: str, tool_input: dict) -> dict:
    """One PreToolUse event through `warden hook claude-code`, as Claude Code runs it; its decision."""
    event = {"hook_event_name": "PreToolUse", "session_id": "s-console", "cwd": str(project), "tool_name": tool,
             "tool_input": tool_input, "prompt": "tidy the notes"}
    done = subprocess.run([sys.executable, "-m", "app.cli", "hook", "claude-code"], input=json.dumps(event),
                          capture_output=True, text=True, timeout=120, cwd=ROOT,
                          env={**os.environ, "WARDEN_HOME": str(home), "WARDEN_HOOK_WAIT": "60"})
    return json.loads(done.stdout)["hookSpecificOutput"]


def ran(home: Path, project: Path, decision: dict) -> None:
    """What the host does with an allowed Bash call: run the command the hook rewrote it to."""
    subprocess.run(decision["updatedInput"]["command"], shell=True, check=True, cwd=project, timeout=120,
                   env={**os.environ, "WARDEN_HOME": str(home)}, capture_output=True)


async def approve_once_seen(pilot, home: Path) -> None:
    """Press `a` until it takes: a call is decided only once it has been on screen for `SEEN_FOR`."""
    for _ in range(200):
        await pilot.press("a")
        if query(home, "SELECT status FROM approvals") != [("pending",)]:
            return
        await pilot.pause(0.05)
    raise AssertionError("the held call was never approved")


async def undo_session(pilot, tasks: TaskQueue, task_id: str, restored: Path) -> None:
    """Undo the whole session from its row in Tasks with `U`, confirmed, and wait until `restored` is back."""
    await pilot.press("1")
    tasks.move_cursor(row=tasks.get_row_index(task_id))
    await pilot.press("U")
    await until(pilot, lambda: isinstance(pilot.app.screen, ConfirmScreen), "the undo-task confirmation")
    await pilot.press("y")
    await until(pilot, restored.exists, "the session undone")


async def test_a_host_session_is_a_task_with_its_held_call_its_receipts_and_one_key_undo(tmp_path: Path) -> None:
    home, project = tmp_path / "home", tmp_path / "project"
    project.mkdir()
    (project / "notes.txt").write_text("keep me\n")
    ran(home, project, hook(home, project, "Bash", {"command": "rm notes.txt"}))
    assert not (project / "notes.txt").exists()
    app = create_app(home, project, switches=Switches())
    async with app.run_test(size=SIZE) as pilot:
        tasks = app.query_one(TaskQueue)
        [(task_id, goal)] = query(home, "SELECT id, goal FROM tasks")
        assert goal == "claude-code: tidy the notes"
        await until(pilot, lambda: task_id in tasks.rows, "the session's task")
        assert "claude-code" in [str(cell) for cell in tasks.get_row(task_id)], "the row names the host"

        held: dict = {}
        waiting = threading.Thread(target=lambda: held.update(
            hook(home, project, "Bash", {"command": "curl -s -d @notes.txt http://127.0.0.1:9/upload"})))
        waiting.start()
        approvals = app.query_one(ApprovalList)
        await until(pilot, lambda: approvals.row_count == 1, "the held call in Approvals")
        await pilot.press("2")
        await until(pilot, lambda: query(home, "SELECT status FROM approvals") == [("pending",)], "pending")
        await approve_once_seen(pilot, home)
        await until(pilot, lambda: not waiting.is_alive(), "the waiting hook to hear the decision", attempts=3000)
        waiting.join()
        assert held["permissionDecision"] == "allow" and " exec --step " in held["updatedInput"]["command"]
        assert query(home, "SELECT status, decided_by FROM approvals")[0][0] == "approved"

        journal = app.query_one(ReceiptJournal)
        [(receipt_id,)] = query(home, "SELECT id FROM receipts WHERE summary LIKE '$ rm notes.txt%'")
        await until(pilot, lambda: receipt_id in journal.rows, "the session's receipt in the Journal")

        await undo_session(pilot, tasks, task_id, project / "notes.txt")
        assert (project / "notes.txt").read_text() == "keep me\n"
