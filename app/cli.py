"""`warden`: opens the console, or runs one of the subcommands.

A command's module is imported only when that command runs: `warden classify` must not pay for the
browser, the graph library and the console that `warden run` and `warden` need, and `warden --help`
imports none of them.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Collection, Sequence

from engine.errors import WardenError

COMMANDS: dict[str, str] = {
    "demo": "open the console on a throwaway workspace with demo tasks queued",
    "run": "run one task from a spec file and print its result",
    "submit": "queue tasks from a JSON file",
    "worker": "run queued tasks headless (several workers may share one home)",
    "tasks": "list, show, pause, resume, cancel or retry tasks; raise a budget",
    "approvals": "list pending approvals, approve (once, for a task or a pattern) or deny one; revoke grants",
    "journal": "list receipts, show or diff one, undo one or a whole task, export, gc, match a secret",
    "programs": "list, draw, export, import, expire or remove stored programs",
    "exec": "run one command in the sandbox, gated, with a receipt",
    "hook": "answer a host's hook (Claude Code, Codex, Gemini CLI), or install it into the host's settings",
    "mcp": "front an MCP server through the gate (proxy), or offer the workspace as MCP tools (serve)",
    "serve": "serve host hook calls from one open runtime (started on demand by `warden hook`)",
    "classify": "rate commands from stdin with the risk gate",
    "doctor": "report the sandbox, the home, the database and optional parts",
    "bench": "run a benchmark",
}
"""Each command, in the order `--help` lists them, with the summary its module registers (a test holds them equal)."""


def build_parser(registered: Collection[str] = tuple(COMMANDS)) -> argparse.ArgumentParser:
    """The command line, with the commands in `registered` taking their own arguments (their modules are
    imported for that) and every other command named with its summary alone."""
    parser = argparse.ArgumentParser(
        prog="warden",
        description="A risk-gated, durable, reversible runtime and console for computer-use agents. "
        "With no command, opens the console on $WARDEN_HOME.",
    )
    parser.set_defaults(func=_console)
    subparsers = parser.add_subparsers(title="commands", metavar="COMMAND")
    for name, summary in COMMANDS.items():
        if name in registered:
            importlib.import_module(f"app.commands.{name}").register(subparsers)
        else:
            subparsers.add_parser(name, help=summary)
    return parser


def chosen(argv: Sequence[str]) -> tuple[str, ...]:
    """The command `argv` runs, if any: the top level takes no option but `--help` (and `--`), so it is the
    first word that is not an option."""
    word = next((word for word in argv if not word.startswith("-")), None)
    return (word,) if word in COMMANDS else ()


def _console(args: argparse.Namespace) -> int:
    from app.console import run_console

    return run_console()


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    args = build_parser(chosen(argv)).parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except WardenError as exc:
        from app.commands.record_text import error  # the message may name what a record holds

        error(exc)
        return 2
    except KeyboardInterrupt:  # Ctrl-C outside the work a command releases itself (`app/commands/interrupt.py`)
        from app.commands.record_text import error

        error("interrupted")
        return 130


if __name__ == "__main__":
    sys.exit(main())
