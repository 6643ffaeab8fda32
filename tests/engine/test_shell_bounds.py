"""A confined command runs unasked, so it is held to bounds: time, memory, processes, bytes written.

Past any of them it is stopped, its whole sandbox killed, and nothing it wrote reaches the
workspace (issue 25). Every command here is bounded itself (a counted loop of sleeps, never a
fork bomb; a few hundred MB at most) and runs in a throwaway workspace with a throwaway HOME.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from pathlib import Path

import pytest

from app.commands.doctor import diagnose
from engine.envs.workspace import Sandbox
from engine.envs.workspace.bounds import Bounds
from engine.gate.policy import Policy, PolicyError
from engine.runtime import Runtime, Switches
from engine.tasks.task import Task, TaskSpec, TaskStatus, scripted
from engine.tools.call import ToolCall
from tests.cli.test_submit import warden
from tests.workspace_tree import tree

pytestmark = pytest.mark.skipif(not Sandbox.detect().contains_effects, reason="no confining sandbox here")

WRITE_5_MB = "head -c 5000000 /dev/zero > big"
FORK_50 = "for i in $(seq 50); do sleep 41.5 & done; wait"
THREE_TIMES_60_MB = ("for i in 1 2 3; do python3 -c 'import time; x = [bytearray(1 << 20) for _ in range(60)]; "
                     "time.sleep(20)' & done; wait")


def shell(command: str) -> TaskSpec:
    return TaskSpec(goal="Run a command", agent=scripted([ToolCall("shell.run", {"command": command})]))


@pytest.fixture(autouse=True)
def throwaway_home(tmp_path: Path, monkeypatch) -> None:
    (tmp_path / "user").mkdir()
    monkeypatch.setenv("HOME", str(tmp_path / "user"))


@pytest.fixture
async def bounded(tmp_path: Path, ws: Path, run_approving):
    """`await bounded(shell_policy, command)`: the task that ran `command` in a small seeded workspace, and
    the workspace's whole tree (bytes and modes) before it."""
    opened: list[Runtime] = []

    async def run_(shell_policy: dict, command: str) -> tuple[Task, dict]:
        ws.mkdir(exist_ok=True)
        (ws / "README.md").write_bytes(b"# project\n")
        (ws / "src").mkdir(exist_ok=True)
        (ws / "src" / "main.py").write_bytes(b"print('hi')\n")
        before = tree(ws)
        runtime = await Runtime.open(tmp_path / "home", ws, Switches(gating=False),
                                     policy=Policy.from_mapping({"shell": shell_policy}))
        opened.append(runtime)
        return await run_approving(runtime, shell(command)), before

    yield run_
    for runtime in opened:
        await runtime.close()


def sleepers(marker: str) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError):
                if marker in (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace"):
                    found.append(int(entry.name))
    return found


def test_the_bounds_are_read_from_the_policy_with_defaults():
    default = Policy()
    assert (default.shell_timeout_seconds, default.shell_memory_mb, default.shell_processes,
            default.shell_write_mb) == (60.0, 8192, 1024, 8192)
    read = Policy.from_mapping({"shell": {"timeout_seconds": 5, "memory_mb": 100, "processes": 10, "write_mb": 1}})
    assert (read.shell_timeout_seconds, read.shell_memory_mb, read.shell_processes, read.shell_write_mb) == (5, 100, 10, 1)


@pytest.mark.parametrize("key, value", [("memory_mb", 0), ("memory_mb", -5), ("processes", 1.5), ("write_mb", "1GB"),
                                        ("write_mb", True), ("timeout_seconds", float("inf")),
                                        ("timeout_seconds", float("nan")), ("processes", 10 ** 9)])
def test_a_bad_bound_is_one_clear_policy_error(key, value):
    with pytest.raises(PolicyError) as raised:
        Policy.from_mapping({"shell": {key: value}})
    assert f"shell.{key} must be" in str(raised.value) and "\n" not in str(raised.value)


async def test_a_write_past_the_bound_is_stopped_and_nothing_it_wrote_is_applied(bounded, ws):
    task, before = await bounded({"write_mb": 1}, "echo kept > small.txt; rm README.md; " + WRITE_5_MB)
    assert task.status is TaskStatus.FAILED
    assert "stopped: wrote more than 1 MB (shell.write_mb); nothing it wrote was applied" in task.error, task.error
    assert "\n" not in task.error
    assert tree(ws) == before


async def test_in_place_a_write_past_the_bound_is_undone_from_the_snapshot(bounded, ws, monkeypatch):
    monkeypatch.setenv("WARDEN_SHELL_OVERLAY", "off")  # the route without an overlay: the workspace snapshotted whole
    task, before = await bounded({"write_mb": 1}, "echo kept > small.txt; rm README.md; " + WRITE_5_MB)
    assert task.status is TaskStatus.FAILED
    assert "stopped: wrote more than 1 MB (shell.write_mb); nothing it wrote was applied" in task.error, task.error
    assert tree(ws) == before


async def test_more_processes_than_the_bound_are_stopped_with_the_whole_sandbox(bounded, ws):
    task, before = await bounded({"processes": 10}, "echo kept > small.txt; " + FORK_50)
    assert task.status is TaskStatus.FAILED
    assert "stopped: started more than 10 processes (shell.processes); nothing it wrote was applied" in task.error
    assert tree(ws) == before
    for _ in range(50):
        if not sleepers("sleep 41.5"):
            break
        await asyncio.sleep(0.1)
    assert sleepers("sleep 41.5") == []


async def test_memory_past_the_bound_is_stopped(bounded, ws):
    task, before = await bounded({"memory_mb": 100}, "echo kept > small.txt; " + THREE_TIMES_60_MB)
    assert task.status is TaskStatus.FAILED
    assert "stopped: used more than 100 MB of memory (shell.memory_mb); nothing it wrote was applied" in task.error
    assert tree(ws) == before


async def test_one_allocation_past_the_memory_bound_is_refused(tmp_path: Path):
    """The kernel refuses it (RLIMIT_DATA): the command fails as out of memory, before any polling could see it."""
    ws = tmp_path / "ws"
    ws.mkdir()
    finished = await Sandbox.detect(bounds=Bounds(memory_mb=100)).run(ws, "python3 -c 'b = bytearray(300 << 20)'")
    assert finished.code != 0 and b"MemoryError" in finished.output


async def test_a_timed_out_command_has_nothing_it_wrote_applied(bounded, ws):
    task, before = await bounded({"timeout_seconds": 1}, "echo kept > small.txt; sleep 30")
    assert task.status is TaskStatus.FAILED
    assert "stopped: timed out after 1s (shell.timeout_seconds)" in task.error
    assert "nothing it wrote was applied" in task.error
    assert tree(ws) == before


async def test_a_command_within_its_bounds_behaves_as_before(bounded, ws):
    bounds = {"timeout_seconds": 20, "memory_mb": 200, "processes": 20, "write_mb": 2}
    task, _ = await bounded(bounds, "head -c 1000000 /dev/zero > data; for i in 1 2 3; do sleep 0.1 & done; wait; "
                                    "python3 -c 'x = bytearray(50 << 20)'; echo done > done.txt")
    assert task.status is TaskStatus.SUCCEEDED, task.error
    assert (ws / "data").stat().st_size == 1000000 and (ws / "done.txt").read_text() == "done\n"


def test_warden_run_stops_a_write_past_the_bound_and_leaves_the_workspace_unchanged(tmp_path: Path, monkeypatch):
    home, workspace = tmp_path / "home", tmp_path / "ws"
    home.mkdir()
    (home / "policy.toml").write_text("[shell]\nwrite_mb = 1\n")
    workspace.mkdir()
    (workspace / "notes.txt").write_text("keep me\n")
    before = tree(workspace)
    spec = tmp_path / "spec.json"
    spec.write_text(json.dumps({"goal": "Fill the disk", "learn": False, "agent": {"kind": "scripted", "steps": [
        {"tool": "shell.run", "args": {"command": WRITE_5_MB}}]}}))
    monkeypatch.setenv("WARDEN_GATING", "off")
    done = warden(home, "run", "--spec", str(spec), "--workspace", str(workspace), "--json")
    assert done.returncode != 0
    assert "stopped: wrote more than 1 MB (shell.write_mb); nothing it wrote was applied" in done.stdout + done.stderr
    assert tree(workspace) == before


def test_doctor_states_the_bounds_and_how_each_is_enforced(tmp_path: Path):
    home = tmp_path / "home"
    home.mkdir()
    (home / "policy.toml").write_text("[shell]\ntimeout_seconds = 30\nmemory_mb = 512\nprocesses = 64\nwrite_mb = 100\n")
    entry = diagnose(home)["shell bounds"]
    assert entry["bounds"] == "30 s, 512 MB memory, 64 processes, 100 MB written"
    assert set(entry["enforced"]) == {"time", "memory", "processes", "written"}
    lines = entry["detail"].splitlines()
    assert lines[0] == entry["bounds"] and len(lines) == 5
    assert all(line.split(": ")[1] in ("enforced", "not enforced by the kernel") for line in lines[1:])
    shown = warden(home, "doctor")
    assert "30 s, 512 MB memory, 64 processes, 100 MB written" in shown.stdout


async def test_without_a_writable_cgroup_the_processes_are_counted_and_stopped(tmp_path: Path, monkeypatch):
    """The fallback where no pids cgroup can be made: the sandbox's processes are polled, and it is stopped."""
    from engine.envs.workspace import bounds

    monkeypatch.setattr(bounds, "pids_parent", lambda: None)
    ws = tmp_path / "ws"
    ws.mkdir()
    with pytest.raises(bounds.Exceeded, match="started more than 10 processes"):
        await Sandbox.detect(bounds=Bounds(processes=10)).run(ws, FORK_50)
    for _ in range(50):
        if not sleepers("sleep 41.5"):
            break
        await asyncio.sleep(0.1)
    assert sleepers("sleep 41.5") == []
