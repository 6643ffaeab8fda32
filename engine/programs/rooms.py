"""Rooms in `$WARDEN_HOME/scratch` held by a live process, and the sweep of the rooms dead ones left.

The verify gate replays a program in a fork made in the scratch directory and removes the fork when
done; a process killed meanwhile (SIGKILL, a crash, the machine going down) removes nothing, and
nothing else ever did. So each verification works in a room of its own, `room-<random>/`, beside
`room-<random>.lock`, which it holds locked (`flock`) from before the room exists until after the
room is gone. The lock goes with the process: a room whose lock can be taken belongs to no live
process, and `sweep` removes it; a room whose lock is held is never touched. A lock file is made
under a temporary name, locked, and only then given its name, so a sweep never finds a lock its
maker has not taken yet. Entries without a lock (forks left by versions before rooms, a lock file
its maker died before naming) are removed once older than the sweep's age.
"""

from __future__ import annotations

import asyncio
import fcntl
import os
import secrets
import shutil
import stat
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

PREFIX = "room-"
LOCK = ".lock"
MAKING = ".making-{}.tmp"


@asynccontextmanager
async def room(scratch: Path) -> AsyncIterator[Path]:
    """An empty directory in `scratch`, this process's until the block ends (or the process dies)."""
    handle, place = await asyncio.to_thread(_claim, scratch)
    try:
        yield place
    finally:
        await asyncio.to_thread(_leave, handle, place)


def _claim(scratch: Path) -> tuple[int, Path]:
    scratch.mkdir(parents=True, exist_ok=True)
    making = scratch / MAKING.format(secrets.token_hex(6))
    handle = os.open(making, os.O_RDWR | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o600)
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)  # a new file: nobody else can hold it
        while True:
            place = scratch / (PREFIX + secrets.token_hex(8))
            try:
                place.mkdir(0o700)
                break
            except FileExistsError:
                continue
        os.rename(making, place.with_name(place.name + LOCK))
        return handle, place
    except BaseException:
        os.close(handle)
        making.unlink(missing_ok=True)
        raise


def _leave(handle: int, place: Path) -> None:
    """Remove the room, then its lock file, then let the lock go: a sweep meanwhile finds it held."""
    try:
        _remove(place)
        place.with_name(place.name + LOCK).unlink(missing_ok=True)
    finally:
        os.close(handle)


def sweep(scratch: Path, older_than: float) -> list[str]:
    """Remove the rooms whose process is gone, and unlocked leftovers older than `older_than` seconds;
    the names removed (blocking)."""
    if not scratch.is_dir():
        return []
    removed: list[str] = []
    cutoff = time.time() - older_than
    entries = sorted(scratch.iterdir())
    locked = {entry.name.removesuffix(LOCK) for entry in entries if entry.name.endswith(LOCK)}
    for entry in entries:
        if entry.name.endswith(LOCK):
            if _abandoned(entry):
                removed.append(entry.name.removesuffix(LOCK))
        elif entry.name not in locked and _age(entry) < cutoff:
            _remove(entry)
            removed.append(entry.name)
    return removed


def _abandoned(lock: Path) -> bool:
    """Remove the room of this lock if no live process holds it; whether it was removed."""
    try:
        handle = os.open(lock, os.O_RDWR | os.O_CLOEXEC)
    except FileNotFoundError:
        return False  # its owner left it a moment ago
    try:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        if os.fstat(handle).st_nlink == 0:
            return False  # removed by its owner, or another sweep, between listing and locking
        _remove(lock.with_name(lock.name.removesuffix(LOCK)))
        lock.unlink(missing_ok=True)
        return True
    finally:
        os.close(handle)


def _age(entry: Path) -> float:
    try:
        return entry.lstat().st_mtime
    except FileNotFoundError:
        return time.time()


def _remove(entry: Path) -> None:
    """Remove a file or a whole tree, including directories a replay left without write or search permission."""
    try:
        found = entry.lstat()
    except FileNotFoundError:
        return
    if not stat.S_ISDIR(found.st_mode):
        entry.unlink(missing_ok=True)
        return
    _open_up(str(entry))
    for folder, dirnames, _ in os.walk(entry):
        for name in dirnames:
            _open_up(os.path.join(folder, name))
    shutil.rmtree(entry, ignore_errors=True)


def _open_up(directory: str) -> None:
    """Let this process list and empty a directory (never through a symlink), so it can be removed."""
    try:
        if not os.path.islink(directory):
            os.chmod(directory, 0o700)
    except OSError:
        pass
