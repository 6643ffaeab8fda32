"""A second environment kind (a key–value store, `kv_env.py`) goes through the whole loop with no engine change."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.events.records import AgentStepped, ProgramStored, TaskFailed
from engine.gate.policy import Policy
from engine.journal.receipt import Reversal
from engine.runtime import Runtime, Switches
from engine.agents.agent import Act, GiveUp
from engine.envs.environment import Environment
from engine.tasks.task import TaskError, TaskMode, TaskSpec, TaskStatus, scripted
from engine.tools.call import ToolCall
from tests.engine.kv_env import KeyValueEnv


@pytest.fixture
async def kv(tmp_path: Path):
    env = KeyValueEnv({"colour": "red"})
    runtime = await Runtime.open(tmp_path / "home", tmp_path / "ws", Switches(), environments=[env])
    yield runtime, env
    await runtime.close()


def set_key(key: str, value: str, *extra: dict) -> TaskSpec:
    return TaskSpec(
        goal=f'Set the key "{key}" to "{value}"',
        env={"kind": "kv"},
        agent=scripted([{"tool": "kv.set", "args": {"key": key, "value": value}}, *extra]),
        evaluator={"has": {"key": key, "value": value}},
    )


async def test_kv_task_compiles_verifies_in_a_fork_and_replays(kv, run, db):
    runtime, env = kv
    assert isinstance(env, Environment) and isinstance(runtime.workspace, Environment)
    first = await run(runtime, set_key("size", "large"))
    assert (first.status, first.mode) == (TaskStatus.SUCCEEDED, TaskMode.AGENT), first.error
    [stored] = [e for e in await runtime.history(first.id) if isinstance(e, ProgramStored)]
    program = await runtime.program(stored.program_id)
    assert (program.kind, program.status) == ("kv", "verified")
    assert program.signature.startswith("kv:")
    assert program.states[-1].check == {"has": {"key": "{key}", "value": "{p2}"}}
    assert env.data == {"colour": "red", "size": "large"}

    second = await run(runtime, set_key("shape", "round"))
    assert (second.status, second.mode, second.program_id) == (TaskStatus.SUCCEEDED, TaskMode.REPLAY, program.id)
    assert not [e for e in await runtime.history(second.id) if isinstance(e, AgentStepped)]
    assert env.data["shape"] == "round"

    [receipt] = await runtime.journal.for_task(second.id)
    assert receipt.env == env.identity and receipt.reversal is Reversal.REVERSIBLE
    await runtime.undo(receipt.id)
    assert "shape" not in env.data


async def test_a_workspace_program_is_never_served_to_a_kv_task(kv, run):
    runtime, env = kv
    task = await run(runtime, TaskSpec(goal="Archive the file scratch.txt", env={"kind": "kv"}))
    assert task.status is TaskStatus.FAILED
    assert "no stored program" in task.error


async def test_a_program_with_an_irreversible_step_is_held_unverified_and_not_reexecuted(kv, run_approving, run):
    runtime, env = kv
    task = await run_approving(runtime, set_key("note", "hello", {"tool": "kv.send", "args": {"key": "note"}}))
    assert task.status is TaskStatus.SUCCEEDED, task.error
    assert env.outbox == ["hello"]
    [stored] = [e for e in await runtime.history(task.id) if isinstance(e, ProgramStored)]
    assert stored.status == "unverified"
    program = await runtime.program(stored.program_id)
    assert "externally_irreversible" in program.verification["evaluator"]
    assert env.outbox == ["hello"], "verification must not send again"

    held = await run_approving(runtime, set_key("memo", "hi", {"tool": "kv.send", "args": {"key": "memo"}}))
    assert held.mode is TaskMode.AGENT, "an unverified program is not served"

    await runtime.accept_program(program.id)
    assert (await runtime.program(program.id)).status == "accepted"
    served = await run_approving(runtime, set_key("tag", "x", {"tool": "kv.send", "args": {"key": "tag"}}))
    assert (served.status, served.mode) == (TaskStatus.SUCCEEDED, TaskMode.REPLAY), served.error
    assert env.outbox == ["hello", "hi", "x"]


async def test_a_tool_that_raises_fails_its_task_and_the_next_task_runs(kv, db):
    runtime, env = kv
    broken = await runtime.submit(TaskSpec(goal="Crash the driver", env={"kind": "kv"},
                                           agent=scripted([{"tool": "kv.explode", "args": {}}])))
    after = await runtime.submit(set_key("size", "small"))
    await runtime.run_until_idle()
    failed = await runtime.task(broken.id)
    assert failed.status is TaskStatus.FAILED
    assert failed.error == "RuntimeError: the store's driver crashed"
    assert db("SELECT status FROM steps WHERE task_id = ?", broken.id) == [{"status": "failed"}]
    assert (await runtime.task(after.id)).status is TaskStatus.SUCCEEDED


async def test_an_agent_that_raises_fails_its_task_with_a_traceback_and_the_runner_goes_on(tmp_path, db):
    class Broken:
        name = "broken"

        async def propose(self, observation, history):
            raise ZeroDivisionError("the model's reply could not be parsed")

    runtime = await Runtime.open(tmp_path / "home", tmp_path / "ws", Switches(),
                                 agents={"broken": lambda spec, context: Broken()})
    try:
        crashed = await runtime.submit(TaskSpec(goal="Think hard", agent={"kind": "broken"}))
        fine = await runtime.submit(TaskSpec(goal="Write a.txt", agent=scripted(
            [{"tool": "fs.write", "args": {"path": "a.txt", "content": "a"}}])))
        await runtime.run_until_idle()
        task = await runtime.task(crashed.id)
        assert task.status is TaskStatus.FAILED
        assert task.error == "internal error: ZeroDivisionError: the model's reply could not be parsed"
        [failure] = [e for e in await runtime.history(crashed.id) if isinstance(e, TaskFailed)]
        assert "Traceback" in failure.detail and "propose" in failure.detail
        assert (await runtime.task(fine.id)).status is TaskStatus.SUCCEEDED
    finally:
        await runtime.close()


async def test_f12_text_that_is_not_unicode_is_refused_at_submit(runtime, db):
    with pytest.raises(TaskError, match="not valid Unicode"):
        await runtime.submit(TaskSpec(goal="Write bad text", agent=scripted(
            [{"tool": "fs.write", "args": {"path": "bad.txt", "content": "x\ud800y"}}])))
    assert db("SELECT id FROM tasks") == []


async def test_f12_text_that_is_not_unicode_proposed_at_run_time_fails_its_task_and_leaves_nothing_behind(tmp_path, db):
    class Surrogates:
        name = "surrogates"

        async def propose(self, observation, history):
            if history:
                return GiveUp(history[-1].output)
            return Act(ToolCall("fs.write", {"path": "bad.txt", "content": "x\ud800y"}))

    runtime = await Runtime.open(tmp_path / "home", tmp_path / "ws", Switches(),
                                 agents={"surrogates": lambda spec, context: Surrogates()})
    ws = tmp_path / "ws"
    try:
        bad = await runtime.submit(TaskSpec(goal="Write bad text", agent={"kind": "surrogates"}))
        good = await runtime.submit(TaskSpec(goal="Write good text", agent=scripted(
            [{"tool": "fs.write", "args": {"path": "good.txt", "content": "fine"}}])))
        await runtime.run_until_idle()
        task = await runtime.task(bad.id)
        assert task.status is TaskStatus.FAILED and "not valid Unicode" in task.error
        assert db("SELECT status FROM steps WHERE task_id = ?", bad.id) == [{"status": "failed"}]
        assert not (ws / "bad.txt").exists()
        snapshots = runtime.home / "snapshots"
        referenced = {r["snapshot_path"] for r in db("SELECT snapshot_path FROM receipts") if r["snapshot_path"]}
        assert {str(p) for p in snapshots.iterdir()} == referenced if snapshots.exists() else not referenced
        assert (await runtime.task(good.id)).status is TaskStatus.SUCCEEDED
    finally:
        await runtime.close()


def test_policy_opt_ins_are_spelled_out():
    with pytest.raises(ValueError, match='"allow" or "deny"'):
        Policy.from_mapping({"shell": {"unconfined": True}})
    assert Policy.from_mapping({"shell": {"unconfined": "allow"}}).shell_unconfined


async def test_f17_start_states_kept_for_verification_do_not_pile_up(asking_runtime, run, db):
    """Each learning run forks its start state into runs/<task>; success, failure, cancellation and recovery remove it.
    The delete pauses because the runtime asks for every dangerous call (tests/asking.py)."""
    runtime = asking_runtime
    runs = runtime.home / "runs"
    done = await run(runtime, TaskSpec(goal='Write "a.txt"', agent=scripted(
        [{"tool": "fs.write", "args": {"path": "a.txt", "content": "a"}}]), evaluator={"exists": "a.txt"}))
    failed = await run(runtime, TaskSpec(goal='Delete "nothing.txt"', agent=scripted(
        [{"tool": "fs.move", "args": {"src": "nothing.txt", "dst": "b.txt"}}])))
    paused = await run(runtime, TaskSpec(goal='Delete "scratch.txt"', agent=scripted(
        [{"tool": "fs.delete", "args": {"path": "scratch.txt"}}])))
    assert (done.status, failed.status, paused.status) == (TaskStatus.SUCCEEDED, TaskStatus.FAILED, TaskStatus.PAUSED)
    assert sorted(p.name for p in runs.iterdir()) == [paused.id]
    await runtime.cancel(paused.id)
    assert list(runs.iterdir()) == []
    (runs / "t-orphaned").mkdir()
    await runtime.run_until_idle()
    assert list(runs.iterdir()) == []
