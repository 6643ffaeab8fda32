"""`shell.run`: a command run in the workspace, inside the sandbox the host and policy allow.

Its tier follows from the sandbox, not from hope: `local_reversible` only when bubblewrap
confines it with no network; otherwise `externally_irreversible`, with an audit-only receipt.
With no sandbox and no opt-in the tool is unavailable and every call is refused in one line.

A confined command snapshots itself. Where the host can mount an overlay in a user namespace
(probed once), the command runs on an overlay of the workspace; afterwards the overlay's upper
layer says exactly what it changed, those paths are snapshotted from the still untouched
workspace (the manifest is written before anything is applied), and then the changes are
applied (`overlay`). So a one-line `echo` costs the snapshot of one file, not of the workspace,
and its receipt lists exactly what changed. Elsewhere the whole workspace is snapshotted first,
as before, once every file sharing its inode with a name outside the workspace has an inode of its
own (`links`): in place, a write through such a hard link would change the outside file. Either
way: no manifest in the snapshot directory means the workspace was not touched, and no file the
command leaves keeps a setuid or setgid bit (`privileges`).

A confined command runs unasked, so its bounds (`bounds`) are part of its containment: one stopped
past any of them (time included) has nothing it wrote applied. On the overlay its layer is
discarded, with an empty manifest; in place the workspace is put back from the snapshot taken
before it (or, with none to restore, the step says what it wrote was kept).
"""

from __future__ import annotations

import asyncio
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import Any

from engine.envs.environment import SnapshotDeclined
from engine.envs.workspace import links, overlay, pinning, privileges, snapshot
from engine.envs.workspace.bounds import Exceeded
from engine.envs.workspace.environment import KIND, WorkspaceEnv
from engine.envs.workspace.files import RESTORE
from engine.envs.workspace.sandbox import Finished, Sandbox
from engine.journal import deferred
from engine.tier import Tier
from engine.tools.pins import Pin
from engine.tools.registry import CommandFailed, Tool, ToolError, ToolOutput, acting_in


_MEASURED: ContextVar[list[dict[str, float]] | None] = ContextVar("warden_shell_costs", default=None)


@contextmanager
def measured() -> Iterator[list[dict[str, float]]]:
    """Collect the snapshotting costs (ms) of every confined command run in this context, and in the
    tasks it starts from now on (`warden bench shell`); a runtime opened inside the block counts."""
    seen: list[dict[str, float]] = []
    token = _MEASURED.set(seen)
    try:
        yield seen
    finally:
        _MEASURED.reset(token)


def shell_tool(sandbox: Sandbox) -> Tool:
    contained = sandbox.contains_effects
    tier = Tier.LOCAL_REVERSIBLE if contained else Tier.EXTERNALLY_IRREVERSIBLE

    async def run(env: WorkspaceEnv, args: dict[str, Any]) -> ToolOutput:
        into = deferred.current() if contained else None
        if not contained:
            return _output(await _run(sandbox, env.root, args["command"]), sandbox, {})
        scratch = into.parent if into is not None else Path(tempfile.gettempdir())
        started = time.perf_counter()
        problem = await asyncio.to_thread(overlay.unavailable, sandbox, scratch)
        costs = {"probe_ms": _ms(started)}
        if problem is not None:
            await asyncio.to_thread(links.unshare, env.root)  # in place, it must not write through to outside names
            if into is not None:
                started = time.perf_counter()
                await asyncio.to_thread(_snapshot, env, ["."], into)
                costs["snapshot_ms"] = _ms(started)
            try:
                finished = await sandbox.run(env.root, args["command"])
            except Exceeded as exc:
                raise ToolError(await asyncio.to_thread(_put_back, env, into, exc)) from None
            finally:
                await asyncio.to_thread(privileges.strip_tree, env.root)
            return _output(finished, sandbox, {"changed": None, "overlay": problem, "costs": costs})
        return await _on_overlay(sandbox, env, args["command"], into, costs)

    async def pin(env: WorkspaceEnv, paths: tuple[str, ...]) -> tuple[Pin, ...]:
        return await asyncio.to_thread(pinning.pin, env.root, paths)

    return Tool(
        name="shell.run",
        kind=KIND,
        schema={"command": str},
        run=acting_in(WorkspaceEnv, run),
        tier=tier,
        reverser=RESTORE,
        touches=lambda a: ["."],
        summary=lambda a: f"$ {a['command'][:60]}",
        unavailable=sandbox.refusal(),
        snapshots_itself=contained,
        pin=acting_in(WorkspaceEnv, pin),
    )


async def _on_overlay(sandbox: Sandbox, env: WorkspaceEnv, command: str, into: Path | None,
                      costs: dict[str, float]) -> ToolOutput:
    """Run on an overlay, then snapshot what it changed and apply it, even when the command failed; an error
    before that, or a bound exceeded (time included), discards the layer and leaves an empty manifest."""
    base = into.parent if into is not None else Path(tempfile.gettempdir())
    layer = overlay.make_layer(Path(tempfile.mkdtemp(prefix=overlay.LAYER_PREFIX, dir=base)), env.root)
    try:
        try:
            finished = await sandbox.run(env.root, command, layer=layer)
        except Exception as exc:
            if into is not None:
                await asyncio.to_thread(_snapshot, env, [], into)
            if isinstance(exc, Exceeded):
                raise ToolError(f"{exc}; nothing it wrote was applied") from None
            raise
        changed = await asyncio.to_thread(_settle, env, layer, into, costs)
    finally:
        await asyncio.to_thread(overlay.remove_layer, layer)
    return _output(finished, sandbox, {"changed": changed, "costs": costs})


def _settle(env: WorkspaceEnv, layer: Path, into: Path | None, costs: dict[str, float]) -> list[str]:
    """Learn what changed, snapshot it from the untouched workspace, then apply it without setuid or setgid
    bits (`privileges`); the changed paths."""
    started = time.perf_counter()
    privileges.strip_tree(layer / "upper")
    plan = overlay.scan(env.root, layer)
    costs["scan_ms"], started = _ms(started), time.perf_counter()
    if into is not None:
        _snapshot(env, list(plan.changed), into)
    costs["snapshot_ms"], started = _ms(started), time.perf_counter()
    overlay.apply(env.root, layer, plan)
    costs["apply_ms"] = _ms(started)
    return list(plan.changed)


def _snapshot(env: WorkspaceEnv, paths: list[str], into: Path) -> None:
    """Snapshot `paths` into the directory the journal prepared (empty until now); past the caps, say why instead."""
    into.rmdir()
    try:
        snapshot.take(env, paths, into)
    except SnapshotDeclined as declined:
        into.mkdir(mode=0o700, exist_ok=True)
        deferred.decline(into, str(declined))


def _put_back(env: WorkspaceEnv, into: Path | None, exceeded: Exceeded) -> str:
    """After a command run in place was stopped past a bound: the workspace restored from the snapshot taken
    before it, when there is one; the step's one-line error either way."""
    if into is None or not (into / deferred.MANIFEST).exists():
        return f"{exceeded}; what it wrote was kept (no snapshot to restore the workspace from)"
    snapshot.restore(env, into)
    return f"{exceeded}; nothing it wrote was applied (the workspace was restored from its snapshot)"


async def _run(sandbox: Sandbox, root: Path, command: str) -> Finished:
    try:
        return await sandbox.run(root, command)
    except Exceeded as exc:
        raise ToolError(str(exc)) from None


def _output(finished: Finished, sandbox: Sandbox, data: dict[str, Any]) -> ToolOutput:
    if (seen := _MEASURED.get()) is not None and "costs" in data:
        seen.append(data["costs"])
    text = finished.output.decode(errors="replace")
    output = ToolOutput(text, {"exit": finished.code, "output_bytes": finished.total,
                               "confinement": sandbox.confinement.value, **data})
    if finished.code != 0:
        raise CommandFailed(f"shell.run: exit {finished.code}: {text.strip()[-300:]}", output)
    return output


def _ms(started: float) -> float:
    return round((time.perf_counter() - started) * 1000, 3)
