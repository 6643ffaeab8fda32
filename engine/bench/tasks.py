"""Steps per second through the whole gate and journal path, with one worker and with several.

Each arm gets a fresh home and workspace. Tasks of a few tiny `fs.write` steps each are queued through
`Runtime.submit_all` (scripted plans, nothing learned), then K `warden worker --until-idle` processes run
them on the shared database, so every step is classified by the gate, snapshotted and given a receipt by
the journal, and written through the effect fence, as in production. Workers are separate processes
because runtimes in one process share one event loop and one interpreter lock, which would measure the
loop rather than the database they contend for.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.errors import WardenError
from engine.runtime import Runtime, Switches
from engine.tasks.task import TaskSpec

REPO = Path(__file__).resolve().parents[2]
DEFAULT_STEPS = 1000
DEFAULT_WORKERS = (1, 4)
STEPS_PER_TASK = 5
LEASE_S = 5
POLL_S = 0.1
WORKER_TIMEOUT_S = 600
MODE = "processes"


@dataclass
class Options:
    """What to run: `steps` in all per arm, `steps_per_task` to a task, one arm per entry of `workers`;
    `home` keeps each arm's home under it instead of a throwaway directory."""

    steps: int = DEFAULT_STEPS
    workers: tuple[int, ...] = DEFAULT_WORKERS
    steps_per_task: int = STEPS_PER_TASK
    home: Path | None = None
    progress: Callable[[int, int], None] | None = field(default=None, repr=False)


def specs(steps: int, steps_per_task: int) -> list[TaskSpec]:
    """`steps` tiny writes, `steps_per_task` to a task (the last task takes the remainder), each to its own file."""
    tasks: list[TaskSpec] = []
    for start in range(0, steps, steps_per_task):
        number = len(tasks)
        plan = [{"tool": "fs.write", "args": {"path": f"t{number:05d}-s{idx}.txt", "content": f"{number}.{idx}\n"}}
                for idx in range(min(steps_per_task, steps - start))]
        tasks.append(TaskSpec.from_json({"goal": f"bench step write {number}", "learn": False, "plan": plan}))
    return tasks


async def queue(home: Path, workspace: Path, task_specs: list[TaskSpec]) -> list[str]:
    runtime = await Runtime.open(home, workspace, Switches())
    try:
        return [task.id for task in await runtime.submit_all(task_specs)]
    finally:
        await runtime.close()


def worker_env(home: Path) -> dict[str, str]:
    """The caller's environment with this home and every layer on (the bench measures the whole path)."""
    env = {k: v for k, v in os.environ.items() if k not in ("WARDEN_LEASE_S",)}
    env.update(WARDEN_HOME=str(home), WARDEN_GATING="on", WARDEN_RECOVERY="on", WARDEN_VERIFY_GATE="on",
               WARDEN_FALLBACK="on")
    return env


def done_steps(db: Path) -> int | None:
    """Steps done so far, or None while another process holds the database too long to read."""
    try:
        with sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=0.5) as conn:
            return conn.execute("SELECT COUNT(*) FROM steps WHERE status = 'done'").fetchone()[0]
    except sqlite3.OperationalError:
        return None


def run_workers(root: Path, home: Path, workspace: Path, count: int, total: int,
                progress: Callable[[int], None] | None) -> float:
    """Start `count` worker processes, report done steps while they run, and return the wall seconds from
    the first start to the last exit; a worker that fails is one line naming its stderr's last line."""
    command = [sys.executable, "-m", "app.cli", "worker", "--until-idle", "--lease", str(LEASE_S),
               "--workspace", str(workspace), "--json"]
    logs = [(root / f"worker-{n}.out", root / f"worker-{n}.err") for n in range(count)]
    started = time.perf_counter()
    workers = []
    for out, err in logs:
        with out.open("w") as stdout, err.open("w") as stderr:
            workers.append(subprocess.Popen(command, stdout=stdout, stderr=stderr, cwd=REPO, env=worker_env(home)))
    deadline = started + WORKER_TIMEOUT_S
    while any(worker.poll() is None for worker in workers):
        if time.perf_counter() > deadline:
            for worker in workers:
                worker.kill()
            raise WardenError(f"bench tasks: {count} worker(s) did not finish {total} steps in {WORKER_TIMEOUT_S} s")
        if progress is not None and (done := done_steps(home / "warden.db")) is not None:
            progress(done)
        time.sleep(POLL_S)
    wall = time.perf_counter() - started
    for worker, (_, err) in zip(workers, logs):
        if worker.returncode != 0:
            lines = err.read_text(encoding="utf-8", errors="replace").strip().splitlines()
            raise WardenError(f"bench tasks: a worker exited {worker.returncode}: "
                              f"{lines[-1] if lines else 'no message'}")
    if progress is not None:
        progress(done_steps(home / "warden.db") or 0)
    return wall


def read_back(db: Path) -> dict[str, Any]:
    """What the database says ran: done steps, receipts, task outcomes, the busy window (first task started
    to last task finished) and each step's latency (the agent proposing it to its action completed: the
    gate, the snapshot, the write, the receipt and the step row)."""
    with sqlite3.connect(db) as conn:
        done = conn.execute("SELECT COUNT(*) FROM steps WHERE status = 'done'").fetchone()[0]
        receipts = conn.execute("SELECT COUNT(*) FROM receipts").fetchone()[0]
        statuses = dict(conn.execute("SELECT status, COUNT(*) FROM tasks GROUP BY status").fetchall())
        first, last = conn.execute(
            "SELECT (SELECT MIN(at) FROM task_events WHERE kind = 'TaskStarted'),"
            " (SELECT MAX(at) FROM task_events WHERE kind IN ('TaskSucceeded', 'TaskFailed'))").fetchone()
        latencies = [row[0] for row in conn.execute(
            "SELECT done.at - proposed.at FROM task_events AS done JOIN task_events AS proposed"
            " ON proposed.task_id = done.task_id AND proposed.kind = 'AgentStepped'"
            " AND json_extract(proposed.payload, '$.idx') = json_extract(done.payload, '$.idx')"
            " WHERE done.kind = 'ActionCompleted'")]
        runners = conn.execute("SELECT COUNT(DISTINCT claimed_by) FROM tasks").fetchone()[0]
    return {"done": done, "receipts": receipts, "statuses": statuses, "busy_s": (last or 0) - (first or 0),
            "latencies_ms": [value * 1000 for value in latencies], "runners": runners}


def measure_arm(root: Path, count: int, options: Options) -> dict[str, Any]:
    home, workspace = root / "home", root / "workspace"
    task_specs = specs(options.steps, options.steps_per_task)
    asyncio.run(queue(home, workspace, task_specs))
    report = options.progress
    wall = run_workers(root, home, workspace, count, options.steps,
                       (lambda done: report(count, done)) if report else None)
    seen = read_back(home / "warden.db")
    if seen["done"] != options.steps or seen["statuses"] != {"succeeded": len(task_specs)}:
        raise WardenError(f"bench tasks: with {count} worker(s), {seen['done']} of {options.steps} steps are done "
                          f"and the tasks ended {seen['statuses']}; see {root} (--home keeps it)")
    latencies = sorted(seen["latencies_ms"])
    busy = seen["busy_s"]
    return {
        "workers": count,
        "mode": MODE,
        "steps": options.steps,
        "tasks": len(task_specs),
        "steps_done": seen["done"],
        "receipts": seen["receipts"],
        "runners_used": seen["runners"],
        "wall_s": round(wall, 3),
        "busy_s": round(busy, 3),
        "steps_per_s": round(options.steps / busy, 1) if busy > 0 else None,
        "wall_steps_per_s": round(options.steps / wall, 1) if wall > 0 else None,
        "step_latency_ms": {
            "n": len(latencies),
            "median": round(statistics.median(latencies), 2) if latencies else None,
            "p90": round(latencies[min(len(latencies) - 1, int(len(latencies) * 0.9))], 2) if latencies else None,
        },
        "home": str(home) if options.home else None,
    }


def validate(options: Options) -> None:
    """One line naming the option that cannot be run."""
    if options.steps < 1 or options.steps_per_task < 1:
        raise WardenError("bench tasks: --steps and --steps-per-task must be at least 1")
    if not options.workers or min(options.workers) < 1:
        raise WardenError("bench tasks: --workers takes positive counts, e.g. 1,4")


def measure(options: Options) -> dict[str, Any]:
    """Every arm, in the order given; a throwaway root unless `options.home` is set."""
    validate(options)
    root = Path(options.home) if options.home else Path(tempfile.mkdtemp(prefix="warden-bench-tasks-"))
    try:
        arms = []
        for count in options.workers:
            arm_root = root / f"workers-{count}"
            if arm_root.exists():
                raise WardenError(f"bench tasks: {arm_root} already exists; give --home an empty directory")
            arm_root.mkdir(parents=True)
            arms.append(measure_arm(arm_root, count, options))
    finally:
        if options.home is None:
            shutil.rmtree(root, ignore_errors=True)
    return {
        "benchmark": "tasks",
        "tool": "fs.write",
        "steps_per_task": options.steps_per_task,
        "mode": MODE,
        "cpus": os.cpu_count(),
        "arms": arms,
    }
