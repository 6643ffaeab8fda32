"""The crash benchmark's workspace operators: deterministic file, archive, JSON, CSV and SQLite work.

Each is a local, reversible tool restored from its snapshot, whose `touches` lists exactly what it may
change (an SQLite database with its rollback journal), so the journal snapshots that and nothing else.
Every call carries a `key` naming its plan step; after acting, an operator appends one line to the
effect log with hashes of its targets before and after. Archives have fixed times, owners and modes
and sorted entries, gzip has no timestamp, so the same plan leaves the same bytes on every run. The
operators act only in a `CrashSpace` (their environment kind), never in a person's workspace.
"""

from __future__ import annotations

import asyncio
import csv
import gzip
import hashlib
import io
import json
import os
import shutil
import sqlite3
import stat
import tarfile
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from posixpath import basename, dirname, join
from typing import TYPE_CHECKING, Any

from engine.bench.crash import effects, stalls
from engine.envs.workspace import confined
from engine.envs.workspace.fingerprint import fingerprint
from engine.tier import Tier
from engine.tools.registry import Tool, ToolError, ToolOutput

if TYPE_CHECKING:
    from engine.bench.crash.space import CrashSpace

KIND = "crashspace"
PREFIX = "crash."
RESTORE = "restore_snapshot"
FIXED_TIME = 1_000_000_000
ZIP_TIME = (1980, 1, 1, 0, 0, 0)
DIR_MODE = 0o755
FILE_MODE = 0o644
GARBAGE = b"\x00PARTIAL-EFFECT\x00"


@dataclass(frozen=True)
class Operator:
    """One operator: its arguments (besides `key`), what it touches, what it does, whether it is gated."""

    name: str
    schema: dict[str, type]
    touches: Callable[[dict[str, Any]], list[str]]
    body: Callable[["CrashSpace", dict[str, Any]], str]
    gated: bool = False


def _read(env: CrashSpace, path: str) -> bytes:
    data = confined.read_regular(env.root, path)
    if data is None:
        raise ToolError(f"{path} is not a regular file")
    return data


def _put(env: CrashSpace, path: str, data: bytes, mode: int | None = None) -> None:
    with confined.parent(env.root, path, create=True) as (folder, name):
        confined.replace_file(folder, name, data)
        if mode is not None:
            os.chmod(name, mode, dir_fd=folder, follow_symlinks=False)


def _text(env: CrashSpace, path: str) -> str:
    return _read(env, path).decode("utf-8")


def _lines(env: CrashSpace, path: str, change: Callable[[list[str]], list[str]]) -> str:
    lines = _text(env, path).splitlines()
    changed = change(lines)
    _put(env, path, "".join(line + "\n" for line in changed).encode())
    return f"{path}: {len(lines)} -> {len(changed)} lines"


def _mode(env: CrashSpace, path: str) -> int:
    return stat.S_IMODE(os.lstat(env.resolve(path)).st_mode)


def create(env, args):
    if confined.lexists(env.root, args["path"]):
        raise ToolError(f"{args['path']} already exists")
    _put(env, args["path"], args["content"].encode(), FILE_MODE)
    return f"created {args['path']}"


def write(env, args):
    _put(env, args["path"], args["content"].encode())
    return f"wrote {args['path']}"


def append(env, args):
    with confined.parent(env.root, args["path"]) as (folder, name):
        confined.append_file(folder, name, args["content"].encode())
    return f"appended to {args['path']}"


def prepend(env, args):
    _put(env, args["path"], args["content"].encode() + _read(env, args["path"]))
    return f"prepended to {args['path']}"


def copy(env, args):
    _put(env, args["target"], _read(env, args["source"]), _mode(env, args["source"]))
    return f"copied {args['source']} to {args['target']}"


def move(env, args):
    os.rename(env.resolve(args["source"]), env.resolve(args["target"]))
    return f"moved {args['source']} to {args['target']}"


def rename(env, args):
    os.rename(env.resolve(args["path"]), env.resolve(join(dirname(args["path"]), args["name"])))
    return f"renamed {args['path']} to {args['name']}"


def delete(env, args):
    os.unlink(env.resolve(args["path"]))
    return f"deleted {args['path']}"


def delete_tree(env, args):
    shutil.rmtree(env.resolve(args["path"]))
    return f"deleted the tree {args['path']}"


def mkdir(env, args):
    os.mkdir(env.resolve(args["path"]), DIR_MODE)
    os.chmod(env.resolve(args["path"]), DIR_MODE)
    return f"made {args['path']}/"


def _members(env: CrashSpace, folder: str) -> list[tuple[str, bool, int, bytes]]:
    """Everything under a folder, sorted: (relative name, is a directory, mode, content)."""
    top = env.resolve(folder)
    found = []
    for here, dirs, files in os.walk(top):
        dirs.sort()
        for name in sorted(dirs):
            full = os.path.join(here, name)
            found.append((os.path.relpath(full, top), True, stat.S_IMODE(os.lstat(full).st_mode), b""))
        for name in sorted(files):
            full = os.path.join(here, name)
            with open(full, "rb") as handle:
                found.append((os.path.relpath(full, top), False, stat.S_IMODE(os.lstat(full).st_mode), handle.read()))
    return sorted(found)


def tar_create(env, args):
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w", format=tarfile.GNU_FORMAT) as archive:
        for name, is_dir, mode, data in _members(env, args["source"]):
            info = tarfile.TarInfo(name)
            info.type = tarfile.DIRTYPE if is_dir else tarfile.REGTYPE
            info.mode, info.mtime, info.uid, info.gid, info.uname, info.gname = mode, FIXED_TIME, 0, 0, "", ""
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data) if not is_dir else None)
    _put(env, args["archive"], buffer.getvalue(), FILE_MODE)
    return f"archived {args['source']} into {args['archive']}"


def _unpack(env: CrashSpace, target: str, entries: list[tuple[str, bool, int, bytes]]) -> None:
    os.mkdir(env.resolve(target), DIR_MODE)
    os.chmod(env.resolve(target), DIR_MODE)
    for name, is_dir, mode, data in sorted(entries):
        if name.startswith("/") or ".." in name.split("/"):
            raise ToolError(f"archive member {name!r} leaves its folder")
        path = join(target, name)
        if is_dir:
            os.mkdir(env.resolve(path), mode)
            os.chmod(env.resolve(path), mode)
        else:
            _put(env, path, data, mode)


def tar_extract(env, args):
    with tarfile.open(fileobj=io.BytesIO(_read(env, args["archive"])), mode="r") as archive:
        entries = [(m.name.rstrip("/"), m.isdir(), m.mode & 0o777,
                    b"" if m.isdir() else archive.extractfile(m).read()) for m in archive.getmembers()]
    _unpack(env, args["target"], entries)
    return f"extracted {args['archive']} into {args['target']}"


def zip_create(env, args):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, is_dir, mode, data in _members(env, args["source"]):
            info = zipfile.ZipInfo(name + "/" if is_dir else name, ZIP_TIME)
            info.external_attr = ((stat.S_IFDIR if is_dir else stat.S_IFREG) | mode) << 16
            info.compress_type = zipfile.ZIP_STORED if is_dir else zipfile.ZIP_DEFLATED
            archive.writestr(info, data)
    _put(env, args["archive"], buffer.getvalue(), FILE_MODE)
    return f"zipped {args['source']} into {args['archive']}"


def zip_extract(env, args):
    with zipfile.ZipFile(io.BytesIO(_read(env, args["archive"]))) as archive:
        entries = [(info.filename.rstrip("/"), info.is_dir(), (info.external_attr >> 16) & 0o777,
                    b"" if info.is_dir() else archive.read(info)) for info in archive.infolist()]
    _unpack(env, args["target"], entries)
    return f"unzipped {args['archive']} into {args['target']}"


def _checksum(algorithm: str):
    def body(env, args):
        digest = hashlib.new(algorithm, _read(env, args["path"])).hexdigest()
        _put(env, args["output"], f"{digest}  {basename(args['path'])}\n".encode())
        return f"{algorithm} of {args['path']} into {args['output']}"

    return body


def _json(env: CrashSpace, path: str, change: Callable[[dict], None]) -> str:
    data = json.loads(_text(env, path)) if confined.lexists(env.root, path) else {}
    change(data)
    _put(env, path, (json.dumps(data, sort_keys=True, indent=1) + "\n").encode())
    return f"edited {path}"


def json_set(env, args):
    return _json(env, args["path"], lambda data: data.__setitem__(args["name"], args["value"]))


def json_delete(env, args):
    return _json(env, args["path"], lambda data: data.pop(args["name"]))


def json_append(env, args):
    return _json(env, args["path"], lambda data: data.setdefault(args["name"], []).append(args["value"]))


def _sql(env: CrashSpace, path: str, statement: str, values: tuple = ()) -> str:
    connection = sqlite3.connect(env.resolve(path), isolation_level=None)
    try:
        connection.execute("PRAGMA journal_mode=DELETE")
        connection.execute("BEGIN IMMEDIATE")
        changed = connection.execute(statement, values).rowcount
        connection.execute("COMMIT")
    finally:
        connection.close()
    return f"{path}: {changed} row(s)"


def sqlite_init(env, args):
    if confined.lexists(env.root, args["path"]):
        raise ToolError(f"{args['path']} already exists")
    return _sql(env, args["path"], "CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT NOT NULL, value INTEGER)")


def sqlite_insert(env, args):
    return _sql(env, args["path"], "INSERT INTO items (id, name, value) VALUES (?, ?, ?)",
                (args["id"], args["name"], args["value"]))


def sqlite_update(env, args):
    return _sql(env, args["path"], "UPDATE items SET value = value + ? WHERE id = ?", (args["value"], args["id"]))


def sqlite_delete(env, args):
    return _sql(env, args["path"], "DELETE FROM items WHERE id = ?", (args["id"],))


def csv_append(env, args):
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerow(args["cells"])
    with confined.parent(env.root, args["path"], create=True) as (folder, name):
        confined.append_file(folder, name, out.getvalue().encode())
    return f"row appended to {args['path']}"


def replace_text(env, args):
    text = _text(env, args["path"])
    _put(env, args["path"], text.replace(args["old"], args["new"]).encode())
    return f"replaced {text.count(args['old'])} in {args['path']}"


def sort_lines(env, args):
    return _lines(env, args["path"], sorted)


def reverse_lines(env, args):
    return _lines(env, args["path"], lambda lines: lines[::-1])


def dedupe_lines(env, args):
    return _lines(env, args["path"], lambda lines: list(dict.fromkeys(lines)))


def upper(env, args):
    return _lines(env, args["path"], lambda lines: [line.upper() for line in lines])


def gzip_file(env, args):
    path = args["path"]
    _put(env, path + ".gz", gzip.compress(_read(env, path), mtime=0), _mode(env, path))
    os.unlink(env.resolve(path))
    return f"gzipped {path}"


def gunzip_file(env, args):
    path = args["path"]
    _put(env, path[:-3], gzip.decompress(_read(env, path)), _mode(env, path))
    os.unlink(env.resolve(path))
    return f"gunzipped {path}"


def chmod(env, args):
    os.chmod(env.resolve(args["path"]), args["mode"], follow_symlinks=False)
    return f"{args['path']} mode {args['mode']:o}"


def touch(env, args):
    os.utime(env.resolve(args["path"]), (FIXED_TIME, FIXED_TIME), follow_symlinks=False)
    return f"touched {args['path']}"


def concat(env, args):
    _put(env, args["output"], _read(env, args["first"]) + _read(env, args["second"]))
    return f"{args['first']} + {args['second']} into {args['output']}"


def _parts(args: dict[str, Any]) -> list[str]:
    return [f"{args['prefix']}.{number}" for number in range(args["parts"])]


def split(env, args):
    lines = _text(env, args["path"]).splitlines(keepends=True)
    count = args["parts"]
    size = -(-len(lines) // count) if lines else 0
    for number, part in enumerate(_parts(args)):
        _put(env, part, "".join(lines[number * size:(number + 1) * size]).encode())
    return f"split {args['path']} into {count}"


def line_count(env, args):
    _put(env, args["output"], f"{len(_text(env, args['path']).splitlines())}\n".encode())
    return f"counted {args['path']}"


def truncate(env, args):
    _put(env, args["path"], _read(env, args["path"])[:args["size"]])
    return f"truncated {args['path']} to {args['size']}"


def _at(*names: str) -> Callable[[dict[str, Any]], list[str]]:
    return lambda args: [args[name] for name in names]


def _database(args: dict[str, Any]) -> list[str]:
    return [args["path"], args["path"] + "-journal"]


TEXT: dict[str, type] = {"path": str, "content": str}
OPERATORS: tuple[Operator, ...] = (
    Operator("create", TEXT, _at("path"), create),
    Operator("write", TEXT, _at("path"), write),
    Operator("append", TEXT, _at("path"), append),
    Operator("prepend", TEXT, _at("path"), prepend),
    Operator("copy", {"source": str, "target": str}, _at("target"), copy),
    Operator("move", {"source": str, "target": str}, _at("source", "target"), move),
    Operator("rename", {"path": str, "name": str},
             lambda args: [args["path"], join(dirname(args["path"]), args["name"])], rename),
    Operator("delete", {"path": str}, _at("path"), delete),
    Operator("delete_tree", {"path": str}, _at("path"), delete_tree, gated=True),
    Operator("mkdir", {"path": str}, _at("path"), mkdir),
    Operator("tar_create", {"source": str, "archive": str}, _at("archive"), tar_create),
    Operator("tar_extract", {"archive": str, "target": str}, _at("target"), tar_extract),
    Operator("zip_create", {"source": str, "archive": str}, _at("archive"), zip_create),
    Operator("zip_extract", {"archive": str, "target": str}, _at("target"), zip_extract),
    Operator("sha256", {"path": str, "output": str}, _at("output"), _checksum("sha256")),
    Operator("md5", {"path": str, "output": str}, _at("output"), _checksum("md5")),
    Operator("json_set", {"path": str, "name": str, "value": str}, _at("path"), json_set),
    Operator("json_delete", {"path": str, "name": str}, _at("path"), json_delete),
    Operator("json_append", {"path": str, "name": str, "value": str}, _at("path"), json_append),
    Operator("sqlite_init", {"path": str}, _database, sqlite_init),
    Operator("sqlite_insert", {"path": str, "id": int, "name": str, "value": int}, _database, sqlite_insert),
    Operator("sqlite_update", {"path": str, "id": int, "value": int}, _database, sqlite_update),
    Operator("sqlite_delete", {"path": str, "id": int}, _database, sqlite_delete, gated=True),
    Operator("csv_append", {"path": str, "cells": list}, _at("path"), csv_append),
    Operator("replace_text", {"path": str, "old": str, "new": str}, _at("path"), replace_text),
    Operator("sort_lines", {"path": str}, _at("path"), sort_lines),
    Operator("reverse_lines", {"path": str}, _at("path"), reverse_lines),
    Operator("dedupe_lines", {"path": str}, _at("path"), dedupe_lines),
    Operator("upper", {"path": str}, _at("path"), upper),
    Operator("gzip", {"path": str}, lambda args: [args["path"], args["path"] + ".gz"], gzip_file),
    Operator("gunzip", {"path": str}, lambda args: [args["path"], args["path"][:-3]], gunzip_file),
    Operator("chmod", {"path": str, "mode": int}, _at("path"), chmod, gated=True),
    Operator("touch", {"path": str}, _at("path"), touch),
    Operator("concat", {"first": str, "second": str, "output": str}, _at("output"), concat),
    Operator("split", {"path": str, "parts": int, "prefix": str}, _parts, split),
    Operator("line_count", {"path": str, "output": str}, _at("output"), line_count),
    Operator("truncate", {"path": str, "size": int}, _at("path"), truncate),
)
GATED = frozenset(PREFIX + op.name for op in OPERATORS if op.gated)


def digest(env: CrashSpace, targets: list[str]) -> str:
    """What the targets hold (type, mode, content), as one hash."""
    held = fingerprint(env.root, targets)
    return hashlib.sha256(json.dumps(held, sort_keys=True).encode()).hexdigest()[:16]


def partial_effect(env: CrashSpace, targets: list[str]) -> None:
    """Half an effect on the first target: garbage appended, or a stray file where a folder or file is made."""
    first = targets[0]
    found = confined.lexists(env.root, first)
    if found and os.path.isdir(env.resolve(first)):
        _put(env, join(first, "PARTIAL"), GARBAGE)
    elif found:
        with confined.parent(env.root, first) as (folder, name):
            confined.append_file(folder, name, GARBAGE)
    else:
        _put(env, first, GARBAGE)


def _runner(operator: Operator):
    async def run(env: CrashSpace, args: dict[str, Any]) -> ToolOutput:
        key, targets = args["key"], operator.touches(args)
        if stalls.fire(env.control, key, "before"):
            await stalls.hold(env.control, key, "before")
        if stalls.fire(env.control, key, "partial"):
            await asyncio.to_thread(partial_effect, env, targets)
            await stalls.hold(env.control, key, "partial")

        def act() -> str:
            before = digest(env, targets)
            try:
                text = operator.body(env, args)
            except (OSError, sqlite3.Error, ValueError, KeyError, TypeError, tarfile.TarError,
                    zipfile.BadZipFile) as exc:
                raise ToolError(f"{PREFIX}{operator.name} {key}: {exc}") from None
            effects.append(env.control, {"key": key, "op": operator.name, "before": before,
                                         "after": digest(env, targets), "pid": os.getpid()})
            return text

        text = await asyncio.to_thread(act)
        env.last_key = key
        if stalls.fire(env.control, key, "after"):
            await stalls.hold(env.control, key, "after")
        return ToolOutput(text)

    return run


def tools() -> tuple[Tool, ...]:
    return tuple(
        Tool(PREFIX + op.name, KIND, {"key": str, **op.schema}, _runner(op), Tier.LOCAL_REVERSIBLE, RESTORE,
             touches=op.touches)
        for op in OPERATORS
    )
