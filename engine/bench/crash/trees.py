"""A workspace tree as comparable data: every path with its type, permission bits and content.

SQLite databases (`*.db`) are compared by their logical dump, since two runs that store the same
rows may lay out pages differently; everything else by its bytes.
"""

from __future__ import annotations

import hashlib
import os
import sqlite3
import stat
from pathlib import Path


def _dump(path: Path) -> str:
    connection = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return "sqlite:" + hashlib.sha256("\n".join(connection.iterdump()).encode()).hexdigest()
    except sqlite3.DatabaseError as exc:
        return f"unreadable database: {exc}"
    finally:
        connection.close()


def tree(root: Path) -> dict[str, tuple]:
    found: dict[str, tuple] = {}
    for here, dirs, files in os.walk(root):
        for name in [*dirs, *files]:
            full = Path(here) / name
            relative = full.relative_to(root).as_posix()
            seen = full.lstat()
            mode = stat.S_IMODE(seen.st_mode)
            if stat.S_ISLNK(seen.st_mode):
                found[relative] = ("link", os.readlink(full))
            elif stat.S_ISDIR(seen.st_mode):
                found[relative] = ("dir", mode)
            elif name.endswith(".db"):
                found[relative] = ("database", mode, _dump(full))
            else:
                found[relative] = ("file", mode, hashlib.sha256(full.read_bytes()).hexdigest())
    return found


def differences(first: dict[str, tuple], second: dict[str, tuple]) -> list[str]:
    """Paths that differ, each with a word on how."""
    out = []
    for path in sorted(first.keys() | second.keys()):
        a, b = first.get(path), second.get(path)
        if a != b:
            out.append(f"{path}: {'missing' if a is None else 'extra' if b is None else 'differs'}")
    return out
