"""Receipts and undo: a reversible step's snapshot puts back exactly what was there, once."""

from __future__ import annotations

import asyncio

import pytest

from engine.demo import SCRATCH_BYTES, demo_tasks
from engine.events.records import ReceiptUndone
from engine.journal.journal import UndoError
from engine.journal.receipt import Reversal
from engine.tasks.task import TaskSpec, TaskStatus, scripted
from engine.tools.call import ToolCall


async def test_undo_restores_a_deleted_file_exactly_once(runtime, run_approving, db, ws):
    task = await run_approving(runtime, demo_tasks()[2])
    assert task.status is TaskStatus.SUCCEEDED
    assert not (ws / "scratch.txt").exists()
    [receipt] = await runtime.journal.for_task(task.id)
    assert (receipt.call.tool, receipt.reversal) == ("fs.delete", Reversal.REVERSIBLE)

    undone = await runtime.undo(receipt.id)
    assert (ws / "scratch.txt").read_bytes() == SCRATCH_BYTES
    assert undone.reversal is Reversal.REVERSED
    [row] = db("SELECT reversal, reversed_at FROM receipts WHERE id = ?", receipt.id)
    assert row["reversal"] == "reversed" and row["reversed_at"] is not None
    assert [e.receipt_id for e in await runtime.history(task.id) if isinstance(e, ReceiptUndone)] == [receipt.id]
    with pytest.raises(UndoError):
        await runtime.undo(receipt.id)
    assert (ws / "scratch.txt").read_bytes() == SCRATCH_BYTES


async def test_shell_step_is_journaled_and_undone(runtime, run_approving, db, ws):
    before = {p: p.read_bytes() for p in ws.rglob("*") if p.is_file()}
    spec = TaskSpec(
        goal="Write hi into out.txt",
        agent=scripted((ToolCall("shell.run", {"command": "echo hi > out.txt"}),)),
        evaluator={"text": {"path": "out.txt", "equals": "hi\n"}},
    )
    task = await run_approving(runtime, spec)
    assert task.status is TaskStatus.SUCCEEDED, task.error
    assert (ws / "out.txt").read_bytes() == b"hi\n"
    [receipt] = db("SELECT id, reversal, snapshot_kind FROM receipts WHERE task_id = ?", task.id)
    assert (receipt["reversal"], receipt["snapshot_kind"]) == ("reversible", "copy")

    await runtime.undo(receipt["id"])
    assert not (ws / "out.txt").exists()
    assert {p: p.read_bytes() for p in ws.rglob("*") if p.is_file()} == before


async def test_a_failing_step_keeps_a_receipt_for_what_it_changed(runtime, run_approving, db, ws):
    fail_midway = ToolCall("shell.run", {"command": "echo partial > part.txt; false"})
    spec = TaskSpec(goal="Write part of a file, then fail", agent=scripted((fail_midway,)))
    task = await run_approving(runtime, spec)
    assert task.status is TaskStatus.FAILED and "exit 1" in task.error
    assert (ws / "part.txt").read_bytes() == b"partial\n"
    assert db("SELECT status FROM steps WHERE task_id = ?", task.id) == [{"status": "failed"}]
    [receipt] = db("SELECT id, reversal, summary FROM receipts WHERE task_id = ?", task.id)
    assert receipt["reversal"] == "reversible" and receipt["summary"].startswith("FAILED")
    await runtime.undo(receipt["id"])
    assert not (ws / "part.txt").exists()


async def test_undo_refuses_to_discard_a_later_change_to_the_same_path(runtime, run, ws):
    task = await run(runtime, demo_tasks()[0])
    mkdir, write, append = await runtime.journal.for_task(task.id)
    with pytest.raises(UndoError, match=write.id):
        await runtime.undo(mkdir.id)
    assert (ws / "notes" / "release-1.2.md").exists()
    for receipt in (append, write, mkdir):
        await runtime.undo(receipt.id)
    assert not (ws / "notes").exists()
    assert (ws / "CHANGELOG.md").read_text() == "# Changelog\n"


async def test_f05_two_undos_of_one_receipt_at_once_restore_once(open_runtime, tmp_path, run_approving, ws):
    """Hardening finding 5: two processes undoing the same receipt; the receipt is claimed before anything is touched."""
    first = await open_runtime()
    task = await run_approving(first, TaskSpec(goal="Clear the notes", agent=scripted(
        [ToolCall("shell.run", {"command": "rm -f README.md CHANGELOG.md; echo new > new.txt"})])))
    assert task.status is TaskStatus.SUCCEEDED, task.error
    [receipt] = await first.journal.for_task(task.id)
    second = await open_runtime()
    results = await asyncio.gather(first.undo(receipt.id), second.undo(receipt.id), return_exceptions=True)
    assert sorted(type(r).__name__ for r in results) == ["Receipt", "UndoError"]
    [refused] = [r for r in results if isinstance(r, UndoError)]
    assert "being undone" in str(refused) or "already undone" in str(refused)
    assert (ws / "README.md").read_text() == "# Demo project\n" and not (ws / "new.txt").exists()
    assert (await first.journal.get(receipt.id)).reversal is Reversal.REVERSED
