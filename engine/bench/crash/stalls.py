"""Planted crash points: at a chosen step an operator (or the step boundary after it) stops, says so in a
marker naming its process, and sleeps until the bench kills that process. Each stall fires once.

`before` stops mid-step with nothing done, `partial` after a partial effect, `after` once the effect is
done and logged but before the step's receipt; `boundary` stops right after the step is marked done.
"""

from __future__ import annotations

import asyncio
import json
import os
from pathlib import Path

MID = ("before", "partial", "after")
BOUNDARY = "boundary"
WHEN = (*MID, BOUNDARY)
STALL_S = 600.0


def plant(control: Path, key: str, when: str) -> None:
    folder = control / "stalls"
    folder.mkdir(parents=True, exist_ok=True)
    (control / "fired").mkdir(exist_ok=True)
    (folder / f"{key}.{when}").write_text(when, encoding="utf-8")


def fire(control: Path, key: str, when: str) -> bool:
    """Whether a stall is planted here; taking it (an atomic rename into `fired/`, which `plant` made)
    makes sure it fires only once."""
    name = f"{key}.{when}"
    try:
        os.rename(control / "stalls" / name, control / "fired" / name)
    except FileNotFoundError:
        return False
    return True


async def hold(control: Path, key: str, when: str) -> None:
    """Leave a marker naming this process, then wait to be killed."""
    folder = control / "marks"
    folder.mkdir(exist_ok=True)
    staged = folder / f".{key}.{when}.{os.getpid()}"
    staged.write_text(json.dumps({"key": key, "when": when, "pid": os.getpid()}), encoding="utf-8")
    os.rename(staged, folder / f"{key}.{when}.json")
    await asyncio.sleep(STALL_S)


def marks(control: Path) -> list[dict]:
    """Markers not yet taken; taking one removes it."""
    folder = control / "marks"
    if not folder.is_dir():
        return []
    found = []
    for path in sorted(folder.glob("*.json")):
        try:
            found.append(json.loads(path.read_text(encoding="utf-8")))
        except (OSError, json.JSONDecodeError):
            continue
        path.unlink()
    return found
