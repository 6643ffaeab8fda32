"""A finished task as a script reads it: the JSON result of `warden run`, shared with the benchmarks.

One function computes it so a figure `warden bench replay` prints for a run is exactly the
one `warden run --json` would have printed for it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.errors import WardenError
from engine.events.records import ProgramStored, ReplayFellBack, TaskPaused, TaskStarted
from engine.tasks.evaluator import judge
from engine.tasks.task import Task, TaskStatus

if TYPE_CHECKING:
    from engine.runtime import Runtime


async def task_report(runtime: Runtime, task: Task, wall_s: float) -> dict[str, Any]:
    """The run's outcome, what the evaluator says now, how the task was served, and what it cost."""
    history = await runtime.history(task.id)
    modes = [e.mode for e in history if isinstance(e, TaskStarted)]
    fell_back = any(isinstance(e, ReplayFellBack) for e in history)
    stored = [e for e in history if isinstance(e, ProgramStored)]
    steps = await runtime.traces(task.id)
    outcome, reason = "failed", task.error
    if task.status is TaskStatus.SUCCEEDED:
        outcome = "succeeded"
    elif task.status is TaskStatus.PAUSED:
        outcome = "blocked"
        reason = next((e.reason for e in reversed(history) if isinstance(e, TaskPaused)), "waiting for a person")
    elif any(step["status"] == "blocked" for step in steps):
        outcome = "blocked"
    spent = await runtime.queue.spent(task.id)
    return {
        "task_id": task.id, "goal": task.goal, "outcome": outcome, "reason": reason,
        "evaluation": await evaluation(runtime, task),
        "path": "hybrid" if fell_back else (modes[0] if modes else "agent"),
        "program_id": task.program_id,
        "stored_program_id": stored[-1].program_id if stored else None,
        "stored_program_status": stored[-1].status if stored else None,
        "model_calls": spent.usage.model_calls, "tokens": spent.usage.tokens, "cost_usd": round(spent.usage.cost_usd, 6),
        "steps": sum(step["status"] == "done" for step in steps), "wall_s": round(wall_s, 3),
    }


async def evaluation(runtime: Runtime, task: Task) -> bool | None:
    """The evaluator's answer on the environment as the run left it (None when the task has none)."""
    evaluator = task.spec.evaluator
    if evaluator is None:
        return None
    if task.status is TaskStatus.SUCCEEDED:
        return True
    try:
        env = runtime.environment(task.env) if task.env else None
        return await judge(evaluator, env, runtime.shell_evaluator) if env is not None else False
    except WardenError:  # an environment that cannot be opened (a workspace `placement` refuses) or judged
        return False
