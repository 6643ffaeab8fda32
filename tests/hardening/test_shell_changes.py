"""A confined shell command's receipt lists exactly what it changed, and undo puts exactly that back.

The command runs on an overlay of the workspace; what it wrote is learned from the overlay's upper
layer, snapshotted from the still untouched workspace, and only then applied. Where this machine
cannot mount the overlay the tests say so and skip: the fallback (a snapshot of the whole
workspace) is tested on its own.
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from engine.envs.workspace import overlay
from engine.envs.workspace.environment import WorkspaceEnv
from engine.envs.workspace.sandbox import Sandbox
from engine.envs.workspace.snapshot import paths as snapshot_paths
from engine.journal.receipt import Reversal
from engine.runtime import Runtime, Switches
from engine.tasks.task import TaskSpec, TaskStatus, scripted
from engine.tools.call import ToolCall
from tests.workspace_tree import tree

SANDBOX = Sandbox.detect()
needs_sandbox = pytest.mark.skipif(not SANDBOX.contains_effects, reason=f"no confining sandbox here: {SANDBOX.reason}")


def build(root: Path) -> None:
    (root / "deep" / "inner").mkdir(parents=True)
    (root / "notes.txt").write_text("first line\n")
    (root / "gone.txt").write_text("to be removed\n")
    (root / "deep" / "inner" / "leaf.txt").write_text("leaf\n")
    (root / "deep" / "keep.bin").write_bytes(bytes(range(256)))
    os.chmod(root / "deep" / "keep.bin", 0o640)




@pytest.fixture
def overlay_route(tmp_path: Path) -> None:
    if not SANDBOX.contains_effects:
        pytest.skip(f"no confining sandbox here: {SANDBOX.reason}")
    problem = overlay.unavailable(SANDBOX, tmp_path)
    if problem is not None:
        pytest.skip(f"this machine cannot overlay the workspace: {problem}")


async def run_commands(base: Path, commands: list[str], run_approving) -> tuple[Runtime, list]:
    runtime = await Runtime.open(base / "home", base / "ws", Switches())
    calls = [ToolCall("shell.run", {"command": command}) for command in commands]
    done = await run_approving(runtime, TaskSpec(goal="shell", agent=scripted(calls), learn=False))
    assert done.status is TaskStatus.SUCCEEDED, done.error
    return runtime, [r for r in await runtime.journal.for_task(done.id) if r.call.tool == "shell.run"]


CASES = {
    "modify": ("echo more >> notes.txt", {"notes.txt"}),
    "create": ("echo new > fresh.txt", {"fresh.txt"}),
    "delete": ("rm gone.txt", {"gone.txt"}),
    "mkdir": ("mkdir made", {"made"}),
    "chmod a file": ("chmod 600 notes.txt", {"notes.txt"}),
    "chmod a directory": ("chmod 700 deep/inner", {"deep/inner"}),
    "a directory replaced by a file": ("rm -r deep && echo flat > deep", {"deep"}),
    "a file replaced by a directory": ("rm notes.txt && mkdir notes.txt && echo in > notes.txt/x", {"notes.txt"}),
    "a directory emptied and made again": ("rm -r deep/inner && mkdir deep/inner", {"deep/inner"}),
    "nested creation in a new directory": ("mkdir -p new/a/b && echo x > new/a/b/c.txt", {"new"}),
    "nested creation in an old directory": ("mkdir -p deep/a/b && echo x > deep/a/b/c.txt", {"deep/a"}),
    "a nested modification": ("echo more >> deep/inner/leaf.txt", {"deep/inner/leaf.txt"}),
    "a move": ("mv notes.txt deep/moved.txt", {"notes.txt", "deep/moved.txt"}),
    "several at once": ("rm gone.txt; echo x > deep/new.txt; chmod 755 deep/keep.bin",
                        {"gone.txt", "deep/new.txt", "deep/keep.bin"}),
}


@pytest.mark.parametrize("name", list(CASES))
async def test_the_receipt_lists_exactly_what_the_command_changed_and_undo_restores_it(tmp_path, run_approving,
                                                                                    overlay_route, name):
    command, expected = CASES[name]
    build(tmp_path / "ws")
    before = tree(tmp_path / "ws")
    runtime, receipts = await run_commands(tmp_path, [command], run_approving)
    try:
        (receipt,) = receipts
        assert receipt.reversal is Reversal.REVERSIBLE
        assert set(snapshot_paths(Path(receipt.snapshot_path))) == expected
        detail = await runtime.receipt_detail(receipt.id)
        assert {entry.path for entry in detail.snapshot} == expected
        assert tree(tmp_path / "ws") != before
        await runtime.undo(receipt.id)
    finally:
        await runtime.close()
    assert tree(tmp_path / "ws") == before


async def test_a_command_that_changes_nothing_leaves_nothing_to_restore(tmp_path, run_approving, overlay_route):
    build(tmp_path / "ws")
    before = tree(tmp_path / "ws")
    runtime, receipts = await run_commands(tmp_path, ["cat notes.txt > /dev/null"], run_approving)
    try:
        (receipt,) = receipts
        assert snapshot_paths(Path(receipt.snapshot_path)) == []
        await runtime.undo(receipt.id)
    finally:
        await runtime.close()
    assert tree(tmp_path / "ws") == before


async def test_the_tool_says_what_changed(tmp_path, run_approving, overlay_route):
    build(tmp_path / "ws")
    env = WorkspaceEnv(tmp_path / "ws", SANDBOX)
    shell = next(tool for tool in env.tools() if tool.name == "shell.run")
    assert shell.snapshots_itself
    output = await shell.run(env, {"command": "echo x >> notes.txt && rm gone.txt && mkdir m"})
    assert sorted(output.data["changed"]) == ["gone.txt", "m", "notes.txt"]
    assert (tmp_path / "ws" / "notes.txt").read_text() == "first line\nx\n"
    assert not (tmp_path / "ws" / "gone.txt").exists() and (tmp_path / "ws" / "m").is_dir()


async def test_undo_of_the_second_of_two_commands_restores_the_first_ones_state(tmp_path, run_approving,
                                                                              overlay_route):
    build(tmp_path / "ws")
    runtime, receipts = await run_commands(tmp_path, ["echo a >> notes.txt", "echo b >> notes.txt && rm -r deep"],
                                           run_approving)
    try:
        first, second = receipts
        assert set(snapshot_paths(Path(second.snapshot_path))) == {"deep", "notes.txt"}
        await runtime.undo(second.id)
        after_first = (tmp_path / "ws" / "notes.txt").read_text()
    finally:
        await runtime.close()
    assert after_first == "first line\na\n"
    assert (tmp_path / "ws" / "deep" / "inner" / "leaf.txt").read_text() == "leaf\n"


async def test_a_symlink_to_the_root_made_by_the_command_stays_a_link_and_writes_through_it_change_nothing_outside(
        tmp_path, run_approving, overlay_route):
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "target.txt").write_text("untouched\n")
    build(tmp_path / "ws")
    before = tree(tmp_path / "ws")
    escape = f"ln -s / escape; echo owned > escape{outside}/target.txt; echo owned > escape{outside}/new.txt; true"
    runtime, receipts = await run_commands(tmp_path, [escape], run_approving)
    try:
        (receipt,) = receipts
        assert set(snapshot_paths(Path(receipt.snapshot_path))) == {"escape"}
        assert os.readlink(tmp_path / "ws" / "escape") == "/"
        await runtime.undo(receipt.id)
    finally:
        await runtime.close()
    assert (outside / "target.txt").read_text() == "untouched\n"
    assert not (outside / "new.txt").exists()
    assert tree(tmp_path / "ws") == before


async def test_applying_replaces_a_workspace_symlink_instead_of_writing_through_it(tmp_path, run_approving,
                                                                                  overlay_route):
    outside = tmp_path / "outside"
    outside.mkdir()
    build(tmp_path / "ws")
    (tmp_path / "ws" / "out").symlink_to(outside)
    before = tree(tmp_path / "ws")
    runtime, receipts = await run_commands(tmp_path, ["rm out && mkdir out && echo planted > out/file.txt"],
                                           run_approving)
    try:
        (receipt,) = receipts
        assert snapshot_paths(Path(receipt.snapshot_path)) == ["out"]
        assert (tmp_path / "ws" / "out").is_dir() and not (tmp_path / "ws" / "out").is_symlink()
        assert list(outside.iterdir()) == []
        await runtime.undo(receipt.id)
    finally:
        await runtime.close()
    assert list(outside.iterdir()) == []
    assert tree(tmp_path / "ws") == before


@needs_sandbox
async def test_without_the_overlay_the_whole_workspace_is_snapshotted_as_before(tmp_path, run_approving, monkeypatch):
    monkeypatch.setattr(overlay, "unavailable", lambda sandbox, scratch: "no overlay in this test")
    build(tmp_path / "ws")
    before = tree(tmp_path / "ws")
    runtime, receipts = await run_commands(tmp_path, ["echo more >> notes.txt"], run_approving)
    try:
        (receipt,) = receipts
        assert snapshot_paths(Path(receipt.snapshot_path)) == ["."]
        await runtime.undo(receipt.id)
    finally:
        await runtime.close()
    assert tree(tmp_path / "ws") == before


TORN_APPLY = """
import asyncio, os, signal, sys
from pathlib import Path
from engine.envs.workspace import overlay
from engine.runtime import Runtime, Switches
from engine.tasks.task import TaskSpec, scripted
from engine.tools.call import ToolCall

applying = overlay.apply

def torn(root, layer, plan):
    applying(root, layer, overlay.Plan(plan.changed, plan.steps[:1]))
    os.kill(os.getpid(), signal.SIGKILL)

overlay.apply = torn

async def main(base, command):
    runtime = await Runtime.open(base / "home", base / "ws", Switches())
    await runtime.submit(TaskSpec(goal="shell", learn=False, agent=scripted([ToolCall("shell.run", {"command": command})])))
    await runtime.run_until_idle()

asyncio.run(main(Path(sys.argv[1]), sys.argv[2]))
"""


async def test_a_runner_killed_while_applying_is_rolled_back_to_the_changed_paths_and_runs_once(tmp_path, overlay_route):
    build(tmp_path / "ws")
    (tmp_path / "home").mkdir()
    (tmp_path / "home" / "policy.toml").write_text('[approvals]\nauto_approve_rules = ["fs.redirect-write"]\n')
    child = tmp_path / "torn.py"
    child.write_text(TORN_APPLY, encoding="utf-8")
    command = "echo more >> notes.txt; echo new > zz.txt"  # applied in name order: the append first
    killed = subprocess.run([sys.executable, str(child), str(tmp_path), command], capture_output=True, text=True,
                            timeout=120, cwd=Path(__file__).resolve().parents[2])
    assert killed.returncode == -signal.SIGKILL, killed.stderr
    assert (tmp_path / "ws" / "notes.txt").read_text() == "first line\nmore\n", "killed with the append applied"
    assert not (tmp_path / "ws" / "zz.txt").exists(), "and the new file not"

    runtime = await Runtime.open(tmp_path / "home", tmp_path / "ws", Switches(), lease_seconds=0.1)
    try:
        await asyncio.sleep(0.2)
        await runtime.run_until_idle()
        [task] = await runtime.tasks()
        assert task.status is TaskStatus.SUCCEEDED, task.error
        [receipt] = [r for r in await runtime.journal.for_task(task.id) if r.call.tool == "shell.run"]
        assert set(snapshot_paths(Path(receipt.snapshot_path))) == {"notes.txt", "zz.txt"}
    finally:
        await runtime.close()
    assert (tmp_path / "ws" / "notes.txt").read_text() == "first line\nmore\n", "applied once, not twice"
    assert (tmp_path / "ws" / "zz.txt").read_text() == "new\n"


async def test_what_is_applied_carries_none_of_the_overlays_own_attributes(tmp_path, run_approving, overlay_route):
    build(tmp_path / "ws")
    runtime, _ = await run_commands(tmp_path, ["rm -r deep/inner && mkdir deep/inner && echo x > deep/inner/y"],
                                    run_approving)  # an opaque directory in the upper layer
    await runtime.close()
    for folder, dirnames, filenames in os.walk(tmp_path / "ws"):
        for name in [*dirnames, *filenames]:
            held = os.listxattr(os.path.join(folder, name), follow_symlinks=False)
            assert not [key for key in held if key.startswith(("user.overlay.", "trusted.overlay."))], name
    assert (tmp_path / "ws" / "deep" / "inner" / "y").read_text() == "x\n"
