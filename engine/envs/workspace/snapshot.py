"""Copy snapshots of workspace paths, and their exact restoration (blocking: call from a thread).

A snapshot directory holds `manifest.json` and a copy of every path that existed. Each
manifest entry has the path (normalised: `a/b`, `.` for the whole workspace), whether
it existed, its copy, and `created`: the parent directories that did not exist yet, so
the step will make them. Restoring puts back exactly what was there, absent paths
included, and then removes those created parents again when they are empty.

Both directions walk the workspace by descriptor without following a symlink
(`confined`), so a directory swapped for a symlink while a snapshot is taken or
restored can neither pull outside files into the workspace nor push a restore out of it.
"""

from __future__ import annotations

import errno
import json
import os
import posixpath
import stat
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING

from engine.envs.workspace import confined
from engine.errors import WardenError

if TYPE_CHECKING:
    from engine.envs.workspace.environment import WorkspaceEnv


class SnapshotError(WardenError):
    """Something in the workspace cannot be captured exactly (a socket, a device)."""


def take(env: WorkspaceEnv, paths: list[str], into: Path) -> None:
    into.mkdir(parents=True, exist_ok=False)
    manifest = []
    saved = os.open(into, confined.DIRECTORY)
    try:
        for number, relative in enumerate(paths):
            names = confined.parts(env.root, relative)
            entry = {"path": "/".join(names) or ".", "existed": True, "copy": f"data-{number}", "created": []}
            try:
                entry["existed"] = _copy_out(env.root, relative, names, saved, entry["copy"])
            except confined.Uncopyable:
                raise SnapshotError(f"cannot snapshot {entry['path']!r:.200}: it holds a socket or device file, "
                                    "which cannot be restored") from None
            if not entry["existed"]:
                entry["created"] = confined.missing_parents(env.root, names)
            manifest.append(entry)
    finally:
        os.close(saved)
    (into / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")


def copy_workspace(root: Path, into: Path) -> None:
    """Copy everything in the workspace into an existing empty directory (a fork), exactly and without following links."""
    workspace, copy = confined.open_root(root), os.open(into, confined.DIRECTORY)
    try:
        confined.copy_children(workspace, copy)
        confined.copy_directory_metadata(workspace, copy)
    except confined.Uncopyable:
        raise SnapshotError("cannot copy the workspace: it holds a socket or device file") from None
    finally:
        os.close(workspace)
        os.close(copy)


def _copy_out(root: Path, relative: str, names: tuple[str, ...], saved: int, copy: str) -> bool:
    """Copy the entry into the snapshot; whether it existed."""
    if not names:
        workspace = confined.open_root(root)
        try:
            os.mkdir(copy, 0o700, dir_fd=saved)
            into = os.open(copy, confined.DIRECTORY, dir_fd=saved)
            try:
                confined.copy_children(workspace, into)
                confined.copy_directory_metadata(workspace, into)
            finally:
                os.close(into)
        finally:
            os.close(workspace)
        return True
    try:
        folder = confined.open_dir(root, relative, names[:-1])
    except (FileNotFoundError, NotADirectoryError):
        return False
    try:
        if confined.lstat_at(folder, names[-1]) is None:
            return False
        confined.copy_at(folder, names[-1], saved, copy)
        return True
    finally:
        os.close(folder)


def paths(snapshot: Path) -> list[str]:
    """The workspace paths a snapshot covers."""
    manifest = json.loads((snapshot / "manifest.json").read_text(encoding="utf-8"))
    return [entry["path"] for entry in manifest]


def overlaps(first: str, second: str) -> bool:
    """Whether restoring one path could change the other, by their text: equal, nested, or the whole workspace.

    Both are normalised first (`x/../b.txt`, `./b.txt`, `b.txt/` are all `b.txt`).
    `WorkspaceEnv.overlaps` also compares what exists by inode.
    """
    a, b = (PurePosixPath(posixpath.normpath(path.strip("/") or ".")) for path in (first, second))
    return "." in (str(a), str(b)) or a == b or a in b.parents or b in a.parents


def restore(env: WorkspaceEnv, snapshot: Path) -> list[str]:
    """Put every snapshotted path back as it was; returns the paths restored."""
    manifest = json.loads((snapshot / "manifest.json").read_text(encoding="utf-8"))
    saved = os.open(snapshot, confined.DIRECTORY)
    try:
        for entry in reversed(manifest):
            _put_back(env.root, entry, saved)
            for made in reversed(entry.get("created", [])):
                if not confined.remove_empty_directory(env.root, made):
                    break
    finally:
        os.close(saved)
    return [entry["path"] for entry in manifest]


def _put_back(root: Path, entry: dict, saved: int) -> None:
    relative = entry["path"]
    names = confined.parts(root, relative)
    if not names:
        workspace = confined.open_root(root)
        try:
            for name in sorted(os.listdir(workspace)):
                confined.remove_at(workspace, name)
            if entry["existed"]:
                copy = os.open(entry["copy"], confined.DIRECTORY, dir_fd=saved)
                try:
                    confined.copy_children(copy, workspace)
                    confined.copy_directory_metadata(copy, workspace)
                finally:
                    os.close(copy)
        finally:
            os.close(workspace)
        return
    if not entry["existed"]:
        try:
            with confined.parent(root, relative) as (folder, name):
                confined.remove_at(folder, name)
        except (FileNotFoundError, NotADirectoryError):
            pass
        return
    with confined.parent(root, relative, create=True) as (folder, name):
        staged = confined.temporary_name()
        confined.copy_at(saved, entry["copy"], folder, staged)  # the copy is staged first: a crash leaves the old entry
        try:
            now = confined.lstat_at(folder, name)
            copy_is_dir = stat.S_ISDIR(os.stat(staged, dir_fd=folder, follow_symlinks=False).st_mode)
            if now is not None and (stat.S_ISDIR(now.st_mode) or copy_is_dir):
                confined.remove_at(folder, name)  # rename replaces a file in one step, but not a directory
            os.rename(staged, name, src_dir_fd=folder, dst_dir_fd=folder)
        except BaseException:
            try:
                confined.remove_at(folder, staged)
            except OSError as exc:
                if exc.errno != errno.ENOENT:
                    raise
            raise
