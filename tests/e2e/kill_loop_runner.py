"""A runner process for the kill loop: run every task of the home until none is left unfinished."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from engine.runtime import Runtime, Switches
from engine.store import StoreError

LEASE = 0.5


async def main(home: Path, workspace: Path, identity: str) -> None:
    runtime = await Runtime.open(home, workspace, Switches(), lease_seconds=LEASE)
    runtime.runner.identity = identity
    try:
        while not all(task.status.finished for task in await runtime.tasks()):
            try:
                await runtime.run_until_idle()
            except StoreError:  # busy: another runner holds the write lock; try again, as `serve` does
                pass
            await asyncio.sleep(0.05)
    finally:
        await runtime.close()


if __name__ == "__main__":
    asyncio.run(main(Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3]))
