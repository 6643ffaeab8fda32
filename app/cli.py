"""`warden`: opens the console, or runs one of the subcommands."""

from __future__ import annotations

import argparse
import importlib
import sys

from engine.errors import WardenError

COMMANDS = ("demo", "run", "submit", "worker", "tasks", "approvals", "journal", "programs", "classify", "doctor", "bench")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="warden",
        description="A risk-gated, durable, reversible runtime and console for computer-use agents. "
        "With no command, opens the console on $WARDEN_HOME.",
    )
    parser.set_defaults(func=_console)
    subparsers = parser.add_subparsers(title="commands", metavar="COMMAND")
    for name in COMMANDS:
        importlib.import_module(f"app.commands.{name}").register(subparsers)
    return parser


def _console(args: argparse.Namespace) -> int:
    from app.console import run_console

    return run_console()


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except WardenError as exc:
        print(f"warden: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
