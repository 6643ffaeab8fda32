"""The snapshot directory handed to a tool that snapshots itself after running (`Tool.snapshots_itself`).

Such a tool learns what it changed only once it has run (a confined shell command on an
overlay). The journal prepares an empty directory, the stepper grants it for the length of
`tool.run`, and the tool writes its snapshot there before it touches the environment. Its
contract with recovery: no `manifest.json` there means the environment was not touched yet;
a manifest means restoring it gives back the state before the call.
"""

from __future__ import annotations

import asyncio
import dataclasses
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import TYPE_CHECKING

from engine.journal.receipt import SnapshotKind

if TYPE_CHECKING:
    from engine.journal.journal import Prepared

MANIFEST = "manifest.json"
DECLINED = "declined.txt"
_INTO: ContextVar[Path | None] = ContextVar("warden_deferred_snapshot", default=None)


@contextmanager
def granted(into: Path | None) -> Iterator[None]:
    """Hand `into` (None: no journal, no snapshot) to the tool run inside this block."""
    token = _INTO.set(into)
    try:
        yield
    finally:
        _INTO.reset(token)


def current() -> Path | None:
    """Where the running tool must write its snapshot; None when nobody journals this call."""
    return _INTO.get()


def into(prepared: Prepared | None) -> Path | None:
    """The directory `Journal.prepare` made for a tool that snapshots itself; None without one."""
    return Path(prepared.snapshot_path) if prepared is not None and prepared.snapshot_path else None


def decline(into: Path, reason: str) -> None:
    """Say, in place of a manifest, why the tool kept no snapshot (past a cap): the receipt is then audit only."""
    (into / DECLINED).write_text(reason, encoding="utf-8")


def declined(into: Path) -> bool:
    """Whether the tool said it kept no snapshot (and so may have acted without one)."""
    return (into / DECLINED).exists()


async def settle(prepared: Prepared) -> Prepared:
    """What the receipt records once the tool has run: the snapshot it wrote, or, when it wrote none,
    no snapshot at all (audit only, with the reason it gave) and its empty directory removed."""
    saved = into(prepared)
    if saved is None or await asyncio.to_thread((saved / MANIFEST).exists):
        return prepared
    try:
        reason = await asyncio.to_thread((saved / DECLINED).read_text, "utf-8")
    except OSError:
        reason = "the command kept no snapshot"
    await asyncio.to_thread(shutil.rmtree, saved, True)
    return dataclasses.replace(prepared, snapshot_kind=SnapshotKind.NONE, snapshot_path=None, note=reason)
