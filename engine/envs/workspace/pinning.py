"""Reads the workspace files a shell command runs as code, for an approval to pin (blocking: call from a thread).

A path is read as the confined command reaches it: relative to the workspace root, where the
command starts, or absolute inside it (the sandbox binds the workspace at its own path), and
through symlinks, since `sh run.sh` runs what a link named `run.sh` points to. What resolves
outside the workspace, or names a home or an expansion, is `unreachable`: no task can have
written it through Warden, and the person is told it is not pinned. Each file is hashed whole
(`engine/tools/pins.py`); only its first `SHOWN_BYTES` are kept to show.
"""

from __future__ import annotations

import hashlib
import os
import posixpath
import stat
from pathlib import Path

from engine.tools.pins import SHOWN_BYTES, Pin, PinKind

_CHUNK = 1 << 20


def pin(root: Path, paths: tuple[str, ...]) -> tuple[Pin, ...]:
    return tuple(_pin(root, path) for path in paths)


def _pin(root: Path, path: str) -> Pin:
    relative = _inside(root, path)
    if relative is None:
        return Pin(path, PinKind.UNREACHABLE)
    real = os.path.realpath(root / relative)
    if real != str(root) and not real.startswith(str(root) + os.sep):
        return Pin(path, PinKind.UNREACHABLE)
    try:
        handle = os.open(real, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except FileNotFoundError:
        return Pin(path, PinKind.ABSENT)
    except OSError:
        return Pin(path, PinKind.NOT_A_FILE)
    try:
        if not stat.S_ISREG(os.fstat(handle).st_mode):
            return Pin(path, PinKind.NOT_A_FILE)
        digest, head, size = hashlib.sha256(), b"", 0
        while chunk := os.read(handle, _CHUNK):
            digest.update(chunk)
            if len(head) < SHOWN_BYTES:
                head += chunk[: SHOWN_BYTES - len(head)]
            size += len(chunk)
        return Pin.of_content(path, head, size, digest.hexdigest())
    except OSError:  # a file that cannot be read is pinned as such: the command could not run it either
        return Pin(path, PinKind.NOT_A_FILE)
    finally:
        os.close(handle)


def _inside(root: Path, path: str) -> str | None:
    """`path` relative to the workspace root, or None when it is not a plain path inside it."""
    if not path or path.startswith(("~", "$")) or "\x00" in path:
        return None
    if path.startswith("/"):
        if path != str(root) and not path.startswith(str(root) + "/"):
            return None
        path = path[len(str(root)):].lstrip("/") or "."
    folded = posixpath.normpath(path)
    if folded == ".." or folded.startswith("../"):
        return None
    return folded
