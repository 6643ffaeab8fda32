"""Approvals expire, and a resumed task is judged again under the policy in force now.

The held delete is contained and would run unasked by default: these runtimes ask for every dangerous
call (tests/asking.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.demo import SCRATCH_BYTES, demo_tasks, seed_workspace
from engine.gate.approvals import ApprovalError
from engine.runtime import Runtime, Switches
from engine.tasks.task import TaskStatus
from tests.asking import asking_policy

DELETE_SCRATCH = demo_tasks()[2]


async def test_an_undecided_approval_expires_and_fails_its_task(tmp_path: Path, db) -> None:
    seed_workspace(tmp_path / "ws")
    runtime = await Runtime.open(tmp_path / "home", tmp_path / "ws", Switches(), policy=asking_policy(approvals={"ttl_seconds": 0}))
    try:
        task = await runtime.submit(DELETE_SCRATCH)
        await runtime.run_until_idle()
        assert (await runtime.queue.get(task.id)).status is TaskStatus.PAUSED
        [approval] = db("SELECT id, status FROM approvals")
        with pytest.raises(ApprovalError, match="expired"):
            await runtime.approve(approval["id"])
        await runtime.run_until_idle()
        failed = await runtime.queue.get(task.id)
        assert failed.status is TaskStatus.FAILED and "expired" in failed.error
        assert db("SELECT status FROM approvals") == [{"status": "expired"}]
        assert (tmp_path / "ws" / "scratch.txt").read_bytes() == SCRATCH_BYTES
    finally:
        await runtime.close()


async def test_a_resumed_task_is_rechecked_under_the_current_policy(tmp_path: Path, db) -> None:
    home, ws = tmp_path / "home", tmp_path / "ws"
    seed_workspace(ws)
    before = await Runtime.open(home, ws, Switches(), policy=asking_policy())
    task = await before.submit(DELETE_SCRATCH)
    await before.run_until_idle()
    [approval] = await before.pending_approvals()
    await before.approve(approval.id, by="alice")
    await before.close()

    stricter = asking_policy(tools={"fs.delete": {"level": "catastrophic"}})
    after = await Runtime.open(home, ws, Switches(), policy=stricter)
    try:
        await after.run_until_idle()
        resumed = await after.queue.get(task.id)
        assert resumed.status is TaskStatus.FAILED and "blocked" in resumed.error
        assert (ws / "scratch.txt").read_bytes() == SCRATCH_BYTES
        assert db("SELECT status, decided_by FROM approvals") == [{"status": "approved", "decided_by": "alice"}]
        assert db("SELECT reversal FROM receipts WHERE task_id = ?", task.id) == [{"reversal": "audit_only"}]
    finally:
        await after.close()
