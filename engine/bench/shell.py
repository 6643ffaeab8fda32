"""What a confined shell command costs in snapshotting on a large workspace (`warden bench shell`).

A throwaway home and a workspace of `size_mb` megabytes in many files; then `runs` tasks of one
confined `echo x >> log.txt` each, through the whole runtime path (gate, write-ahead, sandbox,
receipt). The tool reports the time it spent probing the overlay, scanning the upper layer,
snapshotting what changed and applying it: the snapshotting cost, which excludes the command and
the sandbox's start. For scale, one snapshot of the whole workspace (what each command cost
before) is timed too.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import statistics
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.envs.workspace import overlay, shell, snapshot
from engine.envs.workspace.environment import WorkspaceEnv
from engine.envs.workspace.sandbox import Sandbox
from engine.errors import WardenError
from engine.runtime import Runtime, Switches
from engine.tasks.task import TaskSpec, TaskStatus

DEFAULT_SIZE_MB = 200
DEFAULT_RUNS = 5
FILE_KB = 256
FILES_PER_DIRECTORY = 50
COMMAND = "echo x >> log.txt"
PARTS = ("probe_ms", "scan_ms", "snapshot_ms", "apply_ms")


@dataclass(frozen=True)
class Options:
    size_mb: int = DEFAULT_SIZE_MB
    runs: int = DEFAULT_RUNS
    home: Path | None = None


def build(workspace: Path, size_mb: int) -> int:
    """Fill the workspace with `size_mb` MB of incompressible files in nested directories; how many files."""
    count = max(1, size_mb * 1024 // FILE_KB)
    block = os.urandom(FILE_KB * 1024)
    for number in range(count):
        folder = workspace / f"d{number // FILES_PER_DIRECTORY:03d}"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"f{number:05d}.bin").write_bytes(number.to_bytes(4, "big") + block[4:])
    (workspace / "log.txt").write_text("start\n")
    return count


async def _steps(home: Path, workspace: Path, runs: int) -> tuple[list[dict[str, float]], list[float], list[list[str]]]:
    """Run the command `runs` times as separate tasks; each run's costs, step time (ms) and changed paths."""
    with shell.measured() as seen:
        runtime = await Runtime.open(home, workspace, Switches())
        try:
            journal = runtime.journal
            if journal is None:
                raise WardenError("bench shell: the runtime keeps no journal (recovery is switched off)")
            steps, changed = [], []
            for number in range(runs):
                spec = TaskSpec.from_json({"goal": f"bench shell {number}", "learn": False,
                                           "plan": [{"tool": "shell.run", "args": {"command": COMMAND}}]})
                task = await runtime.submit(spec)
                started = time.perf_counter()
                for _ in range(5):
                    await runtime.run_until_idle()
                    pending = [a for a in await runtime.pending_approvals() if a.task_id == task.id]
                    if not pending:
                        break
                    for approval in pending:
                        await runtime.approve(approval.id)
                steps.append((time.perf_counter() - started) * 1000)
                done = await runtime.queue.get(task.id)
                if done.status is not TaskStatus.SUCCEEDED:
                    raise WardenError(f"bench shell: the task {done.status.value}: {done.error}")
                receipts = [r for r in await journal.for_task(task.id) if r.call.tool == "shell.run"]
                changed.append(snapshot.paths(Path(receipts[0].snapshot_path)) if receipts and
                               receipts[0].snapshot_path else [])
        finally:
            await runtime.close()
    return list(seen), steps, changed


def measure(options: Options) -> dict[str, Any]:
    if options.size_mb < 1 or options.runs < 1:
        raise WardenError("bench shell: --size-mb and --runs must be at least 1")
    sandbox = Sandbox.detect()
    if not sandbox.contains_effects:
        raise WardenError(f"bench shell: no confining sandbox here ({sandbox.reason})")
    base = Path(tempfile.mkdtemp(prefix="warden-bench-shell-", dir=options.home))
    try:
        workspace, home = base / "ws", base / "home"
        workspace.mkdir()
        files = build(workspace, options.size_mb)
        (home / "snapshots").mkdir(parents=True)
        problem = overlay.unavailable(sandbox, home / "snapshots")
        costs, steps, changed = asyncio.run(_steps(home, workspace, options.runs))
        started = time.perf_counter()
        snapshot.take(WorkspaceEnv(workspace, sandbox), ["."], base / "whole")
        whole_ms = (time.perf_counter() - started) * 1000
    finally:
        shutil.rmtree(base, ignore_errors=True)
    totals = [sum(run.get(part, 0.0) for part in PARTS) for run in costs]
    return {
        "command": COMMAND, "size_mb": options.size_mb, "files": files, "runs": options.runs,
        "route": "overlay" if problem is None else "whole-workspace snapshot", "overlay_problem": problem,
        "snapshotting_ms": {"median": _median(totals), "max": max(totals, default=None),
                            **{part: _median([run.get(part, 0.0) for run in costs]) for part in PARTS}},
        "first_run_ms": costs[0] if costs else None,
        "step_ms": {"median": _median(steps), "max": max(steps, default=None)},
        "changed": changed[-1] if changed else [],
        "whole_workspace_snapshot_ms": round(whole_ms, 1),
    }


def _median(values: list[float]) -> float | None:
    return round(statistics.median(values), 3) if values else None
