"""`warden demo`: the console on a throwaway home and workspace, with demo tasks queued."""

from __future__ import annotations

import argparse
import shutil
import tempfile
from pathlib import Path

from engine.errors import WardenError


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "demo",
        help="open the console on a throwaway workspace with demo tasks queued",
        description="Queues four tasks: one solved by the scripted agent and compiled into a program, "
        "one of the same family served by replay, one dangerous step waiting for approval (press a), "
        "and one catastrophic step that is blocked. Select a receipt and press u to undo it.",
    )
    parser.add_argument("--pace", type=float, default=0.5, help="seconds between steps, so you can watch (default 0.5)")
    parser.add_argument("--keep", action="store_true", help="keep the demo's home directory after you quit")
    parser.add_argument("--home", type=Path, help="use this (new or empty) directory as the demo's home; implies --keep")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from app.console import create_app

    if args.home is not None:
        if args.home.exists() and any(args.home.iterdir()):
            raise WardenError(f"--home {args.home} is not empty; the demo needs a fresh directory")
        args.home.mkdir(parents=True, exist_ok=True)
    home = args.home or Path(tempfile.mkdtemp(prefix="warden-demo-"))
    try:
        result = create_app(home, home / "workspace", demo=True, pace=args.pace).run()
    finally:
        if args.keep or args.home is not None:
            print(f"demo home kept at {home}")
        else:
            shutil.rmtree(home, ignore_errors=True)
    return result or 0
