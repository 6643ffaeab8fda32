"""Undoing a task puts the workspace back exactly: a property test over random operation sequences.

Each example builds a random tree (files with random bytes and modes, directories, maybe a
SQLite database), runs one task of file tools and confined shell commands drawn against a
model of the tree as it changes, undoes the task, and requires every path, type, byte and
permission bit to be as it was. A step that fails is allowed (the task still finishes);
only the restored tree is the property.
"""

from __future__ import annotations

import asyncio
import os
import shlex
import shutil
import sqlite3
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from engine.runtime import Runtime, Switches
from engine.tasks.task import TaskSpec, TaskStatus, scripted
from engine.tools.call import ToolCall
from tests.property import examples
from tests.workspace_tree import tree

NAMES = ("a", "b.txt", "c.bin", "n é.txt", "sub", "deep")
DB_NAMES = ("x.db", "y.db")
FILE_MODES = (0o600, 0o644, 0o640, 0o755, 0o400)
DIR_MODES = (0o700, 0o750, 0o755, 0o775)
TEXT = st.text(st.characters(codec="utf-8", exclude_categories=("Cs", "Cc")) | st.sampled_from("\n\t"), max_size=40)
OPERATIONS = ("write", "append", "delete", "delete_tree", "move", "mkdir",
              "sh_printf", "sh_mkdir", "sh_rm", "sh_sqlite", "sh_chmod")


def _under(path: str, root: str) -> bool:
    return path == root or path.startswith(root + "/")


def _join(parent: str, name: str) -> str:
    return f"{parent}/{name}" if parent else name


class Model:
    """What the workspace should hold after each drawn operation: path → "file", "db" or "dir"."""

    def __init__(self) -> None:
        self.kinds: dict[str, str] = {}

    def of(self, *kinds: str) -> list[str]:
        return sorted(p for p, k in self.kinds.items() if k in kinds)

    def free_name(self, draw, parent: str, names=NAMES) -> str | None:
        free = [_join(parent, n) for n in names if _join(parent, n) not in self.kinds]
        return draw(st.sampled_from(free)) if free else None

    def new_path(self, draw, names=NAMES, nested: bool = True) -> str | None:
        """A path that does not exist yet, in an existing folder, or (when `nested`) in one more new folder."""
        parent = draw(st.sampled_from(["", *self.of("dir")]))
        if nested and draw(st.booleans()):
            parent = self.free_name(draw, parent) or parent
        return self.free_name(draw, parent, names)

    def make_parents(self, path: str) -> None:
        parts = path.split("/")
        for i in range(1, len(parts)):
            self.kinds["/".join(parts[:i])] = "dir"

    def remove(self, path: str) -> None:
        for p in [p for p in self.kinds if _under(p, path)]:
            del self.kinds[p]

    def move(self, src: str, dst: str) -> None:
        self.make_parents(dst)
        for p in [p for p in self.kinds if _under(p, src)]:
            self.kinds[dst + p[len(src):]] = self.kinds.pop(p)


@st.composite
def initial_trees(draw) -> tuple[list[tuple], Model]:
    """Entries to build, parents first: ("dir", path, mode), ("file", path, bytes, mode) or ("db", path, mode)."""
    model, entries = Model(), []
    for _ in range(draw(st.integers(0, 3))):
        if path := model.new_path(draw, nested=False):
            model.kinds[path] = "dir"
            entries.append(("dir", path, draw(st.sampled_from(DIR_MODES))))
    for _ in range(draw(st.integers(1, 5))):
        if path := model.new_path(draw, nested=False):
            model.kinds[path] = "file"
            entries.append(("file", path, draw(st.binary(max_size=64)), draw(st.sampled_from(FILE_MODES))))
    if draw(st.booleans()) and (path := model.new_path(draw, DB_NAMES, nested=False)):
        model.kinds[path] = "db"
        entries.append(("db", path, draw(st.sampled_from(FILE_MODES))))
    return entries, model


def _operation(draw, model: Model) -> ToolCall | None:
    """One call drawn against the model (which it then updates), or None when its kind has nothing to act on."""
    kind = draw(st.sampled_from(OPERATIONS))
    files, dirs = model.of("file", "db"), model.of("dir")
    if kind in ("write", "append"):
        path = draw(st.sampled_from(files)) if files and draw(st.booleans()) else model.new_path(draw)
        if path is None:
            return None
        model.make_parents(path)
        model.kinds[path] = "file"
        return ToolCall(f"fs.{kind}", {"path": path, "content": draw(TEXT)})
    if kind in ("delete", "sh_rm") and files:
        path = draw(st.sampled_from(files))
        model.remove(path)
        if kind == "delete":
            return ToolCall("fs.delete", {"path": path})
        return ToolCall("shell.run", {"command": f"rm -- {shlex.quote(path)}"})
    if kind == "delete_tree" and dirs:
        path = draw(st.sampled_from(dirs))
        model.remove(path)
        return ToolCall("fs.delete", {"path": path})
    if kind == "move" and model.kinds:
        src = draw(st.sampled_from(sorted(model.kinds)))
        dst = model.new_path(draw)
        if dst is None or _under(dst, src):
            return None
        model.move(src, dst)
        return ToolCall("fs.move", {"src": src, "dst": dst})
    if kind in ("mkdir", "sh_mkdir"):
        path = model.new_path(draw)
        if path is None:
            return None
        model.make_parents(path)
        model.kinds[path] = "dir"
        if kind == "mkdir":
            return ToolCall("fs.mkdir", {"path": path})
        return ToolCall("shell.run", {"command": f"mkdir -p -- {shlex.quote(path)}"})
    if kind == "sh_printf":
        path = draw(st.sampled_from(files)) if files and draw(st.booleans()) else model.new_path(draw, nested=False)
        if path is None:
            return None
        model.kinds[path] = "file"
        redirect = draw(st.sampled_from((">", ">>")))
        return ToolCall("shell.run", {"command": f"printf %s {shlex.quote(draw(TEXT))} {redirect} {shlex.quote(path)}"})
    if kind == "sh_sqlite":
        databases = model.of("db")
        path = draw(st.sampled_from(databases)) if databases and draw(st.booleans()) else \
            model.new_path(draw, DB_NAMES, nested=False)
        if path is None:
            return None
        model.kinds[path] = "db"
        value = draw(TEXT).replace("'", "''")
        sql = f"create table if not exists t(v text); insert into t values('{value}');"
        return ToolCall("shell.run", {"command": f"sqlite3 {shlex.quote(path)} {shlex.quote(sql)}"})
    if kind == "sh_chmod" and model.kinds:
        path = draw(st.sampled_from(sorted(model.kinds)))
        mode = draw(st.sampled_from(DIR_MODES if model.kinds[path] == "dir" else FILE_MODES))
        return ToolCall("shell.run", {"command": f"chmod {mode:o} -- {shlex.quote(path)}"})
    return None


@st.composite
def cases(draw) -> tuple[list[tuple], list[ToolCall]]:
    entries, model = draw(initial_trees())
    calls = []
    for _ in range(draw(st.integers(1, 8))):
        if (call := _operation(draw, model)) is not None:
            calls.append(call)
    if not calls:
        calls.append(ToolCall("fs.write", {"path": "fresh.txt", "content": draw(TEXT)}))
    return entries, calls


def build(root: Path, entries: list[tuple]) -> None:
    root.mkdir(mode=0o755)
    for kind, path, *rest in entries:
        target = root / path
        if kind == "dir":
            target.mkdir()
        elif kind == "file":
            target.write_bytes(rest[0])
        else:
            with sqlite3.connect(target) as con:
                con.execute("create table t(v text)")
                con.execute("insert into t values ('seed')")
            con.close()
        os.chmod(target, rest[-1])




async def run_and_undo(run_approving, base: Path, entries: list[tuple], calls: list[ToolCall]) -> None:
    ws = base / "ws"
    build(ws, entries)
    before = tree(ws)
    runtime = await Runtime.open(base / "home", ws, Switches())
    try:
        spec = TaskSpec(goal="random operations", agent=scripted(calls), learn=False)
        task = await run_approving(runtime, spec)
        assert task.status in (TaskStatus.SUCCEEDED, TaskStatus.FAILED), (task.status, task.error)
        event(f"task {task.status.value}")
        undone = await runtime.undo_task(task.id)
        assert undone.ok, undone.as_json()
    finally:
        await runtime.close()
    assert tree(ws) == before


@settings(max_examples=examples(everyday=60, thorough=300), deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(case=cases())
def test_undoing_a_task_restores_the_workspace_tree_exactly(tmp_path, run_approving, case):
    entries, calls = case
    base = Path(tempfile.mkdtemp(dir=tmp_path))
    try:
        asyncio.run(run_and_undo(run_approving, base, entries, calls))
    finally:
        shutil.rmtree(base)
