"""Reversers beyond restore: an environment that can undo some calls by their inverse operation.

The journal only dispatches. Before a call it offers the tool's `reverser` and the call's arguments to
`record_inverse`, which writes what the inverse needs into the snapshot directory (no copy of the data)
or declines, and the journal then takes a copy snapshot. To reverse, `invert` runs the inverse a
directory records, after checking its precondition, or answers None for a copy snapshot to restore.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Protocol, runtime_checkable


@runtime_checkable
class Invertible(Protocol):
    async def record_inverse(self, reverser: str, args: dict[str, Any], into: Path) -> bool:
        """Write the call's inverse into the new directory `into`; False (nothing written) when it has none."""
        ...

    async def invert(self, saved: Path, left: dict[str, Any] | None) -> list[str] | None:
        """Run the inverse `saved` records, given what the call left (its seal) when known; the paths it put
        back, or None when `saved` holds no inverse. A precondition that fails raises a `WardenError`."""
        ...
