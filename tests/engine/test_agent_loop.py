"""The runner owns the agent loop: proposals are on record before the gate, resumed not re-asked, outcomes told."""

from __future__ import annotations

import asyncio
import itertools
import sqlite3
from types import SimpleNamespace
import socket
import os
from pathlib import Path

from engine.agents.agent import Act, Finish, Outcome, Usage
from engine.events.records import AgentConcluded, AgentStepped, ApprovalRequested
from engine.gate.policy import Policy
from engine.runtime import Runtime, Switches
from engine.tasks import lease
from engine.tasks.task import TaskSpec, TaskStatus, scripted
from engine.tools.call import ToolCall
from tests.asking import ASKING, asking_policy


class Recording:
    """An agent that plays a list of moves and remembers every observation and history it was given."""

    name = "recording"

    def __init__(self, moves) -> None:
        self.moves = moves
        self.seen: list[tuple] = []

    async def propose(self, observation, history):
        self.seen.append((observation, list(history)))
        return self.moves(len(self.seen), history)


async def open_with(tmp_path: Path, agent, policy: Policy | None = None, **options) -> Runtime:
    return await Runtime.open(tmp_path / "home", tmp_path / "ws", Switches(), policy=policy,
                              agents={"recording": lambda spec, context: agent}, **options)


async def test_a_stored_proposal_is_dispatched_after_approval_and_the_agent_is_not_asked_again(tmp_path, db):
    stamps = itertools.count(1_700_000_000_000)

    def moves(asked, history):
        if history:
            return Finish("wrote the stamp")
        return Act(ToolCall("fs.write", {"path": "stamp.txt", "content": f"{next(stamps)}\n"}), Usage(1, 120, 30, 0.002))

    agent = Recording(moves)
    # fs.write rated dangerous, and every dangerous call asks (tests/asking.py): a contained write runs unasked otherwise.
    runtime = await open_with(tmp_path, agent, asking_policy(tools={"fs.write": {"level": "dangerous"}}))
    try:
        task = await runtime.submit(TaskSpec(goal="Write the time stamp", agent={"kind": "recording"}))
        await runtime.run_until_idle()
        assert (await runtime.task(task.id)).status is TaskStatus.PAUSED
        [proposed] = db("SELECT call, status FROM steps WHERE task_id = ?", task.id)
        assert proposed["status"] == "waiting"
        [approval] = await runtime.pending_approvals()
        assert approval.call.canonical() == proposed["call"]

        await runtime.approve(approval.id)
        for _ in range(3):
            await runtime.run_until_idle()
        assert (await runtime.task(task.id)).status is TaskStatus.SUCCEEDED
        assert (tmp_path / "ws" / "stamp.txt").read_text() == approval.call.args["content"]
        assert len(agent.seen) == 2, "asked once for the call, once more after it ran: never re-asked on resume"
        events = await runtime.history(task.id)
        assert len([e for e in events if isinstance(e, ApprovalRequested)]) == 1
        assert len(db("SELECT id FROM approvals")) == 1
        [stepped] = [e for e in events if isinstance(e, AgentStepped)]
        assert stepped.usage == {"model_calls": 1, "input_tokens": 120, "output_tokens": 30, "cost_usd": 0.002}
        [concluded] = [e for e in events if isinstance(e, AgentConcluded)]
        assert (concluded.outcome, concluded.message) == ("finished", "wrote the stamp")
    finally:
        await runtime.close()


async def test_the_agent_is_told_each_outcome_and_sees_the_screen(tmp_path):
    calls = [
        ToolCall("fs.write", {"path": "a.txt", "content": "one"}),
        ToolCall("fs.delete", {"path": "missing.txt"}),
        ToolCall("fs.delete", {"path": "a.txt"}),
        ToolCall("fs.delete", {"path": "/"}),
    ]
    agent = Recording(lambda asked, history: Act(calls[asked - 1]) if asked <= len(calls) else Finish())
    runtime = await open_with(tmp_path, agent, ASKING)  # the contained deletes ask, so one can be denied
    try:
        task = await runtime.submit(TaskSpec(goal="Try everything", agent={"kind": "recording"}))
        for _ in range(4):
            await runtime.run_until_idle()
            for approval in await runtime.pending_approvals():
                if approval.call.args["path"] == "missing.txt":
                    await runtime.approve(approval.id)
                else:
                    await runtime.deny(approval.id)
        assert (await runtime.task(task.id)).status is TaskStatus.SUCCEEDED
        observation, history = agent.seen[-1]
        assert [(turn.call.tool, turn.outcome) for turn in history] == [
            ("fs.write", Outcome.DONE), ("fs.delete", Outcome.FAILED), ("fs.delete", Outcome.DENIED),
            ("fs.delete", Outcome.BLOCKED),
        ]
        assert history[0].output == "wrote 3 bytes to a.txt"
        assert "does not exist" in history[1].output
        assert "denied by" in history[2].output
        assert history[3].output.startswith("blocked")
        assert "a.txt" in agent.seen[1][0].text and agent.seen[1][0].fields["entries"]
        assert await agent.seen[1][0].holds({"text": {"path": "a.txt", "equals": "one"}})
    finally:
        await runtime.close()


async def test_the_step_cap_stops_an_agent_that_never_finishes(tmp_path):
    agent = Recording(lambda asked, history: Act(ToolCall("fs.append", {"path": "loop.txt", "content": "."})))
    runtime = await open_with(tmp_path, agent)
    try:
        task = await runtime.submit(TaskSpec(goal="Loop", agent={"kind": "recording"}, max_steps=4))
        await runtime.run_until_idle()
        task = await runtime.task(task.id)
        assert task.status is TaskStatus.FAILED and "4 steps" in task.error
        assert (tmp_path / "ws" / "loop.txt").read_text() == "...."
    finally:
        await runtime.close()


async def test_a_heartbeat_that_cannot_be_written_stops_further_steps(tmp_path, monkeypatch):
    runtime = await Runtime.open(tmp_path / "home", tmp_path / "ws", Switches(), lease_seconds=0.3)
    try:
        task = await runtime.submit(TaskSpec(goal="Slow then write", agent=scripted([
            ToolCall("shell.run", {"command": "sleep 1"}),
            ToolCall("fs.write", {"path": "after.txt", "content": "late"}),
        ])))

        def busy(*args, **kwargs):
            raise sqlite3.OperationalError("database is locked")

        monkeypatch.setattr(lease, "sqlite3", SimpleNamespace(connect=busy, Error=sqlite3.Error))
        await runtime.run_until_idle()
        stalled = await runtime.task(task.id)
        assert stalled.status is TaskStatus.RUNNING, "left for recovery, not failed by a runner that lost its lease"
        assert stalled.claimed_by == f"{socket.gethostname()}:{os.getpid()}"
        assert not (tmp_path / "ws" / "after.txt").exists()

        monkeypatch.setattr(lease, "sqlite3", sqlite3)
        await asyncio.sleep(0.4)  # the stalled claim's lease runs out; recovery takes the task up again
        await runtime.run_until_idle()
        assert (await runtime.task(task.id)).status is TaskStatus.SUCCEEDED
        assert (tmp_path / "ws" / "after.txt").read_text() == "late"
    finally:
        await runtime.close()


async def test_f09_fs_append_is_never_skipped_because_the_text_is_already_there(runtime, run, ws):
    """Finding 9 of the hardening review: an append's effect (the file contains the text) may hold before it runs."""
    (ws / "log.txt").write_text("entry 11\n")
    task = await run(runtime, TaskSpec(goal="Append twice and once more", agent=scripted([
        ToolCall("fs.append", {"path": "twice.txt", "content": "ok\n"}),
        ToolCall("fs.append", {"path": "twice.txt", "content": "ok\n"}),
        ToolCall("fs.append", {"path": "log.txt", "content": "1\n"}),
    ])))
    assert task.status is TaskStatus.SUCCEEDED, task.error
    assert (ws / "twice.txt").read_text() == "ok\nok\n"
    assert (ws / "log.txt").read_text() == "entry 11\n1\n"
