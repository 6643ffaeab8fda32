"""What workspace paths hold, in a form two moments can be compared by (blocking: call from a thread).

The journal records it right after a call and compares it again before an undo: a difference is
a change nobody journaled (a person's edit), which a restore would silently discard. Each path,
and everything under a directory, maps to its type, permission bits and content: a file's SHA-256
up to `HASHED_BYTES`, past that its size and modification time (a restore keeps those), a
symlink's target. Directories' own times are left out, since restoring their children changes them.
The walk goes by descriptor without following a symlink (`confined`), as snapshots do.
"""

from __future__ import annotations

import hashlib
import os
import stat
from pathlib import Path

from engine.envs.workspace import confined

HASHED_BYTES = 4 * 1024 * 1024
Held = list | None


def fingerprint(root: Path, paths: list[str]) -> dict[str, Held]:
    found: dict[str, Held] = {}
    for relative in paths:
        names = confined.parts(root, relative)
        key = "/".join(names) or "."
        if not names:
            workspace = confined.open_root(root)
            try:
                _children(workspace, "", found)
            finally:
                os.close(workspace)
            continue
        try:
            folder = confined.open_dir(root, relative, names[:-1])
        except (FileNotFoundError, NotADirectoryError):
            found[key] = None
            continue
        try:
            _entry(folder, names[-1], key, found)
        finally:
            os.close(folder)
    return found


def _children(folder: int, prefix: str, found: dict[str, Held]) -> None:
    for name in sorted(os.listdir(folder)):
        _entry(folder, name, prefix + name, found)


def _entry(folder: int, name: str, key: str, found: dict[str, Held]) -> None:
    seen = confined.lstat_at(folder, name)
    if seen is None:
        found[key] = None
        return
    mode = stat.S_IMODE(seen.st_mode)
    if stat.S_ISLNK(seen.st_mode):
        found[key] = ["link", os.readlink(name, dir_fd=folder)]
    elif stat.S_ISREG(seen.st_mode):
        found[key] = ["file", mode, seen.st_size, _content(folder, name, seen)]
    elif stat.S_ISDIR(seen.st_mode):
        found[key] = ["dir", mode]
        inner = os.open(name, confined.DIRECTORY, dir_fd=folder)
        try:
            _children(inner, key + "/", found)
        finally:
            os.close(inner)
    else:
        found[key] = ["other", stat.S_IFMT(seen.st_mode), mode]


def _content(folder: int, name: str, seen: os.stat_result) -> str:
    if seen.st_size > HASHED_BYTES:
        return f"mtime:{seen.st_mtime_ns}"
    handle = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC, dir_fd=folder)
    try:
        if not stat.S_ISREG(os.fstat(handle).st_mode):
            return "replaced while read"
        digest = hashlib.sha256()
        while chunk := os.read(handle, 1 << 20):
            digest.update(chunk)
        return digest.hexdigest()
    finally:
        os.close(handle)
