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
from engine.envs.workspace import admission, confined, inverse, snapshot
from engine.envs.workspace.confined import EscapeError, SymlinkError
from engine.envs.workspace.fingerprint import fingerprint
from engine.envs.workspace.sandbox import Sandbox
from engine.errors import WardenError
from engine.redaction.redactor import Redactor
from engine.programs.predicates import Form, register_forms

if TYPE_CHECKING:
    from engine.tools.registry import Tool

KIND = "workspace"
LISTING_LIMIT = 200


__all__ = ["KIND", "EscapeError", "SymlinkError", "WorkspaceEnv"]


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

    `hidden` lists what the sandbox hides inside it (Warden's home there, a home directory), as
    components: the file tools never act on those either (`admission`). A fork is a copy in a
    scratch directory that it owns and removes when closed. `redactor` seals secrets in the paths
    its snapshots record (`sealed`); without one they are written as they are.
    """

    kind = KIND
    can_fork = True
    durable = True

    def __init__(self, root: Path, sandbox: Sandbox | None = None, owned: bool = False,
                 redactor: Redactor | None = None) -> None:
        root.mkdir(parents=True, exist_ok=True)
        self.root = root.resolve()
        self.sandbox = sandbox or Sandbox.detect()
        self.redactor = redactor  # the home's: secrets in the paths its snapshots record are sealed with it
        self.hidden = admission.hidden_inside(self.root, self.sandbox.hide)
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
        """Where a workspace path is, normalised by its text (`confined.parts`), the last component not followed.

        Refuses a path that leaves the root or has a symlink among its directories, as the
        tools do. It is a look at the moment, not a guarantee: anything that acts on the
        path walks it again by descriptor (`confined`), never through this `Path`.
        """
        try:
            return confined.check_components(self.root, relative)
        except OSError as exc:  # a name too long for the filesystem
            raise EscapeError(f"not a usable path: {relative!r:.80} ({exc.strerror or exc})") from None

    async def reset(self, spec: Mapping[str, Any]) -> None:
        """The start state a task asks for: each of `files` ({path: text}) written; nothing else is removed."""
        files = spec.get("files") or {}
        if not isinstance(files, dict) or not all(isinstance(v, str) for v in files.values()):
            raise WardenError('workspace "files" must map paths to text')

        def write() -> None:
            for relative, text in files.items():
                try:
                    with confined.parent(self.root, relative, create=True) as (folder, name):
                        confined.replace_file(folder, name, text.encode("utf-8"))
                except OSError as exc:
                    raise WardenError(f"cannot write {relative!r:.80}: {exc.strerror or exc}") from None

        await asyncio.to_thread(write)

    async def observe(self) -> Observation:
        entries, more = await asyncio.to_thread(self._listing)
        head = f"workspace {self.root}: " + (f"first {len(entries)} entries" if more else f"{len(entries)} entries")
        return Observation(KIND, "\n".join([head, *entries]), {"root": str(self.root), "entries": entries,
                                                                "truncated": more}, probe=self._probe)

    def _listing(self) -> tuple[list[str], bool]:
        """Paths breadth first, directories marked with `/`, at most `LISTING_LIMIT`."""
        found: list[str] = []
        queue: list[tuple[str, ...]] = [()]
        while queue:
            folder = queue.pop(0)
            try:  # by descriptor, never through a symlink: a swapped directory cannot list the outside
                handle = confined.open_dir(self.root, "/".join(folder) or ".", folder)
            except (OSError, EscapeError):
                continue
            try:
                with os.scandir(handle) as entries:
                    children = sorted(((e.name, e.is_dir(follow_symlinks=False)) for e in entries))
            except OSError:
                continue
            finally:
                os.close(handle)
            for name, is_dir in children:
                if len(found) == LISTING_LIMIT:
                    return found, True
                found.append("/".join((*folder, name)) + ("/" if is_dir else ""))
                if is_dir:
                    queue.append((*folder, name))
        return found, False

    async def _probe(self, predicate: dict) -> bool:
        from engine.programs.predicates import holds

        return await holds(predicate, self)

    async def fork(self, scratch: Path) -> "WorkspaceEnv":
        scratch.mkdir(parents=True, exist_ok=True)
        into = Path(tempfile.mkdtemp(prefix="fork-", dir=scratch))
        await asyncio.to_thread(snapshot.copy_workspace, self.root, into)
        return WorkspaceEnv(into, self.sandbox, owned=True, redactor=self.redactor)

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
            return confined.lexists(self.root, body) == (form == "exists")
        if form == "text":
            try:
                data = confined.read_regular(self.root, body["path"])
            except EscapeError:
                return False
            if data is None:
                return False
            text = data.decode("utf-8", errors="replace")
            return text == body["equals"] if "equals" in body else body["contains"] in text
        raise WardenError(f"a workspace cannot check {form!r}")

    async def snapshot(self, targets: list[str], into: Path) -> str:
        return await asyncio.to_thread(snapshot.take, self, targets, into)

    async def restore(self, saved: Path) -> list[str]:
        return await asyncio.to_thread(snapshot.restore, self, saved)

    async def record_inverse(self, reverser: str, args: dict[str, Any], into: Path) -> bool:
        """Record the file call's inverse instead of a copy (`inverse`); False when it needs a copy."""
        return await asyncio.to_thread(inverse.record, self.root, reverser, args, into, self.redactor)

    async def invert(self, saved: Path, left: dict[str, Any] | None) -> list[str] | None:
        return await asyncio.to_thread(inverse.invert, self.root, saved, left, self.redactor)

    def snapshot_targets(self, saved: Path) -> list[str]:
        return snapshot.paths(saved, self.redactor)

    async def fingerprint(self, targets: list[str]) -> dict[str, list | None]:
        return await asyncio.to_thread(fingerprint, self.root, targets)

    def overlaps(self, first: str, second: str) -> bool:
        """Whether restoring one path could change the other.

        Compared normalised (`x/../b.txt` is `b.txt`; an absolute path inside the root is
        its relative path), and, where both exist, by inode: one file under two names, or
        a directory holding the other under another name, overlaps too. A path that
        cannot be normalised overlaps everything (refusing an undo is the safe answer).
        """
        try:
            a, b = confined.normal(self.root, first), confined.normal(self.root, second)
        except EscapeError:
            return True
        if snapshot.overlaps(a, b):
            return True
        mine, theirs = confined.identity(self.root, a), confined.identity(self.root, b)
        if not mine or not theirs:
            return False
        return mine[-1] in theirs or theirs[-1] in mine
