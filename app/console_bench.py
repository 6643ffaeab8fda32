"""`warden bench console`: how long an engine event takes to reach the console's panes, under load.

A home is filled with programs and receipts, a workspace with data; the console runs
headless while the engine snapshots the whole workspace over and over (as a confined
shell step would) and tasks are submitted one by one. Each task's `TaskQueued` event is
timed from the moment it was written to the moment its row is in the task pane, and so is
every other event that changes a pane while they run (the runner starts and fails them).
"""

from __future__ import annotations

import asyncio
import shutil
import statistics
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from app.console import create_app
from engine.journal.journal import Prepared
from engine.journal.receipt import SnapshotKind
from engine.programs.program import Program
from engine.runtime import Runtime, Switches
from engine.tasks.task import TaskSpec
from engine.tier import Tier
from engine.tools.call import ToolCall
from programs import SHIPPED
from widgets.program_list import ProgramList
from widgets.receipt_journal import ReceiptJournal
from widgets.task_queue import TaskQueue

SIZE = (160, 48)
Progress = Callable[[str, float], None]


@dataclass
class ConsoleReport:
    programs: int
    receipts: int
    workspace_mb: float
    events: int
    rate: float
    seconds: float
    latencies_ms: list[float] = field(repr=False)
    snapshots: int
    snapshot_mb_per_s: float

    def as_json(self) -> dict:
        ordered = sorted(self.latencies_ms)
        p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] if ordered else None
        return {
            "benchmark": "console",
            "programs": self.programs,
            "receipts": self.receipts,
            "workspace_mb": round(self.workspace_mb, 1),
            "submissions": self.events,
            "submissions_per_s": self.rate,
            "events_timed": len(ordered),
            "pane_events_per_s": round(len(ordered) / self.seconds, 1) if self.seconds else None,
            "event_to_pane_ms": {
                "median": round(statistics.median(ordered), 2) if ordered else None,
                "p99": round(p99, 2) if p99 is not None else None,
                "max": round(ordered[-1], 2) if ordered else None,
            },
            "snapshots_during_run": self.snapshots,
            "snapshot_mb_per_s": round(self.snapshot_mb_per_s, 1),
        }


async def measure(programs: int = 300, receipts: int = 10_000, workspace_mb: int = 200, events: int = 200,
                  rate: float = 20.0, home: Path | None = None, progress: Progress = lambda stage, done: None,
                  ) -> ConsoleReport:
    scratch = Path(tempfile.mkdtemp(prefix="warden-bench-console-")) if home is None else None
    home = home or scratch / "home"
    workspace = home.parent / "bench-workspace"
    try:
        progress("workspace", 0)
        await asyncio.to_thread(_fill_workspace, workspace, workspace_mb, lambda f: progress("workspace", f))
        progress("home", 0)
        await _fill_home(home, workspace, programs, receipts, lambda f: progress("home", f))
        return await _run_console(home, workspace, programs, receipts, workspace_mb, events, rate, progress)
    finally:
        if scratch is not None:
            await asyncio.to_thread(shutil.rmtree, scratch, True)


def _fill_workspace(root: Path, megabytes: int, advance: Callable[[float], None]) -> None:
    root.mkdir(parents=True, exist_ok=True)
    block = bytes(range(256)) * 4096
    for number in range(megabytes):
        folder = root / f"d{number // 50:02d}"
        folder.mkdir(exist_ok=True)
        (folder / f"f{number:04d}.bin").write_bytes(block)
        advance((number + 1) / megabytes)


async def _fill_home(home: Path, workspace: Path, programs: int, receipts: int, advance: Callable[[float], None]) -> None:
    runtime = await Runtime.open(home, workspace, Switches())
    try:
        template = Program.load(next(SHIPPED.glob("*.json"))).to_json()
        for number in range(programs):
            raw = {**template, "id": f"p-bench{number:05d}", "signature": f"workspace:bench family {number} {{file}}",
                   "goal_template": f"Bench family {number}: archive {{file}}"}
            await runtime.corpus.upsert(Program.from_json(raw))
            advance((number + 1) / (programs + receipts))
        call = ToolCall("fs.write", {"path": "x.txt", "content": "x"})
        async with runtime.store.transaction() as db:
            for number in range(receipts):
                prepared = Prepared(f"r{number:011d}", runtime.workspace.identity, SnapshotKind.NONE, None)
                await runtime.journal.commit(db, prepared, None, None, call, Tier.LOCAL_REVERSIBLE, f"bench {number}")
                if number % 500 == 0:
                    advance((programs + number + 1) / (programs + receipts))
    finally:
        await runtime.close()


async def _run_console(home, workspace, programs, receipts, workspace_mb, events, rate, progress) -> ConsoleReport:
    app = create_app(home, workspace, switches=Switches())
    async with app.run_test(size=SIZE) as pilot:
        await _until(pilot, lambda: app.query_one(ProgramList).row_count >= programs
                     and app.query_one(ReceiptJournal).row_count > 0, 120)
        stop = threading.Event()
        copies: list[float] = []
        loader = app.engine.spawn(lambda rt: _snapshot_forever(rt, home / "bench-snapshots", stop, copies))
        while not copies and not loader.done():
            await pilot.pause(0.05)
        app.latencies.clear()
        tasks = app.query_one(TaskQueue)
        started = time.monotonic()
        for number in range(events):
            await app.engine.call(lambda rt, n=number: rt.submit(TaskSpec(goal=f"bench event {n}", learn=False)))
            progress("events", (number + 1) / events)
            await pilot.pause(max(0.0, started + (number + 1) / rate - time.monotonic()))
        await _until(pilot, lambda: tasks.row_count >= events, 60)
        await _until(pilot, lambda: len(app.latencies) >= events, 30)
        elapsed = time.monotonic() - started
        stop.set()
        await asyncio.wrap_future(loader)
        latencies = [seconds * 1000 for seconds in app.latencies]
    seconds = sum(copies)
    return ConsoleReport(programs, receipts, workspace_mb, events, rate, elapsed, latencies, len(copies),
                         workspace_mb * len(copies) / seconds if seconds else 0.0)


async def _snapshot_forever(runtime: Runtime, into: Path, stop: threading.Event, copies: list[float]) -> None:
    """On the engine's loop: snapshot the whole workspace again and again, as a confined shell step does."""
    number = 0
    while not stop.is_set():
        target = into / f"s{number}"
        started = time.perf_counter()
        await runtime.workspace.snapshot(["."], target)
        copies.append(time.perf_counter() - started)
        await asyncio.to_thread(shutil.rmtree, target, True)
        number += 1


async def _until(pilot, condition, seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            raise TimeoutError("the console did not catch up in time")
        await pilot.pause(0.02)
