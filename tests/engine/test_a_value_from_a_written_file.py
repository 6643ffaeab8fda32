"""Issue 25's held-out blind spot, end to end: a value the agent wrote with `fs.write` reaches arithmetic.

Bash evaluates `$((n+1))` recursively, so `n` read from a file holding `a[$(touch pwned)]` runs `touch`.
The gate cannot prove such a value inert, so the command is not safe: under a policy that asks for every
dangerous call it waits for a person, and nothing in the file ran. (The command it would run only touches a
file in the test's own workspace.)
"""

from __future__ import annotations

from pathlib import Path

from engine.runtime import Runtime, Switches
from engine.tasks.task import TaskSpec, TaskStatus, scripted
from engine.tools.call import ToolCall
from tests.asking import ASKING


async def test_a_value_written_to_a_file_then_read_into_arithmetic_waits_for_a_person(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    spec = TaskSpec(goal="Count on", learn=False, agent=scripted([
        ToolCall("fs.write", {"path": "n.txt", "content": "a[$(touch pwned)]\n"}),
        ToolCall("shell.run", {"command": "read n < n.txt; echo $((n+1))"}),
    ]))
    runtime = await Runtime.open(tmp_path / "home", ws, Switches(), policy=ASKING)
    try:
        task = await runtime.submit(spec)
        await runtime.run_until_idle()
        assert (await runtime.queue.get(task.id)).status is TaskStatus.PAUSED
        [held] = await runtime.pending_approvals()
        assert held.call.args["command"].startswith("read n") and "exec.arithmetic-value" in held.rules
        assert (ws / "n.txt").exists() and not (ws / "pwned").exists()
    finally:
        await runtime.close()
