"""Inverse operations for the workspace file tools: undo a call without a copy of what it changed (blocking).

Before the call, `record` writes `inverse.json` (what the inverse needs: a length and a hash, an inode, a
list of made parents) and a `manifest.json` that lists the touched paths as a copy snapshot's does, so
overlap checks, seals and diffs read both kinds alike. It declines (False, nothing written) when the
inverse cannot be known ahead, such as a write over an existing file; the journal then takes a copy.

`invert` checks that each path is still as the call left it and only then acts: append → truncate to the
recorded length once the first `length` bytes still hash as recorded; create → delete the file; move →
move back while the destination is the moved entry and the source is free; mkdir → rmdir while empty.
The same inverse serves a crash rollback, where the call may have done nothing, all, or part of its work.
"""

from __future__ import annotations

import errno
import hashlib
import json
import os
import stat
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from engine.envs.workspace import confined
from engine.envs.workspace.fingerprint import fingerprint
from engine.errors import WardenError
from engine.redaction import sealed
from engine.redaction.redactor import Redactor

INVERSE = "inverse.json"
MANIFEST = "manifest.json"

DELETE_CREATED = "delete_created"
TRUNCATE_APPENDED = "truncate_appended"
MOVE_BACK = "move_back"
RMDIR_MADE = "rmdir_made"

READ_BYTES = 1 << 20


class InverseRefused(WardenError):
    """The workspace is no longer as the call left it, so its inverse would not put things back."""


def record(root: Path, reverser: str, args: dict[str, Any], into: Path, redactor: Redactor | None = None) -> bool:
    """Write the inverse of the call `args` describes into the new directory `into`; False when there is none.
    Secrets in its paths are sealed with `redactor` (the home's), as in a copy snapshot's manifest."""
    planner = _PLANNERS.get(reverser)
    if planner is None:
        return False
    try:
        planned = planner(root, args)
    except (OSError, WardenError, KeyError, TypeError):
        return False
    if planned is None:
        return False
    inverse, manifest = planned
    into.mkdir(parents=True, exist_ok=False)
    sealed.dump(redactor, into / INVERSE, inverse)
    sealed.dump(redactor, into / MANIFEST, manifest)  # last: the snapshot is whole
    return True


def invert(root: Path, saved: Path, left: dict[str, Any] | None, redactor: Redactor | None = None) -> list[str] | None:
    """Run the inverse recorded in `saved`; the paths it covers, or None when `saved` is a copy snapshot.

    `left` is what the call left at its paths (the journal's seal), when known: a moved entry that a later
    restore gave a new inode is still the one the move left when it holds the same.
    """
    try:
        inverse = sealed.load(redactor, saved / INVERSE)
    except FileNotFoundError:
        return None
    _INVERTERS[inverse["op"]](root, inverse, left)
    return [entry["path"] for entry in sealed.load(redactor, saved / MANIFEST)]


Planned = tuple[dict[str, Any], list[dict[str, Any]]] | None


def _entry(path: str, existed: bool, created: list[str] | None = None) -> dict[str, Any]:
    return {"path": path, "existed": existed, "copy": None, "created": created or []}


def _look(root: Path, names: tuple[str, ...]) -> os.stat_result | None:
    """The entry at a path, not followed; None when it, or a directory on the way, is missing."""
    try:
        with confined.parent(root, "/".join(names)) as (folder, name):
            return confined.lstat_at(folder, name)
    except (FileNotFoundError, NotADirectoryError):
        return None


def _plan_create(root: Path, args: dict[str, Any]) -> Planned:
    names = confined.parts(root, args["path"])
    if not names or _look(root, names) is not None:
        return None
    return _created(root, names)


def _created(root: Path, names: tuple[str, ...]) -> Planned:
    path, made = "/".join(names), confined.missing_parents(root, names)
    return {"op": "delete", "path": path, "created": made}, [_entry(path, False, made)]


def _plan_append(root: Path, args: dict[str, Any]) -> Planned:
    names = confined.parts(root, args["path"])
    if not names:
        return None
    found = _look(root, names)
    if found is None:
        return _created(root, names)
    if not stat.S_ISREG(found.st_mode) or found.st_nlink != 1:
        return None  # a link, a directory, or a file with other names: the append replaces it, so copy
    with confined.parent(root, args["path"]) as (folder, name):
        handle = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC, dir_fd=folder)
        try:
            opened = os.fstat(handle)
            if (opened.st_dev, opened.st_ino) != (found.st_dev, found.st_ino):
                return None
            digest = _prefix(handle, opened.st_size)
        finally:
            os.close(handle)
    path = "/".join(names)
    inverse = {"op": "truncate", "path": path, "length": opened.st_size, "prefix_sha256": digest,
               "atime_ns": found.st_atime_ns, "mtime_ns": found.st_mtime_ns}
    return inverse, [_entry(path, True)]


def _plan_move(root: Path, args: dict[str, Any]) -> Planned:
    source, destination = confined.parts(root, args["src"]), confined.parts(root, args["dst"])
    if not source or not destination or destination[: len(source)] == source:
        return None
    found = _look(root, source)
    if found is None or _look(root, destination) is not None:
        return None  # the move fails, or moves onto something: a copy says what was there
    src, dst, made = "/".join(source), "/".join(destination), confined.missing_parents(root, destination)
    inverse = {"op": "move", "src": src, "dst": dst, "dev": found.st_dev, "ino": found.st_ino, "created": made}
    return inverse, [_entry(src, True), _entry(dst, False, made)]


def _plan_mkdir(root: Path, args: dict[str, Any]) -> Planned:
    names = confined.parts(root, args["path"])
    if not names:
        return None
    path, found = "/".join(names), _look(root, names)
    if found is not None:
        if not stat.S_ISDIR(found.st_mode):
            return None
        return {"op": "keep", "path": path}, [_entry(path, True)]
    made = confined.missing_parents(root, names)
    return {"op": "rmdir", "path": path, "created": made}, [_entry(path, False, made)]


def _prefix(handle: int, length: int) -> str:
    digest, offset = hashlib.sha256(), 0
    while offset < length:
        chunk = os.pread(handle, min(READ_BYTES, length - offset), offset)
        if not chunk:
            break
        digest.update(chunk)
        offset += len(chunk)
    return digest.hexdigest()


@contextmanager
def _refusing(what: str) -> Iterator[None]:
    """An operating system error met while inverting, as the refusal line naming the path."""
    try:
        yield
    except OSError as exc:
        raise InverseRefused(f"{what}: {exc.strerror or exc}") from None


def _truncate(root: Path, inverse: dict[str, Any], left: dict[str, Any] | None) -> None:
    path, length = inverse["path"], inverse["length"]
    with _refusing(f"cannot truncate {path} back to {length} bytes"):
        found = _look(root, confined.parts(root, path))
        if found is None:
            raise InverseRefused(f"cannot truncate {path} back to {length} bytes: it is gone")
        if not stat.S_ISREG(found.st_mode):
            raise InverseRefused(f"cannot truncate {path} back to {length} bytes: it is no longer a regular file")
        with confined.parent(root, path) as (folder, name):
            handle = os.open(name, os.O_RDWR | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC, dir_fd=folder)
            try:
                size = os.fstat(handle).st_size
                if size < length or _prefix(handle, length) != inverse["prefix_sha256"]:
                    raise InverseRefused(f"cannot truncate {path} back to {length} bytes: its first {length} bytes"
                                         " changed since the append (truncating would keep the change and lose"
                                         " the rest); put it back by hand")
                os.ftruncate(handle, length)
                os.utime(handle, ns=(inverse["atime_ns"], inverse["mtime_ns"]))
            finally:
                os.close(handle)


def _delete(root: Path, inverse: dict[str, Any], left: dict[str, Any] | None) -> None:
    path = inverse["path"]
    with _refusing(f"cannot delete {path}, which the call created"):
        found = _look(root, confined.parts(root, path))
        if found is not None:
            if not stat.S_ISREG(found.st_mode):
                raise InverseRefused(f"cannot delete {path}: it is no longer the file the call created"
                                     " (something else is there now)")
            with confined.parent(root, path) as (folder, name):
                os.unlink(name, dir_fd=folder)
        _remove_made(root, inverse["created"])


def _move(root: Path, inverse: dict[str, Any], left: dict[str, Any] | None) -> None:
    src, dst = inverse["src"], inverse["dst"]
    source, destination = confined.parts(root, src), confined.parts(root, dst)
    with _refusing(f"cannot move {dst} back to {src}"):
        found, taken = _look(root, destination), _look(root, source)
        if found is None:
            if taken is not None and (taken.st_dev, taken.st_ino) == (inverse["dev"], inverse["ino"]):
                _remove_made(root, inverse["created"])  # the move never happened
                return
            raise InverseRefused(f"cannot move {dst} back to {src}: {dst} is gone")
        if taken is not None:
            raise InverseRefused(f"cannot move {dst} back to {src}: {src} is taken (something is there now)")
        if not _is_what_the_move_left(root, dst, found, inverse, left):
            raise InverseRefused(f"cannot move {dst} back to {src}: {dst} is no longer what the move left")
        with confined.parent(root, dst) as (from_folder, from_name), \
                confined.parent(root, src) as (to_folder, to_name):
            if confined.lstat_at(to_folder, to_name) is not None:
                raise InverseRefused(f"cannot move {dst} back to {src}: {src} is taken (something is there now)")
            os.rename(from_name, to_name, src_dir_fd=from_folder, dst_dir_fd=to_folder)
        _remove_made(root, inverse["created"])


def _is_what_the_move_left(root: Path, dst: str, found: os.stat_result, inverse: dict[str, Any],
                           left: dict[str, Any] | None) -> bool:
    """What the seal saw the move leave at `dst` (type, mode, content, all under it) is there now; without a
    seal (a crash rollback), the moved entry's inode is. A later undo that restored a copy gives it a new
    inode, and an inode number can be reused, so the seal decides where there is one."""
    if not left or left.get(dst) is None:
        return (found.st_dev, found.st_ino) == (inverse["dev"], inverse["ino"])
    at_seal = {key: held for key, held in left.items() if key == dst or key.startswith(dst + "/")}
    return json.loads(json.dumps(fingerprint(root, [dst]))) == at_seal


def _rmdir(root: Path, inverse: dict[str, Any], left: dict[str, Any] | None) -> None:
    path = inverse["path"]
    with _refusing(f"cannot remove the directory {path}"):
        found = _look(root, confined.parts(root, path))
        if found is not None:
            if not stat.S_ISDIR(found.st_mode):
                raise InverseRefused(f"cannot remove the directory {path}: it is no longer a directory")
            try:
                with confined.parent(root, path) as (folder, name):
                    os.rmdir(name, dir_fd=folder)
            except OSError as exc:
                if exc.errno in (errno.ENOTEMPTY, errno.EEXIST):
                    raise InverseRefused(f"cannot remove the directory {path}: {path} is not empty"
                                         " (something was put in it since)") from None
                raise
        _remove_made(root, inverse["created"])


def _keep(root: Path, inverse: dict[str, Any], left: dict[str, Any] | None) -> None:
    """A mkdir of a directory that was already there changed nothing."""


def _remove_made(root: Path, made: list[str]) -> None:
    """The parent directories the call made, innermost first, while they are empty."""
    for folder in reversed(made):
        if not confined.remove_empty_directory(root, folder):
            break


_PLANNERS: dict[str, Callable[[Path, dict[str, Any]], Planned]] = {
    DELETE_CREATED: _plan_create, TRUNCATE_APPENDED: _plan_append, MOVE_BACK: _plan_move, RMDIR_MADE: _plan_mkdir,
}
_INVERTERS: dict[str, Callable[[Path, dict[str, Any], dict[str, Any] | None], None]] = {
    "truncate": _truncate, "delete": _delete, "move": _move, "rmdir": _rmdir, "keep": _keep,
}
