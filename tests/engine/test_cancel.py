"""Cancelling: a waiting task stops at once, a running one before its next step; receipts stay."""

from __future__ import annotations

import asyncio

import pytest

from engine.demo import SCRATCH_BYTES, demo_tasks
from engine.events.records import TaskCancelled, TaskSucceeded
from engine.gate.approvals import ApprovalError
from engine.tasks.task import TaskError, TaskSpec, TaskStatus, scripted
from engine.tools.call import ToolCall


async def test_cancelling_a_paused_task_withdraws_its_approval(asking_runtime, run, db, ws):
    """The delete is contained and would run unasked: the runtime asks for every dangerous call (tests/asking.py)."""
    runtime = asking_runtime
    task = await run(runtime, demo_tasks()[2])
    [approval] = await runtime.pending_approvals()
    await runtime.cancel(task.id, by="bob")
    assert db("SELECT status FROM approvals") == [{"status": "withdrawn"}]
    assert await runtime.pending_approvals() == []
    with pytest.raises(ApprovalError):
        await runtime.approve(approval.id)
    await runtime.run_until_idle()
    assert (await runtime.queue.get(task.id)).status is TaskStatus.CANCELLED
    assert (ws / "scratch.txt").read_bytes() == SCRATCH_BYTES
    assert [e.cancelled_by for e in await runtime.history(task.id) if isinstance(e, TaskCancelled)] == ["bob"]
    with pytest.raises(TaskError, match="already cancelled"):
        await runtime.cancel(task.id)


async def test_cancelling_a_running_task_stops_it_before_the_next_step(runtime, db, ws):
    spec = TaskSpec(
        goal="Write two files with a pause between",
        agent=scripted((
            ToolCall("fs.write", {"path": "first.txt", "content": "1"}),
            ToolCall("shell.run", {"command": "sleep 1"}),
            ToolCall("fs.write", {"path": "second.txt", "content": "2"}),
        )),
    )
    task = await runtime.submit(spec)
    running = asyncio.create_task(runtime.run_until_idle())
    for _ in range(3000):
        if db("SELECT status FROM steps WHERE task_id = ? AND idx = 1", task.id) == [{"status": "dispatching"}]:
            break
        await asyncio.sleep(0.01)
    else:
        raise AssertionError("the sleep step never started")
    await runtime.cancel(task.id)
    await running
    assert (await runtime.queue.get(task.id)).status is TaskStatus.CANCELLED
    assert (ws / "first.txt").read_text() == "1"
    assert not (ws / "second.txt").exists()
    assert db("SELECT idx, status FROM steps WHERE task_id = ? ORDER BY idx", task.id) == [
        {"idx": 0, "status": "done"},
        {"idx": 1, "status": "done"},
    ]
    assert len(db("SELECT id FROM receipts WHERE task_id = ?", task.id)) == 2
    assert not [e for e in await runtime.history(task.id) if isinstance(e, TaskSucceeded)]
