"""Finding 4a: undo discarded later changes made through another spelling of the same path.

A later write to b.txt through `x/../b.txt` or an absolute path was not seen as the
same path, so undoing the earlier receipt silently threw the later change away. Paths
are now compared normalised (and by inode where both exist), snapshot manifests store
the normalised path, and a path through a symlinked directory is refused outright.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from engine.envs.workspace import WorkspaceEnv
from engine.journal.journal import UndoError
from engine.tasks.task import TaskSpec, TaskStatus, scripted
from engine.tools.call import ToolCall


def writing(path: str, content: str) -> TaskSpec:
    return TaskSpec(goal=f"Write {path}", agent=scripted((ToolCall("fs.write", {"path": path, "content": content}),)))


SPELLINGS = {
    "dotdot": ("b.txt", "x/../b.txt"),
    "dot": ("b.txt", "./b.txt"),
    "trailing slash": ("b.txt", "b.txt/"),
    "double slash": ("dir/b.txt", "dir//b.txt"),
    "dotdot in a directory": ("dir/b.txt", "dir/sub/../b.txt"),
    "absolute": ("b.txt", "{ws}/b.txt"),
}


@pytest.mark.parametrize("spelling", SPELLINGS)
async def test_f04_undo_refuses_when_a_later_write_used_another_spelling(runtime, run_approving, ws, spelling):
    first_path, second_path = SPELLINGS[spelling]
    second_path = second_path.format(ws=ws.resolve())
    first = await run_approving(runtime, writing(first_path, "first\n"))
    second = await run_approving(runtime, writing(second_path, "second\n"))  # the gate asks about an absolute path
    assert (first.status, second.status) == (TaskStatus.SUCCEEDED, TaskStatus.SUCCEEDED), second.error
    [earlier] = await runtime.journal.for_task(first.id)
    [later] = await runtime.journal.for_task(second.id)

    with pytest.raises(UndoError, match=later.id):
        await runtime.undo(earlier.id)
    assert (ws / first_path).read_text() == "second\n"

    await runtime.undo(later.id)
    assert (ws / first_path).read_text() == "first\n"
    await runtime.undo(earlier.id)
    assert not (ws / first_path).exists()


async def test_f04_a_manifest_stores_the_normalised_path(runtime, run, ws):
    task = await run(runtime, writing("x/../dir//./b.txt", "text\n"))
    assert task.status is TaskStatus.SUCCEEDED, task.error
    [receipt] = await runtime.journal.for_task(task.id)
    manifest = json.loads((Path(receipt.snapshot_path) / "manifest.json").read_text())
    assert [entry["path"] for entry in manifest] == ["dir/b.txt"]


async def test_f04_a_write_through_a_symlinked_directory_is_refused_so_the_earlier_undo_stays_exact(runtime, run, ws):
    (ws / "sub").mkdir()
    (ws / "link").symlink_to("sub")
    first = await run(runtime, writing("sub/b.txt", "first\n"))
    second = await run(runtime, writing("link/b.txt", "second\n"))
    assert first.status is TaskStatus.SUCCEEDED
    assert second.status is TaskStatus.FAILED and "symlink" in second.error and "\n" not in second.error
    assert (ws / "sub" / "b.txt").read_text() == "first\n"
    [earlier] = await runtime.journal.for_task(first.id)
    await runtime.undo(earlier.id)
    assert not (ws / "sub" / "b.txt").exists()


def test_f04_overlaps_compares_normalised_paths_and_inodes(tmp_path):
    env = WorkspaceEnv(tmp_path / "ws")
    (env.root / "dir").mkdir()
    (env.root / "b.txt").write_text("b")
    os.link(env.root / "b.txt", env.root / "h.txt")
    assert env.overlaps("x/../b.txt", "b.txt")
    assert env.overlaps("./dir//c.txt/", "dir/c.txt")
    assert env.overlaps("dir", "dir/sub/../c.txt")
    assert env.overlaps(str(env.root / "b.txt"), "b.txt")
    assert env.overlaps("b.txt", "h.txt")  # one file under two names
    assert env.overlaps(".", "anything")
    assert not env.overlaps("b.txt", "dir/b.txt")
    assert not env.overlaps("dir/../c.txt", "dir/c.txt")
