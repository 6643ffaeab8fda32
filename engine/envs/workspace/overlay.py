"""What a confined command changed, learned from an overlay's upper layer, and applied to the workspace.

The command runs on an overlay whose lower layer is the workspace and whose upper layer is a
scratch directory (`overlay_launch`), so the workspace itself is untouched while it runs. The
upper layer then holds exactly its changes: new and modified files copied up, deletions as
whiteouts (a character device 0:0), a directory that replaced one as an opaque directory, a
chmod-ed directory with its new mode. `scan` turns that into the top-most changed paths (what a
snapshot must cover) and the steps that apply them; `apply` performs those steps by descriptor,
never following a symlink in the workspace, and copies the upper layer's symlinks as links.

Blocking, except `unavailable`'s callers: call from a worker thread.
"""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING

from engine.envs.workspace import confined
from engine.errors import WardenError

if TYPE_CHECKING:
    from engine.envs.workspace.sandbox import Sandbox

LAUNCHER = Path(__file__).with_name("overlay_launch.py")
LAYER_PREFIX = ".warden-layer-"
SWITCH = "WARDEN_SHELL_OVERLAY"
_LAYER_XATTRS = ("user.overlay.", "trusted.overlay.")
_PROBED: dict[tuple, str | None] = {}


class Action(StrEnum):
    REMOVE = "remove"
    REPLACE = "replace"
    MODE = "mode"


@dataclass(frozen=True)
class Step:
    """One change to make in the workspace: remove an entry, replace it by the upper layer's, or set a directory's mode."""

    path: str
    action: Action


@dataclass(frozen=True)
class Plan:
    """`changed`: the top-most workspace paths the command changed (a snapshot of them restores the state
    before it); `steps`: how to make the workspace what the command left, in order."""

    changed: tuple[str, ...]
    steps: tuple[Step, ...]


def launch(layer: Path, root: Path, argv: list[str]) -> list[str]:
    """The command line that runs `argv` with the overlay of `layer` mounted over the workspace `root`
    (it execs `argv`, so a descriptor passed to it reaches bubblewrap)."""
    return [sys.executable, "-I", "-S", str(LAUNCHER), str(root), str(layer), "--", *argv]


def unavailable(sandbox: Sandbox, scratch: Path) -> str | None:
    """None when a confined command can run on an overlay with its upper layer under `scratch`; else why not.

    Probed once per process for each sandbox and filesystem (an upper layer cannot be on an
    overlay itself, nor anywhere user extended attributes are refused). `WARDEN_SHELL_OVERLAY=off` declines
    it, for a host whose overlay misbehaves: each command then snapshots the whole workspace first."""
    if not sandbox.contains_effects:
        return "the command is not confined"
    if os.environ.get(SWITCH, "on").strip().lower() in ("off", "0", "false", "no"):
        return f"switched off ({SWITCH}=off)"
    try:
        key = (sandbox, os.stat(scratch).st_dev)
    except OSError as exc:
        return f"no scratch directory: {exc.strerror or exc}"
    if key not in _PROBED:
        _PROBED[key] = _probe(sandbox, scratch)
    return _PROBED[key]


def _probe(sandbox: Sandbox, scratch: Path) -> str | None:
    place = Path(tempfile.mkdtemp(prefix=".warden-probe-", dir=scratch))
    try:
        lower, layer = place / "lower", make_layer(place / "layer")
        lower.mkdir()
        try:
            done = sandbox.run_blocking(lower, ": > probe", layer=layer)  # a vanished entry is rescanned, as in `run`
        except WardenError as exc:  # the launcher or bubblewrap could not set up, each time
            return str(exc)
        except (OSError, subprocess.TimeoutExpired) as exc:
            return f"the overlay launcher did not run: {exc}"
        if done.returncode != 0:
            return (done.stderr.strip().splitlines() or [f"exit {done.returncode}"])[-1]
        if not (layer / "upper" / "probe").is_file() or (lower / "probe").exists():
            return "the overlay did not keep the command's writes apart"
        return None
    finally:
        remove_layer(place / "layer")
        shutil.rmtree(place, ignore_errors=True)


def make_layer(path: Path, root: Path | None = None) -> Path:
    """A scratch directory (made if missing) with the empty `upper` and `work` directories an overlay needs;
    the upper one takes the mode of the workspace `root`, since the overlay shows its root with the upper's mode."""
    path.mkdir(mode=0o700, exist_ok=True)
    (path / "upper").mkdir()
    (path / "work").mkdir()
    if root is not None:
        os.chmod(path / "upper", stat.S_IMODE(os.stat(root).st_mode))
    return path


def remove_layer(path: Path) -> None:
    """Remove a scratch layer, including the overlay's own work directory (which it leaves unreadable)."""
    inner = path / "work" / "work"
    try:
        os.chmod(inner, 0o700)
    except OSError:
        pass
    shutil.rmtree(path, ignore_errors=True)


def scan(root: Path, layer: Path) -> Plan:
    """What the upper layer of `layer` changes in the workspace `root`, compared entry by entry."""
    changed: list[str] = []
    steps: list[Step] = []
    upper, lower = os.open(layer / "upper", confined.DIRECTORY), confined.open_root(root)
    try:
        moded = stat.S_IMODE(os.fstat(upper).st_mode) != stat.S_IMODE(os.fstat(lower).st_mode)
        changed += ["."] if moded else []
        _scan(upper, lower, (), moded, changed, steps)
        steps += [Step(".", Action.MODE)] if moded else []
    finally:
        os.close(upper)
        os.close(lower)
    return Plan(tuple(changed), tuple(steps))


def _scan(upper: int, lower: int, prefix: tuple[str, ...], covered: bool, changed: list[str],
          steps: list[Step]) -> None:
    """One directory of the upper layer; `covered` when an enclosing path is already listed as changed."""
    with os.scandir(upper) as entries:
        names = sorted(entry.name for entry in entries)
    for name in names:
        path = "/".join((*prefix, name))
        mine = os.stat(name, dir_fd=upper, follow_symlinks=False)
        theirs = confined.lstat_at(lower, name)
        if _whiteout(mine):
            if theirs is not None:
                _record(path, Action.REMOVE, covered, changed, steps)
            continue
        if not (stat.S_ISDIR(mine.st_mode) and theirs is not None and stat.S_ISDIR(theirs.st_mode)):
            _record(path, Action.REPLACE, covered, changed, steps)
            continue
        inner_upper = os.open(name, confined.DIRECTORY, dir_fd=upper)
        try:
            if _opaque(inner_upper):
                _record(path, Action.REPLACE, covered, changed, steps)
                continue
            moded = stat.S_IMODE(mine.st_mode) != stat.S_IMODE(theirs.st_mode)
            if moded and not covered:
                changed.append(path)
            inner_lower = os.open(name, confined.DIRECTORY, dir_fd=lower)
            try:
                _scan(inner_upper, inner_lower, (*prefix, name), covered or moded, changed, steps)
            finally:
                os.close(inner_lower)
            if moded:
                steps.append(Step(path, Action.MODE))
        finally:
            os.close(inner_upper)


def _record(path: str, action: Action, covered: bool, changed: list[str], steps: list[Step]) -> None:
    if not covered:
        changed.append(path)
    steps.append(Step(path, action))


def _whiteout(found: os.stat_result) -> bool:
    return stat.S_ISCHR(found.st_mode) and found.st_rdev == 0


def _opaque(directory: int) -> bool:
    try:
        return os.getxattr(directory, "user.overlay.opaque") == b"y"
    except OSError:
        return False


def apply(root: Path, layer: Path, plan: Plan) -> None:
    """Make the workspace what the command left: each step through descriptors, no symlink followed."""
    upper = os.open(layer / "upper", confined.DIRECTORY)
    try:
        for step in plan.steps:
            if step.path == ".":
                _set_root_mode(upper, root)
                continue
            with confined.parent(root, step.path) as (folder, name):
                if step.action is Action.REMOVE:
                    confined.remove_at(folder, name)
                    continue
                source = _open_parent(upper, step.path)
                try:
                    if step.action is Action.MODE:
                        _set_mode(source, folder, name)
                    else:
                        _replace(source, folder, name)
                finally:
                    os.close(source)
    finally:
        os.close(upper)


def _open_parent(upper: int, path: str) -> int:
    fd = os.dup(upper)
    for name in path.split("/")[:-1]:
        inner = os.open(name, confined.DIRECTORY, dir_fd=fd)
        os.close(fd)
        fd = inner
    return fd


def _set_mode(source: int, folder: int, name: str) -> None:
    wanted = stat.S_IMODE(os.stat(name, dir_fd=source, follow_symlinks=False).st_mode)
    directory = os.open(name, confined.DIRECTORY, dir_fd=folder)
    try:
        os.fchmod(directory, wanted)
    finally:
        os.close(directory)


def _set_root_mode(upper: int, root: Path) -> None:
    workspace = confined.open_root(root)
    try:
        os.fchmod(workspace, stat.S_IMODE(os.fstat(upper).st_mode))
    finally:
        os.close(workspace)


def _replace(source: int, folder: int, name: str) -> None:
    """Put the upper layer's entry at `name`: staged under a temporary name, then renamed over what is there."""
    staged = confined.temporary_name()
    if not _copy(source, name, folder, staged):
        confined.remove_at(folder, name)
        return
    try:
        now = confined.lstat_at(folder, name)
        if now is not None and (stat.S_ISDIR(now.st_mode)
                                or stat.S_ISDIR(os.stat(staged, dir_fd=folder, follow_symlinks=False).st_mode)):
            confined.remove_at(folder, name)
        os.rename(staged, name, src_dir_fd=folder, dst_dir_fd=folder)
    except BaseException:
        confined.remove_at(folder, staged)
        raise


def _copy(source: int, name: str, destination: int, new: str) -> bool:
    """Copy an upper-layer entry exactly, links as links, without the overlay's whiteouts and attributes;
    whether there was anything to copy. Sockets and devices are left out: a socket without the process
    that listened on it is nothing to keep, and the sandbox cannot make a device."""
    if _unkept(os.stat(name, dir_fd=source, follow_symlinks=False)):
        return False
    confined.copy_at(source, name, destination, new, passed_over=_unkept, dropped_xattrs=_LAYER_XATTRS)
    return True


def _unkept(found: os.stat_result) -> bool:
    """A whiteout (a character device), a device or a socket: nothing the workspace should get."""
    mode = found.st_mode
    return not (stat.S_ISLNK(mode) or stat.S_ISFIFO(mode) or stat.S_ISREG(mode) or stat.S_ISDIR(mode))
