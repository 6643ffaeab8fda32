"""`warden tasks`: list the home's tasks, show one with its usage and budget, raise a task's budget."""

from __future__ import annotations

import argparse
import asyncio
import json

from rich.console import Console
from rich.table import Table

from engine.errors import WardenError
from engine.runtime import Runtime, warden_home
from engine.tasks.budget import Budget


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("tasks", help="list tasks, show one, raise a task's budget",
                                   description="With no action, lists the tasks of $WARDEN_HOME.")
    actions = parser.add_subparsers(title="actions", metavar="ACTION", dest="action")
    actions.add_parser("list", help="every task, oldest first")
    show = actions.add_parser("show", help="one task: its status, usage, budget and steps")
    show.add_argument("task_id")
    show.add_argument("--json", action="store_true", help="print one JSON object")
    budget = actions.add_parser("budget", help="raise a task's limits; a task paused on its budget resumes",
                                description="Each limit given replaces the task's; the others stay. A task paused "
                                "because it reached a limit goes back in the queue once it is within the new budget.")
    budget.add_argument("task_id")
    budget.add_argument("--steps", type=int)
    budget.add_argument("--wall", type=float, dest="wall_s", help="seconds of running")
    budget.add_argument("--tokens", type=int)
    budget.add_argument("--cost", type=float, dest="cost_usd", help="US dollars")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    return asyncio.run(_run(args))


async def _run(args: argparse.Namespace) -> int:
    console = Console(highlight=False)
    runtime = await Runtime.open(warden_home())
    try:
        if args.action == "budget":
            limits = {name: getattr(args, name) for name in ("steps", "wall_s", "tokens", "cost_usd")}
            try:
                raised = Budget.from_json({k: v for k, v in limits.items() if v is not None}, "budget")
            except ValueError as exc:
                raise WardenError(str(exc)) from None
            if not raised.as_json():
                console.print("give at least one of --steps, --wall, --tokens, --cost")
                return 2
            budget = await runtime.raise_budget(args.task_id, raised)
            task = await runtime.task(args.task_id)
            console.print(f"{task.id} budget {json.dumps((await runtime.queue.budget(task)).as_json())}; "
                          f"raised by you: {json.dumps(budget.as_json())}; now {task.status.value}")
            return 0
        if args.action == "show":
            task = await runtime.task(args.task_id)
            shown = {"id": task.id, "status": task.status.value, "goal": task.goal, "env": task.env,
                     "mode": task.mode.value if task.mode else None, "program_id": task.program_id,
                     "error": task.error, "spent": (await runtime.queue.spent(task.id)).as_json(),
                     "budget": (await runtime.queue.budget(task)).as_json(), "steps": await runtime.traces(task.id)}
            if args.json:
                print(json.dumps(shown))
            else:
                console.print_json(json.dumps(shown))
            return 0
        table = Table("id", "status", "goal", "where", box=None)
        for task in await runtime.tasks():
            table.add_row(task.id, task.status.value, task.goal, task.env or "")
        console.print(table)
        return 0
    finally:
        await runtime.close()
