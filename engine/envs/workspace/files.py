"""File tools confined to the workspace; each one snapshots exactly the paths it changes.

A tool's `reverser` names the inverse that undoes it without a copy where one applies (`inverse`):
a write that creates a file is deleted, an append truncated, a move moved back, a mkdir removed;
a write over a file, and a delete, restore a copy (`RESTORE`).

Every tool walks its path from the workspace root by descriptor and never follows a
symlink (`confined`): a symlink among the directories of a path is refused, and a
symlink as the last component is the link itself — delete removes the link, move moves
the link, write replaces the link with a file, and append to a link is refused. A write
never changes a file in place: it writes a new file beside it, syncs it and renames it
over the name, so a hard link to a file elsewhere keeps its content; an append to a file
with more than one link copies it first (the link is broken) and renames the copy over.

Before any of that, a path holding a control character, or touching what the sandbox hides
inside the workspace (Warden's home there), is refused (`admission`).

Their bodies do blocking file work, so each runs on a worker thread.
"""

from __future__ import annotations

import asyncio
import errno
import os
from collections.abc import Awaitable, Callable
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from engine.envs.workspace import admission, confined
from engine.envs.workspace.environment import KIND, WorkspaceEnv
from engine.envs.workspace.inverse import DELETE_CREATED, MOVE_BACK, RMDIR_MADE, TRUNCATE_APPENDED
from engine.envs.workspace.witness import APPEND_WITNESS
from engine.errors import WardenError
from engine.tier import Tier
from engine.tools.registry import Tool, ToolError, ToolOutput, acting_in

if TYPE_CHECKING:
    from engine.envs.environment import Environment

RESTORE = "restore_snapshot"


def _threaded(body: Callable[[WorkspaceEnv, dict[str, Any]], ToolOutput],
              *paths: str) -> Callable[[Environment, dict[str, Any]], Awaitable[ToolOutput]]:
    """A tool whose blocking body runs off the event loop, returning text and the bytes it wrote; the
    arguments named `paths` are admitted first (`admission`)."""

    def admitted(env: WorkspaceEnv, args: dict[str, Any]) -> ToolOutput:
        for key in paths:
            admission.check(env.root, args[key], env.hidden)
        return body(env, args)

    async def run(env: WorkspaceEnv, args: dict[str, Any]) -> ToolOutput:
        return await asyncio.to_thread(admitted, env, args)

    return acting_in(WorkspaceEnv, run)


@contextmanager
def _failing(tool: str, path: str):
    """An operating system error as the tool's one-line failure, naming the path."""
    try:
        yield
    except WardenError:
        raise
    except OSError as exc:
        raise ToolError(f"{tool}: {path!r:.200}: {exc.strerror or exc}") from None


def _write(env: WorkspaceEnv, args: dict[str, Any]) -> ToolOutput:
    path, data = args["path"], args["content"].encode()
    with _failing("fs.write", path):
        if not confined.parts(env.root, path):
            raise ToolError(f"fs.write: {path} is a directory")
        with confined.parent(env.root, path, create=True) as (folder, name):
            try:
                confined.replace_file(folder, name, data)
            except IsADirectoryError:
                raise ToolError(f"fs.write: {path} is a directory") from None
    return ToolOutput(f"wrote {len(data)} bytes to {path}", {"bytes": len(data)})


def _append(env: WorkspaceEnv, args: dict[str, Any]) -> ToolOutput:
    path, data = args["path"], args["content"].encode()
    with _failing("fs.append", path):
        if not confined.parts(env.root, path):
            raise ToolError(f"fs.append: {path} is a directory")
        with confined.parent(env.root, path, create=True) as (folder, name):
            try:
                confined.append_file(folder, name, data)
            except IsADirectoryError:
                raise ToolError(f"fs.append: {path} is a directory") from None
            except OSError as exc:
                if exc.errno == errno.ELOOP:  # O_NOFOLLOW met a symlink
                    raise ToolError(f"fs.append: {path} is a symlink; append never writes through one "
                                    "(fs.write replaces the link with a file)") from None
                if exc.errno in (errno.EINVAL, errno.ENXIO):
                    raise ToolError(f"fs.append: {path} is not a regular file") from None
                raise
    return ToolOutput(f"appended {len(data)} bytes to {path}", {"bytes": len(data)})


def _delete(env: WorkspaceEnv, args: dict[str, Any]) -> ToolOutput:
    path = args["path"]
    with _failing("fs.delete", path):
        if not confined.parts(env.root, path):
            raise ToolError("fs.delete: refusing to delete the workspace itself")
        try:
            with confined.parent(env.root, path) as (folder, name):
                removed = confined.remove_at(folder, name)
        except FileNotFoundError:
            removed = False
        if not removed:
            raise ToolError(f"fs.delete: {path} does not exist")
    return ToolOutput(f"deleted {path}")


def _move(env: WorkspaceEnv, args: dict[str, Any]) -> ToolOutput:
    src, dst = args["src"], args["dst"]
    with _failing("fs.move", f"{src} → {dst}"):
        source, destination = confined.parts(env.root, src), confined.parts(env.root, dst)
        if not source or not destination:
            raise ToolError("fs.move: refusing to move the workspace itself or onto it")
        if destination[: len(source)] == source:
            raise ToolError(f"fs.move: cannot move {src} into itself ({dst})")
        try:
            source_folder = confined.open_dir(env.root, src, source[:-1])
        except FileNotFoundError:
            raise ToolError(f"fs.move: {src} does not exist") from None
        try:
            if confined.lstat_at(source_folder, source[-1]) is None:
                raise ToolError(f"fs.move: {src} does not exist")
            with confined.parent(env.root, dst, create=True) as (folder, name):
                if confined.lstat_at(folder, name) is not None:
                    raise ToolError(f"fs.move: {dst} already exists")
                os.rename(source[-1], name, src_dir_fd=source_folder, dst_dir_fd=folder)
        finally:
            os.close(source_folder)
    return ToolOutput(f"moved {src} to {dst}")


def _mkdir(env: WorkspaceEnv, args: dict[str, Any]) -> ToolOutput:
    path = args["path"]
    with _failing("fs.mkdir", path):
        names = confined.parts(env.root, path)
        os.close(confined.open_dir(env.root, path, names, create=True))
    return ToolOutput(f"made directory {path}")


FILE_TOOLS = (
    Tool(
        name="fs.write",
        kind=KIND,
        idempotent=True,
        schema={"path": str, "content": str},
        run=_threaded(_write, "path"),
        tier=Tier.LOCAL_REVERSIBLE,
        reverser=DELETE_CREATED,
        touches=lambda a: [a["path"]],
        effect=lambda a: {"text": {"path": a["path"], "equals": a["content"]}},
        summary=lambda a: f"write {a['path']}",
    ),
    Tool(
        name="fs.append",
        kind=KIND,
        witness=APPEND_WITNESS,
        schema={"path": str, "content": str},
        run=_threaded(_append, "path"),
        tier=Tier.LOCAL_REVERSIBLE,
        reverser=TRUNCATE_APPENDED,
        touches=lambda a: [a["path"]],
        effect=lambda a: {"text": {"path": a["path"], "contains": a["content"]}},
        summary=lambda a: f"append to {a['path']}",
    ),
    Tool(
        name="fs.delete",
        kind=KIND,
        idempotent=True,
        schema={"path": str},
        run=_threaded(_delete, "path"),
        tier=Tier.LOCAL_REVERSIBLE,
        reverser=RESTORE,
        touches=lambda a: [a["path"]],
        needs=lambda a: {"exists": a["path"]},
        effect=lambda a: {"absent": a["path"]},
        summary=lambda a: f"delete {a['path']}",
    ),
    Tool(
        name="fs.move",
        kind=KIND,
        idempotent=True,
        schema={"src": str, "dst": str},
        run=_threaded(_move, "src", "dst"),
        tier=Tier.LOCAL_REVERSIBLE,
        reverser=MOVE_BACK,
        touches=lambda a: [a["src"], a["dst"]],
        needs=lambda a: {"all": [{"exists": a["src"]}, {"absent": a["dst"]}]},
        effect=lambda a: {"all": [{"absent": a["src"]}, {"exists": a["dst"]}]},
        summary=lambda a: f"move {a['src']} → {a['dst']}",
    ),
    Tool(
        name="fs.mkdir",
        kind=KIND,
        idempotent=True,
        schema={"path": str},
        run=_threaded(_mkdir, "path"),
        tier=Tier.LOCAL_REVERSIBLE,
        reverser=RMDIR_MADE,
        touches=lambda a: [a["path"]],
        effect=lambda a: {"exists": a["path"]},
        summary=lambda a: f"mkdir {a['path']}",
    ),
)
