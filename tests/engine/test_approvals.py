"""The gate: dangerous steps wait for a person, approvals are single-use and bound to arguments,
catastrophic steps are blocked.

The held calls are contained (file deletes inside the workspace), which run unasked by default: the
runtime here asks for every dangerous call (tests/asking.py), so these test the approval mechanism."""

from __future__ import annotations

import asyncio

import pytest

from engine.demo import SCRATCH_BYTES, demo_tasks
from engine.events.records import ActionBlocked, ApprovalRequested, TaskFailed, TaskPaused
from engine.gate.approvals import ApprovalError
from engine.tasks.task import TaskSpec, TaskStatus, scripted
from engine.tools.call import ToolCall
from tests.asking import ASKING


async def test_dangerous_step_waits_for_approval_then_runs(asking_runtime, run, db, ws):
    runtime = asking_runtime
    task = await run(runtime, demo_tasks()[2])
    assert task.status is TaskStatus.PAUSED
    [approval] = db("SELECT * FROM approvals WHERE task_id = ?", task.id)
    assert approval["status"] == "pending"
    kinds = [e.kind for e in await runtime.history(task.id)]
    assert kinds[-2:] == [ApprovalRequested.kind, TaskPaused.kind]
    assert (ws / "scratch.txt").read_bytes() == SCRATCH_BYTES

    await runtime.approve(approval["id"], by="alice")
    await runtime.run_until_idle()
    assert (await runtime.queue.get(task.id)).status is TaskStatus.SUCCEEDED
    [approval] = db("SELECT * FROM approvals WHERE task_id = ?", task.id)
    assert (approval["status"], approval["decided_by"]) == ("used", "alice")
    assert approval["used_at"] is not None
    assert not (ws / "scratch.txt").exists()


async def test_denied_step_fails_the_task_and_touches_nothing(asking_runtime, run, db, ws):
    runtime = asking_runtime
    task = await run(runtime, demo_tasks()[2])
    [approval] = await runtime.pending_approvals()
    await runtime.deny(approval.id)
    await runtime.run_until_idle()
    task = await runtime.queue.get(task.id)
    assert task.status is TaskStatus.FAILED
    assert isinstance((await runtime.history(task.id))[-1], TaskFailed)
    assert db("SELECT status FROM approvals WHERE task_id = ?", task.id) == [{"status": "denied"}]
    assert db("SELECT id FROM receipts WHERE task_id = ?", task.id) == []
    assert (ws / "scratch.txt").read_bytes() == SCRATCH_BYTES


async def test_approval_is_single_use_and_bound_to_its_arguments(asking_runtime, run, db, ws):
    runtime = asking_runtime
    (ws / "a.txt").write_text("a\n")
    (ws / "b.txt").write_text("b\n")
    this, other = ToolCall("fs.delete", {"path": "a.txt"}), ToolCall("fs.delete", {"path": "b.txt"})
    task = await run(runtime, TaskSpec(goal="Delete a.txt", agent=scripted((this,)), evaluator={"absent": "a.txt"}))
    [pending] = await runtime.pending_approvals()
    await runtime.approve(pending.id)
    with pytest.raises(ApprovalError):
        await runtime.approve(pending.id)  # decided once only

    assert await runtime.approvals.usable(task.id, 0, other) is None
    approval = await runtime.approvals.usable(task.id, 0, this)
    assert approval is not None
    with pytest.raises(ApprovalError):
        async with runtime.store.transaction() as tx:
            await runtime.approvals.consume(tx, approval, other)
    assert db("SELECT status FROM approvals WHERE id = ?", approval.id) == [{"status": "approved"}]

    await runtime.run_until_idle()
    assert (await runtime.queue.get(task.id)).status is TaskStatus.SUCCEEDED
    assert not (ws / "a.txt").exists() and (ws / "b.txt").read_text() == "b\n"
    assert db("SELECT status FROM approvals WHERE id = ?", approval.id) == [{"status": "used"}]
    assert await runtime.approvals.usable(task.id, 0, this) is None
    with pytest.raises(ApprovalError):
        async with runtime.store.transaction() as tx:
            await runtime.approvals.consume(tx, approval, this)


async def test_catastrophic_step_is_blocked_and_audited(runtime, run, db, ws, tmp_path):
    outside = tmp_path / "outside.txt"
    outside.write_bytes(b"keep me\n")
    before = {p: p.read_bytes() for p in ws.rglob("*") if p.is_file()}

    task = await run(runtime, demo_tasks()[3])
    assert task.status is TaskStatus.FAILED, f"{task.status}: {task.error}"
    assert task.error.startswith("blocked")
    [blocked] = [e for e in await runtime.history(task.id) if isinstance(e, ActionBlocked)]
    [receipt] = db("SELECT * FROM receipts WHERE task_id = ?", task.id)
    assert (receipt["id"], receipt["reversal"], receipt["snapshot_path"]) == (blocked.receipt_id, "audit_only", None)
    assert db("SELECT id FROM approvals WHERE task_id = ?", task.id) == []
    assert {p: p.read_bytes() for p in ws.rglob("*") if p.is_file()} == before
    assert outside.read_bytes() == b"keep me\n"


async def test_f17_the_loser_of_two_simultaneous_decisions_is_told_what_won(open_runtime, run, ws):
    """Hardening finding 17: it used to be told the approval "is pending, not pending"."""
    first = await open_runtime(policy=ASKING)
    task = await run(first, demo_tasks()[2])
    [approval] = await first.pending_approvals()
    second = await open_runtime(policy=ASKING)
    results = await asyncio.gather(first.approve(approval.id), second.deny(approval.id), return_exceptions=True)
    [lost] = [r for r in results if isinstance(r, Exception)]
    assert "is already approved" in str(lost) or "is already denied" in str(lost)
    assert (await first.task(task.id)).status is TaskStatus.QUEUED
