"""File tools confined to the workspace; each one snapshots exactly the paths it changes."""

from __future__ import annotations

import shutil
from typing import Any

from engine.envs.workspace import WorkspaceEnv
from engine.gate.verdict import Tier
from engine.tools.registry import Tool, ToolError

RESTORE = "restore_snapshot"


def _parent(path: str) -> str | None:
    head, _, _ = path.rstrip("/").rpartition("/")
    return head or None


def _needs_parent(path: str) -> dict | None:
    parent = _parent(path)
    return {"exists": parent} if parent else None


async def _write(env: WorkspaceEnv, args: dict[str, Any]) -> str:
    target = env.resolve(args["path"])
    if target.is_dir():
        raise ToolError(f"fs.write: {args['path']} is a directory")
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(args["content"], encoding="utf-8")
    return f"wrote {len(args['content'].encode())} bytes to {args['path']}"


async def _append(env: WorkspaceEnv, args: dict[str, Any]) -> str:
    target = env.resolve(args["path"])
    if target.is_dir():
        raise ToolError(f"fs.append: {args['path']} is a directory")
    target.parent.mkdir(parents=True, exist_ok=True)
    with target.open("a", encoding="utf-8") as handle:
        handle.write(args["content"])
    return f"appended {len(args['content'].encode())} bytes to {args['path']}"


async def _delete(env: WorkspaceEnv, args: dict[str, Any]) -> str:
    target = env.resolve(args["path"])
    if target == env.root:
        raise ToolError("fs.delete: refusing to delete the workspace itself")
    if target.is_dir() and not target.is_symlink():
        shutil.rmtree(target)
    elif target.exists() or target.is_symlink():
        target.unlink()
    else:
        raise ToolError(f"fs.delete: {args['path']} does not exist")
    return f"deleted {args['path']}"


async def _move(env: WorkspaceEnv, args: dict[str, Any]) -> str:
    source, destination = env.resolve(args["src"]), env.resolve(args["dst"])
    if not source.exists():
        raise ToolError(f"fs.move: {args['src']} does not exist")
    if destination.exists():
        raise ToolError(f"fs.move: {args['dst']} already exists")
    destination.parent.mkdir(parents=True, exist_ok=True)
    source.rename(destination)
    return f"moved {args['src']} to {args['dst']}"


async def _mkdir(env: WorkspaceEnv, args: dict[str, Any]) -> str:
    env.resolve(args["path"]).mkdir(parents=True, exist_ok=True)
    return f"made directory {args['path']}"


FS_TOOLS = (
    Tool(
        name="fs.write",
        schema={"path": str, "content": str},
        run=_write,
        tier=Tier.LOCAL_REVERSIBLE,
        reverser=RESTORE,
        touches=lambda a: [a["path"]],
        effect=lambda a: {"text": {"path": a["path"], "equals": a["content"]}},
        summary=lambda a: f"write {a['path']}",
    ),
    Tool(
        name="fs.append",
        schema={"path": str, "content": str},
        run=_append,
        tier=Tier.LOCAL_REVERSIBLE,
        reverser=RESTORE,
        touches=lambda a: [a["path"]],
        effect=lambda a: {"text": {"path": a["path"], "contains": a["content"]}},
        summary=lambda a: f"append to {a['path']}",
    ),
    Tool(
        name="fs.delete",
        schema={"path": str},
        run=_delete,
        tier=Tier.LOCAL_REVERSIBLE,
        reverser=RESTORE,
        touches=lambda a: [a["path"]],
        needs=lambda a: {"exists": a["path"]},
        effect=lambda a: {"absent": a["path"]},
        summary=lambda a: f"delete {a['path']}",
    ),
    Tool(
        name="fs.move",
        schema={"src": str, "dst": str},
        run=_move,
        tier=Tier.LOCAL_REVERSIBLE,
        reverser=RESTORE,
        touches=lambda a: [a["src"], a["dst"]],
        needs=lambda a: {"all": [{"exists": a["src"]}, {"absent": a["dst"]}]},
        effect=lambda a: {"all": [{"absent": a["src"]}, {"exists": a["dst"]}]},
        summary=lambda a: f"move {a['src']} → {a['dst']}",
    ),
    Tool(
        name="fs.mkdir",
        schema={"path": str},
        run=_mkdir,
        tier=Tier.LOCAL_REVERSIBLE,
        reverser=RESTORE,
        touches=lambda a: [a["path"]],
        effect=lambda a: {"exists": a["path"]},
        summary=lambda a: f"mkdir {a['path']}",
    ),
)
