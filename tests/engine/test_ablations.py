"""Ablations are real: each switch takes its layer out and nothing else."""

from __future__ import annotations

import pytest

from engine.demo import demo_tasks
from engine.events.records import ActionClassified
from engine.journal.journal import UndoError
from engine.runtime import Switches
from engine.tasks.task import TaskStatus
from tests.asking import ASKING


@pytest.mark.parametrize("gating", [True, False])
async def test_gating_off_makes_no_classifier_calls(open_runtime, run, db, ws, gating):
    """Under a policy that asks for every dangerous call (tests/asking.py), so that with gating on the demo's
    contained delete waits for a person, and with gating off nothing asks even so."""
    runtime = await open_runtime(Switches(gating=gating), policy=ASKING)
    tasks = [await run(runtime, spec) for spec in demo_tasks()[:3]]
    classified = [e for e in await runtime.history() if isinstance(e, ActionClassified)]
    if gating:
        assert runtime.gate.calls > 0 and classified
        assert tasks[2].status is TaskStatus.PAUSED
    else:
        assert runtime.gate.calls == 0 and classified == []
        assert [t.status for t in tasks] == [TaskStatus.SUCCEEDED] * 3
        assert db("SELECT id FROM approvals") == []
        assert not (ws / "scratch.txt").exists()


@pytest.mark.parametrize("recovery", [True, False])
async def test_recovery_off_writes_no_receipts(open_runtime, run, db, recovery):
    runtime = await open_runtime(Switches(recovery=recovery))
    task = await run(runtime, demo_tasks()[0])
    assert task.status is TaskStatus.SUCCEEDED
    receipts = db("SELECT id FROM receipts")
    if recovery:
        assert len(receipts) == 3
    else:
        assert receipts == [] and await runtime.receipts() == []
        assert not any((runtime.home / "snapshots").glob("*"))
        with pytest.raises(UndoError):
            await runtime.undo("anything")
