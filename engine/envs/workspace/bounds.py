"""The bounds a confined command runs within: time, memory, processes and bytes written.

A confined command runs without a person asking (it is undoable), so "contained" must also mean
it cannot exhaust the host. Each bound is enforced by the cheapest mechanism that holds as root
(Warden's commands may run as root), and every excess stops the whole sandbox:

- time: the sandbox is killed at `timeout` (`sandbox`).
- memory: `RLIMIT_DATA` per process, so an allocation past the bound is refused by the kernel;
  not `RLIMIT_AS`, which counts address space only reserved (Go, the JVM and V8 reserve far more
  than they use, and fail to start under it). The processes' data together are also polled
  (`VmData`), so several processes each under the bound are stopped once their sum is over it.
- processes: a pids cgroup (`pids.max`), made for each command under Warden's own cgroup when
  this host lets it (v1 `pids` hierarchy, or v2 with `pids` delegated); `RLIMIT_NPROC` is not
  used, the kernel exempts root from it. Without a writable cgroup the sandbox's processes are
  counted by polling, which a fast enough fork can outrun (`warden doctor` says which).
- bytes written: `RLIMIT_FSIZE` just past the bound for any one file (a write past it fails),
  and what the command left (the overlay's upper layer, or the workspace's growth) polled and
  measured once more at its end.

Polled bounds are checked every `POLL` seconds. Blocking helpers run in worker threads.
"""

from __future__ import annotations

import asyncio
import functools
import os
import resource
import signal
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from engine.errors import WardenError

MB = 1024 * 1024
POLL = 0.05
BWRAP_OWN = 2  # bubblewrap's monitor and its pid 1: processes of the sandbox, not of the command
_KILL_WAIT = 5.0


@dataclass(frozen=True)
class Bounds:
    """The policy's `[shell]` bounds on one confined command."""

    timeout: float = 60.0
    memory_mb: int = 8192
    processes: int = 1024
    write_mb: int = 8192

    def line(self) -> str:
        return (f"{self.timeout:g} s, {self.memory_mb} MB memory, {self.processes} processes, "
                f"{self.write_mb} MB written")


class Exceeded(WardenError):
    """A confined command went past a bound and its whole sandbox was stopped; `what` says which, in words."""

    def __init__(self, what: str) -> None:
        super().__init__(f"stopped: {what}")
        self.what = what


def wrote_too_much(bounds: Bounds) -> Exceeded:
    return Exceeded(f"wrote more than {bounds.write_mb} MB (shell.write_mb)")


def used_too_much(bounds: Bounds) -> Exceeded:
    return Exceeded(f"used more than {bounds.memory_mb} MB of memory (shell.memory_mb)")


def forked_too_much(bounds: Bounds) -> Exceeded:
    return Exceeded(f"started more than {bounds.processes} processes (shell.processes)")


def enforcement() -> dict[str, str]:
    """How each bound is enforced on this host, in a few words each (`warden doctor`)."""
    cgroup = pids_parent()
    processes = (f"enforced: a pids cgroup under {cgroup}" if cgroup is not None
                 else "not enforced by the kernel: no writable pids cgroup; counted every "
                      f"{POLL:g} s, which a fast fork can outrun")
    return {"time": "enforced: the sandbox is killed at the limit",
            "memory": "enforced: RLIMIT_DATA per process; their sum polled",
            "processes": processes,
            "written": "enforced: RLIMIT_FSIZE per file; the command's writes polled"}


def _lower(kind: int, value: int) -> None:
    """Take a limit down to `value`, never up: a limit the host already set lower (a `ulimit -f` around
    Warden) stays, and raising a hard limit is refused to anyone but a privileged process anyway."""
    soft, hard = resource.getrlimit(kind)
    held = [limit for limit in (soft, hard, value) if limit != resource.RLIM_INFINITY]
    resource.setrlimit(kind, (min(held), min(held)))


class Running:
    """The bounds of one command while it runs: its limits, its cgroup (when there is one), and `written`,
    which measures (blocking) how many bytes it has written so far."""

    def __init__(self, bounds: Bounds, written: Callable[[], int]) -> None:
        self.bounds = bounds
        self.written = written
        self.cgroup = _make_cgroup(bounds.processes + BWRAP_OWN)
        self._join = os.open(self.cgroup / "cgroup.procs", os.O_WRONLY | os.O_CLOEXEC) if self.cgroup else None

    def preexec(self) -> None:
        """In the child, before it execs: take the limits on and join the cgroup (async-signal-safe calls only)."""
        _lower(resource.RLIMIT_DATA, self.bounds.memory_mb * MB)
        _lower(resource.RLIMIT_FSIZE, self.bounds.write_mb * MB + 1)
        if self._join is not None:
            os.write(self._join, b"0")

    async def watch(self, pid: int) -> Exceeded:
        """Poll until a bound is exceeded; which one."""
        while True:
            await asyncio.sleep(POLL)
            if (found := await asyncio.to_thread(self.check, pid)) is not None:
                return found

    def check(self, pid: int) -> Exceeded | None:
        """A bound the sandbox rooted at `pid` is over now, if any (blocking)."""
        members = self.members(pid)
        if (self.cgroup is not None and _pids_refused(self.cgroup)) or len(members) > self.bounds.processes + BWRAP_OWN:
            return forked_too_much(self.bounds)
        if sum(_data(member) for member in members) > self.bounds.memory_mb * MB:
            return used_too_much(self.bounds)
        if self.written() > self.bounds.write_mb * MB:
            return wrote_too_much(self.bounds)
        return None

    def ended(self) -> Exceeded | None:
        """A bound the command is found past once it has ended (blocking): a fork its cgroup refused, or what it
        left. Memory is gone with its processes: only the kernel's refusal stood in its way then."""
        if self.cgroup is not None and _pids_refused(self.cgroup):
            return forked_too_much(self.bounds)
        if self.written() > self.bounds.write_mb * MB:
            return wrote_too_much(self.bounds)
        return None

    def members(self, pid: int) -> list[int]:
        """The sandbox's processes: its cgroup's, or else `pid` and its descendants."""
        if self.cgroup is not None:
            return _listed(self.cgroup)
        return _descendants(pid)

    def close(self) -> None:
        """Kill whatever is left in the cgroup and remove it (blocking). Without one, killing bubblewrap ends
        its pid namespace, and with it every process of the sandbox."""
        if self._join is not None:
            os.close(self._join)
            self._join = None
        if self.cgroup is not None:
            _remove_cgroup(self.cgroup)


def footprint(root: Path) -> int:
    """The bytes held by regular files and links under `root` (each inode once, sizes as they appear: a sparse
    file counts whole, as copying it out would write it), not following links. Blocking."""
    return sum(size for size, _ in inventory(root).values())


def written_since(root: Path, before: dict[tuple[int, int], tuple[int, int]]) -> int:
    """The bytes of every file under `root` new or changed since the `inventory` `before` (blocking): what a
    command run in place wrote, whatever it deleted meanwhile."""
    return sum(size for key, (size, changed) in inventory(root).items() if before.get(key) != (size, changed))


def inventory(root: Path) -> dict[tuple[int, int], tuple[int, int]]:
    """Each file and link under `root`, by device and inode: its apparent size and its last change (ns)."""
    found: dict[tuple[int, int], tuple[int, int]] = {}
    pending = [str(root)]
    while pending:
        try:
            entries = list(os.scandir(pending.pop()))
        except OSError:
            continue
        for entry in entries:
            try:
                info = entry.stat(follow_symlinks=False)
            except OSError:
                continue
            if entry.is_dir(follow_symlinks=False):
                pending.append(entry.path)
            else:
                found[(info.st_dev, info.st_ino)] = (info.st_size, info.st_mtime_ns)
    return found


@functools.lru_cache(maxsize=1)
def pids_parent() -> Path | None:
    """The pids cgroup Warden runs in, when it may make a child there with its own `pids.max`; else None."""
    try:
        mounts = Path("/proc/self/mounts").read_text().splitlines()
        lines = Path("/proc/self/cgroup").read_text().splitlines()
    except OSError:
        return None
    for line in lines:
        _, controllers, path = line.split(":", 2)
        place = _place(mounts, controllers, path)
        if place is not None and _can_make(place):
            return place
    return None


def _place(mounts: list[str], controllers: str, path: str) -> Path | None:
    """Where the cgroup `path` of a `/proc/self/cgroup` line is mounted, if it can limit pids."""
    for mount in mounts:
        _, where, kind, options, *_ = mount.split()
        v1 = kind == "cgroup" and "pids" in controllers.split(",") and "pids" in options.split(",")
        if v1 or (kind == "cgroup2" and controllers == ""):
            place = Path(where) / path.lstrip("/")
            if v1 or "pids" in _read(place / "cgroup.subtree_control").split():
                return place
    return None


def _can_make(parent: Path) -> bool:
    try:
        made = _make_in(parent, 1)
    except OSError:
        return False
    _remove_cgroup(made)
    return True


def _make_cgroup(limit: int) -> Path | None:
    parent = pids_parent()
    if parent is None:
        return None
    _sweep(parent)
    try:
        return _make_in(parent, limit)
    except OSError:
        return None


def _make_in(parent: Path, limit: int) -> Path:
    made = parent / f"warden-{os.getpid()}-{uuid.uuid4().hex[:12]}"
    made.mkdir()
    try:
        (made / "pids.max").write_text(str(limit))
    except OSError:
        made.rmdir()
        raise
    return made


def _sweep(parent: Path) -> None:
    """Remove the empty cgroups a Warden that died mid-command left (one whose pid is gone); one with processes
    left in it is not empty, and stays."""
    for left in parent.glob("warden-*-*"):
        owner = left.name.split("-")[1]
        if owner.isdigit() and not Path(f"/proc/{owner}").exists():
            try:
                left.rmdir()
            except OSError:
                pass


def _remove_cgroup(cgroup: Path) -> None:
    """Kill every process left in it, then remove it once empty (a cgroup with members cannot be removed)."""
    deadline = time.monotonic() + _KILL_WAIT
    while (members := _listed(cgroup)) and time.monotonic() < deadline:
        for member in members:
            _kill(member)
        time.sleep(0.01)
    try:
        cgroup.rmdir()
    except OSError:
        pass


def _pids_refused(cgroup: Path) -> bool:
    """Whether the cgroup refused a fork at its `pids.max` (its `max` event count)."""
    for line in _read(cgroup / "pids.events").splitlines():
        name, _, count = line.partition(" ")
        if name == "max" and count.strip() not in ("", "0"):
            return True
    return False


def _listed(cgroup: Path) -> list[int]:
    return [int(pid) for pid in _read(cgroup / "cgroup.procs").split()]


def _descendants(root: int) -> list[int]:
    """`root` and every process descending from it, from each process's parent in `/proc`."""
    children: dict[int, list[int]] = {}
    for entry in os.scandir("/proc"):
        if entry.name.isdigit():
            stat = _read(Path(entry.path) / "stat")
            fields = stat.rpartition(")")[2].split()
            if len(fields) > 1:
                children.setdefault(int(fields[1]), []).append(int(entry.name))
    found, pending = [], [root]
    while pending:
        pid = pending.pop()
        found.append(pid)
        pending += children.get(pid, [])
    return found


def _data(pid: int) -> int:
    """A process's private writable memory (`VmData`, what `RLIMIT_DATA` limits), in bytes."""
    for line in _read(Path(f"/proc/{pid}/status")).splitlines():
        if line.startswith("VmData:"):
            return int(line.split()[1]) * 1024
    return 0


def _read(path: Path) -> str:
    try:
        return path.read_text()
    except (OSError, UnicodeDecodeError):
        return ""


def _kill(pid: int) -> None:
    try:
        os.kill(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
