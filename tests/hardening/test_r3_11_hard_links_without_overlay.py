"""Round three, finding 11: hard links on the route without the overlay.

With `WARDEN_SHELL_OVERLAY=off` a confined command runs on the workspace itself. A shell append
through a hard link to a file outside the workspace changed that file, and undo said `reversed`
while the outside file stayed changed. Now a file whose inode also has names outside the workspace
is given an inode of its own before the command runs (bytes, mode, times kept), so the command can
only ever change the workspace's copy; hard links among the workspace's own names are left alone.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from engine.envs.workspace import overlay
from engine.envs.workspace.sandbox import Sandbox
from engine.journal.receipt import Reversal
from engine.tasks.task import TaskSpec, TaskStatus, scripted
from engine.tools.call import ToolCall

SANDBOX = Sandbox.detect()
pytestmark = pytest.mark.skipif(not SANDBOX.contains_effects, reason=f"no confining sandbox here: {SANDBOX.reason}")
ORIGINAL = b"outside, not Warden's\n"


@pytest.fixture(autouse=True)
def without_overlay(monkeypatch) -> None:
    monkeypatch.setenv(overlay.SWITCH, "off")


@pytest.fixture
def outside_file(tmp_path: Path) -> Path:
    outside = tmp_path / "outside"
    outside.mkdir()
    secret = outside / "secret.txt"
    secret.write_bytes(ORIGINAL)
    os.chmod(secret, 0o640)
    return secret


def shell(command: str) -> TaskSpec:
    return TaskSpec(goal=command, learn=False, agent=scripted([ToolCall("shell.run", {"command": command})]))


async def test_r3_11_a_shell_append_through_a_hard_link_leaves_the_outside_file_alone(
        runtime, run_approving, ws, outside_file) -> None:
    (ws / "deep").mkdir(exist_ok=True)
    os.link(outside_file, ws / "deep" / "h.txt")
    task = await run_approving(runtime, shell("echo changed >> deep/h.txt"))
    assert task.status is TaskStatus.SUCCEEDED, task.error

    assert outside_file.read_bytes() == ORIGINAL
    assert (ws / "deep" / "h.txt").read_bytes() == ORIGINAL + b"changed\n"
    assert os.stat(outside_file).st_nlink == 1
    [receipt] = await runtime.journal.for_task(task.id)
    assert receipt.reversal is Reversal.REVERSIBLE

    assert (await runtime.undo(receipt.id)).reversal is Reversal.REVERSED
    assert (ws / "deep" / "h.txt").read_bytes() == ORIGINAL
    assert outside_file.read_bytes() == ORIGINAL


async def test_r3_11_the_separated_copy_keeps_its_bytes_mode_and_times(runtime, run_approving, ws,
                                                                       outside_file) -> None:
    os.utime(outside_file, ns=(1_000_000_000, 2_000_000_000))
    os.link(outside_file, ws / "h.txt")
    task = await run_approving(runtime, shell("cat h.txt > /dev/null"))
    assert task.status is TaskStatus.SUCCEEDED, task.error
    found = os.stat(ws / "h.txt")
    assert (ws / "h.txt").read_bytes() == ORIGINAL
    assert (found.st_mode & 0o7777, found.st_mtime_ns) == (0o640, 2_000_000_000)
    assert found.st_ino != os.stat(outside_file).st_ino


async def test_r3_11_hard_links_among_workspace_names_are_kept(runtime, run_approving, ws) -> None:
    (ws / "a.txt").write_bytes(b"shared\n")
    os.link(ws / "a.txt", ws / "b.txt")
    task = await run_approving(runtime, shell("echo more >> a.txt"))
    assert task.status is TaskStatus.SUCCEEDED, task.error
    assert (ws / "b.txt").read_bytes() == b"shared\nmore\n"
    assert os.stat(ws / "a.txt").st_ino == os.stat(ws / "b.txt").st_ino
