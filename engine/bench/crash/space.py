"""The bench's own environment kind: a workspace whose tools are the crash operators, and a runtime
that opens one for each task's directory (so a person's workspace never gets bench tools).

Each space knows the bench's control folder (outside every workspace): the effect log and the planted
stalls. A boundary stall fires when the step after its key has been marked done: the stepper looks at
the environment right after writing a step `done`, and that look is where this space stops.
"""

from __future__ import annotations

import asyncio
import tempfile
from collections.abc import Sequence
from pathlib import Path

from engine.bench.crash import operators, stalls
from engine.envs.environment import Environment, Observation
from engine.envs.workspace import Sandbox, WorkspaceEnv, snapshot
from engine.runtime import Runtime, Switches
from engine.tools.registry import Tool

KIND = operators.KIND


class CrashSpace(WorkspaceEnv):
    kind = KIND

    def __init__(self, root: Path, control: Path, sandbox: Sandbox | None = None, owned: bool = False) -> None:
        super().__init__(root, sandbox, owned)
        self.control = control
        self.last_key: str | None = None
        self._operators = operators.tools()

    @property
    def identity(self) -> str:
        return f"{KIND}:{self.root}"

    def tools(self) -> Sequence[Tool]:
        """The crash operators, in place of a workspace's file and shell tools."""
        return self._operators

    async def observe(self) -> Observation:
        key, self.last_key = self.last_key, None
        if key is not None and stalls.fire(self.control, key, stalls.BOUNDARY):
            await stalls.hold(self.control, key, stalls.BOUNDARY)
        return await super().observe()

    async def fork(self, scratch: Path) -> "CrashSpace":
        scratch.mkdir(parents=True, exist_ok=True)
        into = Path(tempfile.mkdtemp(prefix="fork-", dir=scratch))
        await asyncio.to_thread(snapshot.copy_workspace, self.root, into)
        return CrashSpace(into, self.control, self.sandbox, owned=True)


class CrashRuntime(Runtime):
    """A runtime whose tasks may each act in their own `CrashSpace`, named by the identity they were queued with."""

    @property
    def control(self) -> Path:
        space = self.environments[KIND]
        if not isinstance(space, CrashSpace):
            raise TypeError(f"the {KIND} environment of a crash runtime is a {type(space).__name__}, not a CrashSpace")
        return space.control

    def environment(self, identity: str) -> Environment | None:
        if identity not in self._opened and identity.startswith(KIND + ":"):
            root = Path(identity.split(":", 1)[1])
            if root.is_absolute() and root.is_dir():
                self._opened[identity] = CrashSpace(root, self.control, self.workspace.sandbox)
        return super().environment(identity)


async def open_runtime(home: Path, control: Path, lease_seconds: float = 30.0) -> CrashRuntime:
    """A runtime on the bench's home, every layer on, with the crash operators."""
    idle = control / "idle-space"
    return await CrashRuntime.open(home, control / "idle-workspace", Switches(), lease_seconds=lease_seconds,
                                   environments=[CrashSpace(idle, control)])
