"""Reflink: a copy that shares the source's extents (the FICLONE ioctl), where the filesystem can make one.

A clone costs near-constant time whatever the file's size, and no space until one side changes.
Whether one device can clone into another is learnt from the first try and remembered for the
process, so a filesystem without reflink costs one failed ioctl, not one per file. Blocking.
"""

from __future__ import annotations

import errno
import fcntl
import os
import tempfile
import threading
from pathlib import Path

FICLONE = 0x40049409
UNSUPPORTED = frozenset({errno.EOPNOTSUPP, errno.ENOTTY, errno.EXDEV, errno.ENOSYS})
CHUNK = 1 << 20

_known: dict[tuple[int, int], bool] = {}
_lock = threading.Lock()


def known(source_device: int, destination_device: int) -> bool | None:
    """What this process learnt about cloning from one device into another; None when never tried."""
    with _lock:
        return _known.get((source_device, destination_device))


def refuse(source_device: int, destination_device: int) -> None:
    """Take cloning between these devices as impossible until `forget`: how a benchmark measures a copy where
    the filesystem could clone."""
    with _lock:
        _known[(source_device, destination_device)] = False


def forget(source_device: int, destination_device: int) -> None:
    """Learn again, from the next try, whether these devices clone."""
    with _lock:
        _known.pop((source_device, destination_device), None)


def clone(source: int, destination: int) -> bool:
    """Make the empty open file `destination` share every byte of the open file `source`; False (nothing
    written) where the filesystem cannot. A refusal that says the pair of devices never can is remembered."""
    pair = (os.fstat(source).st_dev, os.fstat(destination).st_dev)
    if known(*pair) is False:
        return False
    try:
        fcntl.ioctl(destination, FICLONE, source)
    except OSError as exc:
        if exc.errno in UNSUPPORTED:
            with _lock:
                _known[pair] = False
        return False
    with _lock:
        _known[pair] = True
    return True


def clone_or_copy(source: int, destination: int) -> bool:
    """Every byte of `source` into the empty `destination`, cloned where possible; whether it was cloned."""
    if clone(source, destination):
        return True
    offset, size = 0, os.fstat(source).st_size
    try:
        while sent := os.copy_file_range(source, destination, max(size - offset, CHUNK), offset):
            offset += sent
        return False
    except OSError:
        pass
    while chunk := os.pread(source, CHUNK, offset):
        view = memoryview(chunk)
        while view:
            view = view[os.write(destination, view):]
        offset += len(chunk)
    return False


def probe(source_dir: Path, destination_dir: Path) -> bool:
    """Whether a file in `source_dir` can be cloned into `destination_dir`, tried with two scratch files
    (one block of data) that are removed again. For reports: snapshots learn it from their first file."""
    with tempfile.NamedTemporaryFile(dir=source_dir, prefix=".warden-probe-") as source, \
            tempfile.NamedTemporaryFile(dir=destination_dir, prefix=".warden-probe-") as destination:
        source.write(b"\0" * 4096)
        source.flush()
        return clone(source.fileno(), destination.fileno())
