"""A budget pauses a task when a limit is reached; raising it (CLI or runtime) puts the task back to work."""

from __future__ import annotations

import json
import subprocess
import sys

from engine.agents.agent import Act, Finish, Usage
from engine.events.records import BudgetExceeded, BudgetRaised, TaskPaused
from engine.gate.policy import Policy
from engine.tasks.budget import Budget
from engine.tasks.task import TaskSpec, TaskStatus
from engine.tools.call import ToolCall
from tests.engine.test_agent_loop import Recording, open_with

PRICED = Policy.from_mapping({"prices": {"test-model": {"input_per_mtok": 2.0, "output_per_mtok": 10.0}}})


def appender(total: int):
    """An agent that appends one line per step, costing 1,000 input and 100 output tokens each, `total` times."""

    def moves(asked, history):
        if len(history) >= total:
            return Finish("all lines written")
        return Act(ToolCall("fs.append", {"path": "log.txt", "content": f"{len(history)}\n"}), Usage(1, 1000, 100, 0.003))

    return Recording(moves)


async def test_a_token_budget_pauses_the_task_and_a_raise_resumes_it_to_the_end(tmp_path):
    runtime = await open_with(tmp_path, appender(5), PRICED)
    try:
        spec = TaskSpec.from_json({"goal": "Write five lines", "agent": {"kind": "recording"}, "learn": False,
                                   "budget": {"tokens": 2500}})
        task = await runtime.submit(spec)
        await runtime.run_until_idle()
        paused = await runtime.task(task.id)
        assert paused.status is TaskStatus.PAUSED
        assert (tmp_path / "ws" / "log.txt").read_text() == "0\n1\n2\n"  # 3 × 1,100 tokens crosses 2,500
        spent = await runtime.queue.spent(task.id)
        assert (spent.steps, spent.usage.model_calls, spent.usage.tokens) == (3, 3, 3300)
        events = await runtime.history(task.id)
        [exceeded] = [e for e in events if isinstance(e, BudgetExceeded)]
        assert (exceeded.limit, exceeded.used, exceeded.allowed) == ("tokens", 3300, 2500)
        assert any(isinstance(e, TaskPaused) and e.reason.startswith("budget: tokens") for e in events)

        await runtime.raise_budget(task.id, Budget(tokens=4000), by="ops")
        assert (await runtime.task(task.id)).status is TaskStatus.QUEUED
        await runtime.run_until_idle()
        assert (await runtime.task(task.id)).status is TaskStatus.PAUSED  # 4 × 1,100 crosses 4,000 too
        await runtime.raise_budget(task.id, Budget(tokens=100_000), by="ops")
        await runtime.run_until_idle()
        done = await runtime.task(task.id)
        assert done.status is TaskStatus.SUCCEEDED
        assert (tmp_path / "ws" / "log.txt").read_text() == "0\n1\n2\n3\n4\n"
        assert [e.by for e in await runtime.history(task.id) if isinstance(e, BudgetRaised)] == ["ops", "ops"]
    finally:
        await runtime.close()


async def test_cost_is_priced_by_the_policy_table_and_a_raise_below_use_does_not_resume(tmp_path):
    runtime = await open_with(tmp_path, appender(3), PRICED)
    try:
        spec = TaskSpec.from_json({"goal": "Write three lines", "agent": {"kind": "recording"}, "learn": False,
                                   "budget": {"cost_usd": 0.005, "steps": 10}})
        task = await runtime.submit(spec)
        await runtime.run_until_idle()
        assert (await runtime.task(task.id)).status is TaskStatus.PAUSED
        spent = await runtime.queue.spent(task.id)
        assert spent.usage.cost_usd >= 0.005 and spent.steps == 2  # each step reports 0.003
        await runtime.raise_budget(task.id, Budget(steps=20), by="ops")  # the cost limit still holds it
        assert (await runtime.task(task.id)).status is TaskStatus.PAUSED
    finally:
        await runtime.close()


def test_the_cli_raises_a_budget_and_the_task_is_queued_again(tmp_path):
    home = tmp_path / "home"
    spec = tmp_path / "task.json"
    spec.write_text(json.dumps({"goal": "Write nothing", "budget": {"steps": 1},
                                "agent": {"kind": "scripted", "steps": [
                                    {"tool": "fs.write", "args": {"path": "a.txt", "content": "a"}},
                                    {"tool": "fs.write", "args": {"path": "b.txt", "content": "b"}}]}}))
    env = {"WARDEN_HOME": str(home), "PATH": "/usr/bin:/bin"}

    def warden(*args):
        return subprocess.run([sys.executable, "-m", "app.cli", *args], capture_output=True, text=True, env=env, timeout=120)

    submitted = warden("submit", str(spec), "--run")
    assert submitted.returncode == 0, submitted.stderr
    task_id = submitted.stdout.split()[1]
    assert task_id in warden("tasks", "list").stdout
    shown = json.loads(warden("tasks", "show", task_id, "--json").stdout)
    assert shown["status"] == "paused" and shown["spent"]["steps"] == 1 and shown["budget"] == {"steps": 1}
    raised = warden("tasks", "budget", task_id, "--steps", "5")
    assert raised.returncode == 0 and "queued" in raised.stdout
    assert json.loads(warden("tasks", "show", task_id, "--json").stdout)["budget"] == {"steps": 5}
    bad = warden("tasks", "budget", task_id, "--steps", "-1")
    assert bad.returncode == 2 and "positive" in bad.stderr and len(bad.stderr.strip().splitlines()) == 1

