"""What the scripting commands (tasks, approvals, journal) share: the home's runtime, and one-line errors.

A command's work runs on a runtime opened on $WARDEN_HOME and closed after; a refusal from the
engine (an unknown id, a task in the wrong state, an undo in the way) prints one line and exits 1.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable

from app.commands.record_text import error
from engine.errors import WardenError
from engine.runtime import Runtime, warden_home


def run_on_runtime(work: Callable[[Runtime], Awaitable[int]]) -> int:
    """Run `work` on the home's runtime; a WardenError becomes `warden: <reason>` on stderr and exit 1."""

    async def session() -> int:
        runtime = await Runtime.open(warden_home())
        try:
            return await work(runtime)
        finally:
            await runtime.close()

    try:
        return asyncio.run(session())
    except WardenError as exc:
        error(exc)
        return 1


def print_json(value: object) -> None:
    """One JSON document on one line, for a script to read."""
    print(json.dumps(value))
