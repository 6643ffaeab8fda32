"""Finding 8: hard links wrote outside the workspace.

`ln <outside file> h.txt` put an outside file's inode in the workspace; fs.write and
fs.append (both rated safe) wrote through it, and undo then marked both receipts
reversed while the outside file stayed changed. Now a write replaces the file (a new
inode renamed over the name) and an append to a file with more than one link copies it
first, so the link is broken and the outside file is never changed.
"""

from __future__ import annotations

import os
import stat

import pytest

from engine.journal.receipt import Reversal
from engine.tasks.task import TaskSpec, TaskStatus, scripted
from engine.tools.call import ToolCall

ORIGINAL = b"outside, not Warden's\n"


def step(tool: str, path: str, content: str) -> TaskSpec:
    return TaskSpec(goal=f"{tool} {path}", agent=scripted((ToolCall(tool, {"path": path, "content": content}),)))


@pytest.fixture
def outside_file(tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    secret = outside / "secret.txt"
    secret.write_bytes(ORIGINAL)
    return secret


@pytest.mark.parametrize("tool, after", [("fs.write", b"changed\n"), ("fs.append", ORIGINAL + b"changed\n")])
async def test_f08_write_and_append_to_a_hard_link_leave_the_outside_file_alone(
        runtime, run_approving, ws, outside_file, tool, after):
    os.link(outside_file, ws / "h.txt")
    task = await run_approving(runtime, step(tool, "h.txt", "changed\n"))
    assert task.status is TaskStatus.SUCCEEDED, task.error
    assert outside_file.read_bytes() == ORIGINAL
    assert (ws / "h.txt").read_bytes() == after
    assert os.stat(outside_file).st_nlink == 1 and (ws / "h.txt").stat().st_nlink == 1

    [receipt] = await runtime.journal.for_task(task.id)
    assert (await runtime.undo(receipt.id)).reversal is Reversal.REVERSED
    assert (ws / "h.txt").read_bytes() == ORIGINAL
    assert outside_file.read_bytes() == ORIGINAL


async def test_f08_write_then_append_through_a_hard_link_then_undo_both(runtime, run_approving, ws, outside_file):
    """The finding's sequence: both steps, then both undone; the outside file never moves."""
    os.link(outside_file, ws / "h.txt")
    first = await run_approving(runtime, step("fs.append", "h.txt", "one\n"))
    second = await run_approving(runtime, step("fs.write", "h.txt", "two\n"))
    assert (first.status, second.status) == (TaskStatus.SUCCEEDED, TaskStatus.SUCCEEDED)
    assert outside_file.read_bytes() == ORIGINAL and (ws / "h.txt").read_bytes() == b"two\n"
    [appended] = await runtime.journal.for_task(first.id)
    [written] = await runtime.journal.for_task(second.id)
    await runtime.undo(written.id)
    assert (ws / "h.txt").read_bytes() == ORIGINAL + b"one\n"
    await runtime.undo(appended.id)
    assert (ws / "h.txt").read_bytes() == ORIGINAL
    assert outside_file.read_bytes() == ORIGINAL


async def test_f08_two_hard_linked_names_inside_the_workspace_are_separated_by_a_change(runtime, run_approving, ws):
    (ws / "a.txt").write_bytes(b"shared\n")
    os.link(ws / "a.txt", ws / "b.txt")
    task = await run_approving(runtime, step("fs.append", "a.txt", "more\n"))
    assert task.status is TaskStatus.SUCCEEDED, task.error
    assert (ws / "a.txt").read_bytes() == b"shared\nmore\n" and (ws / "b.txt").read_bytes() == b"shared\n"


async def test_f08_a_write_replaces_the_file_atomically_and_keeps_its_mode(runtime, run_approving, ws):
    target = ws / "script.sh"
    target.write_bytes(b"#!/bin/sh\n")
    target.chmod(0o751)
    before = target.stat().st_ino
    task = await run_approving(runtime, step("fs.write", "script.sh", "#!/bin/sh\necho hi\n"))
    assert task.status is TaskStatus.SUCCEEDED, task.error
    assert target.read_bytes() == b"#!/bin/sh\necho hi\n"
    assert stat.S_IMODE(target.stat().st_mode) == 0o751
    assert target.stat().st_ino != before  # a new file renamed over the name, never rewritten in place
    assert not [p.name for p in ws.iterdir() if p.name.startswith(".warden-")]  # no temporary left behind
