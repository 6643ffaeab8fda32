"""`warden run --spec FILE`: run one task described in a spec file, here and now, and print its result."""

from __future__ import annotations

import argparse
import asyncio
import json
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any

from rich.console import Console

from app.commands.interrupt import release, stopped, until_signalled
from app.commands.record_text import line, plain_console
from app.commands.submit import follow_events, show_event
from engine import specfile
from engine.errors import WardenError
from engine.runtime import Runtime, warden_home
from engine.tasks.report import task_report
from engine.tasks.task import TaskSpec


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "run", help="run one task from a spec file and print its result",
        description="Runs the task a spec file (JSON, or TOML for .toml) describes, in $WARDEN_HOME, and prints "
        "its result. `{demo}` in the spec starts the bundled demo site on loopback. See docs/specs.md.",
    )
    parser.add_argument("--spec", type=Path, required=True, help="the task spec (JSON or TOML)")
    parser.add_argument("--json", action="store_true", help="print the result as one JSON object (progress goes to stderr)")
    parser.add_argument("--workspace", type=Path, help="the workspace file and shell tools act in")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    raw = specfile.read(args.spec)
    uses_demo = specfile.mentions_demo(raw)
    with ExitStack() as stack:
        if uses_demo:
            from engine.demo_site import DemoSite

            site = stack.enter_context(DemoSite())
            raw = specfile.with_demo(raw, site.url)
        result = asyncio.run(_run(raw, args.spec, args.workspace, plain_console(stderr=args.json), uses_demo))
    if isinstance(result, int):  # stopped by a signal, said in one line
        return result
    if args.json:
        print(json.dumps(result))
    else:
        _summarise(plain_console(), result)
    return 0 if result["outcome"] == "succeeded" else 1


async def _run(raw: dict[str, Any], path: Path, workspace: Path | None, console: Console,
               uses_demo: bool = False) -> dict[str, Any] | int:
    """The task's report; or, stopped by a signal, the exit status (its task released, or cancelled if it ran
    against the demo site this command started, which goes with it)."""
    began = time.monotonic()
    runtime = await Runtime.open(warden_home(), workspace)
    try:
        if "goal_js" in raw:
            raw = {**{k: v for k, v in raw.items() if k != "goal_js"}, "goal": await _goal(runtime, raw)}
        try:
            spec = TaskSpec.from_json(raw)
        except (KeyError, TypeError, ValueError, AttributeError, WardenError) as exc:
            raise WardenError(f"{path}: {exc}") from None
        events = runtime.events()
        [task] = await runtime.submit_all([spec])
        console.print(line("running ", task.id, "  ", task.goal))
        printer = asyncio.create_task(follow_events(console, events))
        try:
            signalled = await until_signalled(runtime.run_task(task.id))
        finally:
            printer.cancel()
        if signalled is not None:
            released = await release(runtime, signalled, "run")
            if uses_demo and task.id in released:
                await runtime.cancel(task.id, by=f"warden run, stopped by {signalled.name}")
                return stopped("run", signalled, [], f"; {task.id} cancelled: the demo site it ran against is gone")
            return stopped("run", signalled, released)
        for event in events.drain():
            show_event(console, event)
        return await task_report(runtime, await runtime.task(task.id), time.monotonic() - began)
    finally:
        await runtime.close()


async def _goal(runtime: Runtime, raw: dict[str, Any]) -> str:
    """The goal a page states: `goal_js` evaluated after the environment's reset and setup."""
    env_spec = raw.get("env") or {}
    env = runtime.environments.get(env_spec.get("kind", "")) if isinstance(env_spec, dict) else None
    if env is None or not hasattr(env, "evaluate"):
        raise WardenError('"goal_js" needs a web environment ("env": {"kind": "web", ...})')
    await env.reset(env_spec)
    goal = await env.evaluate(raw["goal_js"])
    if not isinstance(goal, str) or not goal.strip():
        raise WardenError(f"goal_js gave {goal!r:.80}, not a non-empty string")
    return goal


def _summarise(console: Console, result: dict[str, Any]) -> None:
    mark = {"succeeded": ("✔", "green"), "blocked": ("‖", "yellow")}.get(result["outcome"], ("✖", "red"))
    console.print(line(mark, " ", result["outcome"], ": ", result["goal"],
                       *((" (", result["reason"], ")") if result["reason"] else ())))
    program = (" (program ", result["program_id"], ")") if result["program_id"] else ()
    console.print(line("  via ", result["path"], *program, f", {result['steps']} steps, {result['model_calls']} model "
                       f"calls, {result['wall_s']} s; evaluator: ", result["evaluation"]))
    if result["stored_program_id"]:
        console.print(line("  stored program ", result["stored_program_id"]))
