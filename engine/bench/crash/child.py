"""A bench worker process: `python -m engine.bench.crash.child --home H --control C --lease S`.

It does what `warden worker --until-idle` does (one runner, tasks until none is queued or running
anywhere on the home's database), on a runtime that has the crash operators; the bench starts
several and kills them.
"""

from __future__ import annotations

import argparse
import asyncio
from pathlib import Path

from engine.bench.crash.space import open_runtime
from engine.store import StoreError

BUSY_RETRY_S = 0.05
OPEN_ATTEMPTS = 200


async def work(home: Path, control: Path, lease: float) -> None:
    for attempt in range(OPEN_ATTEMPTS):
        try:
            runtime = await open_runtime(home, control, lease)
            break
        except StoreError:
            if attempt == OPEN_ATTEMPTS - 1:
                raise
            await asyncio.sleep(BUSY_RETRY_S)
    try:
        while True:
            try:
                await runtime.run_until_idle()
                rows = await runtime.store.fetchall("SELECT COUNT(*) FROM tasks WHERE status IN ('queued', 'running')")
                if not rows[0][0]:
                    return
            except StoreError:
                pass
            await asyncio.sleep(BUSY_RETRY_S)
    finally:
        await runtime.close()


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m engine.bench.crash.child")
    parser.add_argument("--home", type=Path, required=True)
    parser.add_argument("--control", type=Path, required=True)
    parser.add_argument("--lease", type=float, required=True)
    args = parser.parse_args()
    asyncio.run(work(args.home, args.control, args.lease))


if __name__ == "__main__":
    main()
