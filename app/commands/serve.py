"""`warden serve`: the home's hook daemon, so a host's hook call does not pay for opening Warden each time.

`warden hook` starts it on demand (detached, its output in `$WARDEN_HOME/hook.log`); it listens on
`$WARDEN_HOME/hook.sock`, one per home, and stops after `--idle-minutes` without a call or on SIGTERM.
See `engine/hosts/daemon.py`.
"""

from __future__ import annotations

import argparse


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "serve", help="serve host hook calls from one open runtime (started on demand by `warden hook`)",
        description="Listen on $WARDEN_HOME/hook.sock and answer `warden hook` calls from one open runtime. One "
        "daemon per home: a second one exits at once. Stops after --idle-minutes without a call, or on SIGTERM.")
    parser.add_argument("--idle-minutes", type=float, default=None,
                        help="stop after this many minutes without a call (default $WARDEN_SERVE_IDLE_MINUTES or 30)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    import asyncio

    from app.commands.record_text import error
    from engine.home import warden_home
    from engine.hosts import daemon

    idle = daemon.IDLE_MINUTES if args.idle_minutes is None else args.idle_minutes
    try:
        asyncio.run(daemon.serve(warden_home().absolute(), idle * 60))
    except daemon.AlreadyServing as exc:
        error(exc)
        return 1
    return 0
