"""Tools: confined to the workspace, declared honestly, and refused in one line when misused."""

from __future__ import annotations

import pytest

from engine.tier import Tier
from engine.runtime import Switches
from engine.tasks.task import TaskSpec, TaskStatus, scripted
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


async def test_unknown_tool_fails_the_task_naming_it(runtime, run):
    task = await run(runtime, TaskSpec(goal="Teleport", agent=scripted((ToolCall("fs.teleport", {"path": "x"}),))))
    assert task.status is TaskStatus.FAILED
    assert "fs.teleport" in task.error and "\n" not in task.error


async def test_oversized_argument_fails_cleanly(runtime, run, db, ws):
    task = await run(runtime, writing("big.txt", "x" * (MAX_ARGUMENT_BYTES + 1)))
    assert task.status is TaskStatus.FAILED
    assert str(MAX_ARGUMENT_BYTES) in task.error and len(task.error) < 200
    assert not (ws / "big.txt").exists()
    assert db("SELECT id FROM receipts WHERE task_id = ?", task.id) == []
