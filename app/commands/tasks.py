"""`warden tasks`: list the home's tasks, show one, pause, resume, cancel or retry it, raise its budget."""

from __future__ import annotations

import argparse
import sys
import json

from rich.console import Console
from rich.table import Table

from app.commands.record_text import cell, error, json_block, line, plain_console
from app.commands.scripting import print_json, run_on_runtime
from engine.events.records import TaskPaused, TaskResumed
from engine.gate.approvals import ApprovalStatus
from engine.journal.diff import workspace_root
from engine.runtime import Runtime, operator
from engine.tasks.budget import Budget
from engine.tasks.task import Task, TaskError, TaskStatus


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("tasks", help="list, show, pause, resume, cancel or retry tasks; raise a budget",
                                   description="With no action, lists the tasks of $WARDEN_HOME. "
                                   "Errors are one line on stderr and exit 1.")
    parser.add_argument("--json", action="store_true", help="print JSON (with no action: one array of task objects)")
    # An action's --json is left unset unless given, so the flag reads the same before the action as after it.
    actions = parser.add_subparsers(title="actions", metavar="ACTION", dest="action")
    listing = actions.add_parser("list", help="every task, oldest first")
    listing.add_argument("--json", action="store_true", default=argparse.SUPPRESS,
                         help="print one JSON array of task objects")
    show = actions.add_parser("show", help="one task: its status, workspace, usage, budget and steps")
    show.add_argument("task_id")
    show.add_argument("--json", action="store_true", default=argparse.SUPPRESS, help="print one JSON object")
    for name, text in (("pause", "hold a queued task out of the queue"),
                       ("resume", "put a paused task back in the queue (not one waiting on an approval)"),
                       ("cancel", "stop a task that has not finished"),
                       ("retry", "put a failed or cancelled task back in the queue")):
        action = actions.add_parser(name, help=text)
        action.add_argument("task_id")
        action.add_argument("--json", action="store_true", default=argparse.SUPPRESS,
                            help="print the task as one JSON object")
    budget = actions.add_parser("budget", help="raise a task's limits; a task paused on its budget resumes",
                                description="Each limit given replaces the task's; the others stay. A task paused "
                                "because it reached a limit goes back in the queue once it is within the new budget.")
    budget.add_argument("task_id")
    budget.add_argument("--steps", type=int)
    budget.add_argument("--wall", type=float, dest="wall_s", help="seconds of running")
    budget.add_argument("--tokens", type=int)
    budget.add_argument("--cost", type=float, dest="cost_usd", help="US dollars")
    budget.add_argument("--json", action="store_true", default=argparse.SUPPRESS,
                        help='print {"id", "status", ..., "budget": now, "raised": what you gave} as one JSON object')
    parser.set_defaults(func=run, action=None, json=False)


def run(args: argparse.Namespace) -> int:
    return run_on_runtime(lambda runtime: _run(runtime, args))


async def _run(runtime: Runtime, args: argparse.Namespace) -> int:
    console = plain_console()
    if args.action == "budget":
        return await _budget(runtime, args, console)
    if args.action == "show":
        shown = await _shown(runtime, await runtime.task(args.task_id))
        if args.json:
            print_json(shown)
        else:
            console.print(json_block(shown))
        return 0
    if args.action in MOVES:
        await MOVES[args.action](runtime, args.task_id)
        task = await runtime.task(args.task_id)
        if args.json:
            print_json(summary(task))
        else:
            console.print(line(task.id, " ", task.status.value))
        return 0
    tasks = await runtime.tasks()
    if args.json:
        print_json([summary(task) for task in tasks])
        return 0
    table = Table("id", "status", "goal", "where", box=None)
    for task in tasks:
        table.add_row(cell(task.id), cell(task.status.value), cell(task.goal), cell(task.env or ""))
    console.print(table)
    return 0


def summary(task: Task) -> dict:
    """A task as a list shows it: id, status, goal, and the workspace it acts in."""
    root = workspace_root(task.env)
    return {"id": task.id, "status": task.status.value, "goal": task.goal, "workspace": task.env,
            "workspace_path": str(root) if root else None, "error": task.error}


async def _shown(runtime: Runtime, task: Task) -> dict:
    return {**summary(task), "env": task.env, "mode": task.mode.value if task.mode else None,
            "program_id": task.program_id, "spent": (await runtime.queue.spent(task.id)).as_json(),
            "budget": (await runtime.queue.budget(task)).as_json(), "steps": await runtime.traces(task.id)}


async def _budget(runtime: Runtime, args: argparse.Namespace, console: Console) -> int:
    limits = {name: getattr(args, name) for name in ("steps", "wall_s", "tokens", "cost_usd")}
    try:
        raised = Budget.from_json({k: v for k, v in limits.items() if v is not None}, "budget")
    except ValueError as exc:  # a bad limit is a usage error (2), as argparse's are; a refusal is 1
        error(exc)
        return 2
    if not raised.as_json():
        print("warden: give at least one of --steps, --wall, --tokens, --cost", file=sys.stderr)
        return 2
    budget = await runtime.raise_budget(args.task_id, raised)
    task = await runtime.task(args.task_id)
    now = (await runtime.queue.budget(task)).as_json()
    if args.json:
        print_json({**summary(task), "budget": now, "raised": budget.as_json()})
        return 0
    console.print(line(task.id, f" budget {json.dumps(now)}; raised by you: {json.dumps(budget.as_json())}; "
                       f"now {task.status.value}"))
    return 0


async def _move(runtime: Runtime, task_id: str, to: TaskStatus, allowed: tuple[TaskStatus, ...], verb: str) -> None:
    """Move a task from one of `allowed` to `to`, guarded so a runner changing it meanwhile wins."""
    task = await runtime.task(task_id)
    if task.status not in allowed:
        wanted = " or ".join(status.value for status in allowed)
        raise TaskError(f"task {task_id} is {task.status.value}; only a {wanted} task can be {verb}")
    if not await runtime.queue.move(task_id, to, expect=task.status):
        raise TaskError(f"task {task_id} changed state; try again")


async def pause(runtime: Runtime, task_id: str) -> None:
    await _move(runtime, task_id, TaskStatus.PAUSED, (TaskStatus.QUEUED,), "paused")
    await runtime.bus.publish(TaskPaused(task_id, f"paused by {operator()}"))


async def resume(runtime: Runtime, task_id: str) -> None:
    latest = await runtime.approvals.latest(task_id)
    if latest is not None and latest.status is ApprovalStatus.PENDING:
        raise TaskError(f"task {task_id} waits on approval {latest.id}; approve or deny it instead")
    await _move(runtime, task_id, TaskStatus.QUEUED, (TaskStatus.PAUSED,), "resumed")
    await runtime.bus.publish(TaskResumed(task_id, f"resumed by {operator()}"))


async def cancel(runtime: Runtime, task_id: str) -> None:
    await runtime.cancel(task_id)


async def retry(runtime: Runtime, task_id: str) -> None:
    await _move(runtime, task_id, TaskStatus.QUEUED, (TaskStatus.FAILED, TaskStatus.CANCELLED), "retried")
    await runtime.bus.publish(TaskResumed(task_id, f"retried by {operator()}"))


MOVES = {"pause": pause, "resume": resume, "cancel": cancel, "retry": retry}
