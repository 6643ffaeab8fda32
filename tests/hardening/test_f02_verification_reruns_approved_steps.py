"""Finding 2: verification re-ran, with no approval, a step a person had approved once in its run."""

from __future__ import annotations

import pytest

from engine.events.records import ProgramStored
from engine.tasks.task import TaskSpec, TaskStatus, scripted
from engine.tools.call import ToolCall


@pytest.fixture
async def runtime(asking_runtime):
    """Every dangerous call asks here (tests/asking.py): verification of a step a person approved is the subject."""
    return asking_runtime


async def test_f02_a_step_that_needed_approval_is_not_re_executed_by_verification(runtime, run_approving, ws, db):
    (ws / "old.log").write_text("stale\n")
    spec = TaskSpec(
        goal="Tidy the log old.log",
        agent=scripted([
            ToolCall("fs.write", {"path": "tidy.txt", "content": "tidied\n"}),
            ToolCall("fs.delete", {"path": "old.log"}),
        ]),
        evaluator={"all": [{"absent": "old.log"}, {"exists": "tidy.txt"}]},
    )
    task = await run_approving(runtime, spec)
    assert task.status is TaskStatus.SUCCEEDED, task.error
    [approval] = db("SELECT call FROM approvals WHERE task_id = ?", task.id)
    assert "fs.delete" in approval["call"], "the gate asks about the delete: that is the premise"

    [stored] = [e for e in await runtime.history(task.id) if isinstance(e, ProgramStored)]
    assert stored.status == "unverified"
    program = await runtime.program(stored.program_id)
    assert "needs a person's approval" in program.verification["evaluator"]
    assert program.verification["how"].startswith("not re-executed")
    assert not list((runtime.home / "scratch").glob("fork-*")), "no fork was even made to run it in"


async def test_f02_an_unverified_program_is_not_served_until_a_person_accepts_it(runtime, run_approving, ws):
    for name in ("a.log", "b.log"):
        (ws / name).write_text("stale\n")

    def tidy(name: str) -> TaskSpec:
        return TaskSpec(goal=f"Remove the log {name}", agent=scripted([ToolCall("fs.delete", {"path": name})]),
                        evaluator={"absent": name})

    first = await run_approving(runtime, tidy("a.log"))
    second = await run_approving(runtime, tidy("b.log"))
    assert first.status is second.status is TaskStatus.SUCCEEDED
    assert second.mode.value == "agent", "the unverified program did not serve the second task"
