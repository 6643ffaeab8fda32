"""`warden worker`: run the queue of $WARDEN_HOME headless, with N runners in this process, until idle or stopped.

Several workers (processes or hosts) may share one database: each runner claims tasks under its own
identity, and a runner that dies leaves its task to be reclaimed by another once its lease runs out.

A worker stopped by SIGINT or SIGTERM cancels its runners (a confined command in flight is killed with
its sandbox), puts the tasks they held back in the queue, says so in one line on stderr and exits with
128 + the signal's number. A full disk (`DiskFull`) stops it the same way, exit 1: retrying cannot help,
and no task is failed for it. So does a database with damaged pages (`DatabaseDamaged`), exit 2, in one line.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import signal
import socket
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TypeVar

from rich.text import Text

from app.commands.record_text import error, line, plain_console
from engine.errors import DiskFull, WardenError
from engine.events.bus import Subscription
from engine.events.records import Event, TaskFailed, TaskPaused, TaskResumed, TaskStarted, TaskSucceeded
from engine.runtime import Runtime, Switches, warden_home
from engine.store import DatabaseDamaged, StoreError

LEASE_ENV = "WARDEN_LEASE_S"
BUSY_RETRY_S = 0.05
OPEN_ATTEMPTS = 100
T = TypeVar("T")


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "worker", help="run queued tasks headless (several workers may share one home)",
        description="Runs the tasks queued in $WARDEN_HOME with no console, until SIGINT/SIGTERM, or with "
        "--until-idle until no task is queued or running. Tasks paused for approval wait for a person.",
    )
    parser.add_argument("--concurrency", type=_positive_int, default=1, metavar="N", help="runners in this process (default 1)")
    parser.add_argument("--until-idle", action="store_true", help="exit once no task is queued or running")
    parser.add_argument("--lease", type=float, metavar="S",
                        help=f"seconds a claim lasts without a heartbeat (default ${LEASE_ENV}, else 30)")
    parser.add_argument("--workspace", type=Path, help="the workspace the tools act in (default $WARDEN_HOME/workspace)")
    parser.add_argument("--json", action="store_true", help="print one JSON object per line: progress, then a summary")
    parser.set_defaults(func=run)


def _positive_int(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text} is not a positive whole number")
    return value


def lease_seconds(option: float | None) -> float | None:
    """The lease asked for: --lease, else $WARDEN_LEASE_S, else None (the runtime's own default)."""
    if option is not None:
        value, source = option, "--lease"
    else:
        raw = os.environ.get(LEASE_ENV, "").strip()
        if not raw:
            return None
        source = f"{LEASE_ENV}={raw!r}"
        try:
            value = float(raw)
        except ValueError:
            raise WardenError(f"{source} is not a number of seconds") from None
    if not math.isfinite(value) or value <= 0:
        raise WardenError(f"{source}: the lease must be a positive number of seconds")
    return value


def run(args: argparse.Namespace) -> int:
    lease = lease_seconds(args.lease)
    report = Reporter(args.json)
    return asyncio.run(Worker(args.workspace, lease, args.concurrency, args.until_idle, report).run())


class Reporter:
    """Progress for a person (short rich lines) or for a program (one JSON object per line)."""

    def __init__(self, as_json: bool) -> None:
        self.as_json = as_json
        self.console = plain_console()

    def emit(self, record: dict, said: Text) -> None:
        if self.as_json:
            print(json.dumps(record), flush=True)
        else:
            self.console.print(said)

    def event(self, event: Event, runner: str) -> None:
        if isinstance(event, TaskStarted):
            self.emit({"event": "task_started", "task_id": event.task_id, "runner": runner, "mode": event.mode},
                      line((event.task_id, "bold"), " ▶ ", event.mode, " on ", runner))
            return
        if isinstance(event, TaskResumed):
            self.emit({"event": "task_resumed", "task_id": event.task_id, "runner": runner, "reason": event.reason},
                      line((event.task_id, "bold"), " ↻ resumed on ", runner, ": ", event.reason))
            return
        status = {TaskSucceeded: "succeeded", TaskFailed: "failed", TaskPaused: "paused"}.get(type(event))
        if status is None:
            return
        detail = getattr(event, "error", None) or getattr(event, "reason", "")
        record = {"event": "task_finished", "task_id": event.task_id, "status": status, "runner": runner}
        if detail:
            record["detail"] = detail
        mark = {"succeeded": ("✔", "green"), "failed": ("✖", "red"), "paused": ("‖", "yellow")}[status]
        self.emit(record, line((event.task_id, "bold"), " ", mark, f" {status}", *((": ", detail) if detail else ())))

    def summary(self, ran: list[str], statuses: dict[str, str], crashed: list[str]) -> None:
        counts = {name: sum(1 for s in statuses.values() if s == name) for name in ("succeeded", "failed", "paused")}
        self.emit({"ran": ran, **counts, **({"crashed": crashed} if crashed else {})},
                  line(f"ran {len(ran)} task(s): {counts['succeeded']} succeeded, {counts['failed']} failed, "
                       f"{counts['paused']} paused" + (f"; {len(crashed)} runner(s) crashed" if crashed else "")))


class Worker:
    """N runtimes on one home, each a runner with its own identity; stopped by a signal or, if asked, by idleness."""

    def __init__(self, workspace: Path | None, lease: float | None, concurrency: int, until_idle: bool,
                 report: Reporter) -> None:
        self.workspace = workspace
        self.lease = lease
        self.concurrency = concurrency
        self.until_idle = until_idle
        self.report = report
        self.ran: list[str] = []
        self.crashed: list[str] = []
        self.signalled: signal.Signals | None = None
        self.full: DiskFull | None = None
        self.damaged: DatabaseDamaged | None = None

    async def run(self) -> int:
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for signum in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(signum, self._signal, signum, stop)
        runtimes: list[Runtime] = []
        try:
            for index in range(self.concurrency):
                runtime = await _retrying(self._open)
                runtime.runner.identity = f"{socket.gethostname()}:{os.getpid()}:{index}"
                runtimes.append(runtime)
            await self._run_all(runtimes, stop)
            released = await self._release(runtimes)
            try:
                statuses = await self._statuses(runtimes[0])
            except DatabaseDamaged as exc:
                self.damaged = self.damaged or exc
                statuses = {}
        finally:
            for runtime in runtimes:
                await runtime.close()
            for signum in (signal.SIGINT, signal.SIGTERM):
                loop.remove_signal_handler(signum)
        self.report.summary(self.ran, statuses, self.crashed)
        return self._stopped(released)

    def _signal(self, signum: signal.Signals, stop: asyncio.Event) -> None:
        self.signalled = self.signalled or signal.Signals(signum)
        stop.set()

    async def _release(self, runtimes: list[Runtime]) -> list[str] | None:
        """The tasks the runners held when they were stopped, put back in the queue; None when the database
        could not take that (a full disk): their leases then run out, and recovery takes them up."""
        if self.signalled is None and self.full is None or self.damaged is not None:
            return []
        released: list[str] = []
        why = f"released: its worker was stopped by {self.signalled.name}" if self.signalled else "released: the disk is full"
        try:
            for runtime in runtimes:
                for task_id in await runtime.queue.release(runtime.runner.identity):
                    released.append(task_id)
                    await runtime.bus.publish(TaskResumed(task_id, why))
        except (DiskFull, StoreError):
            return released or None
        return released

    def _stopped(self, released: list[str] | None) -> int:
        """Say in one line why the worker stopped early, if it did, and give its exit status."""
        if released is None:
            back = "; its tasks go back to the queue when their leases run out"
        else:
            back = f"; {', '.join(released)} back in the queue" if released else ""
        if self.damaged is not None:
            error(f"stopped: {self.damaged}; restore the home from a backup, or move the file aside to start "
                  f"an empty one")
            return 2
        if self.full is not None:
            error(f"stopped: {self.full}{back}; free some space, then run the worker again")
            return 1
        if self.signalled is not None:
            error(f"worker stopped by {self.signalled.name}{back}")
            return 128 + self.signalled.value
        return 1 if self.crashed else 0

    async def _open(self) -> Runtime:
        if self.lease is None:
            return await Runtime.open(warden_home(), self.workspace, Switches.from_env())
        return await Runtime.open(warden_home(), self.workspace, Switches.from_env(), lease_seconds=self.lease)

    async def _run_all(self, runtimes: list[Runtime], stop: asyncio.Event) -> None:
        subscriptions = [runtime.events() for runtime in runtimes]
        followers = [asyncio.create_task(self._follow(events, rt.runner.identity))
                     for events, rt in zip(subscriptions, runtimes)]
        runners = [asyncio.create_task(self._guarded(rt, stop)) for rt in runtimes]
        stopping = asyncio.create_task(stop.wait())
        finished = asyncio.create_task(asyncio.wait(runners))
        try:
            await asyncio.wait([stopping, finished], return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in [*runners, stopping, finished, *followers]:
                task.cancel()
            await asyncio.gather(*runners, stopping, finished, *followers, return_exceptions=True)
            for events, runtime in zip(subscriptions, runtimes):
                for event in events.drain():
                    self._seen(event, runtime.runner.identity)

    async def _guarded(self, runtime: Runtime, stop: asyncio.Event) -> None:
        """One runner's loop; an error escaping it is said in one line and makes the exit code 1. A full disk
        stops every runner of the worker."""
        try:
            if self.until_idle:
                await self._drain(runtime)
            else:
                await runtime.serve()
        except asyncio.CancelledError:
            raise
        except DiskFull as exc:
            self.full = self.full or exc
            stop.set()
        except DatabaseDamaged as exc:
            self.damaged = self.damaged or exc
            stop.set()
        except Exception as exc:
            self.crashed.append(runtime.runner.identity)
            error(f"runner {runtime.runner.identity} crashed: {exc}")

    @staticmethod
    async def _drain(runtime: Runtime) -> None:
        """Run tasks until none is queued or running anywhere on the database (another worker's included)."""
        while True:
            try:
                await runtime.run_until_idle()
                if not await _unfinished(runtime):
                    return
            except DatabaseDamaged:  # no wait mends damaged pages
                raise
            except StoreError:  # busy: another runner holds the write lock; try again, as `serve` does
                pass
            await asyncio.sleep(BUSY_RETRY_S)

    async def _follow(self, events: Subscription, runner: str) -> None:
        async for event in events:
            self._seen(event, runner)

    def _seen(self, event: Event, runner: str) -> None:
        """Every task a runner took is counted, one that failed before it started (its environment's reset
        refused it) included."""
        if (isinstance(event, (TaskStarted, TaskResumed, TaskFailed, TaskSucceeded, TaskPaused))
                and event.task_id is not None and event.task_id not in self.ran):
            self.ran.append(event.task_id)
        self.report.event(event, runner)

    async def _statuses(self, runtime: Runtime) -> dict[str, str]:
        tasks = await _retrying(lambda: runtime.queue.listed(self.ran))
        return {task.id: task.status.value for task in tasks}


async def _unfinished(runtime: Runtime) -> int:
    rows = await runtime.store.fetchall("SELECT COUNT(*) FROM tasks WHERE status IN ('queued', 'running')")
    return rows[0][0]


async def _retrying(action: Callable[[], Awaitable[T]]) -> T:
    """`action`, tried again while the database is busy with another worker; the last failure is raised."""
    for _ in range(OPEN_ATTEMPTS - 1):
        try:
            return await action()
        except DatabaseDamaged:
            raise
        except StoreError:
            await asyncio.sleep(BUSY_RETRY_S)
    return await action()
