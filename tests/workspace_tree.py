"""The whole of a workspace as comparable data, for tests that undo something and expect it exactly back."""

from __future__ import annotations

import os
import stat
from pathlib import Path


def tree(root: Path) -> dict[str, tuple]:
    """Every entry under the workspace (and the workspace itself): its type, bytes (or link target) and mode."""
    found = {}
    for folder, dirnames, filenames in os.walk(root):
        for name in [".", *dirnames, *filenames] if folder == str(root) else [*dirnames, *filenames]:
            path = os.path.normpath(os.path.join(folder, name))
            info = os.lstat(path)
            if stat.S_ISDIR(info.st_mode):
                content = None
            elif stat.S_ISLNK(info.st_mode):
                content = os.readlink(path)
            else:
                content = Path(path).read_bytes()
            found[os.path.relpath(path, root)] = (stat.S_IFMT(info.st_mode), content, stat.S_IMODE(info.st_mode))
    return found
