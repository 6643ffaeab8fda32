"""`warden hook`: the command a host's hooks run, and installing it into the host's settings.

`warden hook claude-code` reads one hook event from stdin and answers in Claude Code's documented output.
It fails closed: whatever stops Warden from deciding (an unreadable home, a damaged database, a malformed
event) is a `deny` with one line saying why and how to recover, never an allow. `warden hook install
claude-code --project DIR` (or `--user`) merges its hooks into `.claude/settings.json`; running it again
changes nothing; `warden hook uninstall` removes exactly what it added.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from engine.hosts import wire  # first, and alone on the warm path: a call the home's daemon answers imports no more
from engine.errors import WardenError

HOSTS = ("claude-code", "codex", "gemini-cli")  # engine/hosts/protocols.py (not imported: the warm path)
WAIT = float(os.environ.get("WARDEN_HOOK_WAIT", "540"))  # under the 600 s timeout the hook is installed with


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "hook", help="answer a host's hook (Claude Code, Codex, Gemini CLI), or install it into the host's settings",
        description="`warden hook claude-code` (or `codex`, `gemini-cli`) is what the host's hooks run: one event on "
        "stdin, its decision on stdout. `install`/`uninstall` add or remove those hooks in the host's settings "
        "(.claude/settings.json, .codex/hooks.json, .gemini/settings.json; with --user, the user's own).")
    actions = parser.add_subparsers(dest="action", metavar="HOST | install | uninstall")
    for host in HOSTS:
        actions.add_parser(host, help=f"answer one {host} hook event read from stdin")
    for name in ("install", "uninstall"):
        action = actions.add_parser(name, help=f"{name} the hooks of a host")
        action.add_argument("host", choices=HOSTS)
        where = action.add_mutually_exclusive_group(required=True)
        where.add_argument("--project", type=Path, help="the project directory (the host's settings in it)")
        where.add_argument("--user", action="store_true", help="the user's own settings of the host")
    parser.set_defaults(func=run, action=None)


def run(args: argparse.Namespace) -> int:
    if args.action in ("install", "uninstall"):
        from engine.hosts.settings import install_for, settings_path, uninstall_for

        settings = settings_path(args.host, None if args.user else args.project)
        change = install_for if args.action == "install" else uninstall_for
        print(change(args.host, settings, [sys.executable, "-m", "app.cli", "hook", args.host]))
        return 0
    if args.action in HOSTS:
        return _answer(args.action)
    raise WardenError(f"warden hook needs a host ({', '.join(HOSTS)}) or install/uninstall")


def _answer(host: str) -> int:
    """Read one event, decide, print the answer; any failure to decide is a deny (exit 0, so the host reads it).

    The home's daemon (`warden serve`, `engine/hosts/daemon.py`) decides when one listens; with none, this call
    decides in-process and then starts one for the next call. A daemon that took the call and failed is a deny."""
    try:
        raw = json.loads(sys.stdin.read())
    except (ValueError, UnicodeDecodeError) as exc:
        return _denied(host, f"the hook event could not be read ({exc})")
    daemon = os.environ.get("WARDEN_HOOK_DAEMON", "on") != "off"
    where = ""
    if daemon:
        try:
            where = wire.home()
            if isinstance(raw, dict) and not raw.get("cwd"):
                raw["cwd"] = os.getcwd()  # the daemon runs elsewhere
            answer = wire.ask(where, {"host": host, "event": raw, "wait": WAIT}, WAIT + 60)
        except wire.NoDaemon:
            pass
        except wire.Broken as exc:  # it took the call and did not decide: deny, never allow
            return _denied(host, str(exc))
        else:
            if answer is not None:
                print(json.dumps(answer))
            return 0
    decided = _answer_here(host, raw)
    if daemon and decided and where:
        sys.stdout.flush()
        wire.start(where)
    return 0


def _denied(host: str, message: str) -> int:
    """The host's own deny, with why Warden could not decide and how to recover (off the warm path)."""
    from app.commands.record_text import error
    from engine.hosts.protocols import protocol

    error(f"hook denied the call: {message}")
    print(json.dumps(protocol(host).deny(f"cannot decide ({message}); nothing ran. Check `warden doctor`, then retry")))
    return 0


def _answer_here(name: str, raw: object) -> bool:
    """Decide in-process (the cold path) and print the answer; whether Warden could decide."""
    import asyncio

    from engine.hosts.protocols import protocol

    host = protocol(name)
    try:
        event = host.Event.from_json(raw)
    except (ValueError, UnicodeDecodeError) as exc:
        print(json.dumps(host.deny(f"the hook event could not be read ({exc}); nothing ran")))
        return False
    try:
        answer = asyncio.run(_opened(host, event))
    except Exception as exc:  # fail closed: no decision is a deny, with how to recover
        _denied(name, str(exc).splitlines()[0] if str(exc) else type(exc).__name__)
        return False
    if answer is not None:
        print(json.dumps(answer))
    return True


async def _opened(host, event) -> dict | None:
    from engine.hosts.answer import answer
    from engine.runtime import Runtime

    runtime = await Runtime.open()
    try:
        return await answer(runtime, event, WAIT, host)
    finally:
        await runtime.close()
