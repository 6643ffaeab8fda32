"""What a screen environment answers to the journal: it holds nothing Warden can capture or restore.

A browser page, a desktop or a phone changes state that lives elsewhere (a site, an app),
so its snapshots are empty and its receipts audit only. Any two targets are taken to
overlap, so an undo that would have to reason about them is refused rather than guessed.
"""

from __future__ import annotations

from pathlib import Path


class Unrestorable:
    async def snapshot(self, targets: list[str], into: Path) -> None:
        return None

    async def restore(self, snapshot: Path) -> list[str]:
        return []

    def snapshot_targets(self, snapshot: Path) -> list[str]:
        return []

    def overlaps(self, first: str, second: str) -> bool:
        return True

    async def fingerprint(self, targets: list[str]) -> None:
        return None
