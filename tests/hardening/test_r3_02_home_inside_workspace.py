"""Round 3, finding 2: Warden's home inside the workspace was open to the agent.

With `WARDEN_HOME=<workspace>/.warden` the sandbox listed and wrote `warden.db` (the home was
hidden before the workspace was bound, and the bind uncovered it), `fs.write .warden/policy.toml`
rewrote the policy, and `warden submit --workspace` took `/`, `/root` or the home itself.
Finding 1's tool half is here too: a path with control characters reached the disk.

The sandbox's commands here are harmless and run in throwaway directories.
"""

from __future__ import annotations

import json
import os
import pwd
import sqlite3
from pathlib import Path

import pytest

from engine.envs.workspace import overlay
from engine.envs.workspace.confined import EscapeError
from engine.envs.workspace.environment import WorkspaceEnv
from engine.envs.workspace.sandbox import Sandbox
from engine.errors import WardenError
from engine.runtime import Runtime, Switches
from engine.tools.registry import ToolError
from tests.cli.test_submit import warden

needs_sandbox = pytest.mark.skipif(not Sandbox.detect().contains_effects, reason="no confining sandbox here")


def home_in(workspace: Path) -> Path:
    home = workspace / ".warden"
    (home / "snapshots").mkdir(parents=True)
    (home / "warden.db").write_bytes(b"the database\n")
    (home / "warden.db-wal").write_bytes(b"the log\n")
    (home / "policy.toml").write_text("# the policy\n")
    return home


PROBE = ("ls -A .warden > seen.txt 2>&1; echo tampered > .warden/warden.db 2>/dev/null;"
         " mkdir .warden/snapshots/planted 2>/dev/null; true")


@needs_sandbox
@pytest.mark.parametrize("route", ["whole", "overlay"])
async def test_r3_02_the_sandbox_hides_a_home_inside_the_workspace(tmp_path: Path, route: str) -> None:
    workspace = tmp_path / "ws"
    home = home_in(workspace)
    sandbox = Sandbox.detect(hide=(home,))
    if route == "whole":
        finished = await sandbox.run(workspace.resolve(), PROBE)
        seen = (workspace / "seen.txt").read_text()
    else:
        assert overlay.unavailable(sandbox, tmp_path) is None, "this machine overlays the workspace"
        layer = overlay.make_layer(tmp_path / "layer", workspace)
        try:
            finished = await sandbox.run(workspace.resolve(), PROBE, layer=layer)
            plan = overlay.scan(workspace, layer)
            seen = (layer / "upper" / "seen.txt").read_text()
        finally:
            overlay.remove_layer(layer)
        assert not [path for path in plan.changed if path.startswith(".warden")], plan
    assert finished.code == 0, finished.output
    assert seen.strip() == "", f"the sandbox listed the home: {seen!r}"
    assert (home / "warden.db").read_bytes() == b"the database\n"
    assert not (home / "snapshots" / "planted").exists()


def write(env: WorkspaceEnv, tool: str, **args: str):
    [chosen] = [t for t in env.tools() if t.name == tool]
    return chosen.run(env, args)


@pytest.mark.parametrize(("tool", "args"), [
    ("fs.write", {"path": ".warden/policy.toml", "content": 'auto_approve_rules = ["fs.delete"]\n'}),
    ("fs.append", {"path": ".warden/policy.toml", "content": 'auto_approve_rules = ["fs.delete"]\n'}),
    ("fs.write", {"path": "./x/../.warden/new.toml", "content": "x"}),
    ("fs.delete", {"path": ".warden/warden.db"}),
    ("fs.delete", {"path": ".warden"}),
    ("fs.move", {"src": ".warden", "dst": "elsewhere"}),
    ("fs.move", {"src": "note.txt", "dst": ".warden/policy.toml"}),
    ("fs.mkdir", {"path": ".warden/snapshots/planted"}),
])
async def test_r3_02_file_tools_refuse_paths_inside_the_home(tmp_path: Path, tool: str, args: dict) -> None:
    workspace = tmp_path / "ws"
    home = home_in(workspace)
    (workspace / "note.txt").write_text("note\n")
    env = WorkspaceEnv(workspace, Sandbox.detect(hide=(home,)))
    with pytest.raises((ToolError, EscapeError), match="Warden's home"):
        await write(env, tool, **args)
    assert (home / "policy.toml").read_text() == "# the policy\n"
    assert (home / "warden.db").read_bytes() == b"the database\n"
    assert not (home / "new.toml").exists() and not (home / "snapshots" / "planted").exists()
    assert (workspace / "note.txt").exists()


async def test_r3_02_file_tools_refuse_a_directory_holding_the_home(tmp_path: Path) -> None:
    workspace = tmp_path / "ws"
    home = home_in(workspace / "project")
    env = WorkspaceEnv(workspace, Sandbox.detect(hide=(home,)))
    for tool, args in (("fs.delete", {"path": "project"}), ("fs.move", {"src": "project", "dst": "moved"})):
        with pytest.raises((ToolError, EscapeError), match="Warden's home"):
            await write(env, tool, **args)
    assert (home / "warden.db").exists()
    await write(env, "fs.write", path="project/readme.txt", content="still fine\n")
    assert (workspace / "project" / "readme.txt").read_text() == "still fine\n"


@pytest.mark.parametrize("name", [
    "a\x1b7\x1b[4;110Hb.txt", "bell\x07.txt", "line\nbreak.txt", "del\x7f.txt", "c1\x9b31m.txt",
    "evil\u202etxt.exe", "zero\u200bwidth.txt", "isolate\u2066.txt", "bom\ufeff.txt", "sep\u2028.txt",
])
async def test_r3_01_file_tools_refuse_control_characters_in_paths(tmp_path: Path, name: str) -> None:
    env = WorkspaceEnv(tmp_path / "ws", Sandbox.detect())
    (tmp_path / "ws" / "dir").mkdir()
    for tool, args in (("fs.write", {"path": name, "content": "x"}), ("fs.append", {"path": name, "content": "x"}),
                       ("fs.mkdir", {"path": f"dir/{name}"}), ("fs.move", {"src": "dir", "dst": name}),
                       ("fs.delete", {"path": name})):
        with pytest.raises((ToolError, EscapeError), match="control") as refused:
            await write(env, tool, **args)
        assert not any(ch in str(refused.value) for ch in name if not ch.isprintable())
    assert sorted(p.name for p in (tmp_path / "ws").iterdir()) == ["dir"]
    await write(env, "fs.write", path="café – naïve.txt", content="ok")


def homes_of_users() -> list[str]:
    return sorted({entry.pw_dir for entry in pwd.getpwall() if os.path.isdir(entry.pw_dir)} - {"/"})


def refused_workspaces(home: Path) -> list[Path]:
    return [Path("/"), Path("/root"), Path.home(), Path(homes_of_users()[0]), home, home / "snapshots",
            home.parent, home / ".." / "home" / "runs"]


def test_r3_02_submit_refuses_a_workspace_that_is_the_root_a_home_or_warden_s_home(tmp_path: Path) -> None:
    home = tmp_path / "home"
    spec = tmp_path / "task.json"
    spec.write_text(json.dumps({"goal": "Write a note", "agent": {"kind": "scripted", "steps": [
        {"tool": "fs.write", "args": {"path": "note.txt", "content": "x"}}]}}))
    for workspace in refused_workspaces(home):
        done = warden(home, "submit", str(spec), "--workspace", str(workspace))
        assert done.returncode != 0, f"--workspace {workspace} was accepted"
        assert len(done.stderr.strip().splitlines()) == 1, done.stderr
        assert "workspace" in done.stderr and "Traceback" not in done.stderr
    assert not (home / "warden.db").exists() or _tasks(home) == 0
    done = warden(home, "submit", str(spec))
    assert done.returncode == 0, done.stderr


def _tasks(home: Path) -> int:
    with sqlite3.connect(home / "warden.db") as db:
        return db.execute("SELECT COUNT(*) FROM tasks").fetchone()[0]


def test_r3_02_run_refuses_a_workspace_that_holds_the_home(tmp_path: Path) -> None:
    workspace = tmp_path / "ws"
    spec = tmp_path / "task.json"
    spec.write_text(json.dumps({"goal": "Write a note", "agent": {"kind": "scripted", "steps": [
        {"tool": "fs.write", "args": {"path": "note.txt", "content": "x"}}]}}))
    done = warden(workspace / ".warden", "run", "--spec", str(spec), "--workspace", str(workspace))
    assert done.returncode != 0 and "Warden's home" in done.stderr, done.stderr
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert not (workspace / "note.txt").exists()


async def test_r3_02_the_runtime_refuses_every_route_to_such_a_workspace(tmp_path: Path) -> None:
    home = tmp_path / "home"
    for workspace in (tmp_path, home, Path("/")):
        with pytest.raises(WardenError, match="workspace"):
            await Runtime.open(home, workspace, Switches())
    runtime = await Runtime.open(home, None, Switches())
    try:
        assert runtime.workspace.root == (home / "workspace").resolve()
        for workspace in (tmp_path, home, Path("/"), Path("/root")):
            with pytest.raises(WardenError, match="workspace"):
                runtime.environment(f"workspace:{workspace}")
        other = tmp_path / "elsewhere"
        other.mkdir()
        assert runtime.environment(f"workspace:{other}").root == other.resolve()
    finally:
        await runtime.close()


def test_r3_02_a_task_stored_for_a_refused_workspace_fails_in_one_line(tmp_path: Path) -> None:
    """The worker reopens each task's workspace through the same rule (a database from before it, or edited)."""
    home = tmp_path / "home"
    spec = tmp_path / "task.json"
    spec.write_text(json.dumps({"goal": "Write a note", "agent": {"kind": "scripted", "steps": [
        {"tool": "fs.write", "args": {"path": "note.txt", "content": "x"}}]}}))
    assert warden(home, "submit", str(spec), "--workspace", str(tmp_path / "ws")).returncode == 0
    with sqlite3.connect(home / "warden.db") as db:
        db.execute("UPDATE tasks SET env = ?", (f"workspace:{home}",))
    done = warden(home, "worker", "--until-idle", "--json")
    assert "Traceback" not in done.stderr, done.stderr
    with sqlite3.connect(home / "warden.db") as db:
        [(status, error)] = db.execute("SELECT status, error FROM tasks").fetchall()
    assert status == "failed" and "Warden's home" in error and "\n" not in error
    assert not (home / "note.txt").exists()
