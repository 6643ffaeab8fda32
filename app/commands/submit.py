"""`warden submit`: queue tasks from a JSON file, and optionally run them here with live progress."""

from __future__ import annotations

import argparse
import asyncio
import json
from pathlib import Path

from rich.console import Console

from app.commands.interrupt import release, stopped, until_signalled
from app.commands.record_text import line, plain_console
from engine import specfile
from engine.errors import WardenError
from engine.events.bus import Subscription
from engine.events.records import (
    ActionBlocked, ActionCompleted, ApprovalRequested, Event, ProgramRejected, ProgramStored, ReplayFellBack,
    StateChecked, TaskFailed, TaskStarted, TaskSucceeded,
)
from engine.runtime import Runtime, warden_home
from engine.tasks.task import TaskSpec


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "submit", help="queue tasks from a JSON file",
        description='FILE holds one task or a list of tasks: {"goal": ..., "plan": [{"tool": ..., "args": {...}}, ...], '
        '"evaluator": {predicate}}. They are queued in $WARDEN_HOME; the console runs them, or --run runs them here.',
    )
    parser.add_argument("file", type=Path, help="the task file (JSON)")
    parser.add_argument("--run", action="store_true", help="run the queue here until nothing more can run, showing each step")
    parser.add_argument("--workspace", type=Path, help="the workspace the tools act in (default $WARDEN_HOME/workspace)")
    parser.add_argument("--json", action="store_true",
                        help='print only one line, {"task_ids": [...]} (with --run, quietly, plus "statuses")')
    parser.set_defaults(func=run)


def load_specs(path: Path) -> list[TaskSpec]:
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as exc:  # ValueError: bad JSON, or an integer past 4,300 digits
        raise WardenError(f"{path}: not a readable JSON task file ({exc})") from None
    except RecursionError:
        raise WardenError(f"{path}: nested too deeply to be a task file") from None
    items = raw if isinstance(raw, list) else [raw]
    specs = []
    for number, item in enumerate(items, 1):
        if specfile.mentions_demo(item):
            which = f"task {number} names" if len(items) > 1 else "it names"
            raise WardenError(f"{path}: {which} {specfile.DEMO}, the demo site, which only `warden run` starts: "
                              f"run it with `warden run --spec {path}`")
        try:
            specs.append(TaskSpec.from_json(item))
        except (KeyError, TypeError, ValueError, AttributeError, WardenError) as exc:
            raise WardenError(f"{path}: task {number}: {exc}") from None
    return specs


def run(args: argparse.Namespace) -> int:
    specs = load_specs(args.file)
    return asyncio.run(_submit(specs, args.workspace, args.run, args.json))


async def _submit(specs: list[TaskSpec], workspace: Path | None, run_here: bool, as_json: bool = False) -> int:
    console = plain_console(quiet=as_json)
    runtime = await Runtime.open(warden_home(), workspace)
    try:
        events = runtime.events()
        tasks = await runtime.submit_all(specs)
        for task in tasks:
            console.print(line("queued ", task.id, "  ", task.goal))
        task_ids = [task.id for task in tasks]
        if not run_here:
            if as_json:
                print(json.dumps({"task_ids": task_ids}))
            return 0
        printer = asyncio.create_task(follow_events(console, events))
        try:
            signalled = await until_signalled(runtime.run_until_idle())
        finally:
            printer.cancel()
        if signalled is not None:  # Ctrl-C: what this process held goes back in the queue now, not after its lease
            return stopped("submit --run", signalled, await release(runtime, signalled, "submit --run"))
        for event in events.drain():
            show_event(console, event)
        statuses = {task.id: (await runtime.queue.get(task.id)).status.value for task in tasks}
        if as_json:
            print(json.dumps({"task_ids": task_ids, "statuses": statuses}))
        waiting = [task_id for task_id, status in statuses.items() if status == "paused"]
        if waiting:
            console.print(f"{len(waiting)} task(s) wait for approval: open the console with `warden` to decide")
        return 0 if all(status in ("succeeded", "paused") for status in statuses.values()) else 1
    finally:
        await runtime.close()


async def follow_events(console: Console, events: Subscription) -> None:
    async for event in events:
        show_event(console, event)


def show_event(console: Console, event: Event) -> None:
    """One line per event a person follows a run by; the rest stay in the database."""
    said = {
        TaskStarted: lambda e: line((e.task_id, "bold"), " ▶ ", e.mode,
                                    *((" (program ", e.program_id, ")") if e.program_id else ())),
        StateChecked: lambda e: line(f"  {'✔' if e.passed else '✖'} state ", e.state_id),
        ActionCompleted: lambda e: line("  ● ", e.call["tool"], " (", e.source, ")"),
        ApprovalRequested: lambda e: line("  ‖ ", e.call["tool"], " waits for approval: ", e.reason),
        ActionBlocked: lambda e: line("  ✖ ", e.call["tool"], " ", e.reason),
        ReplayFellBack: lambda e: line("  ↪ replay fell back at ", e.state_id, ": ", e.reason),
        TaskSucceeded: lambda e: line((e.task_id, "bold"), " ✔ done"),
        TaskFailed: lambda e: line((e.task_id, "bold"), " ✖ failed: ", e.error),
        ProgramStored: lambda e: line("  ★ stored program ", e.program_id),
        ProgramRejected: lambda e: line("  ☆ program not stored: ", e.reason),
    }.get(type(event))
    if said is not None:
        console.print(said(event))
