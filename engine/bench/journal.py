"""What a receipt and its snapshot cost per action (`warden bench journal`), by file size and snapshot kind.

Each arm opens a runtime on a throwaway home beside a workspace holding one file of the arm's size,
then, `runs` times, times the journal's whole share of an `fs.write` over that file: `prepare` (the
snapshot of the old content), `commit` (the receipt, in its own transaction) and `seal` (the record
of what the call left). The tool's own write is not timed. The file changes between runs, outside
the timing, so the content-addressed store never gets to keep a repeat for free.

Arms run where the files are: the default temporary directory, and a loopback btrfs image when this
process may make one (root, `mkfs.btrfs`, loop devices), so reflink is measured where the machine
allows it. On a filesystem that clones, the copy arm is forced by telling the reflink probe that the
device cannot (`reflink.refuse`); the receipt's `snapshot_kind` says what each arm actually got.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import statistics
import subprocess
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.envs.workspace import reflink
from engine.errors import WardenError
from engine.runtime import Runtime, Switches
from engine.tier import Tier
from engine.tools.call import ToolCall

SIZES = {"4 KB": 4 * 1024, "100 MB": 100 * 1024 * 1024}
DEFAULT_RUNS = 5
TARGET = "data.bin"
IMAGE_SLACK = 384 * 1024 * 1024
BLOCK = os.urandom(1 << 20)


@dataclass
class Options:
    """`runs` actions per arm; `place` holds the files of the plain arms (default: the temporary directory);
    `loopback` also measures on a btrfs image when one can be mounted."""

    runs: int = DEFAULT_RUNS
    place: Path | None = None
    loopback: bool = True
    progress: Callable[[str], None] | None = field(default=None, repr=False)


def validate(options: Options) -> None:
    if options.runs < 1:
        raise WardenError("bench journal: --runs must be at least 1")
    if options.place is not None and not options.place.is_dir():
        raise WardenError(f"bench journal: --dir {options.place} is not a directory")


def measure(options: Options) -> dict[str, Any]:
    """Every arm that this machine can run, and why a reflink arm is missing when it is."""
    validate(options)
    arms, places = [], []
    base = Path(tempfile.mkdtemp(prefix="warden-bench-journal-", dir=options.place))
    try:
        places.append(("temp", base))
        image = IMAGE_SLACK + (options.runs + 1) * max(SIZES.values())  # the copy arm keeps every run's copy
        with _loopback(base / "btrfs", options.loopback, image) as (mounted, why_not):
            if mounted is not None:
                places.append(("btrfs", mounted))
            for label, root in places:
                clones = reflink.probe(root, root)
                for size_label, size in SIZES.items():
                    for kind in ("copy", "reflink") if clones else ("copy",):
                        if options.progress:
                            options.progress(f"{label}: {size_label} {kind}")
                        arms.append(_arm(root / f"{size_label.replace(' ', '')}-{kind}", label, size_label, size,
                                         kind, options.runs))
    except OSError as exc:
        where = f" ({exc.filename})" if exc.filename else ""
        raise WardenError(f"bench journal: {exc.strerror or exc}{where}") from None
    finally:
        shutil.rmtree(base, ignore_errors=True)
    reflink_arms = [arm for arm in arms if arm["snapshot_kind"] == "reflink"]
    return {"runs": options.runs, "cpus": os.cpu_count(), "arms": arms,
            "reflink": "measured" if reflink_arms else f"not available: {why_not or 'no filesystem here clones'}"}


def _arm(root: Path, place: str, size_label: str, size: int, kind: str, runs: int) -> dict[str, Any]:
    workspace, home = root / "ws", root / "home"
    workspace.mkdir(parents=True)
    _fill(workspace / TARGET, size)
    device = os.stat(workspace).st_dev
    if kind == "copy":
        reflink.refuse(device, device)
    try:
        totals, parts, kinds = asyncio.run(_actions(home, workspace, runs))
    finally:
        if kind == "copy":
            reflink.forget(device, device)
        shutil.rmtree(root, ignore_errors=True)  # room for the next arm
    return {
        "place": place, "size": size_label, "bytes": size, "arm": kind,
        "snapshot_kind": kinds[0] if len(set(kinds)) == 1 else "mixed: " + ",".join(sorted(set(kinds))),
        "per_action_ms": _stats(totals),
        **{f"{part}_ms": _stats(values) for part, values in parts.items()},
    }


async def _actions(home: Path, workspace: Path, runs: int) -> tuple[list[float], dict[str, list[float]], list[str]]:
    runtime = await Runtime.open(home, workspace, Switches())
    try:
        journal, env = runtime.journal, runtime.environments["workspace"]
        if journal is None:
            raise WardenError("bench journal: the runtime keeps no journal (recovery is switched off)")
        tool = runtime.registry.get("fs.write")
        call = ToolCall("fs.write", {"path": TARGET, "content": "replaced\n"})
        totals, kinds = [], []
        parts: dict[str, list[float]] = {"snapshot": [], "receipt": [], "seal": []}
        for run in range(runs):
            await asyncio.to_thread(_touch, workspace / TARGET, run)
            started = time.perf_counter()
            prepared = await journal.prepare(env, tool, call, Tier.LOCAL_REVERSIBLE)
            snapped = time.perf_counter()
            async with runtime.store.transaction() as db:
                await journal.commit(db, prepared, None, None, call, Tier.LOCAL_REVERSIBLE, "bench journal")
            committed = time.perf_counter()
            await journal.seal(env, prepared)
            sealed = time.perf_counter()
            totals.append((sealed - started) * 1000)
            parts["snapshot"].append((snapped - started) * 1000)
            parts["receipt"].append((committed - snapped) * 1000)
            parts["seal"].append((sealed - committed) * 1000)
            kinds.append(prepared.snapshot_kind.value)
        return totals, parts, kinds
    finally:
        await runtime.close()


def _fill(path: Path, size: int) -> None:
    with open(path, "wb") as out:
        left = size
        while left:
            left -= out.write(BLOCK[:min(left, len(BLOCK))])
        os.fsync(out.fileno())  # on disk before timing starts, as a file that did not just arrive would be


def _touch(path: Path, run: int) -> None:
    """Change the file's first bytes, so no two runs snapshot the same content."""
    with open(path, "r+b") as out:
        out.write(run.to_bytes(8, "big"))


def _stats(values: list[float]) -> dict[str, float]:
    ordered = sorted(values)
    return {"median": round(statistics.median(ordered), 3),
            "p95": round(ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))], 3),
            "max": round(ordered[-1], 3)}


@contextmanager
def _loopback(where: Path, wanted: bool, size: int) -> Iterator[tuple[Path | None, str | None]]:
    """A mounted btrfs image under `where`, or None with why it could not be had; unmounted afterwards."""
    if not wanted:
        yield None, "the loopback arm was not asked for (--no-loopback)"
        return
    if os.geteuid() != 0:
        yield None, "mounting a loopback image needs root"
        return
    mkfs = shutil.which("mkfs.btrfs")
    if mkfs is None:
        yield None, "mkfs.btrfs is not installed"
        return
    where.mkdir()
    image, mountpoint = where / "image", where / "mnt"
    mountpoint.mkdir()
    with open(image, "wb") as sparse:
        sparse.truncate(size)
    for argv in ([mkfs, "-q", str(image)], ["mount", "-o", "loop", str(image), str(mountpoint)]):
        done = subprocess.run(argv, capture_output=True, text=True, stdin=subprocess.DEVNULL)
        if done.returncode != 0:
            yield None, f"{Path(argv[0]).name} failed: {(done.stderr.strip().splitlines() or ['?'])[-1]}"
            return
    try:
        yield mountpoint, None
    finally:
        subprocess.run(["umount", str(mountpoint)], capture_output=True, stdin=subprocess.DEVNULL)
