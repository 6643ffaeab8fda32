"""Hard links to files outside the workspace, broken before a command acts on the workspace in place.

Without an overlay a confined command writes the workspace itself. A file there whose inode also
has a name outside the workspace (`ln /elsewhere/file ws/h`) would be changed under that name too,
beyond any snapshot's reach, while an undo restored the workspace's name and said `reversed`. So
before such a command, each regular file whose link count is more than the names the workspace
itself holds for it gets an inode of its own: a copy (bytes, permission bits, owner, times, extended
attributes) staged beside it and renamed over the name, its other workspace names linked to that
copy. The outside names keep the old inode, untouched. Links among the workspace's own names are
left as they are: what a command writes through one of them stays inside.

Everything goes by descriptor without following a symlink (`confined`). Blocking: call from a
worker thread.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

from engine.envs.workspace import confined

Inode = tuple[int, int]


def unshare(root: Path) -> list[str]:
    """Give every workspace file that shares its inode with a name outside the workspace an inode of its own;
    the workspace paths given one."""
    names: dict[Inode, list[str]] = {}
    links: dict[Inode, int] = {}
    workspace = confined.open_root(root)
    try:
        _walk(workspace, "", names, links)
    finally:
        os.close(workspace)
    separated: list[str] = []
    for inode, inside in names.items():
        if links[inode] > len(inside) and _copy_over(root, inside[0], inode):
            separated.append(inside[0])
            for other in inside[1:]:
                if _link_over(root, inside[0], other, inode):
                    separated.append(other)
    return separated


def _walk(folder: int, prefix: str, names: dict[Inode, list[str]], links: dict[Inode, int]) -> None:
    """Note each multiply linked regular file under the open directory `folder` by inode."""
    with os.scandir(folder) as entries:
        children = sorted(entry.name for entry in entries)
    for name in children:
        found = confined.lstat_at(folder, name)
        if found is None:
            continue
        if stat.S_ISREG(found.st_mode) and found.st_nlink > 1:
            inode = (found.st_dev, found.st_ino)
            names.setdefault(inode, []).append(prefix + name)
            links[inode] = found.st_nlink
        elif stat.S_ISDIR(found.st_mode):
            try:
                inner = os.open(name, confined.DIRECTORY, dir_fd=folder)
            except OSError as exc:
                if exc.errno in (errno.ENOENT, errno.ENOTDIR, errno.ELOOP, errno.EACCES):
                    continue  # gone, replaced or unreadable since it was listed: nothing of it is written here
                raise
            try:
                _walk(inner, f"{prefix}{name}/", names, links)
            finally:
                os.close(inner)


def _same(folder: int, name: str, inode: Inode) -> os.stat_result | None:
    """The entry's status when it is still a regular file with that inode; None when it changed meanwhile."""
    found = confined.lstat_at(folder, name)
    if found is None or not stat.S_ISREG(found.st_mode) or (found.st_dev, found.st_ino) != inode:
        return None
    return found


def _copy_over(root: Path, relative: str, inode: Inode) -> bool:
    """Replace the name by a copy of its file with the same metadata; False when it is no longer that file."""
    with confined.parent(root, relative) as (folder, name):
        found = _same(folder, name, inode)
        if found is None:
            return False
        staged = confined.temporary_name()
        confined.copy_at(folder, name, folder, staged)
        try:
            if (found.st_uid, found.st_gid) != (os.getuid(), os.getgid()):
                try:
                    os.chown(staged, found.st_uid, found.st_gid, dir_fd=folder, follow_symlinks=False)
                except PermissionError:
                    pass
                os.chmod(staged, stat.S_IMODE(found.st_mode), dir_fd=folder)  # a chown drops setuid and setgid
            _rename_keeping_times(folder, staged, name)
        except BaseException:
            confined.remove_at(folder, staged)
            raise
    return True


def _link_over(root: Path, first: str, relative: str, inode: Inode) -> bool:
    """Make another workspace name of the old inode a name of the copy `first` now is."""
    with confined.parent(root, first) as (source, copy), confined.parent(root, relative) as (folder, name):
        if _same(folder, name, inode) is None:
            return False
        staged = confined.temporary_name()
        os.link(copy, staged, src_dir_fd=source, dst_dir_fd=folder, follow_symlinks=False)
        try:
            _rename_keeping_times(folder, staged, name)
        except BaseException:
            confined.remove_at(folder, staged)
            raise
    return True


def _rename_keeping_times(folder: int, staged: str, name: str) -> None:
    """Rename within the open directory, then give it back the times it had (the rename is no change of its)."""
    before = os.fstat(folder)
    os.rename(staged, name, src_dir_fd=folder, dst_dir_fd=folder)
    os.utime(folder, ns=(before.st_atime_ns, before.st_mtime_ns))
