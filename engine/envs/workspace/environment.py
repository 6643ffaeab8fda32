"""The workspace environment: one directory that shell and file tools may touch, and nothing outside it."""

from __future__ import annotations

import asyncio
import os
import shutil
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine.envs.environment import Observation
from engine.envs.workspace import snapshot
from engine.envs.workspace.sandbox import Sandbox
from engine.errors import WardenError
from engine.programs.predicates import Form, register_forms

if TYPE_CHECKING:
    from engine.tools.registry import Tool

KIND = "workspace"
LISTING_LIMIT = 200


class EscapeError(WardenError):
    """A path points outside the workspace, by `..`, an absolute path or a symlink."""


def _text_body(body: Any) -> bool:
    return (isinstance(body, dict) and isinstance(body.get("path"), str)
            and any(isinstance(body.get(key), str) for key in ("contains", "equals")))


register_forms(KIND, (
    Form("exists", "a workspace path", lambda body: isinstance(body, str)),
    Form("absent", "a workspace path", lambda body: isinstance(body, str)),
    Form("text", "{path, contains|equals}", _text_body),
))


class WorkspaceEnv:
    """A confined directory; `resolve` is the only way a tool turns an argument into a path.

    A fork is a copy in a scratch directory that it owns and removes when closed.
    """

    kind = KIND
    can_fork = True

    def __init__(self, root: Path, sandbox: Sandbox | None = None, owned: bool = False) -> None:
        root.mkdir(parents=True, exist_ok=True)
        self.root = root.resolve()
        self.sandbox = sandbox or Sandbox.detect()
        self._owned = owned
        from engine.envs.workspace.files import FILE_TOOLS
        from engine.envs.workspace.shell import shell_tool

        self._tools = (*FILE_TOOLS, shell_tool(self.sandbox))

    @property
    def identity(self) -> str:
        return f"{KIND}:{self.root}"

    def tools(self) -> Sequence["Tool"]:
        return self._tools

    def resolve(self, relative: str) -> Path:
        if not isinstance(relative, str) or not relative or "\x00" in relative:
            raise EscapeError(f"not a usable path: {relative!r}")
        try:
            candidate = (self.root / relative).resolve()
        except (RuntimeError, OSError) as exc:  # a symlink loop, a name too long for the filesystem
            raise EscapeError(f"not a usable path: {relative!r:.80} ({exc})") from None
        if candidate != self.root and not candidate.is_relative_to(self.root):
            raise EscapeError(f"{relative!r} escapes the workspace {self.root}")
        return candidate

    async def reset(self, spec: Mapping[str, Any]) -> None:
        """The start state a task asks for: each of `files` ({path: text}) written; nothing else is removed."""
        files = spec.get("files") or {}
        if not isinstance(files, dict) or not all(isinstance(v, str) for v in files.values()):
            raise WardenError('workspace "files" must map paths to text')

        def write() -> None:
            for relative, text in files.items():
                target = self.resolve(relative)
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_text(text, encoding="utf-8")

        await asyncio.to_thread(write)

    async def observe(self) -> Observation:
        entries, more = await asyncio.to_thread(self._listing)
        head = f"workspace {self.root}: " + (f"first {len(entries)} entries" if more else f"{len(entries)} entries")
        return Observation(KIND, "\n".join([head, *entries]), {"root": str(self.root), "entries": entries,
                                                                "truncated": more}, probe=self._probe)

    def _listing(self) -> tuple[list[str], bool]:
        """Paths breadth first, directories marked with `/`, at most `LISTING_LIMIT`."""
        found, queue = [], [self.root]
        while queue:
            folder = queue.pop(0)
            try:
                children = sorted(os.scandir(folder), key=lambda e: e.name)
            except OSError:
                continue
            for child in children:
                if len(found) == LISTING_LIMIT:
                    return found, True
                relative = os.path.relpath(child.path, self.root)
                is_dir = child.is_dir(follow_symlinks=False)
                found.append(relative + ("/" if is_dir else ""))
                if is_dir:
                    queue.append(Path(child.path))
        return found, False

    async def _probe(self, predicate: dict) -> bool:
        from engine.programs.predicates import holds

        return await holds(predicate, self)

    async def fork(self, scratch: Path) -> "WorkspaceEnv":
        scratch.mkdir(parents=True, exist_ok=True)
        into = Path(tempfile.mkdtemp(prefix="fork-", dir=scratch))
        await asyncio.to_thread(shutil.copytree, self.root, into, symlinks=True, dirs_exist_ok=True,
                                copy_function=snapshot.copy_entry)
        return WorkspaceEnv(into, self.sandbox, owned=True)

    async def close(self) -> None:
        if self._owned:
            await asyncio.to_thread(shutil.rmtree, self.root, True)

    async def check(self, form: str, body: Any) -> bool:
        """One leaf predicate; a path the filesystem cannot look at is a target it cannot see."""
        try:
            return await asyncio.to_thread(self._check, form, body)
        except OSError as exc:
            raise EscapeError(f"cannot look at {body!r:.80}: {exc.strerror or exc}") from None

    def _check(self, form: str, body: Any) -> bool:
        if form in ("exists", "absent"):
            path = self.resolve(body)
            return (path.exists() or path.is_symlink()) == (form == "exists")
        if form == "text":
            try:
                path = self.resolve(body["path"])
            except EscapeError:
                return False
            if not path.is_file():
                return False
            text = path.read_text(encoding="utf-8", errors="replace")
            return text == body["equals"] if "equals" in body else body["contains"] in text
        raise WardenError(f"a workspace cannot check {form!r}")

    async def snapshot(self, targets: list[str], into: Path) -> None:
        await asyncio.to_thread(snapshot.take, self, targets, into)

    async def restore(self, saved: Path) -> list[str]:
        return await asyncio.to_thread(snapshot.restore, self, saved)

    def snapshot_targets(self, saved: Path) -> list[str]:
        return snapshot.paths(saved)

    def overlaps(self, first: str, second: str) -> bool:
        return snapshot.overlaps(first, second)
