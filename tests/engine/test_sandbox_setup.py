"""Bubblewrap failing to set a sandbox up is told apart from the command failing, and retried.

The sandbox's layout is scanned when each command starts (`layout.masks`): an entry of `/etc`
that is gone by the time bubblewrap mounts over it (a socket a concurrent test or daemon
removed) makes bubblewrap fail before the command starts, since it cannot make the mount point
in the read-only tree. That is rescanned and retried; a failure that persists is said in one
line naming bubblewrap's message, never reported as the command's own exit. Here the scan is
made to see such a vanished entry (`Ghost`), which bubblewrap really fails on.
"""

from __future__ import annotations

import uuid
from pathlib import Path

import pytest

from engine.envs.workspace import layout, overlay, sandbox
from engine.envs.workspace.sandbox import Sandbox
from engine.errors import WardenError
from engine.runtime import Runtime, Switches
from engine.tasks.task import TaskSpec, TaskStatus, scripted
from engine.tools.call import ToolCall

SANDBOX = Sandbox.detect()
pytestmark = pytest.mark.skipif(not SANDBOX.contains_effects, reason=f"no confining sandbox here: {SANDBOX.reason}")


class Ghost:
    """Makes the next `left` scans of `/etc` also mask an entry that does not exist (vanished since)."""

    def __init__(self, left: int) -> None:
        self.left = left
        self.scans = 0
        self.path = f"/etc/warden-gone-{uuid.uuid4().hex}/listener.sock"

    def wrap(self, real):
        def masks(top: str, covered: tuple[str, ...] = ()) -> list[layout.Mount]:
            found = real(top, covered)
            if top == "/etc":
                self.scans += 1
                if self.left > 0:
                    self.left -= 1
                    found.append(layout.Mount(self.path, ("--ro-bind", "/dev/null", self.path), layout.Rank.MASK))
            return found
        return masks


@pytest.fixture
def ghost(monkeypatch):
    """`ghost(left)`: arm a `Ghost` for the next `left` scans (after the sandbox was detected: its probe is cached)."""
    monkeypatch.setattr(overlay, "_PROBED", {})  # a probe run here must not be remembered by later tests

    def arm(left: int) -> Ghost:
        made = Ghost(left)
        monkeypatch.setattr(layout, "masks", made.wrap(layout.masks))
        return made

    return arm


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    root = tmp_path / "ws"
    root.mkdir()
    return root.resolve()


@pytest.mark.parametrize("route", ["whole", "overlay"])
async def test_an_entry_gone_before_bubblewrap_starts_is_rescanned_and_the_command_runs(
        ghost, workspace: Path, tmp_path: Path, route: str) -> None:
    layer = overlay.make_layer(tmp_path / "layer", workspace) if route == "overlay" else None
    seen = ghost(1)
    try:
        finished = await SANDBOX.run(workspace, "echo ran >> runs.txt; echo hello", layer=layer)
        written = (layer / "upper" if layer else workspace) / "runs.txt"
        assert finished.code == 0, finished.output
        assert finished.output == b"hello\n", "bubblewrap's complaint of the failed attempt is not the command's output"
        assert written.read_text() == "ran\n", "the command ran once"
    finally:
        if layer is not None:
            overlay.remove_layer(layer)
    assert seen.scans >= 2, "scanned again for the next attempt"  # more if a concurrent test's entry vanished too


async def test_a_setup_failure_that_persists_is_one_clear_line_not_the_command_s_exit(ghost, workspace: Path) -> None:
    seen = ghost(100)
    with pytest.raises(WardenError) as raised:
        await SANDBOX.run(workspace, "echo ran > ran.txt")
    message = str(raised.value)
    assert "\n" not in message
    assert "bwrap" in message and seen.path in message, message
    assert "set up" in message and "exit" not in message, message
    assert seen.scans == 3, "tried three times, each on a fresh scan"
    assert not (workspace / "ran.txt").exists()


async def test_the_command_s_own_failure_is_its_exit_and_is_not_retried(ghost, workspace: Path) -> None:
    """Bubblewrap's own failure is exit 1 too: only its status says which it was."""
    seen = ghost(1)
    finished = await SANDBOX.run(workspace, "echo ran >> runs.txt; exit 1")
    assert finished.code == 1
    assert (workspace / "runs.txt").read_text() == "ran\n"
    assert seen.scans >= 2, "a failed setup, then a run whose exit is the command's"


def test_the_probes_rescan_too(ghost, tmp_path: Path) -> None:
    """A probe failing on a vanished entry would refuse the sandbox (or the overlay) for the whole process."""
    assert SANDBOX.bwrap is not None
    ghost(1)
    assert sandbox._probe.__wrapped__(SANDBOX.bwrap) is None
    ghost(1)
    assert overlay._probe(SANDBOX, tmp_path) is None


async def test_a_shell_step_whose_sandbox_cannot_be_set_up_fails_in_one_line(ghost, tmp_path: Path, run) -> None:
    runtime = await Runtime.open(tmp_path / "home", tmp_path / "ws", Switches(gating=False))
    try:
        call = ToolCall("shell.run", {"command": "echo hi >> hi.txt"})
        spec = TaskSpec(goal="shell", learn=False, agent=scripted([call]))
        done = await run(runtime, spec)  # the overlay is probed (and remembered) before any ghost
        assert done.status is TaskStatus.SUCCEEDED, done.error
        seen = ghost(1)
        done = await run(runtime, spec)
        assert done.status is TaskStatus.SUCCEEDED, done.error
        assert (tmp_path / "ws" / "hi.txt").read_text() == "hi\nhi\n"
        assert seen.scans >= 2

        (tmp_path / "ws" / "hi.txt").unlink()
        seen = ghost(1000)
        done = await run(runtime, spec)
        assert done.status is TaskStatus.FAILED
        assert "\n" not in done.error and seen.path in done.error and "exit 1" not in done.error, done.error
        assert not (tmp_path / "ws" / "hi.txt").exists()
    finally:
        await runtime.close()
