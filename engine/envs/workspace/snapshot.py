"""Snapshots of workspace paths, kept in a content-addressed blob store, and their exact restoration
(blocking: call from a thread).

A snapshot directory holds `manifest.json` and, per path, `data-N`: the entry as it was, a file
being a hard link to its blob (`blobs`) or, where the filesystem can, a reflink clone of the
workspace file (`reflink`: cloned, never read or hashed, and kept out of the blob store, since the
filesystem already shares its extents). A hard link shares its blob's mode and times, so the
manifest keeps them: each entry's `node` records type, permission bits, times and extended
attributes, and a directory's children (each copied under its number, its name kept in the
manifest), and restoring recreates exactly that. Each entry also has the path (normalised: `a/b`,
`.` for the whole workspace), whether it existed, and `created`: the parent directories that did
not exist yet, so the step will make them. A path or name that holds a secret is written to the
manifest redacted, its secret sealed in the home's vault (`sealed`, with the environment's
redactor), so no byte of the snapshot store holds it in clear. Restoring puts back
exactly what was there, absent paths included, and then removes those created parents again when
they are empty.

Before anything is copied the targets are measured by a stat walk against the caps
(`WARDEN_SNAPSHOT_MAX_BYTES`, `WARDEN_SNAPSHOT_MAX_FILES`); past them nothing is kept and
`SnapshotDeclined` says why.

Both directions walk the workspace by descriptor without following a symlink
(`confined`), so a directory swapped for a symlink while a snapshot is taken or
restored can neither pull outside files into the workspace nor push a restore out of it.
"""

from __future__ import annotations

import base64
import errno
import os
import posixpath
import stat
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING

from engine.envs.environment import SnapshotDeclined
from engine.envs.workspace import blobs, confined, reflink
from engine.errors import WardenError
from engine.redaction import sealed
from engine.redaction.redactor import Redactor

if TYPE_CHECKING:
    from engine.envs.workspace.environment import WorkspaceEnv

MAX_BYTES_VARIABLE = "WARDEN_SNAPSHOT_MAX_BYTES"
MAX_FILES_VARIABLE = "WARDEN_SNAPSHOT_MAX_FILES"
DEFAULT_MAX_BYTES = 1 << 30
DEFAULT_MAX_FILES = 100_000
READ = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
CREATE = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
XATTR_ERRORS = (errno.ENOTSUP, errno.ENODATA, errno.EINVAL, errno.EPERM, errno.EACCES)


class SnapshotError(WardenError):
    """Something in the workspace cannot be captured exactly (a socket, a device)."""


@dataclass(frozen=True)
class Caps:
    """How much one snapshot may hold: bytes of regular files and entries (files, directories, links); 0 is no cap."""

    max_bytes: int = DEFAULT_MAX_BYTES
    max_files: int = DEFAULT_MAX_FILES

    @classmethod
    def from_env(cls) -> "Caps":
        return cls(_whole(MAX_BYTES_VARIABLE, DEFAULT_MAX_BYTES), _whole(MAX_FILES_VARIABLE, DEFAULT_MAX_FILES))


def _whole(name: str, default: int) -> int:
    raw = os.environ.get(name, "").strip()
    if not raw:
        return default
    try:
        value = int(raw.replace("_", ""))
    except ValueError:
        value = -1
    if value < 0:
        raise WardenError(f"{name} must be a whole number of zero or more (0: no cap), not {raw!r:.40}")
    return value


@dataclass
class _Taking:
    """What one snapshot is doing: where blobs go and how many files it cloned and copied."""

    store: Path
    redactor: Redactor | None = None
    cloned: int = 0
    copied: int = 0

    def shown(self, text: str) -> str:
        """`text` with its secrets redacted, for what the snapshot store keeps outside the sealed manifest."""
        return self.redactor.text(text) if self.redactor is not None else text


def take(env: WorkspaceEnv, paths: list[str], into: Path, caps: Caps | None = None) -> str:
    """Snapshot the paths into the new directory `into`; the kind used: `reflink` when every file was
    cloned (and at least one was), else `copy`. Raises `SnapshotDeclined`, having made nothing, past the caps."""
    caps = caps if caps is not None else Caps.from_env()
    _check_caps(env.root, paths, caps)
    into.mkdir(parents=True, exist_ok=False)
    taking = _Taking(blobs.location(into.parent), env.redactor)
    manifest = []
    saved = os.open(into, confined.DIRECTORY)
    try:
        for number, relative in enumerate(paths):
            names = confined.parts(env.root, relative)
            copy_name = f"data-{number}"
            entry = {"path": "/".join(names) or ".", "existed": True, "copy": copy_name, "created": [], "node": None}
            try:
                entry["node"] = _copy_out(env.root, relative, names, saved, copy_name, taking)
            except confined.Uncopyable:
                raise SnapshotError(f"cannot snapshot {entry['path']!r:.200}: it holds a socket or device file, "
                                    "which cannot be restored") from None
            entry["existed"] = entry["node"] is not None
            if not entry["existed"]:
                entry["created"] = confined.missing_parents(env.root, names)
            manifest.append(entry)
    finally:
        os.close(saved)
    sealed.dump(env.redactor, into / "manifest.json", manifest)
    return "reflink" if taking.cloned and not taking.copied else "copy"


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


def _check_caps(root: Path, paths: list[str], caps: Caps) -> None:
    """Refuse, by a stat walk that reads no data, targets holding more than the caps allow."""
    if not caps.max_bytes and not caps.max_files:
        return
    tally = [0, 0]
    for relative in paths:
        names = confined.parts(root, relative)
        try:
            folder = confined.open_root(root) if not names else confined.open_dir(root, relative, names[:-1])
        except (FileNotFoundError, NotADirectoryError):
            continue
        try:
            for name in [names[-1]] if names else sorted(os.listdir(folder)):
                _measure(folder, name, tally, caps)
        finally:
            os.close(folder)
    if caps.max_bytes and tally[0] > caps.max_bytes:
        raise SnapshotDeclined(f"not snapshotted: {_size(tally[0])} past the {_size(caps.max_bytes)} cap "
                               f"({MAX_BYTES_VARIABLE})")


def _measure(folder: int, name: str, tally: list[int], caps: Caps) -> None:
    """Add an entry's regular-file bytes and entries to `tally` ([bytes, entries]), stopping past the file cap."""
    found = confined.lstat_at(folder, name)
    if found is None:
        return
    tally[1] += 1
    if caps.max_files and tally[1] > caps.max_files:
        raise SnapshotDeclined(f"not snapshotted: more than {caps.max_files} files, past the "
                               f"{caps.max_files}-file cap ({MAX_FILES_VARIABLE})")
    if stat.S_ISREG(found.st_mode):
        tally[0] += found.st_size
    elif stat.S_ISDIR(found.st_mode):
        inner = os.open(name, confined.DIRECTORY, dir_fd=folder)
        try:
            for child in os.listdir(inner):
                _measure(inner, child, tally, caps)
        finally:
            os.close(inner)


def _size(count: int) -> str:
    for unit, scale in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if count >= scale:
            value = count / scale
            return f"{value:.0f} {unit}" if count % scale == 0 else f"{value:.1f} {unit}"
    return f"{count} bytes"


def _copy_out(root: Path, relative: str, names: tuple[str, ...], saved: int, copy: str, taking: _Taking) -> dict | None:
    """Capture the entry into the snapshot; its node, None when it did not exist."""
    if not names:
        workspace = confined.open_root(root)
        try:
            os.mkdir(copy, 0o700, dir_fd=saved)
            into = os.open(copy, confined.DIRECTORY, dir_fd=saved)
            try:
                return _capture_directory(workspace, into, taking)
            finally:
                os.close(into)
        finally:
            os.close(workspace)
    try:
        folder = confined.open_dir(root, relative, names[:-1])
    except (FileNotFoundError, NotADirectoryError):
        return None
    try:
        if confined.lstat_at(folder, names[-1]) is None:
            return None
        return _capture(folder, names[-1], saved, copy, taking)
    finally:
        os.close(folder)


def _capture(source_fd: int, name: str, saved_fd: int, copy: str, taking: _Taking) -> dict:
    """Copy one entry (never following a symlink) to `copy` in the snapshot and describe it."""
    found = os.stat(name, dir_fd=source_fd, follow_symlinks=False)
    mode = found.st_mode
    node: dict = {"mode": stat.S_IMODE(mode), "times": [found.st_atime_ns, found.st_mtime_ns]}
    if stat.S_ISLNK(mode):
        node.update(type="link", target=os.readlink(name, dir_fd=source_fd))
        os.symlink(taking.shown(node["target"]), copy, dir_fd=saved_fd)  # restored from the node's target
    elif stat.S_ISFIFO(mode):
        node["type"] = "fifo"
        os.mkfifo(copy, 0o600, dir_fd=saved_fd)
    elif stat.S_ISREG(mode):
        node["type"] = "file"
        source = os.open(name, READ, dir_fd=source_fd)
        try:
            opened = os.fstat(source)
            if (opened.st_dev, opened.st_ino) != (found.st_dev, found.st_ino):
                raise OSError(errno.EAGAIN, "changed while being copied", name)
            node["times"] = [opened.st_atime_ns, opened.st_mtime_ns]
            node["mode"] = stat.S_IMODE(opened.st_mode)
            node.update(_xattrs(source))
            if _cloned(source, saved_fd, copy):
                node["reflink"] = True
                taking.cloned += 1
            else:
                node["blob"] = blobs.keep(source, saved_fd, copy, taking.store)
                taking.copied += 1
        finally:
            os.close(source)
    elif stat.S_ISDIR(mode):
        os.mkdir(copy, 0o700, dir_fd=saved_fd)
        source = os.open(name, confined.DIRECTORY, dir_fd=source_fd)
        try:
            into = os.open(copy, confined.DIRECTORY, dir_fd=saved_fd)
            try:
                node = _capture_directory(source, into, taking)
            finally:
                os.close(into)
        finally:
            os.close(source)
    else:
        raise confined.Uncopyable(errno.EINVAL, "a socket or device file cannot be restored", name)
    return node


def _capture_directory(source: int, into: int, taking: _Taking) -> dict:
    """A directory's node; each child's copy is named by its number (`copy`), since a name can hold a secret
    (the manifest keeps the names, sealed)."""
    with os.scandir(source) as entries:
        names = sorted(entry.name for entry in entries)
    children = [[name, {**_capture(source, name, into, str(number), taking), "copy": str(number)}]
                for number, name in enumerate(names)]
    found = os.fstat(source)
    return {"type": "dir", "mode": stat.S_IMODE(found.st_mode), "times": [found.st_atime_ns, found.st_mtime_ns],
            **_xattrs(source), "children": children}


def _cloned(source: int, saved_fd: int, copy: str) -> bool:
    """Clone the open file into a new snapshot file; False (and no file left) where the filesystem cannot."""
    if reflink.known(os.fstat(source).st_dev, os.fstat(saved_fd).st_dev) is False:
        return False
    out = os.open(copy, CREATE, 0o600, dir_fd=saved_fd)
    try:
        if reflink.clone(source, out):
            return True
    finally:
        os.close(out)
    os.unlink(copy, dir_fd=saved_fd)
    return False


def _xattrs(fd: int) -> dict:
    """The open entry's extended attributes, base64 (kept in the manifest: a blob's own are shared)."""
    try:
        found = {key: base64.b64encode(os.getxattr(fd, key)).decode("ascii") for key in os.listxattr(fd)}
    except OSError as exc:
        if exc.errno not in XATTR_ERRORS:
            raise
        return {}
    return {"xattrs": found} if found else {}


def paths(snapshot: Path, redactor: Redactor | None = None) -> list[str]:
    """The workspace paths a snapshot covers, exactly (`redactor`: the home's, for paths that hold a secret)."""
    return [entry["path"] for entry in sealed.load(redactor, snapshot / "manifest.json")]


def shown_paths(snapshot: Path) -> list[str]:
    """The workspace paths a snapshot covers, as a person may see them: secrets in them redacted."""
    return [entry["path"] for entry in sealed.load_shown(snapshot / "manifest.json")]


def overlaps(first: str, second: str) -> bool:
    """Whether restoring one path could change the other, by their text: equal, nested, or the whole workspace.

    Both are normalised first (`x/../b.txt`, `./b.txt`, `b.txt/` are all `b.txt`).
    `WorkspaceEnv.overlaps` also compares what exists by inode.
    """
    a, b = (PurePosixPath(posixpath.normpath(path.strip("/") or ".")) for path in (first, second))
    return "." in (str(a), str(b)) or a == b or a in b.parents or b in a.parents


def restore(env: WorkspaceEnv, snapshot: Path) -> list[str]:
    """Put every snapshotted path back as it was; returns the paths restored."""
    manifest = sealed.load(env.redactor, snapshot / "manifest.json")
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
    node = entry.get("node")
    if not names:
        workspace = confined.open_root(root)
        try:
            for name in sorted(os.listdir(workspace)):
                confined.remove_at(workspace, name)
            if entry["existed"]:
                copy = os.open(entry["copy"], confined.DIRECTORY, dir_fd=saved)
                try:
                    if node is None:
                        confined.copy_children(copy, workspace)
                        confined.copy_directory_metadata(copy, workspace)
                    else:
                        _fill_directory(node, copy, workspace)
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
        if node is None:
            confined.copy_at(saved, entry["copy"], folder, staged)  # a snapshot from before manifests had nodes
        else:
            _materialise(node, saved, entry["copy"], folder, staged)  # staged first: a crash leaves the old entry
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


def _materialise(node: dict, saved_fd: int, copy: str, into_fd: int, name: str) -> None:
    """Recreate one snapshotted entry as the new name `name` in `into_fd`: bytes, type, mode, times, xattrs."""
    kind = node["type"]
    if kind == "link":
        os.symlink(node["target"], name, dir_fd=into_fd)
        os.utime(name, ns=tuple(node["times"]), dir_fd=into_fd, follow_symlinks=False)
    elif kind == "fifo":
        os.mkfifo(name, node["mode"], dir_fd=into_fd)
        os.chmod(name, node["mode"], dir_fd=into_fd, follow_symlinks=False)
        os.utime(name, ns=tuple(node["times"]), dir_fd=into_fd, follow_symlinks=False)
    elif kind == "file":
        source = os.open(copy, READ, dir_fd=saved_fd)
        try:
            out = os.open(name, CREATE, 0o600, dir_fd=into_fd)
            try:
                reflink.clone_or_copy(source, out)
                _set_metadata(out, node)
            finally:
                os.close(out)
        finally:
            os.close(source)
    elif kind == "dir":
        os.mkdir(name, 0o700, dir_fd=into_fd)
        source = os.open(copy, confined.DIRECTORY, dir_fd=saved_fd)
        try:
            out = os.open(name, confined.DIRECTORY, dir_fd=into_fd)
            try:
                _fill_directory(node, source, out)
            finally:
                os.close(out)
        finally:
            os.close(source)
    else:
        raise SnapshotError(f"the snapshot records an entry of unknown type {kind!r:.40}")


def _fill_directory(node: dict, source: int, into: int) -> None:
    """Recreate a snapshotted directory's children in the open directory `into`, then its own metadata
    (last: adding children changes a directory's times)."""
    for name, child in node["children"]:
        _materialise(child, source, child.get("copy", name), into, name)  # by name before copies were numbered
    _set_metadata(into, node)


def _set_metadata(fd: int, node: dict) -> None:
    for key, value in node.get("xattrs", {}).items():
        try:
            os.setxattr(fd, key, base64.b64decode(value))
        except OSError as exc:
            if exc.errno not in XATTR_ERRORS:
                raise
    os.fchmod(fd, node["mode"])
    os.utime(fd, ns=tuple(node["times"]))
