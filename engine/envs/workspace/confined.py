"""Filesystem access confined to the workspace, safe against paths that change underneath it.

A workspace path is first normalised by its text alone (`parts`): empty and `.`
components dropped, `..` taken back a component (never above the root), an absolute
path accepted only inside the root. It is then walked from a descriptor of the
workspace root, one directory at a time, with `O_DIRECTORY | O_NOFOLLOW`: a symlink in
the middle of a path is refused (`SymlinkError`), never followed — whatever it points
at, and however late it appeared. The last component is acted on through its parent's
descriptor (`openat`, `unlinkat`, `renameat`, `mkdirat`, ...), so it is the entry
itself: a symlink there is the link, not what it points at.

Blocking: call from a worker thread.
"""

from __future__ import annotations

import errno
import os
import posixpath
import secrets
import shutil
import stat
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from engine.errors import WardenError

DIRECTORY = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
TEMPORARY = ".warden-{}.tmp"


class EscapeError(WardenError):
    """A path points outside the workspace, by `..`, an absolute path or a symlink, or cannot be used at all."""


class SymlinkError(EscapeError):
    """A path goes through a symlink: the file tools never follow one."""


def parts(root: Path, relative: str) -> tuple[str, ...]:
    """The normalised components of a workspace path, `()` for the root itself."""
    if not isinstance(relative, str) or not relative or "\x00" in relative:
        raise EscapeError(f"not a usable path: {relative!r:.80}")
    text = relative
    if text.startswith("/"):
        normal = posixpath.normpath(text)
        if normal != str(root) and not normal.startswith(str(root).rstrip("/") + "/"):
            raise EscapeError(f"{relative!r:.200} escapes the workspace {root}")
        text = normal[len(str(root)):]
    names: list[str] = []
    for name in text.split("/"):
        if name in ("", "."):
            continue
        if name == "..":
            if not names:
                raise EscapeError(f"{relative!r:.200} escapes the workspace {root}")
            names.pop()
        else:
            names.append(name)
    return tuple(names)


def normal(root: Path, relative: str) -> str:
    """The one spelling of a workspace path: `a/b`, or `.` for the root."""
    return "/".join(parts(root, relative)) or "."


def _refuse_symlink(root: Path, relative: str, names: tuple[str, ...]) -> SymlinkError:
    """The one-line refusal for the symlink `names`; it says so when the link leads outside the workspace."""
    link = "/".join(names)
    try:
        lands = Path(os.path.realpath(root.joinpath(*names)))
        outside = lands != root and not lands.is_relative_to(root)
    except (OSError, ValueError):
        outside = False
    if outside:
        return SymlinkError(f"{relative!r:.200} escapes the workspace {root} through the symlink {link!r:.200}; "
                            "file tools never follow symlinks")
    if link == "/".join(parts(root, relative)):
        return SymlinkError(f"{relative!r:.200} is a symlink; file tools never follow symlinks")
    return SymlinkError(f"{relative!r:.200} goes through the symlink {link!r:.200}; file tools never follow symlinks")


def open_root(root: Path) -> int:
    return os.open(root, DIRECTORY)


def open_dir(root: Path, relative: str, names: tuple[str, ...], *, create: bool = False) -> int:
    """A descriptor of the directory `names` (of the path `relative`), walked without following a symlink.

    `create` makes missing directories. Raises `SymlinkError` for a symlink on the way,
    FileNotFoundError for a missing directory (without `create`) and NotADirectoryError
    for something else in the way.
    """
    fd = open_root(root)
    try:
        for number, name in enumerate(names):
            try:
                child = os.open(name, DIRECTORY, dir_fd=fd)
            except FileNotFoundError:
                if not create:
                    raise
                try:
                    os.mkdir(name, 0o777, dir_fd=fd)
                except FileExistsError:
                    pass
                child = _open_existing(root, relative, names, number, fd)
            except (NotADirectoryError, OSError) as exc:
                if exc.errno not in (errno.ENOTDIR, errno.ELOOP):
                    raise
                child = _open_existing(root, relative, names, number, fd)
            os.close(fd)
            fd = child
        return fd
    except BaseException:
        os.close(fd)
        raise


def _open_existing(root: Path, relative: str, names: tuple[str, ...], number: int, fd: int) -> int:
    try:
        return os.open(names[number], DIRECTORY, dir_fd=fd)
    except OSError as exc:
        if exc.errno not in (errno.ENOTDIR, errno.ELOOP):
            raise
        if stat.S_ISLNK(os.stat(names[number], dir_fd=fd, follow_symlinks=False).st_mode):
            raise _refuse_symlink(root, relative, names[: number + 1]) from None
        raise NotADirectoryError(errno.ENOTDIR, f"{'/'.join(names[: number + 1])!r:.200} is not a directory") from None


@contextmanager
def parent(root: Path, relative: str, *, create: bool = False) -> Iterator[tuple[int, str]]:
    """(a descriptor of the parent directory, the last name) of a workspace path other than the root."""
    names = parts(root, relative)
    if not names:
        raise IsADirectoryError(errno.EISDIR, "the workspace itself")
    fd = open_dir(root, relative, names[:-1], create=create)
    try:
        yield fd, names[-1]
    finally:
        os.close(fd)


def lstat_at(fd: int, name: str) -> os.stat_result | None:
    try:
        return os.stat(name, dir_fd=fd, follow_symlinks=False)
    except FileNotFoundError:
        return None


def lexists(root: Path, relative: str) -> bool:
    """Whether the entry itself exists (a dangling link does); False when a directory on the way is missing."""
    names = parts(root, relative)
    if not names:
        return True
    try:
        with parent(root, relative) as (fd, name):
            return lstat_at(fd, name) is not None
    except (FileNotFoundError, NotADirectoryError):
        return False


def read_regular(root: Path, relative: str) -> bytes | None:
    """The bytes of a regular file (never through a symlink); None for anything else or nothing."""
    try:
        with parent(root, relative) as (fd, name):
            try:
                handle = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC, dir_fd=fd)
            except OSError as exc:
                if exc.errno in (errno.ENOENT, errno.ELOOP, errno.ENXIO, errno.EISDIR):
                    return None
                raise
    except (FileNotFoundError, NotADirectoryError, IsADirectoryError):
        return None
    with os.fdopen(handle, "rb") as file:
        if not stat.S_ISREG(os.fstat(file.fileno()).st_mode):
            return None
        return file.read()


def check_components(root: Path, relative: str) -> Path:
    """The path of `relative` under the root, refusing a symlink among its directories (a look, not a guarantee)."""
    names = parts(root, relative)
    try:
        for number in range(len(names) - 1):
            mode = os.lstat(root.joinpath(*names[: number + 1])).st_mode
            if stat.S_ISLNK(mode):
                raise _refuse_symlink(root, relative, names[: number + 1])
    except (FileNotFoundError, NotADirectoryError):
        pass
    return root.joinpath(*names)


def identity(root: Path, relative: str) -> list[tuple[int, int]] | None:
    """(device, inode) of the root and of each component of a path, when the whole path exists; else None."""
    names = parts(root, relative)
    chain = []
    try:
        for number in range(len(names) + 1):
            found = os.lstat(root.joinpath(*names[:number]))
            chain.append((found.st_dev, found.st_ino))
    except (OSError, ValueError):
        return None
    return chain


def missing_parents(root: Path, names: tuple[str, ...]) -> list[str]:
    """The directories on the way to `names` that do not exist yet (a step writing there makes them), outermost first."""
    fd = open_root(root)
    try:
        for number, name in enumerate(names[:-1]):
            try:
                child = os.open(name, DIRECTORY, dir_fd=fd)
            except FileNotFoundError:
                return ["/".join(names[: deeper + 1]) for deeper in range(number, len(names) - 1)]
            except OSError:
                return []  # a file or a symlink in the way: the step cannot make anything below it
            os.close(fd)
            fd = child
        return []
    finally:
        os.close(fd)


def remove_empty_directory(root: Path, relative: str) -> bool:
    """Remove a directory if it is empty (and still a directory, reached without a symlink); whether it went."""
    try:
        with parent(root, relative) as (fd, name):
            os.rmdir(name, dir_fd=fd)
        return True
    except (OSError, EscapeError):
        return False


# Writing


def temporary_name() -> str:
    return TEMPORARY.format(secrets.token_hex(6))


def replace_file(fd: int, name: str, data: bytes) -> None:
    """Put `data` at `name` in the directory `fd` atomically: a new file, written and synced, renamed over it.

    What was there (a file, a hard link to someone else's file, a symlink) is replaced,
    never written through; a regular file's permission bits are kept, but for setuid and
    setgid (`_stage`).
    """
    before = lstat_at(fd, name)
    if before is not None and stat.S_ISDIR(before.st_mode):
        raise IsADirectoryError(errno.EISDIR, "is a directory")
    keep = before if before is not None and stat.S_ISREG(before.st_mode) else None
    _stage(fd, name, lambda out: _write_all(out, data), keep)


def append_file(fd: int, name: str, data: bytes) -> None:
    """Append to the regular file `name` (made if missing) in the directory `fd`.

    A symlink is refused (ELOOP), and so is anything but a regular file. A file with
    more than one link is copied first and the copy renamed over the name, so the other
    names (perhaps outside the workspace) keep the old content.
    """
    before = lstat_at(fd, name)
    if before is not None and stat.S_ISDIR(before.st_mode):
        raise IsADirectoryError(errno.EISDIR, "is a directory")
    if before is not None and not (stat.S_ISREG(before.st_mode) or stat.S_ISLNK(before.st_mode)):
        raise OSError(errno.EINVAL, "not a regular file")  # a pipe or a device is never opened
    flags = os.O_RDWR | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC
    handle = os.open(name, flags, 0o666, dir_fd=fd)
    try:
        found = os.fstat(handle)
        if not stat.S_ISREG(found.st_mode):
            raise OSError(errno.EINVAL, "not a regular file")
        if found.st_nlink == 1:
            _write_all(handle, data)
            return

        def copy_then_append(out: int) -> None:
            _copy_data(handle, out)
            _write_all(out, data)

        _stage(fd, name, copy_then_append, found)
    finally:
        os.close(handle)


def _stage(fd: int, name: str, fill, keep: os.stat_result | None) -> None:
    temporary = temporary_name()
    out = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o666, dir_fd=fd)
    try:
        try:
            fill(out)
            if keep is not None:  # new content never inherits setuid or setgid, as a write by its owner would not
                os.fchmod(out, stat.S_IMODE(keep.st_mode) & ~(stat.S_ISUID | stat.S_ISGID))
                if (keep.st_uid, keep.st_gid) != (os.getuid(), os.getgid()):
                    try:
                        os.fchown(out, keep.st_uid, keep.st_gid)
                    except PermissionError:
                        pass
            os.fsync(out)
        finally:
            os.close(out)
        os.rename(temporary, name, src_dir_fd=fd, dst_dir_fd=fd)
    except BaseException:
        try:
            os.unlink(temporary, dir_fd=fd)
        except OSError:
            pass
        raise
    try:
        os.fsync(fd)  # the rename itself, on filesystems that sync a directory
    except OSError:
        pass


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def _copy_data(source: int, destination: int) -> None:
    """Every byte of `source` (from its start) into `destination`, in the kernel where it can."""
    offset = 0
    size = os.fstat(source).st_size
    try:
        while True:
            sent = os.copy_file_range(source, destination, max(size - offset, 1 << 20), offset)
            if sent == 0:
                return
            offset += sent
    except (OSError, AttributeError):
        pass
    while chunk := os.pread(source, 1 << 20, offset):
        _write_all(destination, chunk)
        offset += len(chunk)


def remove_at(fd: int, name: str) -> bool:
    """Remove the entry `name` itself (a directory with all it holds, a link as a link); False if absent."""
    found = lstat_at(fd, name)
    if found is None:
        return False
    if stat.S_ISDIR(found.st_mode):
        shutil.rmtree(name, dir_fd=fd)
    else:
        os.unlink(name, dir_fd=fd)
    return True


# Copying exactly (snapshots, restores, forks)


class Uncopyable(OSError):
    """A socket or a device file: nothing that could be restored exactly."""


def copy_at(source_fd: int, source: str, destination_fd: int, destination: str, *,
            passed_over: Callable[[os.stat_result], bool] | None = None, dropped_xattrs: tuple[str, ...] = ()) -> None:
    """Copy the entry `source` (never following a symlink) to the new name `destination`, with its metadata.

    Files with their bytes, permission bits, times and extended attributes; directories
    whole; symlinks as symlinks; named pipes as named pipes (never opened). Inside a directory,
    entries `passed_over` says so of are left out, and attributes named with a `dropped_xattrs`
    prefix are not copied (an overlay's upper layer: its whiteouts and its own attributes).
    """
    found = os.stat(source, dir_fd=source_fd, follow_symlinks=False)
    mode = found.st_mode
    if stat.S_ISLNK(mode):
        os.symlink(os.readlink(source, dir_fd=source_fd), destination, dir_fd=destination_fd)
        os.utime(destination, ns=(found.st_atime_ns, found.st_mtime_ns), dir_fd=destination_fd, follow_symlinks=False)
    elif stat.S_ISFIFO(mode):
        os.mkfifo(destination, stat.S_IMODE(mode), dir_fd=destination_fd)
        os.utime(destination, ns=(found.st_atime_ns, found.st_mtime_ns), dir_fd=destination_fd, follow_symlinks=False)
    elif stat.S_ISREG(mode):
        src = os.open(source, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC, dir_fd=source_fd)
        try:
            opened = os.fstat(src)
            if (opened.st_dev, opened.st_ino) != (found.st_dev, found.st_ino):
                raise OSError(errno.EAGAIN, "changed while being copied", source)
            out = os.open(destination, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600,
                          dir_fd=destination_fd)
            try:
                _copy_data(src, out)
                _copy_metadata(src, out, opened, dropped_xattrs)
            finally:
                os.close(out)
        finally:
            os.close(src)
    elif stat.S_ISDIR(mode):
        os.mkdir(destination, 0o700, dir_fd=destination_fd)
        src = os.open(source, DIRECTORY, dir_fd=source_fd)
        try:
            out = os.open(destination, DIRECTORY, dir_fd=destination_fd)
            try:
                copy_children(src, out, passed_over=passed_over, dropped_xattrs=dropped_xattrs)
                _copy_metadata(src, out, os.fstat(src), dropped_xattrs)
            finally:
                os.close(out)
        finally:
            os.close(src)
    else:
        raise Uncopyable(errno.EINVAL, "a socket or device file cannot be restored", source)


def copy_children(source_fd: int, destination_fd: int, *, passed_over: Callable[[os.stat_result], bool] | None = None,
                  dropped_xattrs: tuple[str, ...] = ()) -> None:
    """Copy everything in one open directory into another (`copy_at` says what the keywords leave out)."""
    with os.scandir(source_fd) as entries:
        names = sorted(entry.name for entry in entries)
    for name in names:
        if passed_over is None or not passed_over(os.stat(name, dir_fd=source_fd, follow_symlinks=False)):
            copy_at(source_fd, name, destination_fd, name, passed_over=passed_over, dropped_xattrs=dropped_xattrs)


def copy_directory_metadata(source_fd: int, destination_fd: int) -> None:
    _copy_metadata(source_fd, destination_fd, os.fstat(source_fd))


def _copy_metadata(source: int, destination: int, found: os.stat_result, dropped_xattrs: tuple[str, ...] = ()) -> None:
    try:
        for key in os.listxattr(source):
            if dropped_xattrs and key.startswith(dropped_xattrs):
                continue
            try:
                os.setxattr(destination, key, os.getxattr(source, key))
            except OSError as exc:
                if exc.errno not in (errno.EPERM, errno.ENOTSUP, errno.ENODATA, errno.EINVAL, errno.EACCES):
                    raise
    except OSError as exc:
        if exc.errno not in (errno.ENOTSUP, errno.ENODATA, errno.EINVAL, errno.EPERM, errno.EACCES):
            raise
    os.fchmod(destination, stat.S_IMODE(found.st_mode))
    os.utime(destination, ns=(found.st_atime_ns, found.st_mtime_ns))
