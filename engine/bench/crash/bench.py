"""The crash benchmark: the same seeded plans run twice, once under SIGKILLs and once without.

The crash arm plants stalls (at least one per task, at step boundaries and mid-step), runs K worker
processes on one home with a short lease, kills each process that reports a stall, starts another in
its place, and approves every gated step through the runtime's approval path (decided by "bench")
until every task has settled. The reference arm runs the plans on a fresh home with no stall. Then:
each task's workspace tree against its reference, the effect logs (duplicates, missing effects), and
every gated effect against the approvals used for it.
"""

from __future__ import annotations

import asyncio
import os
import random
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.bench.crash import effects, plans, stalls, trees
from engine.bench.crash.operators import GATED
from engine.bench.crash.space import CrashSpace, open_runtime
from engine.errors import WardenError
from engine.store import StoreError
from engine.tasks.task import TaskSpec, scripted

REPO = Path(__file__).resolve().parents[3]
DECIDER = "bench"
POLL_S = 0.02
ARM_TIMEOUT_S = 1800
SETTLED = ("succeeded", "failed", "cancelled")
# The gated operators are dangerous and held for a person by name: they are local and undoable, so without
# `[ask]` the gate would run them unasked, and the bench measures approvals under kills.
POLICY = "".join(f'[tools."{name}"]\nlevel = "dangerous"\n\n' for name in sorted(GATED)) + (
    "[ask]\ntools = [" + ", ".join(f'"{name}"' for name in sorted(GATED)) + "]\n")


@dataclass
class Options:
    """`tasks` plans of `seed`, run by `workers` processes with a `lease` in seconds; `home` keeps both arms."""

    tasks: int = 100
    seed: int = 0
    workers: int = 2
    lease: float = 1.0
    home: Path | None = None
    progress: Callable[[str, int, int], None] | None = field(default=None, repr=False)


def crash_points(all_plans: list[list[dict]], seed: int) -> dict[str, str]:
    """Where each task is killed: one or two steps, each at a boundary or mid-step; both kinds appear."""
    rng = random.Random(f"{seed}:kills")
    points: dict[str, str] = {}
    for number, steps in enumerate(all_plans):
        for idx in sorted(rng.sample(range(len(steps)), rng.choice((1, 1, 2)))):
            kind = stalls.BOUNDARY if (number + idx) % 2 == 0 else rng.choice(stalls.MID)
            points[plans.key(number, idx)] = kind
    return points


@dataclass
class Kill:
    key: str
    when: str
    task_id: str
    at: float
    epoch: int
    reclaimed: float | None = None


@dataclass
class Arm:
    """One run of all the plans: where it is, and what it saw."""

    root: Path
    task_ids: list[str] = field(default_factory=list)
    kills: list[Kill] = field(default_factory=list)
    approved: int = 0
    statuses: dict[str, str] = field(default_factory=dict)
    approvals: list[dict] = field(default_factory=list)
    steps_done: int = 0
    wall_s: float = 0.0

    @property
    def home(self) -> Path:
        return self.root / "home"

    @property
    def control(self) -> Path:
        return self.root / "control"

    def workspace(self, number: int) -> Path:
        return self.root / "workspaces" / f"p{number:04d}"


def _worker(arm: Arm, lease: float, number: int) -> subprocess.Popen:
    logs = arm.root / "logs"
    logs.mkdir(exist_ok=True)
    command = [sys.executable, "-m", "engine.bench.crash.child", "--home", str(arm.home), "--control",
               str(arm.control), "--lease", str(lease)]
    with (logs / f"worker-{number}.err").open("w") as stderr:
        return subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=stderr, cwd=REPO,
                                env={**os.environ, "PYTHONPATH": str(REPO)})


async def run_arm(arm: Arm, all_plans: list[list[dict]], points: dict[str, str], options: Options,
                  label: str) -> None:
    """Queue every plan in its own space, then keep `options.workers` processes running (killing the
    stalled, approving the gated) until every task has settled."""
    arm.home.mkdir(parents=True)
    arm.control.mkdir(parents=True)
    (arm.home / "policy.toml").write_text(POLICY, encoding="utf-8")
    for key, when in points.items():
        stalls.plant(arm.control, key, when)
    runtime = await open_runtime(arm.home, arm.control)
    try:
        pairs = []
        for number, steps in enumerate(all_plans):
            space = CrashSpace(arm.workspace(number), arm.control, runtime.workspace.sandbox)
            spec = TaskSpec(f"crash bench plan {number}", {"kind": space.kind}, scripted(steps), learn=False)
            pairs.append((spec, space.identity))
        arm.task_ids = [task.id for task in await runtime.queue.submit(pairs)]
        task_of = {plans.key(number, 0)[:5]: task_id for number, task_id in enumerate(arm.task_ids)}
        started, spawned = time.perf_counter(), 0
        workers: list[subprocess.Popen] = []
        while True:
            if time.perf_counter() - started > ARM_TIMEOUT_S:
                raise WardenError(f"bench crash: the {label} run did not settle in {ARM_TIMEOUT_S} s; see {arm.root}")
            try:
                counts: dict[str, int] = {row[0]: row[1] for row in await runtime.store.fetchall(
                    "SELECT status, COUNT(*) FROM tasks GROUP BY status")}
                for approval in await runtime.approvals.pending():
                    await runtime.approve(approval.id, by=DECIDER)
                    arm.approved += 1
                await _reclaims(runtime, arm)
            except StoreError:
                await asyncio.sleep(POLL_S)
                continue
            settled = sum(counts.get(status, 0) for status in SETTLED)
            if options.progress is not None:
                options.progress(label, settled, len(all_plans))
            for mark in stalls.marks(arm.control):
                task_id = task_of[mark["key"][:5]]
                row = await runtime.store.fetchrow("SELECT epoch FROM tasks WHERE id = ?", (task_id,))
                os.kill(mark["pid"], signal.SIGKILL)
                arm.kills.append(Kill(mark["key"], mark["when"], task_id, time.time(), row["epoch"]))
            for worker in [w for w in workers if w.poll() is not None]:
                workers.remove(worker)
                if worker.returncode not in (0, -signal.SIGKILL):
                    raise WardenError(f"bench crash: a worker exited {worker.returncode}; see {arm.root / 'logs'}")
            if settled == len(all_plans) and not workers:
                break
            if settled < len(all_plans) and counts.get("queued", 0) + counts.get("running", 0):
                while len(workers) < options.workers:
                    workers.append(_worker(arm, options.lease, spawned))
                    spawned += 1
            await asyncio.sleep(POLL_S)
        arm.wall_s = time.perf_counter() - started
        await _reclaims(runtime, arm)
        arm.statuses = {row[0]: row[1] for row in await runtime.store.fetchall("SELECT id, status FROM tasks")}
        arm.steps_done = (await runtime.store.fetchrow("SELECT COUNT(*) FROM steps WHERE status = 'done'"))[0]
        arm.approvals = [dict(row) for row in await runtime.store.fetchall(
            "SELECT task_id, json_extract(call, '$.args.key') AS key, status, decided_by FROM approvals")]
    finally:
        await runtime.close()


async def _reclaims(runtime, arm: Arm) -> None:
    """A killed task is reclaimed once its claim has moved on (a later epoch) under another runner."""
    for kill in arm.kills:
        if kill.reclaimed is None:
            row = await runtime.store.fetchone("SELECT epoch FROM tasks WHERE id = ?", (kill.task_id,))
            if row["epoch"] > kill.epoch:
                kill.reclaimed = time.time() - kill.at


def approval_violations(lines: list[dict], approvals: list[dict], task_ids: dict[str, str]) -> list[str]:
    """Gated effects with no approval granted by the bench and used for that very call, or more effects
    of one gated step than approvals used for it (an approval used twice)."""
    used: dict[tuple[str, str], int] = {}
    for approval in approvals:
        if approval["status"] == "used" and approval["decided_by"] == DECIDER:
            pair = (approval["task_id"], approval["key"])
            used[pair] = used.get(pair, 0) + 1
    found = []
    for key, group in effects.by_key(lines).items():
        gated = [line for line in group if "crash." + line["op"] in GATED]
        if gated and len(gated) > used.get((task_ids[key[:5]], key), 0):
            found.append(f"{key}: {len(gated)} effect(s), {used.get((task_ids[key[:5]], key), 0)} approval(s) used")
    return found


def _quantiles(values: list[float]) -> dict[str, float | None]:
    if not values:
        return {"n": 0, "p50": None, "p95": None, "max": None}
    ordered = sorted(values)
    return {"n": len(ordered), "p50": round(statistics.median(ordered), 3),
            "p95": round(ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))], 3), "max": round(ordered[-1], 3)}


def validate(options: Options) -> None:
    if options.tasks < 1 or options.workers < 1 or options.lease <= 0:
        raise WardenError("bench crash: --tasks and --workers must be at least 1, and the lease positive")


def measure(options: Options) -> dict[str, Any]:
    validate(options)
    root = Path(options.home) if options.home else Path(tempfile.mkdtemp(prefix="warden-bench-crash-"))
    crash, reference = Arm(root / "crash"), Arm(root / "reference")
    for arm in (crash, reference):
        if arm.root.exists():
            raise WardenError(f"bench crash: {arm.root} already exists; give --home an empty directory")
    try:
        all_plans = plans.plans(options.tasks, options.seed)
        points = crash_points(all_plans, options.seed)
        asyncio.run(run_arm(crash, all_plans, points, options, "crashing"))
        asyncio.run(run_arm(reference, all_plans, {}, options, "reference"))
        return report(options, all_plans, points, crash, reference)
    finally:
        if options.home is None:
            shutil.rmtree(root, ignore_errors=True)


def report(options: Options, all_plans: list[list[dict]], points: dict[str, str], crash: Arm,
           reference: Arm) -> dict[str, Any]:
    equal, unequal = 0, []
    for number in range(len(all_plans)):
        diff = trees.differences(trees.tree(crash.workspace(number)), trees.tree(reference.workspace(number)))
        same_end = crash.statuses[crash.task_ids[number]] == reference.statuses[reference.task_ids[number]]
        if not diff and same_end:
            equal += 1
        else:
            unequal.append({"plan": number, "differences": diff[:5],
                            "status": crash.statuses[crash.task_ids[number]],
                            "reference_status": reference.statuses[reference.task_ids[number]]})
    lines, reference_lines = effects.read(crash.control), effects.read(reference.control)
    task_ids = {plans.key(number, 0)[:5]: task_id for number, task_id in enumerate(crash.task_ids)}
    violations = approval_violations(lines, crash.approvals, task_ids)
    missing = effects.missing(reference_lines, lines)
    kinds = {"boundary": sum(k.when == stalls.BOUNDARY for k in crash.kills),
             "mid": sum(k.when != stalls.BOUNDARY for k in crash.kills)}
    killed_tasks = len({kill.task_id for kill in crash.kills})
    statuses: dict[str, int] = {}
    for status in crash.statuses.values():
        statuses[status] = statuses.get(status, 0) + 1
    data = {
        "benchmark": "crash",
        "seed": options.seed,
        "tasks": len(all_plans),
        "steps": sum(len(steps) for steps in all_plans),
        "operators_used": len({step["tool"] for steps in all_plans for step in steps}),
        "workers": options.workers,
        "lease_s": options.lease,
        "kills": {"total": len(crash.kills), **kinds, "planted": len(points), "tasks_killed": killed_tasks},
        "approvals": {"granted": crash.approved, "reference_granted": reference.approved},
        "statuses": statuses,
        "reference_statuses": sorted(set(reference.statuses.values())),
        "resume_correctness": round(equal / len(all_plans), 4),
        "duplicate_side_effects": effects.duplicates(lines),
        "missing_effects": len(missing),
        "approval_violations": len(violations),
        "reclaim_s": _quantiles([k.reclaimed for k in crash.kills if k.reclaimed is not None]),
        "unreclaimed_kills": sum(k.reclaimed is None for k in crash.kills),
        "wall_s": {"crashing": round(crash.wall_s, 2), "reference": round(reference.wall_s, 2)},
        "cpus": os.cpu_count(),
        "failures": {"unequal": unequal[:10], "missing": missing[:10], "violations": violations[:10]},
        "home": str(options.home) if options.home else None,
    }
    data["ok"] = (data["resume_correctness"] == 1.0 and data["duplicate_side_effects"] == 0
                  and data["missing_effects"] == 0 and data["approval_violations"] == 0
                  and killed_tasks == len(all_plans) and statuses == {"succeeded": len(all_plans)})
    return data
