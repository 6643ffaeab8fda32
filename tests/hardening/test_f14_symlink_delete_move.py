"""Finding 14: deleting or moving a symlink acted on its target.

An approved "delete dlink" (dlink -> a real directory) removed the real directory. The
file tools now act on a link itself, wherever it points (inside, outside, nowhere):
delete removes the link, move moves the link, write replaces the link with a file, and
append to a link is refused. Undo puts the link back as a link.
"""

from __future__ import annotations

import os

import pytest

from engine.envs.workspace import WorkspaceEnv
from engine.envs.workspace.files import FILE_TOOLS
from engine.errors import WardenError
from engine.tasks.task import TaskSpec, TaskStatus, scripted
from engine.tools.call import ToolCall

KINDS = ["inside dir", "inside file", "outside dir", "outside file", "dangling"]


def one(tool: str, **args) -> TaskSpec:
    return TaskSpec(goal=f"{tool} {args}", agent=scripted((ToolCall(tool, args),)))


@pytest.fixture
def link(ws, tmp_path, runtime):
    """`link(kind)`: makes ws/link pointing at a fresh target of that kind; returns (target, fingerprint())."""

    def make(kind: str):
        outside = tmp_path / "outside"
        outside.mkdir(exist_ok=True)
        base = ws if kind.startswith("inside") else outside
        if kind.endswith("dir"):
            target = base / "real"
            target.mkdir()
            (target / "keep.txt").write_bytes(b"keep\n")
        elif kind.endswith("file"):
            target = base / "real.txt"
            target.write_bytes(b"keep\n")
        else:
            target = ws / "nowhere"
        (ws / "link").symlink_to(target)

        def fingerprint():
            if not os.path.lexists(target):
                return None
            if target.is_dir():
                return sorted((p.name, p.read_bytes()) for p in target.iterdir())
            return target.read_bytes()

        return target, fingerprint

    return make


def is_link_to(path, target) -> bool:
    return path.is_symlink() and os.readlink(path) == str(target)


@pytest.mark.parametrize("kind", KINDS)
async def test_f14_delete_removes_the_link_not_its_target(runtime, run_approving, ws, link, kind):
    target, fingerprint = link(kind)
    before = fingerprint()
    task = await run_approving(runtime, one("fs.delete", path="link"))
    assert task.status is TaskStatus.SUCCEEDED, task.error
    assert not os.path.lexists(ws / "link")
    assert fingerprint() == before

    [receipt] = await runtime.journal.for_task(task.id)
    await runtime.undo(receipt.id)
    assert is_link_to(ws / "link", target) and fingerprint() == before


@pytest.mark.parametrize("kind", KINDS)
async def test_f14_move_moves_the_link_not_its_target(runtime, run_approving, ws, link, kind):
    target, fingerprint = link(kind)
    before = fingerprint()
    task = await run_approving(runtime, one("fs.move", src="link", dst="moved/link2"))
    assert task.status is TaskStatus.SUCCEEDED, task.error
    assert not os.path.lexists(ws / "link") and is_link_to(ws / "moved" / "link2", target)
    assert fingerprint() == before

    [receipt] = await runtime.journal.for_task(task.id)
    await runtime.undo(receipt.id)
    assert is_link_to(ws / "link", target) and not os.path.lexists(ws / "moved")
    assert fingerprint() == before


@pytest.mark.parametrize("kind", ["inside file", "outside file", "dangling"])
async def test_f14_write_replaces_the_link_with_a_file(runtime, run_approving, ws, link, kind):
    target, fingerprint = link(kind)
    before = fingerprint()
    task = await run_approving(runtime, one("fs.write", path="link", content="mine\n"))
    assert task.status is TaskStatus.SUCCEEDED, task.error
    assert not (ws / "link").is_symlink() and (ws / "link").read_bytes() == b"mine\n"
    assert fingerprint() == before

    [receipt] = await runtime.journal.for_task(task.id)
    await runtime.undo(receipt.id)
    assert is_link_to(ws / "link", target) and fingerprint() == before


@pytest.mark.parametrize("kind", KINDS)
async def test_f14_append_to_a_link_is_refused_in_one_line(runtime, run_approving, ws, link, kind):
    target, fingerprint = link(kind)
    before = fingerprint()
    task = await run_approving(runtime, one("fs.append", path="link", content="more\n"))
    assert task.status is TaskStatus.FAILED
    assert "symlink" in task.error and "\n" not in task.error and "internal error" not in task.error
    assert is_link_to(ws / "link", target) and fingerprint() == before


@pytest.mark.parametrize("kind", ["inside dir", "outside dir"])
async def test_f14_a_path_through_a_linked_directory_is_refused(runtime, run_approving, ws, link, kind):
    _, fingerprint = link(kind)
    before = fingerprint()
    for spec in (one("fs.write", path="link/new.txt", content="x"), one("fs.delete", path="link/keep.txt"),
                 one("fs.mkdir", path="link/sub"), one("fs.move", src="link/keep.txt", dst="got.txt")):
        task = await run_approving(runtime, spec)
        assert task.status is TaskStatus.FAILED and "symlink" in task.error and "\n" not in task.error
    assert fingerprint() == before and not (ws / "got.txt").exists()


async def test_f14_mkdir_on_a_link_is_refused(ws, link):
    """Through the tool itself: a scripted agent skips this step, since "link exists" already holds."""
    target, fingerprint = link("outside dir")
    [mkdir] = [tool for tool in FILE_TOOLS if tool.name == "fs.mkdir"]
    with pytest.raises(WardenError, match="symlink") as refused:
        await mkdir.run(WorkspaceEnv(ws), {"path": "link"})
    assert "\n" not in str(refused.value)
    assert is_link_to(ws / "link", target) and fingerprint() == [("keep.txt", b"keep\n")]
