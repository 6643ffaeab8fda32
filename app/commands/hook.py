"""`warden hook`: the command a host's hooks run, and installing it into the host's settings.

`warden hook claude-code` reads one hook event from stdin and answers in Claude Code's documented output.
It fails closed: whatever stops Warden from deciding (an unreadable home, a damaged database, a malformed
event) is a `deny` with one line saying why and how to recover, never an allow. `warden hook install
claude-code --project DIR` (or `--user`) merges its hooks into `.claude/settings.json`; running it again
changes nothing; `warden hook uninstall` removes exactly what it added.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
from pathlib import Path

from app.commands.record_text import error
from engine.errors import WardenError
from engine.hosts import claude_code
from engine.hosts.settings import install, uninstall

HOSTS = ("claude-code",)
WAIT = float(os.environ.get("WARDEN_HOOK_WAIT", "540"))  # under the 600 s timeout the hook is installed with


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "hook", help="answer a host's hook (Claude Code), or install it into the host's settings",
        description="`warden hook claude-code` is what Claude Code's hooks run: one event on stdin, its decision "
        "on stdout. `install`/`uninstall` add or remove those hooks in .claude/settings.json.")
    actions = parser.add_subparsers(dest="action", metavar="HOST | install | uninstall")
    for host in HOSTS:
        actions.add_parser(host, help=f"answer one {host} hook event read from stdin")
    for name in ("install", "uninstall"):
        action = actions.add_parser(name, help=f"{name} the hooks of a host")
        action.add_argument("host", choices=HOSTS)
        where = action.add_mutually_exclusive_group(required=True)
        where.add_argument("--project", type=Path, help="the project directory (.claude/settings.json in it)")
        where.add_argument("--user", action="store_true", help="the user's settings (~/.claude/settings.json)")
    parser.set_defaults(func=run, action=None)


def run(args: argparse.Namespace) -> int:
    if args.action in ("install", "uninstall"):
        settings = (Path.home() if args.user else args.project) / ".claude" / "settings.json"
        change = install if args.action == "install" else uninstall
        print(change(settings, [sys.executable, "-m", "app.cli", "hook", args.host]))
        return 0
    if args.action == "claude-code":
        return _answer()
    raise WardenError("warden hook needs a host (claude-code) or install/uninstall")


def _answer() -> int:
    """Read one event, decide, print the answer; any failure to decide is a deny (exit 0, so the host reads it)."""
    try:
        event = claude_code.Event.from_json(json.loads(sys.stdin.read()))
    except (ValueError, UnicodeDecodeError) as exc:
        print(json.dumps(claude_code.deny(f"the hook event could not be read ({exc}); nothing ran")))
        return 0
    try:
        answer = asyncio.run(_opened(event))
    except Exception as exc:  # fail closed: no decision is a deny, with how to recover
        message = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        error(f"hook denied the call: {message}")
        answer = claude_code.deny(f"cannot decide ({message}); nothing ran. Check `warden doctor`, then retry")
    if answer is not None:
        print(json.dumps(answer))
    return 0


async def _opened(event: claude_code.Event) -> dict | None:
    from engine.hosts.answer import answer
    from engine.runtime import Runtime

    runtime = await Runtime.open()
    try:
        return await answer(runtime, event, WAIT)
    finally:
        await runtime.close()
