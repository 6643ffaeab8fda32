"""The workspace environment: one directory that shell and file tools may touch, and nothing outside it."""

from __future__ import annotations

import shutil
from pathlib import Path

from engine.errors import WardenError


class EscapeError(WardenError):
    """A path points outside the workspace, by `..`, an absolute path or a symlink."""


class WorkspaceEnv:
    """A confined directory; `resolve` is the only way a tool turns an argument into a path."""

    kind = "workspace"

    def __init__(self, root: Path) -> None:
        root.mkdir(parents=True, exist_ok=True)
        self.root = root.resolve()

    def resolve(self, relative: str) -> Path:
        if not isinstance(relative, str) or not relative or "\x00" in relative:
            raise EscapeError(f"not a usable path: {relative!r}")
        candidate = (self.root / relative).resolve()
        if candidate != self.root and not candidate.is_relative_to(self.root):
            raise EscapeError(f"{relative!r} escapes the workspace {self.root}")
        return candidate

    def exists(self, relative: str) -> bool:
        """Raises `EscapeError` for a path outside: it neither exists nor is absent here."""
        return self.resolve(relative).exists()

    def read_text(self, relative: str) -> str | None:
        try:
            path = self.resolve(relative)
        except EscapeError:
            return None
        if not path.is_file():
            return None
        return path.read_text(encoding="utf-8", errors="replace")

    def copy_to(self, destination: Path) -> "WorkspaceEnv":
        """A throwaway copy, for verifying a program without touching the real workspace."""
        shutil.copytree(self.root, destination, symlinks=True, dirs_exist_ok=True)
        return WorkspaceEnv(destination)
