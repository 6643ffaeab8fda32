"""File tools confined to the workspace; each one snapshots exactly the paths it changes.

Their bodies do blocking file work, so each runs on a worker thread.
"""

from __future__ import annotations

import asyncio
import shutil
from typing import Any

from engine.envs.workspace.environment import KIND, WorkspaceEnv
from engine.tier import Tier
from engine.tools.registry import Tool, ToolError, ToolOutput

RESTORE = "restore_snapshot"


def _threaded(body):
    """A tool whose blocking body runs off the event loop, returning text and the bytes it wrote."""

    async def run(env: WorkspaceEnv, args: dict[str, Any]) -> ToolOutput:
        return await asyncio.to_thread(body, env, args)

    return run


def _write(env: WorkspaceEnv, args: dict[str, Any]) -> ToolOutput:
    target = env.resolve(args["path"])
    if target.is_dir():
        raise ToolError(f"fs.write: {args['path']} is a directory")
    data = args["content"].encode()
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(data)
    return ToolOutput(f"wrote {len(data)} bytes to {args['path']}", {"bytes": len(data)})


def _append(env: WorkspaceEnv, args: dict[str, Any]) -> ToolOutput:
    target = env.resolve(args["path"])
    if target.is_dir():
        raise ToolError(f"fs.append: {args['path']} is a directory")
    data = args["content"].encode()
    target.parent.mkdir(parents=True, exist_ok=True)
    with target.open("ab") as handle:
        handle.write(data)
    return ToolOutput(f"appended {len(data)} bytes to {args['path']}", {"bytes": len(data)})


def _delete(env: WorkspaceEnv, args: dict[str, Any]) -> ToolOutput:
    target = env.resolve(args["path"])
    if target == env.root:
        raise ToolError("fs.delete: refusing to delete the workspace itself")
    if target.is_dir() and not target.is_symlink():
        shutil.rmtree(target)
    elif target.exists() or target.is_symlink():
        target.unlink()
    else:
        raise ToolError(f"fs.delete: {args['path']} does not exist")
    return ToolOutput(f"deleted {args['path']}")


def _move(env: WorkspaceEnv, args: dict[str, Any]) -> ToolOutput:
    source, destination = env.resolve(args["src"]), env.resolve(args["dst"])
    if not source.exists():
        raise ToolError(f"fs.move: {args['src']} does not exist")
    if destination.exists():
        raise ToolError(f"fs.move: {args['dst']} already exists")
    destination.parent.mkdir(parents=True, exist_ok=True)
    source.rename(destination)
    return ToolOutput(f"moved {args['src']} to {args['dst']}")


def _mkdir(env: WorkspaceEnv, args: dict[str, Any]) -> ToolOutput:
    env.resolve(args["path"]).mkdir(parents=True, exist_ok=True)
    return ToolOutput(f"made directory {args['path']}")


FILE_TOOLS = (
    Tool(
        name="fs.write",
        kind=KIND,
        idempotent=True,
        schema={"path": str, "content": str},
        run=_threaded(_write),
        tier=Tier.LOCAL_REVERSIBLE,
        reverser=RESTORE,
        touches=lambda a: [a["path"]],
        effect=lambda a: {"text": {"path": a["path"], "equals": a["content"]}},
        summary=lambda a: f"write {a['path']}",
    ),
    Tool(
        name="fs.append",
        kind=KIND,
        schema={"path": str, "content": str},
        run=_threaded(_append),
        tier=Tier.LOCAL_REVERSIBLE,
        reverser=RESTORE,
        touches=lambda a: [a["path"]],
        effect=lambda a: {"text": {"path": a["path"], "contains": a["content"]}},
        summary=lambda a: f"append to {a['path']}",
    ),
    Tool(
        name="fs.delete",
        kind=KIND,
        idempotent=True,
        schema={"path": str},
        run=_threaded(_delete),
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
        run=_threaded(_move),
        tier=Tier.LOCAL_REVERSIBLE,
        reverser=RESTORE,
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
        run=_threaded(_mkdir),
        tier=Tier.LOCAL_REVERSIBLE,
        reverser=RESTORE,
        touches=lambda a: [a["path"]],
        effect=lambda a: {"exists": a["path"]},
        summary=lambda a: f"mkdir {a['path']}",
    ),
)
