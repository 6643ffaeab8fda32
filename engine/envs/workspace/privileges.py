"""No setuid or setgid file outlives a confined command.

Why: commands may run as root in the sandbox, and a file's owner may set its setuid bit without
any capability, so `install -m 4755 /usr/bin/id ./id-suid` left a root-owned setuid program in
the workspace, one that runs as root for whoever starts it on the host. Inside the sandbox the
bits do nothing (its mounts are `nosuid`); once the command is over they are taken off every
regular file it left: on the overlay route from the upper layer before it is applied (so they
never reach the workspace), on the whole-workspace route from the workspace right after the
command. A directory keeps its setgid bit: it only makes new files take the directory's group.

A file whose mode this process may not change is left as it is: only its owner can have set
those bits, and that is not the command. Walked by descriptor from the top, never following a
symlink. Blocking: call from a worker thread.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from engine.envs.workspace import confined

PRIVILEGE = stat.S_ISUID | stat.S_ISGID


def strip_tree(top: Path) -> list[str]:
    """Take the setuid and setgid bits off every regular file under the directory `top`; the paths
    (relative to `top`) that had them."""
    folder = os.open(top, confined.DIRECTORY)
    try:
        return _strip(folder, ())
    finally:
        os.close(folder)


def _strip(folder: int, prefix: tuple[str, ...]) -> list[str]:
    stripped: list[str] = []
    with os.scandir(folder) as entries:
        names = sorted(entry.name for entry in entries)
    for name in names:
        found = confined.lstat_at(folder, name)
        if found is None:
            continue
        if stat.S_ISDIR(found.st_mode):
            try:
                inner = os.open(name, confined.DIRECTORY, dir_fd=folder)
            except OSError:
                continue  # replaced by a link or gone since it was listed: nothing of it to strip
            try:
                stripped += _strip(inner, (*prefix, name))
            finally:
                os.close(inner)
        elif stat.S_ISREG(found.st_mode) and found.st_mode & PRIVILEGE and _clear(folder, name):
            stripped.append("/".join((*prefix, name)))
    return stripped


def _clear(folder: int, name: str) -> bool:
    """Clear the bits on the regular file `name` itself (opened without following a link); whether it had them."""
    try:
        handle = os.open(name, os.O_PATH | os.O_NOFOLLOW | os.O_CLOEXEC, dir_fd=folder)
    except OSError:
        return False
    try:
        now = os.fstat(handle)
        if not (stat.S_ISREG(now.st_mode) and now.st_mode & PRIVILEGE):
            return False
        try:
            os.chmod(f"/proc/self/fd/{handle}", stat.S_IMODE(now.st_mode) & ~PRIVILEGE)
        except PermissionError:
            return False
        return True
    finally:
        os.close(handle)
