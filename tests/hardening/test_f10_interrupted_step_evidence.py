"""Finding 10: a step interrupted by a crash was re-asked as if it were new, and approving it ran it twice.

Also finding 17's "a kill after the effect but before the final commit left a step
`dispatching` forever, plus orphaned snapshot folders". The crash here is a BaseException
raised where the receipt is committed: everything before it (the write-ahead, the effect)
is on disk, nothing after it is, as when the process is killed at that instant.
"""

from __future__ import annotations

import asyncio

import pytest

from engine.journal.receipt import Reversal
from engine.runtime import Runtime, Switches
from engine.tasks.task import TaskSpec, TaskStatus, scripted
from engine.tools.call import ToolCall
from tests.asking import ASK_TABLE, asking


class Crash(BaseException):
    """The process dies here."""


async def crash_after_effect(home, ws, spec: TaskSpec) -> str:
    """Run `spec` (approving what the gate asks) until its first receipt is about to be committed, and die
    there; returns the task id."""
    runtime = await Runtime.open(home, ws, Switches(), lease_seconds=0.3)
    try:
        task = await runtime.submit(spec)

        async def die(*args, **kwargs):
            raise Crash

        runtime.journal.commit = die
        with pytest.raises(Crash):
            await runtime.run_until_idle()
            for approval in await runtime.pending_approvals():  # a person approved it, the first time
                await runtime.approve(approval.id)
            await runtime.run_until_idle()
        [step] = [s for s in await runtime.store.fetchall("SELECT status, pending FROM steps WHERE task_id = ?", (task.id,))]
        assert step["status"] == "dispatching" and step["pending"], "written ahead, not settled"
        return task.id
    finally:
        await runtime.close()


async def resume(home, ws) -> Runtime:
    runtime = await Runtime.open(home, ws, Switches(), lease_seconds=0.3)
    await asyncio.sleep(0.4)  # the dead runner's lease runs out
    await runtime.run_until_idle()
    return runtime


def snapshot_dirs(home) -> set[str]:
    return {p.name for p in (home / "snapshots").iterdir()} if (home / "snapshots").exists() else set()


APPEND = TaskSpec(goal="Log a line", agent=scripted([ToolCall("fs.append", {"path": "log.txt", "content": "line\n"})]))


async def test_f10_an_append_that_ran_before_the_crash_is_settled_done_with_its_receipt(tmp_path):
    home, ws = tmp_path / "home", tmp_path / "ws"
    ws.mkdir()
    (ws / "log.txt").write_text("before\n")
    task_id = await crash_after_effect(home, ws, APPEND)
    assert (ws / "log.txt").read_text() == "before\nline\n"

    runtime = await resume(home, ws)
    try:
        assert (ws / "log.txt").read_text() == "before\nline\n", "not appended twice"
        assert await runtime.pending_approvals() == [], "the evidence settled it; nobody had to guess"
        task = await runtime.task(task_id)
        assert task.status is TaskStatus.SUCCEEDED, task.error
        [turn] = await runtime.queue.history(task_id)
        assert "grew by exactly the 5 appended bytes" in turn.output
        [receipt] = await runtime.journal.for_task(task_id)
        assert snapshot_dirs(home) == {receipt.id}, "the write-ahead's snapshot became the receipt's; no orphan"
        await runtime.undo(receipt.id)
        assert (ws / "log.txt").read_text() == "before\n"
    finally:
        await runtime.close()


async def test_f10_an_append_the_crash_came_before_runs_once(tmp_path):
    home, ws = tmp_path / "home", tmp_path / "ws"
    ws.mkdir()
    (ws / "log.txt").write_text("before\n")
    task_id = await crash_after_effect(home, ws, APPEND)
    (ws / "log.txt").write_text("before\n")  # as if the process had died before the write reached the file

    runtime = await resume(home, ws)
    try:
        assert (await runtime.task(task_id)).status is TaskStatus.SUCCEEDED
        assert (ws / "log.txt").read_text() == "before\nline\n"
        [receipt] = await runtime.journal.for_task(task_id)
        assert receipt.reversal is Reversal.REVERSIBLE and snapshot_dirs(home) == {receipt.id}
    finally:
        await runtime.close()


async def test_f10_a_local_step_with_no_evidence_is_rolled_back_and_runs_once(tmp_path):
    """A confined command tells nothing about whether it ran, but its effect stays in the snapshotted
    workspace: resume rolls it back and runs it again, so the line is there once."""
    home, ws = asking(tmp_path / "home"), tmp_path / "ws"
    ws.mkdir()
    (ws / "log.txt").write_text("before\n")
    spec = TaskSpec(goal="Log by shell", agent=scripted([ToolCall("shell.run", {"command": "echo line >> log.txt"})]))
    task_id = await crash_after_effect(home, ws, spec)
    assert (ws / "log.txt").read_text() == "before\nline\n", "the crash came after the effect"

    runtime = await resume(home, ws)
    try:
        assert (ws / "log.txt").read_text() == "before\n", "rolled back"
        [approval] = await runtime.pending_approvals()  # the command writes a file: its approval was spent
        assert "resume.rolled_back" in approval.rules and "resume.interrupted" not in approval.rules
        await runtime.approve(approval.id)
        await runtime.run_until_idle()
        assert (await runtime.queue.get(task_id)).status is TaskStatus.SUCCEEDED
        assert (ws / "log.txt").read_text() == "before\nline\n", "rolled back, then run once"
        [receipt] = await runtime.journal.for_task(task_id)
        assert receipt.reversal is Reversal.REVERSIBLE and snapshot_dirs(home) == {receipt.id}
        await runtime.undo(receipt.id)
        assert (ws / "log.txt").read_text() == "before\n"
    finally:
        await runtime.close()


async def test_f10_unasked_a_confined_step_with_no_evidence_is_rolled_back_and_run_again_once(tmp_path):
    """Under the default routing the confined command runs unasked: resumed, its interrupted run is rolled back
    and it runs again, once, with one receipt that undoes it."""
    home, ws = tmp_path / "home", tmp_path / "ws"
    ws.mkdir()
    (ws / "log.txt").write_text("before\n")
    spec = TaskSpec(goal="Log by shell", agent=scripted([ToolCall("shell.run", {"command": "echo line >> log.txt"})]))
    task_id = await crash_after_effect(home, ws, spec)
    runtime = await resume(home, ws)
    try:
        assert await runtime.pending_approvals() == []
        assert (await runtime.queue.get(task_id)).status is TaskStatus.SUCCEEDED
        assert (ws / "log.txt").read_text() == "before\nline\n", "rolled back, then run once"
        [receipt] = await runtime.journal.for_task(task_id)
        await runtime.undo(receipt.id)
        assert (ws / "log.txt").read_text() == "before\n"
    finally:
        await runtime.close()


async def test_f10_a_dangerous_local_step_is_rolled_back_and_asked_afresh(tmp_path):
    """Its approval was spent on the run the crash cut short; the new one says what became of that run."""
    home, ws = asking(tmp_path / "home"), tmp_path / "ws"
    (ws / "notes").mkdir(parents=True)
    (ws / "notes" / "a.txt").write_text("keep\n")
    spec = TaskSpec(goal="Clear notes", agent=scripted([ToolCall("shell.run", {"command": "rm -r notes"})]))
    task_id = await crash_after_effect(home, ws, spec)
    assert not (ws / "notes").exists()
    runtime = await resume(home, ws)
    try:
        [approval] = await runtime.pending_approvals()
        assert approval.task_id == task_id and approval.level != "safe"
        assert "resume.rolled_back" in approval.rules and "rolled back" in approval.reason
        assert (ws / "notes" / "a.txt").read_text() == "keep\n", "the interrupted run was undone"
        await runtime.deny(approval.id)
        await runtime.run_until_idle()
        assert (ws / "notes" / "a.txt").read_text() == "keep\n" and snapshot_dirs(home) == set()
    finally:
        await runtime.close()


async def test_f10_a_step_with_no_evidence_and_no_snapshot_is_asked_saying_it_may_have_run(tmp_path):
    """A command with the network may have acted outside: nothing to roll back, so a person judges."""
    home, ws = tmp_path / "home", tmp_path / "ws"
    ws.mkdir()
    home.mkdir()
    (home / "policy.toml").write_text('[shell]\negress = "allow"\n')
    (ws / "log.txt").write_text("before\n")
    spec = TaskSpec(goal="Log by shell", agent=scripted([ToolCall("shell.run", {"command": "echo line >> log.txt"})]))
    task_id = await crash_after_effect(home, ws, spec)

    runtime = await resume(home, ws)
    try:
        [approval] = await runtime.pending_approvals()
        assert approval.task_id == task_id and "resume.interrupted" in approval.rules
        assert approval.reason.startswith("INTERRUPTED mid-dispatch by a crash: it may already have run")
        assert "Journal: it was written ahead, no receipt followed" in approval.reason
        assert "Effect check: shell.run leaves nothing that tells whether it ran" in approval.reason
        await runtime.deny(approval.id)
        await runtime.run_until_idle()
        assert (ws / "log.txt").read_text() == "before\nline\n", "denied: not run again"
    finally:
        await runtime.close()


async def test_f10_a_dangerous_append_proven_not_to_have_run_is_asked_as_new(tmp_path):
    """Evidence cuts both ways: proven not run, its new approval must not claim it may have run."""
    home, ws = tmp_path / "home", tmp_path / "ws"
    ws.mkdir()
    home.mkdir()
    (home / "policy.toml").write_text('[tools."fs.append"]\nlevel = "dangerous"\n' + ASK_TABLE)
    (ws / "log.txt").write_text("")
    task_id = await crash_after_effect(home, ws, APPEND)
    (ws / "log.txt").write_text("")  # the write never reached the file
    runtime = await resume(home, ws)
    try:
        [approval] = await runtime.pending_approvals()
        assert approval.task_id == task_id and "INTERRUPTED" not in approval.reason
        await runtime.approve(approval.id)
        await runtime.run_until_idle()
        assert (ws / "log.txt").read_text() == "line\n"
    finally:
        await runtime.close()
