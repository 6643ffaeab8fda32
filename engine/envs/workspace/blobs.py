"""A content-addressed store of snapshot file contents, so identical contents are kept once (blocking).

A blob lives at `<store>/<sha256[:2]>/<sha256>` and a snapshot's data file is a hard link to it:
removing a snapshot directory only drops a link, and a blob whose link count is back to 1 belongs
to no snapshot and is garbage (`collect`). A blob is only ever made by linking a data file that is
already complete, so a blob never holds partial contents, and nothing writes through a link to one.
"""

from __future__ import annotations

import errno
import hashlib
import os
import stat
from pathlib import Path

CHUNK = 1 << 20
READ_ONLY = 0o444
TEMPORARY = ".warden-blob-{}.tmp"


def location(snapshots: Path) -> Path:
    """The blob store that serves a snapshots directory: its sibling `blobs`."""
    return snapshots.parent / "blobs"


def keep(source: int, folder: int, name: str, store: Path) -> str:
    """Copy the open file `source` to the new file `name` in the directory `folder`, hashing while it copies
    (one read pass), then make that file a link to its blob; returns the SHA-256 of the contents.

    Where the store cannot take a link (another filesystem, too many links) the copy stays a plain file.
    """
    out = os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600, dir_fd=folder)
    digest = hashlib.sha256()
    try:
        offset = 0
        while chunk := os.pread(source, CHUNK, offset):
            digest.update(chunk)
            view = memoryview(chunk)
            while view:
                view = view[os.write(out, view):]
            offset += len(chunk)
        os.fchmod(out, READ_ONLY)
    finally:
        os.close(out)
    sha = digest.hexdigest()
    _link(folder, name, store, sha)
    return sha


def path_of(store: Path, sha: str) -> Path:
    return store / sha[:2] / sha


def _link(folder: int, name: str, store: Path, sha: str) -> None:
    """Share `name`'s contents with the blob `sha`: it becomes the blob when there is none yet, else a link to it.

    A blob collected between seeing it and linking it is simply offered again from this copy.
    """
    blob = path_of(store, sha)
    try:
        blob.parent.mkdir(parents=True, exist_ok=True)
        for _ in range(3):
            try:
                os.link(name, blob, src_dir_fd=folder, follow_symlinks=False)
                return
            except FileExistsError:
                pass
            staged = TEMPORARY.format(os.urandom(6).hex())
            try:
                os.link(blob, staged, dst_dir_fd=folder, follow_symlinks=False)
            except FileNotFoundError:
                continue
            os.rename(staged, name, src_dir_fd=folder, dst_dir_fd=folder)
            return
    except OSError as exc:
        if exc.errno not in (errno.EXDEV, errno.EMLINK, errno.EPERM, errno.EACCES, errno.ENOSPC, errno.EROFS):
            raise


def collect(store: Path) -> tuple[int, int]:
    """Remove every blob no snapshot links to any more (link count 1); (blobs removed, bytes freed).

    Safe beside snapshots being taken: a blob is born with two links, and a data file linked to a
    blob keeps its contents when the blob's own name goes.
    """
    removed = freed = 0
    if not store.is_dir():
        return 0, 0
    for shard in store.iterdir():
        if not shard.is_dir() or shard.is_symlink():
            continue
        for blob in shard.iterdir():
            try:
                found = blob.lstat()
                if stat.S_ISREG(found.st_mode) and found.st_nlink == 1:
                    blob.unlink()
                    removed, freed = removed + 1, freed + found.st_size
            except FileNotFoundError:
                continue
    return removed, freed
