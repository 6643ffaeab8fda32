"""Acceptance 4 of the recovery issue: an undo after a person edited the same file refuses, and the
person's edit survives. Before, undo restored the snapshot over the edit: Warden compared only its
own later receipts, and a person leaves none."""

from __future__ import annotations

import asyncio
import getpass
import json
import os
import sqlite3
from pathlib import Path

from app.cli import main
from engine.journal.receipt import Reversal
from engine.runtime import Runtime, Switches
from engine.tasks.task import TaskSpec, TaskStatus, scripted
from engine.tools.call import ToolCall


async def _run(home: Path, ws: Path, calls: list[ToolCall]) -> str:
    runtime = await Runtime.open(home, ws, Switches())
    try:
        task = await runtime.submit(TaskSpec(goal="Edit the notes", learn=False, agent=scripted(calls)))
        await runtime.run_until_idle()
        assert (await runtime.task(task.id)).status is TaskStatus.SUCCEEDED
        return task.id
    finally:
        await runtime.close()


async def _reversal(home: Path, ws: Path, task_id: str) -> list[Reversal]:
    runtime = await Runtime.open(home, ws, Switches())
    try:
        return [receipt.reversal for receipt in await runtime.journal.for_task(task_id)]
    finally:
        await runtime.close()


def test_f18_undo_refuses_after_a_person_edited_the_file_and_keeps_the_edit(tmp_path, monkeypatch, capsys):
    home, ws = tmp_path / "home", tmp_path / "ws"
    ws.mkdir()
    (ws / "notes.txt").write_text("mine\n")
    monkeypatch.setenv("WARDEN_HOME", str(home))
    task_id = asyncio.run(_run(home, ws, [ToolCall("fs.append", {"path": "notes.txt", "content": "agent\n"})]))
    (ws / "notes.txt").write_text("mine\nagent\nperson's line\n")

    capsys.readouterr()
    assert main(["journal", "undo-task", task_id, "--json"]) == 1
    result = json.loads(capsys.readouterr().out)
    assert result["ok"] is False and result["undone"] == []
    assert "notes.txt" in result["stopped_at"]["reason"] and "changed since" in result["stopped_at"]["reason"]
    assert (ws / "notes.txt").read_text() == "mine\nagent\nperson's line\n", "the person's edit survives"
    assert asyncio.run(_reversal(home, ws, task_id)) == [Reversal.REVERSIBLE], "nothing was claimed or lost"

    assert main(["journal", "undo", result["stopped_at"]["receipt_id"], "--force"]) == 0
    assert (ws / "notes.txt").read_text() == "mine\n", "forced, the snapshot is restored"
    with sqlite3.connect(home / "warden.db") as db:
        undone = [json.loads(body) for kind, body in db.execute("SELECT kind, payload FROM task_events")
                  if kind == "ReceiptUndone"]
    assert undone == [{**undone[0], "receipt_id": result["stopped_at"]["receipt_id"], "forced": True,
                       "by": getpass.getuser()}], "the forcing is on record, with who did it"


async def test_f18_a_person_changing_only_a_mode_or_deleting_the_file_also_refuses(tmp_path):
    home, ws = tmp_path / "home", tmp_path / "ws"
    ws.mkdir()
    task_id = await _run(home, ws, [ToolCall("fs.write", {"path": "a.txt", "content": "a\n"}),
                                    ToolCall("fs.write", {"path": "b.txt", "content": "b\n"})])
    os.chmod(ws / "a.txt", 0o600)
    (ws / "b.txt").unlink()
    runtime = await Runtime.open(home, ws, Switches())
    try:
        result = await runtime.undo_task(task_id)
        assert not result.ok and result.undone == ()
        assert "b.txt" in result.stopped_at.reason
        write_b = (await runtime.journal.for_task(task_id))[1]
        await runtime.undo(write_b.id, force=True)
        result = await runtime.undo_task(task_id)
        assert not result.ok and "a.txt" in result.stopped_at.reason
        assert (ws / "a.txt").stat().st_mode & 0o777 == 0o600
    finally:
        await runtime.close()


async def test_f18_undoing_a_later_receipt_first_leaves_the_earlier_one_undoable(tmp_path):
    """Warden's own later change, undone first, puts the file back as the earlier call left it: no refusal."""
    home, ws = tmp_path / "home", tmp_path / "ws"
    ws.mkdir()
    task_id = await _run(home, ws, [ToolCall("fs.write", {"path": "a.txt", "content": "one\n"}),
                                    ToolCall("fs.append", {"path": "a.txt", "content": "two\n"}),
                                    ToolCall("fs.mkdir", {"path": "d"}),
                                    ToolCall("fs.write", {"path": "d/x.txt", "content": "x\n"})])
    runtime = await Runtime.open(home, ws, Switches())
    try:
        result = await runtime.undo_task(task_id)
        assert result.ok, result.stopped_at
        assert sorted(p.name for p in ws.iterdir()) == []
    finally:
        await runtime.close()
