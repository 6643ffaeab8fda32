"""Tools: confined to the workspace, declared honestly, and refused in one line when misused."""

from __future__ import annotations

import pytest

from engine.tier import Tier
from engine.runtime import Switches
from engine.agents.agent import Act, GiveUp
from engine.runtime import Runtime
from engine.tasks.task import TaskError, TaskSpec, TaskStatus, scripted
from engine.tools.call import ToolCall
from engine.tools.registry import MAX_ARGUMENT_BYTES, Tool, ToolError, ToolRegistry


def writing(path: str, content: str = "x\n") -> TaskSpec:
    return TaskSpec(goal=f"Write {path}", agent=scripted((ToolCall("fs.write", {"path": path, "content": content}),)))


@pytest.mark.parametrize("how", ["dotdot", "absolute", "symlink"])
async def test_file_tools_cannot_leave_the_workspace(open_runtime, run, db, ws, tmp_path, how):
    """Confinement is the tools' own guarantee, so it holds with the gate switched off."""
    runtime = await open_runtime(Switches(gating=False))
    outside = tmp_path / "outside"
    outside.mkdir()
    (ws / "link").symlink_to(outside, target_is_directory=True)
    path = {"dotdot": "../escape.txt", "absolute": str(outside / "abs.txt"), "symlink": "link/escape.txt"}[how]

    task = await run(runtime, writing(path))
    assert task.status is TaskStatus.FAILED
    assert "escapes" in task.error and "\n" not in task.error
    assert list(outside.iterdir()) == [] and not (tmp_path / "escape.txt").exists()
    assert db("SELECT status FROM steps WHERE task_id = ?", task.id) == [{"status": "failed"}]
    assert db("SELECT id FROM receipts WHERE task_id = ?", task.id) == []


def test_registry_refuses_a_reversible_claim_without_a_reverser():
    async def noop(env, args):
        return ""

    registry = ToolRegistry()
    with pytest.raises(ToolError, match="reverser"):
        registry.register(Tool(name="fs.wipe", kind="workspace", schema={}, run=noop, tier=Tier.LOCAL_REVERSIBLE))
    assert registry.names() == []


async def test_an_unknown_tool_is_refused_at_submit_naming_it(runtime, db):
    with pytest.raises(TaskError) as refused:
        await runtime.submit(TaskSpec(goal="Teleport", agent=scripted((ToolCall("fs.teleport", {"path": "x"}),))))
    assert "step 1" in str(refused.value) and "fs.teleport" in str(refused.value) and "\n" not in str(refused.value)
    assert db("SELECT id FROM tasks") == []


async def test_an_unknown_tool_proposed_at_run_time_fails_the_step_and_the_agent_is_told(tmp_path):
    class Teleporter:
        name = "teleporter"

        async def propose(self, observation, history):
            return GiveUp(history[-1].output) if history else Act(ToolCall("fs.teleport", {"path": "x"}))

    runtime = await Runtime.open(tmp_path / "home", tmp_path / "ws", Switches(),
                                 agents={"teleporter": lambda spec, context: Teleporter()})
    try:
        task = await runtime.submit(TaskSpec(goal="Teleport", agent={"kind": "teleporter"}))
        await runtime.run_until_idle()
        task = await runtime.task(task.id)
        assert task.status is TaskStatus.FAILED
        assert "fs.teleport" in task.error and "\n" not in task.error
    finally:
        await runtime.close()


async def test_an_oversized_argument_is_refused_at_submit(runtime, db, ws):
    with pytest.raises(TaskError) as refused:
        await runtime.submit(writing("big.txt", "x" * (MAX_ARGUMENT_BYTES + 1)))
    assert str(MAX_ARGUMENT_BYTES) in str(refused.value) and len(str(refused.value)) < 200
    assert not (ws / "big.txt").exists()
    assert db("SELECT id FROM tasks") == []


@pytest.mark.parametrize("how", ["symlink loop", "name too long"])
async def test_f12_a_path_the_filesystem_cannot_resolve_fails_its_task_in_one_line(runtime, run, ws, how):
    """Hardening finding 12: bad paths fail their own task with a plain reason, not an internal error."""
    (ws / "loop").symlink_to(ws / "loop")
    path = {"symlink loop": "loop/x.txt", "name too long": "n" * 300 + ".txt"}[how]
    task = await run(runtime, writing(path))
    follower = await run(runtime, writing("after.txt"))
    assert task.status is TaskStatus.FAILED and "internal error" not in task.error and "\n" not in task.error
    assert follower.status is TaskStatus.SUCCEEDED
