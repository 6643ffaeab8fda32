"""Reclaiming snapshot space: drop the oldest snapshots past an age or a total-size budget.

A receipt whose snapshot goes becomes `audit_only`, with the reason appended to its summary, so
nobody is promised an undo that can no longer happen. Receipts already undone, being undone, or
taken without a snapshot are left alone, and so is any snapshot a `dispatching` step's write-ahead
names: that call may still be settled into a receipt that needs it. Only directories inside this home's
snapshot store are ever removed: a path the database names elsewhere (a home moved or copied, a row
edited by hand) is left alone and reported, never deleted on the database's word.
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import time
from dataclasses import dataclass
from pathlib import Path

from engine.envs.workspace import blobs
from engine.journal.receipt import Reversal
from engine.store import Store


@dataclass(frozen=True)
class Collected:
    """What one collection removed: the receipts it demoted and the bytes their snapshots held."""

    receipt_ids: tuple[str, ...]
    bytes: int
    outside: tuple[str, ...] = ()  # receipts whose snapshot path lies outside the store: left alone

    def as_json(self) -> dict:
        return {"removed": len(self.receipt_ids), "bytes": self.bytes, "receipt_ids": list(self.receipt_ids),
                "outside_store": list(self.outside)}


def snapshot_bytes(path: Path) -> int:
    """The bytes a snapshot directory holds (its files' sizes, links not followed); 0 when it is gone."""
    total = 0
    for folder, _, files in os.walk(path):
        for name in files:
            try:
                total += os.lstat(os.path.join(folder, name)).st_size
            except OSError:
                continue
    return total


async def _write_ahead_snapshots(store: Store) -> set[str]:
    rows = await store.fetchall("SELECT pending FROM steps WHERE status = 'dispatching' AND pending IS NOT NULL")
    names = set()
    for row in rows:
        prepared = json.loads(row["pending"]).get("prepared") or {}
        if prepared.get("snapshot_path"):
            names.add(Path(prepared["snapshot_path"]).name)
    return names


def _inside(path: str, store_dir: Path) -> bool:
    return os.path.realpath(os.path.dirname(path)) == os.path.realpath(store_dir)


async def collect(store: Store, snapshots: Path, older_than: float | None = None,
                  max_bytes: int | None = None) -> Collected:
    """Remove reversible receipts' snapshots created more than `older_than` seconds ago, or, with
    `max_bytes`, the oldest ones until the snapshots kept (write-ahead ones included) fit in it.

    Each receipt is demoted by compare-and-swap from `reversible` before its snapshot is deleted,
    so an undo that claimed it first wins and its snapshot stays.
    """
    if (older_than is None) == (max_bytes is None):
        raise ValueError("give exactly one of older_than and max_bytes")
    protected = await _write_ahead_snapshots(store)
    rows = await store.fetchall(
        "SELECT id, snapshot_path, created_at FROM receipts WHERE reversal = ? AND snapshot_path IS NOT NULL"
        " ORDER BY created_at, rowid", (Reversal.REVERSIBLE.value,))
    outside = tuple(row["id"] for row in rows if not _inside(row["snapshot_path"], snapshots))
    rows = [row for row in rows if row["id"] not in outside]
    candidates = [row for row in rows if Path(row["snapshot_path"]).name not in protected]
    sizes = {row["id"]: await asyncio.to_thread(snapshot_bytes, Path(row["snapshot_path"])) for row in candidates}
    if older_than is not None:
        cutoff = time.time() - older_than
        chosen = [row for row in candidates if row["created_at"] < cutoff]
        reason = f"snapshot removed by gc: older than {older_than:g}s"
    elif max_bytes is not None:  # one of the two is given (checked above)
        kept = [row for row in rows if Path(row["snapshot_path"]).name in protected]
        total = sum(sizes.values()) + sum([await asyncio.to_thread(snapshot_bytes, Path(row["snapshot_path"]))
                                           for row in kept])
        chosen = []
        for row in candidates:
            if total <= max_bytes:
                break
            chosen.append(row)
            total -= sizes[row["id"]]
        reason = f"snapshot removed by gc: over the {max_bytes}-byte budget"
    removed, freed = [], 0
    for row in chosen:
        demoted = await store.execute(
            "UPDATE receipts SET reversal = ?, snapshot_path = NULL, summary = summary || ? WHERE id = ? AND reversal = ?",
            (Reversal.AUDIT_ONLY.value, f" ({reason})", row["id"], Reversal.REVERSIBLE.value))
        if demoted != 1:
            continue
        await asyncio.to_thread(shutil.rmtree, row["snapshot_path"], True)
        removed.append(row["id"])
        freed += sizes[row["id"]]
    if removed:
        await asyncio.to_thread(blobs.collect, blobs.location(Path(chosen[0]["snapshot_path"]).parent))
    return Collected(tuple(removed), freed, outside)
