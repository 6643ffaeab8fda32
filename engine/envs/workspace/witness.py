"""The append witness: a file's length and hash at dispatch, against its bytes on resume."""

from __future__ import annotations

import asyncio
import hashlib
from typing import Any

from engine.envs.workspace import confined
from engine.envs.workspace.environment import WorkspaceEnv
from engine.tools.registry import acting_in
from engine.tools.witness import Evidence, Witness


def _read(env: WorkspaceEnv, path: str) -> bytes | None:
    return confined.read_regular(env.root, path)


async def _before(env: WorkspaceEnv, args: dict[str, Any]) -> dict[str, Any]:
    data = await asyncio.to_thread(_read, env, args["path"])
    if data is None:
        return {"size": None}
    return {"size": len(data), "sha256": hashlib.sha256(data).hexdigest()}


async def _after(env: WorkspaceEnv, args: dict[str, Any], seen: dict[str, Any]) -> Evidence:
    now = await asyncio.to_thread(_read, env, args["path"])
    added = args["content"].encode()
    size = seen.get("size")
    if now is None:
        if size is None:
            return Evidence(False, f"{args['path']} still does not exist, as at dispatch")
        return Evidence(None, f"{args['path']} is gone (it had {size} bytes at dispatch)")
    kept = now[: size or 0]
    unchanged_head = size is None or hashlib.sha256(kept).hexdigest() == seen.get("sha256")
    if size is not None and len(now) == size and unchanged_head:
        return Evidence(False, f"{args['path']} is byte for byte as at dispatch ({size} bytes)")
    if unchanged_head and len(now) == (size or 0) + len(added) and now[size or 0 :] == added:
        return Evidence(True, f"{args['path']} grew by exactly the {len(added)} appended bytes")
    return Evidence(None, f"{args['path']} changed otherwise since dispatch ({size} → {len(now)} bytes)")


APPEND_WITNESS = Witness(acting_in(WorkspaceEnv, _before), acting_in(WorkspaceEnv, _after))
