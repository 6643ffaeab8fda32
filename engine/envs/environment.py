"""The environment seam: where an agent acts, what it sees, and what the runtime may ask of it.

Workspace, web, desktop and phone are implementations; nothing outside `engine/envs/<kind>`
knows which one runs. The runner observes it, tools act in it, predicates are checked by
it, the journal snapshots and restores through it, and the verifier replays in a fork.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from engine.errors import WardenError

if TYPE_CHECKING:
    from engine.tools.registry import Tool

Probe = Callable[[dict], Awaitable[bool]]
Camera = Callable[[], Awaitable[bytes]]


class SnapshotDeclined(WardenError):
    """The environment keeps no snapshot of these targets (past a size or count cap): the call runs audit-only,
    and the message says why."""


@dataclass(frozen=True)
class Observation:
    """What an agent sees: text a model can read, structured fields, a screenshot on request.

    `probe` checks a predicate against the live environment it came from, so an agent
    that reasons in predicates (the scripted one) looks at the screen the same way replay does.
    `camera` takes a PNG of the screen as it is now; only agents that look at pixels pay
    for one. `fields["display"]`, where a screen has one, is `{"width": W, "height": H}` in pixels.
    """

    kind: str
    text: str
    fields: Mapping[str, Any] = field(default_factory=dict)
    image: bytes | None = None
    probe: Probe | None = field(default=None, compare=False, repr=False)
    camera: Camera | None = field(default=None, compare=False, repr=False)

    async def holds(self, predicate: dict) -> bool:
        return self.probe is not None and await self.probe(predicate)

    async def screenshot(self) -> bytes | None:
        """The screen as a PNG: the one taken with the observation, else a fresh one, else None."""
        if self.image is None and self.camera is not None:
            return await self.camera()
        return self.image


@runtime_checkable
class Environment(Protocol):
    """One place an agent acts in.

    `identity` names this instance across processes (a receipt records it, so undo
    restores into the place the effect happened). `check` answers one leaf predicate
    of a form the kind registered; combinators are `engine.programs.predicates.holds`'s.
    A `durable` environment (a directory) keeps a paused task's state while other tasks
    run; one that is not (a browser page, a screen) is reset again for a resumed task
    when another task used it meanwhile.
    """

    kind: str
    can_fork: bool
    durable: bool

    @property
    def identity(self) -> str: ...

    async def reset(self, spec: Mapping[str, Any]) -> None: ...

    async def observe(self) -> Observation: ...

    async def fork(self, scratch: Path) -> "Environment": ...

    async def close(self) -> None: ...

    def tools(self) -> Sequence["Tool"]: ...

    async def check(self, form: str, body: Any) -> bool: ...

    async def snapshot(self, targets: list[str], into: Path) -> str | None:
        """Capture the targets into `into`; the snapshot kind used (`reflink`, `copy`), None for `copy`.
        Raises `SnapshotDeclined` when it keeps none (past a cap)."""
        ...

    async def restore(self, snapshot: Path) -> list[str]: ...

    def snapshot_targets(self, snapshot: Path) -> list[str]: ...

    def overlaps(self, first: str, second: str) -> bool: ...

    async def fingerprint(self, targets: list[str]) -> dict[str, Any] | None:
        """What the targets hold now, comparable later (a difference is a change nobody journaled);
        None when the environment cannot tell."""
        ...
