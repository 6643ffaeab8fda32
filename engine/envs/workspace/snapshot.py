"""Copy snapshots of workspace paths, and their exact restoration (blocking: call from a thread).

A snapshot directory holds `manifest.json` (each path, and whether it existed) and a
copy of every path that did; restoring puts back exactly that, absent paths included.
"""

from __future__ import annotations

import json
import os
import shutil
import stat
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING

from engine.errors import WardenError

if TYPE_CHECKING:
    from engine.envs.workspace.environment import WorkspaceEnv


class SnapshotError(WardenError):
    """Something in the workspace cannot be captured exactly (a socket, a device)."""


def copy_entry(source: str | Path, destination: str | Path, *, follow_symlinks: bool = False) -> str | Path:
    """Copy one entry exactly: files with their metadata, named pipes as named pipes (never opened)."""
    mode = os.lstat(source).st_mode
    if stat.S_ISFIFO(mode):
        os.mkfifo(destination, stat.S_IMODE(mode))
        return destination
    if not (stat.S_ISREG(mode) or stat.S_ISLNK(mode)):
        raise SnapshotError(f"cannot snapshot {source}: a socket or device file cannot be restored")
    return shutil.copy2(source, destination, follow_symlinks=False)


def take(env: WorkspaceEnv, paths: list[str], into: Path) -> None:
    into.mkdir(parents=True, exist_ok=False)
    manifest = []
    for number, relative in enumerate(paths):
        source = env.resolve(relative)
        entry = {"path": relative, "existed": source.exists() or source.is_symlink(), "copy": f"data-{number}"}
        if source.is_dir() and not source.is_symlink():
            shutil.copytree(source, into / entry["copy"], symlinks=True, copy_function=copy_entry)
        elif entry["existed"]:
            copy_entry(source, into / entry["copy"])
        manifest.append(entry)
    (into / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")


def paths(snapshot: Path) -> list[str]:
    """The workspace paths a snapshot covers."""
    manifest = json.loads((snapshot / "manifest.json").read_text(encoding="utf-8"))
    return [entry["path"] for entry in manifest]


def overlaps(first: str, second: str) -> bool:
    """Whether restoring one path could change the other: equal, nested, or the whole workspace."""
    a, b = PurePosixPath(first.strip("/") or "."), PurePosixPath(second.strip("/") or ".")
    return "." in (str(a), str(b)) or a == b or a in b.parents or b in a.parents


def restore(env: WorkspaceEnv, snapshot: Path) -> list[str]:
    """Put every snapshotted path back as it was; returns the paths restored."""
    manifest = json.loads((snapshot / "manifest.json").read_text(encoding="utf-8"))
    for entry in reversed(manifest):
        target = env.resolve(entry["path"])
        _remove(target, keep_self=target == env.root)
        if entry["existed"]:
            saved = snapshot / entry["copy"]
            if saved.is_dir() and not saved.is_symlink():
                shutil.copytree(saved, target, symlinks=True, dirs_exist_ok=True, copy_function=copy_entry)
            else:
                target.parent.mkdir(parents=True, exist_ok=True)
                copy_entry(saved, target)
    return [entry["path"] for entry in manifest]


def _remove(target: Path, keep_self: bool) -> None:
    if keep_self:
        for child in target.iterdir():
            _remove(child, keep_self=False)
    elif target.is_dir() and not target.is_symlink():
        shutil.rmtree(target)
    elif target.exists() or target.is_symlink():
        target.unlink()
