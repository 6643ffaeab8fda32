"""The scripting commands end to end: tasks, approvals and journal over a home with real runs, their
JSON shapes, undo on disk, decisions recorded as the OS user, and one-line refusals with exit 1."""

from __future__ import annotations

import asyncio
import getpass
import json
import sqlite3
from pathlib import Path

import pytest

from app.cli import main
from engine.runtime import Runtime, Switches
from engine.tasks.task import TaskSpec, scripted
from engine.tools.call import ToolCall
from tests.asking import asking


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    workspace = tmp_path / "ws"
    workspace.mkdir()
    (workspace / "notes.txt").write_text("first\n", encoding="utf-8")
    return workspace


def queue(home: Path, ws: Path, *calls: ToolCall, run: bool = True) -> str:
    """Queue a scripted task acting in `ws` (and run it until idle); its id."""

    async def go() -> str:
        runtime = await Runtime.open(home, ws, Switches())
        try:
            [task] = await runtime.submit_all([TaskSpec(goal="Edit the notes", agent=scripted(calls))])
            if run:
                await runtime.run_until_idle()
            return task.id
        finally:
            await runtime.close()

    return asyncio.run(go())


def drain(home: Path, ws: Path) -> None:
    """Run the home's queue until nothing more can run."""

    async def go() -> None:
        runtime = await Runtime.open(home, ws, Switches())
        try:
            await runtime.run_until_idle()
        finally:
            await runtime.close()

    asyncio.run(go())


def cli(capsys: pytest.CaptureFixture, *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def cli_json(capsys: pytest.CaptureFixture, *args: str):
    code, out, err = cli(capsys, *args, "--json")
    assert code == 0, err
    return json.loads(out)


def db(home: Path, sql: str, *params) -> list[tuple]:
    with sqlite3.connect(f"file:{home / 'warden.db'}?mode=ro", uri=True) as con:
        return con.execute(sql, params).fetchall()


APPEND = ToolCall("fs.append", {"path": "notes.txt", "content": "second\n"})
WRITE = ToolCall("fs.write", {"path": "new.txt", "content": "hello\n"})


def test_tasks_and_journal_json_shapes_and_undo_task_restores_the_files(home: Path, ws: Path, capsys) -> None:
    task_id = queue(home, ws, APPEND, WRITE)
    assert (ws / "notes.txt").read_text() == "first\nsecond\n"

    shown = cli_json(capsys, "tasks", "show", task_id)
    assert (shown["id"], shown["status"], shown["goal"]) == (task_id, "succeeded", "Edit the notes")
    assert shown["workspace"] == f"workspace:{ws}" and shown["workspace_path"] == str(ws)
    assert len(shown["steps"]) == 2 and "budget" in shown and "spent" in shown
    [listed] = cli_json(capsys, "tasks", "list")
    assert listed["id"] == task_id and listed["workspace"] == f"workspace:{ws}"

    receipts = cli_json(capsys, "journal", "list", "--task", task_id)
    assert [r["tool"] for r in receipts] == ["fs.append", "fs.write"]
    assert all(r["task_id"] == task_id and r["reversal"] == "reversible" for r in receipts)
    appended = receipts[0]["id"]
    assert cli_json(capsys, "journal", "show", appended)["id"] == appended
    code, out, _ = cli(capsys, "journal", "diff", appended)
    assert code == 0 and "+second" in out and " first" in out
    [change] = cli_json(capsys, "journal", "diff", appended)["changes"]
    assert change["path"] == "notes.txt" and not change["binary"] and "+second" in change["diff"]

    undone = cli_json(capsys, "journal", "undo-task", task_id)
    assert undone == {"ok": True, "undone": [receipts[1]["id"], appended], "stopped_at": None}
    assert (ws / "notes.txt").read_text() == "first\n" and not (ws / "new.txt").exists()
    assert db(home, "SELECT DISTINCT reversal FROM receipts WHERE undoes IS NULL") == [("reversed",)]
    assert db(home, "SELECT count(*) FROM receipts WHERE undoes IS NOT NULL AND reversal = 'audit_only'") == [(2,)]


def test_journal_diff_of_binary_content_gives_size_and_sha256(home: Path, ws: Path, capsys) -> None:
    blob = ToolCall("fs.write", {"path": "blob.bin", "content": "a\u0000b"})
    task_id = queue(home, ws, blob)
    [receipt] = cli_json(capsys, "journal", "list", "--task", task_id)
    code, out, _ = cli(capsys, "journal", "diff", receipt["id"])
    assert code == 0 and "blob.bin: absent -> 3 bytes sha256 " in out and "binary" in out


def test_undo_refused_is_one_line_exit_1_and_changes_nothing(home: Path, ws: Path, capsys) -> None:
    task_id = queue(home, ws, APPEND, ToolCall("fs.append", {"path": "notes.txt", "content": "third\n"}))
    [first, _] = cli_json(capsys, "journal", "list", "--task", task_id)
    code, out, err = cli(capsys, "journal", "undo", first["id"])
    assert code == 1 and out == "" and err.count("\n") == 1 and err.startswith("warden: receipt ")
    assert (ws / "notes.txt").read_text() == "first\nsecond\nthird\n"
    assert db(home, "SELECT reversal FROM receipts WHERE id = ?", first["id"]) == [("reversible",)]


def test_approve_records_the_os_user_and_the_task_runs(home: Path, ws: Path, capsys) -> None:
    asking(home)  # the contained delete would run unasked: every dangerous call asks here (tests/asking.py)
    task_id = queue(home, ws, ToolCall("fs.delete", {"path": "notes.txt"}))
    [pending] = cli_json(capsys, "approvals", "list")
    assert (pending["task_id"], pending["status"], pending["tool"]) == (task_id, "pending", "fs.delete")
    assert pending["level"] and pending["call"] == {"tool": "fs.delete", "args": {"path": "notes.txt"}}
    code, _, err = cli(capsys, "tasks", "resume", task_id)
    assert code == 1 and f"waits on approval {pending['id']}" in err and (ws / "notes.txt").exists()

    decided = cli_json(capsys, "approvals", "approve", pending["id"])
    assert (decided["status"], decided["decided_by"]) == ("approved", getpass.getuser())
    assert db(home, "SELECT status, decided_by FROM approvals") == [("approved", getpass.getuser())]
    assert cli_json(capsys, "tasks", "show", task_id)["status"] == "queued"
    assert cli_json(capsys, "approvals", "list") == []


def test_deny_records_the_os_user(home: Path, ws: Path, capsys) -> None:
    asking(home)  # the contained delete would run unasked: every dangerous call asks here (tests/asking.py)
    queue(home, ws, ToolCall("fs.delete", {"path": "notes.txt"}))
    [pending] = cli_json(capsys, "approvals", "list")
    code, out, _ = cli(capsys, "approvals", "deny", pending["id"])
    assert code == 0 and "denied" in out
    assert db(home, "SELECT status, decided_by FROM approvals") == [("denied", getpass.getuser())]


@pytest.mark.parametrize("args", [("tasks", "show", "nope"), ("tasks", "pause", "nope"), ("tasks", "retry", "nope"),
                                  ("approvals", "approve", "nope"), ("approvals", "deny", "nope"),
                                  ("journal", "show", "nope"), ("journal", "diff", "nope"),
                                  ("journal", "undo", "nope"), ("journal", "undo-task", "nope"),
                                  ("journal", "list", "--task", "nope")])
def test_unknown_id_is_one_line_and_exit_1(home: Path, capsys, args: tuple[str, ...]) -> None:
    code, out, err = cli(capsys, *args)
    assert code == 1 and out == "" and err.count("\n") == 1 and "nope" in err and err.startswith("warden: ")


def test_pause_resume_cancel_retry_move_the_task_and_refuse_the_wrong_state(home: Path, ws: Path, capsys) -> None:
    task_id = queue(home, ws, APPEND, run=False)

    def status() -> str:
        return db(home, "SELECT status FROM tasks WHERE id = ?", task_id)[0][0]

    assert cli_json(capsys, "tasks", "pause", task_id)["status"] == "paused" and status() == "paused"
    code, _, err = cli(capsys, "tasks", "pause", task_id)
    assert code == 1 and err.strip() == f"warden: task {task_id} is paused; only a queued task can be paused"
    code, _, err = cli(capsys, "tasks", "retry", task_id)
    assert code == 1 and err.count("\n") == 1 and status() == "paused"
    assert cli_json(capsys, "tasks", "resume", task_id)["status"] == "queued" and status() == "queued"
    code, _, _ = cli(capsys, "tasks", "resume", task_id)
    assert code == 1 and status() == "queued"
    assert cli_json(capsys, "tasks", "cancel", task_id)["status"] == "cancelled" and status() == "cancelled"
    code, _, err = cli(capsys, "tasks", "cancel", task_id)
    assert code == 1 and err.count("\n") == 1
    assert cli_json(capsys, "tasks", "retry", task_id)["status"] == "queued" and status() == "queued"
    kinds = [kind for (kind,) in db(home, "SELECT kind FROM task_events WHERE task_id = ? ORDER BY id", task_id)]
    assert kinds[-4:] == ["TaskPaused", "TaskResumed", "TaskCancelled", "TaskResumed"]

    drain(home, ws)
    assert (ws / "notes.txt").read_text() == "first\nsecond\n"
    assert status() == "succeeded"


def test_readable_output_without_json(home: Path, ws: Path, capsys) -> None:
    task_id = queue(home, ws, APPEND)
    code, out, _ = cli(capsys, "tasks", "list")
    assert code == 0 and task_id in out and "succeeded" in out
    code, out, _ = cli(capsys, "journal", "list")
    assert code == 0 and "fs.append" in out
    code, out, _ = cli(capsys, "approvals")
    assert code == 0 and "id" in out
