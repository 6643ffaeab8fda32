"""`warden bench console`: whether the console keeps up with a large home and a busy engine.

A home is filled with programs, receipts and finished tasks, a workspace with data. Then:

- **first frame**: the console starts on that home, timed until the task and journal panes have
  drawn rows;
- **throughput**: the same trivial tasks (one file write each) are run headless (`run_until_idle`)
  and with the console open, submitted at once, `rounds` times each; the ratio of the best rounds
  is the console's cost (the best, because other work on the machine only ever slows a round);
- **keys**: the cursor is moved in the journal, at rest and while tasks run, each key timed from the
  press to the moment the cursor's new line is drawn;
- **events**: while the engine snapshots the whole workspace over and over (as a confined shell
  step would), tasks are submitted one by one and each event that changes a pane is timed from the
  moment it was written to the moment its row is in the pane.

The panes' drawing is watched by wrapping `RecordRows.render_line` for the run (nothing else of the
console is changed).
"""

from __future__ import annotations

import asyncio
import shutil
import sqlite3
import statistics
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import closing, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from unittest.mock import patch

from textual.strip import Strip

from app.console import create_app
from engine.journal.journal import Prepared
from engine.journal.receipt import SnapshotKind
from engine.programs.program import Program
from engine.runtime import Runtime, Switches
from engine.tasks.task import TaskSpec, scripted
from engine.tier import Tier
from engine.tools.call import ToolCall
from programs import SHIPPED
from widgets.program_list import ProgramList
from widgets.receipt_journal import ReceiptJournal
from widgets.record_rows import RecordRows
from widgets.task_queue import TaskQueue

SIZE = (160, 48)
FIRST_FRAME_TARGET_S = 1.5
SLOWDOWN_TARGET = 1.5
Progress = Callable[[str, float], None]
STAGES = ("workspace", "home", "headless", "console", "keys", "throughput", "events")


@dataclass
class ConsoleReport:
    programs: int
    receipts: int
    tasks: int
    workspace_mb: float
    events: int
    rate: float
    seconds: float
    latencies_ms: list[float] = field(repr=False)
    snapshots: int
    snapshot_mb_per_s: float
    first_frame_s: float = 0.0
    throughput_tasks: int = 0
    headless_s: list[float] = field(default_factory=list)
    console_s: list[float] = field(default_factory=list)
    keys_idle_ms: list[float] = field(default_factory=list, repr=False)
    keys_busy_ms: list[float] = field(default_factory=list, repr=False)

    def as_json(self) -> dict:
        ordered = sorted(self.latencies_ms)
        headless = self.throughput_tasks / min(self.headless_s) if self.headless_s else None
        console = self.throughput_tasks / min(self.console_s) if self.console_s else None
        slowdown = headless / console if headless and console else None
        return {
            "benchmark": "console",
            "programs": self.programs,
            "receipts": self.receipts,
            "tasks": self.tasks,
            "workspace_mb": round(self.workspace_mb, 1),
            "first_frame_s": round(self.first_frame_s, 3),
            "first_frame_target_s": FIRST_FRAME_TARGET_S,
            "throughput": {
                "tasks": self.throughput_tasks,
                "headless_per_s": round(headless, 1) if headless else None,
                "console_per_s": round(console, 1) if console else None,
                "slowdown": round(slowdown, 2) if slowdown else None,
                "slowdown_target": SLOWDOWN_TARGET,
                "rounds": [{"headless_per_s": round(self.throughput_tasks / alone, 1),
                            "console_per_s": round(self.throughput_tasks / shown, 1)}
                           for alone, shown in zip(self.headless_s, self.console_s)],
            },
            "key_to_cursor_ms": {"at_rest": _spread(self.keys_idle_ms), "while_tasks_run": _spread(self.keys_busy_ms)},
            "submissions": self.events,
            "submissions_per_s": self.rate,
            "events_timed": len(ordered),
            "pane_events_per_s": round(len(ordered) / self.seconds, 1) if self.seconds else None,
            "event_to_pane_ms": {key: value for key, value in _spread(ordered).items() if key != "n"},
            "snapshots_during_run": self.snapshots,
            "snapshot_mb_per_s": round(self.snapshot_mb_per_s, 1),
        }

    def meets(self) -> dict[str, bool]:
        data = self.as_json()
        slowdown = data["throughput"]["slowdown"]
        return {"first_frame": self.first_frame_s <= FIRST_FRAME_TARGET_S,
                "throughput": slowdown is not None and slowdown <= SLOWDOWN_TARGET}


def _spread(values: list[float]) -> dict:
    ordered = sorted(values)
    if not ordered:
        return {"n": 0, "median": None, "p99": None, "max": None}
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    return {"n": len(ordered), "median": round(statistics.median(ordered), 2), "p99": round(p99, 2),
            "max": round(ordered[-1], 2)}


@dataclass(frozen=True)
class Options:
    programs: int = 300
    receipts: int = 10_000
    tasks: int = 2_000
    workspace_mb: int = 200
    events: int = 200
    rate: float = 20.0
    throughput_tasks: int = 300
    keys: int = 100
    rounds: int = 2


async def measure(options: Options = Options(), home: Path | None = None,
                  progress: Progress = lambda stage, done: None) -> ConsoleReport:
    scratch = None
    if home is None:
        scratch = Path(tempfile.mkdtemp(prefix="warden-bench-console-"))
        home = scratch / "home"
    workspace = home.parent / "bench-workspace"
    try:
        progress("workspace", 0)
        await asyncio.to_thread(_fill_workspace, workspace, options.workspace_mb, lambda f: progress("workspace", f))
        progress("home", 0)
        await _fill_home(home, workspace, options, lambda f: progress("home", f))
        report = ConsoleReport(options.programs, options.receipts, options.tasks, options.workspace_mb,
                               options.events, options.rate, 0.0, [], 0, 0.0,
                               throughput_tasks=options.throughput_tasks)
        report.headless_s = await _headless(home, workspace, options.throughput_tasks, options.rounds, progress)
        await _run_console(home, workspace, options, report, progress)
        return report
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
        advance((number + 1) / max(1, megabytes))
    advance(1.0)


async def _fill_home(home: Path, workspace: Path, options: Options, advance: Callable[[float], None]) -> None:
    """Programs, receipts, and tasks that have finished (so the console's runner leaves them be)."""
    runtime = await Runtime.open(home, workspace, Switches())
    whole = max(1, options.programs + options.receipts + options.tasks)
    try:
        template = Program.load(next(SHIPPED.glob("*.json"))).to_json()
        for number in range(options.programs):
            raw = {**template, "id": f"p-bench{number:05d}", "signature": f"workspace:bench family {number} {{file}}",
                   "goal_template": f"Bench family {number}: archive {{file}}"}
            await runtime.corpus.upsert(Program.from_json(raw))
            advance((number + 1) / whole)
        call = ToolCall("fs.write", {"path": "x.txt", "content": "x"})
        journal = runtime.journal
        if journal is None:
            raise RuntimeError("the bench's receipts need a journal, and recovery is off")
        async with runtime.store.transaction() as db:
            for number in range(options.receipts):
                prepared = Prepared(f"r{number:011d}", runtime.workspace.identity, SnapshotKind.NONE, None)
                await journal.commit(db, prepared, None, None, call, Tier.LOCAL_REVERSIBLE, f"bench {number}")
                if number % 500 == 0:
                    advance((options.programs + number + 1) / whole)
        for first in range(0, options.tasks, 500):
            batch = [TaskSpec(goal=f"Bench task {number} from before", learn=False)
                     for number in range(first, min(options.tasks, first + 500))]
            await runtime.queue.submit([(spec, runtime.workspace.identity) for spec in batch])
            advance((options.programs + options.receipts + first + len(batch)) / whole)
        await runtime.store.execute("UPDATE tasks SET status = 'succeeded' WHERE status = 'queued'")
    finally:
        await runtime.close()
    advance(1.0)


def _trivial(number: int) -> TaskSpec:
    """A task the engine runs fast: one file write by the scripted agent (a snapshot, a receipt), no learning."""
    return TaskSpec(goal=f"Write bench note {number}", learn=False, agent=scripted(
        [ToolCall("fs.write", {"path": f"bench-notes/n{number}.txt", "content": str(number)})]))


async def _headless(home: Path, workspace: Path, count: int, rounds: int, progress: Progress) -> list[float]:
    """Seconds to submit and run `count` trivial tasks with no console, once per round."""
    progress("headless", 0)
    runtime = await Runtime.open(home, workspace, Switches())
    seconds = []
    try:
        for round_ in range(rounds):
            started = time.perf_counter()
            await runtime.submit_all([_trivial(10**5 * (round_ + 1) + number) for number in range(count)])
            await runtime.run_until_idle()
            seconds.append(time.perf_counter() - started)
            progress("headless", (round_ + 1) / rounds)
    finally:
        await runtime.close()
    return seconds


class Drawn:
    """What the panes drew and when: the first row of each, and each line drawn under the cursor."""

    def __init__(self) -> None:
        self.first_row: dict[str, float] = {}
        self.cursor_lines: list[tuple[float, RecordRows, str]] = []

    @contextmanager
    def watching(self) -> Iterator[Drawn]:
        original = RecordRows.render_line

        def render_line(rows: RecordRows, y: int) -> Strip:
            strip = original(rows, y)
            if y > 0:
                place = rows.scroll_top + y - 1
                row = rows.row_at(place)
                if row is not None:
                    now = time.perf_counter()
                    pane = rows.parent.id if rows.parent is not None else None
                    self.first_row.setdefault(pane or "", now)
                    if place == rows.cursor:
                        self.cursor_lines.append((now, rows, row.key))
            return strip

        with patch.object(RecordRows, "render_line", render_line):
            yield self


async def _run_console(home: Path, workspace: Path, options: Options, report: ConsoleReport,
                       progress: Progress) -> None:
    drawn, unfinished = Drawn(), Unfinished(home)
    with drawn.watching(), closing(unfinished):
        progress("console", 0)
        started = time.perf_counter()
        app = create_app(home, workspace, switches=Switches())
        async with app.run_test(size=SIZE) as pilot:
            await _until(pilot, lambda: {"tasks", "journal"} <= set(drawn.first_row), 60)
            report.first_frame_s = max(drawn.first_row["tasks"], drawn.first_row["journal"]) - started
            await _until(pilot, lambda: app.query_one(ProgramList).row_count >= options.programs, 60)
            progress("console", 1.0)
            journal = app.query_one(ReceiptJournal)
            journal.focus()
            await pilot.pause(0.2)
            report.keys_idle_ms = await _press_keys(pilot, journal, drawn, options.keys // 2,
                                                    lambda f: progress("keys", f / 2))
            for round_ in range(options.rounds):
                report.console_s.append(await _console_throughput(
                    app, unfinished, options.throughput_tasks, 10**6 * (round_ + 1),
                    lambda f: progress("throughput", (round_ + f) / options.rounds)))  # awaited in this round
            engine = app.engine
            if engine is None:
                raise RuntimeError("the console's engine is not running")
            busy = asyncio.ensure_future(engine.call(
                lambda rt: rt.submit_all([_trivial(10**8 + n) for n in range(options.throughput_tasks)])))
            await pilot.pause(0.2)
            report.keys_busy_ms = await _press_keys(pilot, journal, drawn, options.keys,
                                                    lambda f: progress("keys", 0.5 + f / 2))
            await busy
            await unfinished.wait()
            await _events(pilot, app, home, options, report, progress)


async def _press_keys(pilot, journal: ReceiptJournal, drawn: Drawn, count: int,
                      advance: Callable[[float], None]) -> list[float]:
    """Move the cursor down (then back up) `count` times; each key is timed until the line of the record
    it lands on is drawn as the cursor's."""
    body = journal.body
    latencies = []
    step = 1
    for number in range(count):
        if body.cursor + step >= body.total or body.cursor + step < 0:
            step = -step
        target = body.row_at(body.cursor + step)
        if target is None:
            await pilot.pause(0.05)
            continue
        seen = len(drawn.cursor_lines)
        started = time.perf_counter()
        await pilot.press("down" if step > 0 else "up")
        deadline = started + 5.0
        while time.perf_counter() < deadline:
            landed = [at for at, rows, key in drawn.cursor_lines[seen:] if rows is body and key == target.key]
            if landed:
                latencies.append((landed[0] - started) * 1000)
                break
            await asyncio.sleep(0.001)
        advance((number + 1) / count)
        await pilot.pause(0.03)
    return latencies


class Unfinished:
    """Counts the home's queued and running tasks on a connection of its own (read off the app's loop)."""

    def __init__(self, home: Path) -> None:
        self._db = sqlite3.connect(home / "warden.db", check_same_thread=False)

    async def count(self) -> int:
        return await asyncio.to_thread(self._count)

    def _count(self) -> int:
        return self._db.execute("SELECT COUNT(*) FROM tasks WHERE status IN ('queued', 'running')").fetchone()[0]

    async def wait(self, advance: Callable[[float], None] = lambda done: None, seconds: float = 300) -> None:
        deadline, first = time.monotonic() + seconds, None
        while (left := await self.count()) > 0:
            first = first or left
            advance(1 - left / first)
            if time.monotonic() > deadline:
                raise TimeoutError("the tasks did not finish in time")
            await asyncio.sleep(0.05)
        advance(1.0)

    def close(self) -> None:
        self._db.close()


async def _console_throughput(app, unfinished: Unfinished, count: int, first: int,
                              advance: Callable[[float], None]) -> float:
    """Seconds to submit and run `count` trivial tasks through the console's engine, the console open."""
    started = time.perf_counter()
    await app.engine.call(lambda rt: rt.submit_all([_trivial(first + n) for n in range(count)]))
    await unfinished.wait(advance)
    return time.perf_counter() - started


async def _events(pilot, app, home: Path, options: Options, report: ConsoleReport, progress: Progress) -> None:
    """Submit tasks one by one at `rate` while the engine snapshots the workspace; time each pane event."""
    stop = threading.Event()
    copies: list[float] = []
    loader = app.engine.spawn(lambda rt: _snapshot_forever(rt, home / "bench-snapshots", stop, copies))
    while not copies and not loader.done():
        await pilot.pause(0.05)
    app.latencies.clear()
    tasks = app.query_one(TaskQueue)
    before = tasks.row_count
    started = time.monotonic()
    for number in range(options.events):
        await app.engine.call(lambda rt, n=number: rt.submit(TaskSpec(goal=f"bench event {n}", learn=False)))
        progress("events", (number + 1) / options.events)
        await pilot.pause(max(0.0, started + (number + 1) / options.rate - time.monotonic()))
    await _until(pilot, lambda: tasks.row_count >= before + options.events, 60)
    await _until(pilot, lambda: len(app.latencies) >= options.events, 30)
    report.seconds = time.monotonic() - started
    stop.set()
    await asyncio.wrap_future(loader)
    report.latencies_ms = [seconds * 1000 for seconds in app.latencies]
    seconds = sum(copies)
    report.snapshots = len(copies)
    report.snapshot_mb_per_s = options.workspace_mb * len(copies) / seconds if seconds else 0.0


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
