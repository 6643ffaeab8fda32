"""Directories a test makes in the host's own trees (`/etc`, `/opt`, `/var/lib`), for what the sandbox shows of them.

Such a test has to plant in the real tree: the sandbox's allowlist is over the host's. What it
plants is seen by every sandboxed command that starts meanwhile, those of the suite's other
workers too: the layout masks it (a socket, a root-only file), and a command whose scan saw an
entry that is removed before bubblewrap starts is rescanned and retried by the sandbox itself
(`sandbox.SETUP_ATTEMPTS`, tests/engine/test_sandbox_setup.py). To keep that rare and cheap:
one directory per tree, readable by everyone at once (so a scan masks the few entries in it,
not the directory), kept only while the test runs, each named for the process that made it, so
what a killed run left is swept by the next one, never a live worker's.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

PREFIX = "warden-test-"


@contextmanager
def made(*parents: str) -> Iterator[list[Path]]:
    """A fresh directory (mode 755) in each of `parents` this process may write to; all removed after."""
    places: list[Path] = []
    try:
        for parent in parents:
            if not os.path.isdir(parent) or not os.access(parent, os.W_OK):
                continue
            _sweep(parent)
            place = Path(tempfile.mkdtemp(prefix=f"{PREFIX}{os.getpid()}-", dir=parent))
            places.append(place)
            os.chmod(place, 0o755)
        yield places
    finally:
        for place in places:
            shutil.rmtree(place, ignore_errors=True)


def _sweep(parent: str) -> None:
    """Remove what a test run killed before its clean-up left in `parent`: only where its process is gone."""
    for entry in os.scandir(parent):
        pid = entry.name[len(PREFIX):].split("-", 1)[0] if entry.name.startswith(PREFIX) else ""
        if pid.isdigit() and not _alive(int(pid)):
            shutil.rmtree(entry.path, ignore_errors=True)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
