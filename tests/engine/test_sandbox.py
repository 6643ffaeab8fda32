"""`shell.run` is confined for real (bubblewrap): no writes outside the workspace, no network, undo is exact.

Containment is tested with the gate switched off, so only the sandbox stands in the way.
Every command here is harmless; the ones that try to leave the workspace would only
create a marker file if the sandbox failed, and each test removes its markers.
"""

from __future__ import annotations

import asyncio
import contextlib
import stat
from pathlib import Path

import pytest

from engine.envs.workspace import Confinement, Sandbox
from engine.gate.policy import Policy
from engine.journal.journal import UndoError
from engine.journal.receipt import Reversal, SnapshotKind
from engine.runtime import Runtime, Switches
from engine.tasks.task import TaskSpec, TaskStatus, scripted
from engine.tier import Tier
from engine.tools.call import ToolCall

MARKER = Path("/etc/warden-sandbox-probe")


def shell(*commands: str) -> TaskSpec:
    return TaskSpec(goal="Run a command", agent=scripted([ToolCall("shell.run", {"command": c}) for c in commands]))


def tree(root: Path) -> dict[str, bytes | None]:
    return {str(p.relative_to(root)): p.read_bytes() if p.is_file() else None for p in sorted(root.rglob("*"))}


@pytest.fixture
async def open_with(tmp_path: Path, ws: Path):
    opened: list[Runtime] = []

    async def open_(shell_policy: dict | None = None, gating: bool = True) -> Runtime:
        ws.mkdir(exist_ok=True)
        (ws / "README.md").write_bytes(b"# project\n")
        policy = Policy.from_mapping({"shell": shell_policy or {}})
        runtime = await Runtime.open(tmp_path / "home", ws, Switches(gating=gating), policy=policy)
        opened.append(runtime)
        return runtime

    yield open_
    for runtime in opened:
        await runtime.close()


def test_this_machine_has_a_working_sandbox():
    """CI installs bubblewrap: every confinement test below runs for real, none is skipped."""
    sandbox = Sandbox.detect()
    assert sandbox.confinement is Confinement.BWRAP, sandbox.reason
    assert sandbox.contains_effects


async def test_f01_a_confined_command_cannot_write_outside_the_workspace(open_with, run, ws, tmp_path):
    runtime = await open_with(gating=False)
    outside = tmp_path / "outside"
    outside.mkdir()
    try:
        task = await run(runtime, shell(
            f"echo ran >> {outside}/escape.txt || true; echo ran >> {MARKER} || true; "
            f"echo ran >> {runtime.home}/warden.db || true; echo ran >> inside.txt"
        ))
        assert task.status is TaskStatus.SUCCEEDED, task.error
        assert list(outside.iterdir()) == []
        assert not MARKER.exists()
        assert (ws / "inside.txt").read_text() == "ran\n"
        [receipt] = await runtime.journal.for_task(task.id)
        assert (receipt.tier, receipt.reversal) == (Tier.LOCAL_REVERSIBLE, Reversal.REVERSIBLE)
    finally:
        MARKER.unlink(missing_ok=True)


async def test_f11_f01_a_confined_command_sees_no_home_and_no_secrets(open_with, run, ws, monkeypatch):
    monkeypatch.setenv("WARDEN_TEST_SECRET", "hunter2")
    runtime = await open_with(gating=False)
    task = await run(runtime, shell(
        f"env > env.txt; cat /proc/1/environ /proc/self/environ >> env.txt; ls -a /root {runtime.home} > dirs.txt;"
        " cat /etc/shadow /etc/gshadow > shadow.txt 2>/dev/null; ls -A /etc/ssh > ssh.txt; echo ok"))
    assert task.status is TaskStatus.SUCCEEDED, task.error
    assert "hunter2" not in (ws / "env.txt").read_text()
    assert Path("/etc/shadow").read_text() and (ws / "shadow.txt").read_text() == ""
    assert (ws / "ssh.txt").read_text() == ""
    assert (runtime.home / "warden.db").exists()
    assert set((ws / "dirs.txt").read_text().split()) == {"/root:", f"{runtime.home}:", ".", ".."}


async def serve_once() -> tuple[asyncio.Server, list[str]]:
    hits: list[str] = []

    async def answer(reader, writer):
        hits.append("connected")
        writer.close()

    server = await asyncio.start_server(answer, "127.0.0.1", 0)
    return server, hits


async def test_a_confined_command_cannot_reach_a_loopback_server(open_with, run, run_approving):
    server, hits = await serve_once()
    port = server.sockets[0].getsockname()[1]
    probe = f"bash -c 'exec 3<>/dev/tcp/127.0.0.1/{port}' && echo reached > reached.txt"
    try:
        blocked = await run(await open_with(gating=False), shell(probe))
        assert blocked.status is TaskStatus.FAILED
        await asyncio.sleep(0.2)
        assert hits == []

        granted = await run(await open_with({"egress": "allow"}, gating=False), shell(probe))
        assert granted.status is TaskStatus.SUCCEEDED, granted.error
        await asyncio.sleep(0.2)
        assert hits == ["connected"], "with egress granted the same probe connects: the test can tell"
    finally:
        server.close()
        await server.wait_closed()


async def test_undoing_a_confined_command_restores_the_workspace_byte_for_byte(open_with, run_approving, ws):
    runtime = await open_with()
    (ws / "data.bin").write_bytes(bytes(range(256)) * 8)
    (ws / "keep").mkdir()
    (ws / "keep" / "note.txt").write_text("keep me\n")
    before = tree(ws)
    task = await run_approving(runtime, shell(
        "printf changed > README.md; rm -r keep; head -c 100 data.bin > data.bin.part; mv data.bin.part data.bin;"
        " mkdir -p new/deeper; echo x > new/deeper/f"
    ))
    assert task.status is TaskStatus.SUCCEEDED, task.error
    assert tree(ws) != before
    [receipt] = await runtime.journal.for_task(task.id)
    assert receipt.snapshot_kind is SnapshotKind.COPY
    await runtime.undo(receipt.id)
    assert tree(ws) == before


def sleepers(marker: str) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError):
                if marker in (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace"):
                    found.append(int(entry.name))
    return found


async def test_a_command_past_its_time_is_killed_with_its_whole_process_tree(open_with, run):
    runtime = await open_with({"timeout_seconds": 1})
    task = await run(runtime, shell("sleep 37.25 & sleep 38.25 & wait"))
    assert task.status is TaskStatus.FAILED and "timed out after 1s" in task.error
    for _ in range(50):
        if not sleepers("sleep 37.25") and not sleepers("sleep 38.25"):
            break
        await asyncio.sleep(0.1)
    assert sleepers("sleep 37.25") == [] and sleepers("sleep 38.25") == []


async def test_without_a_sandbox_the_shell_is_refused_in_one_line(open_with, run, ws, db, monkeypatch):
    monkeypatch.setenv("WARDEN_BWRAP", "/nonexistent/bwrap")
    runtime = await open_with()
    task = await run(runtime, shell("echo hi > hi.txt"))
    assert task.status is TaskStatus.FAILED
    assert task.error.startswith("shell.run refused: no sandbox") and "bubblewrap" in task.error
    assert "\n" not in task.error
    assert not (ws / "hi.txt").exists()
    assert db("SELECT id FROM approvals") == [] and db("SELECT id FROM receipts") == []


async def test_the_unconfined_opt_in_is_audit_only_and_undo_refuses(open_with, run_approving, ws, monkeypatch):
    monkeypatch.setenv("WARDEN_BWRAP", "/nonexistent/bwrap")
    runtime = await open_with({"unconfined": "allow"})
    assert runtime.workspace.sandbox.confinement is Confinement.UNCONFINED
    task = await run_approving(runtime, shell("echo hi > hi.txt"))
    assert task.status is TaskStatus.SUCCEEDED, task.error
    assert (ws / "hi.txt").read_text() == "hi\n"
    [receipt] = await runtime.journal.for_task(task.id)
    assert (receipt.tier, receipt.reversal, receipt.snapshot_kind) == (
        Tier.EXTERNALLY_IRREVERSIBLE, Reversal.AUDIT_ONLY, SnapshotKind.NONE)
    with pytest.raises(UndoError, match="audit_only"):
        await runtime.undo(receipt.id)
    assert (ws / "hi.txt").exists()


async def test_granted_egress_makes_the_shell_irreversible_so_its_programs_are_held(open_with, run_approving):
    runtime = await open_with({"egress": "allow"})
    task = await run_approving(runtime, TaskSpec(
        goal='Stamp the file "stamp.txt"', agent=scripted([ToolCall("shell.run", {"command": "echo s > stamp.txt"})]),
        evaluator={"exists": "stamp.txt"}))
    assert task.status is TaskStatus.SUCCEEDED, task.error
    [receipt] = await runtime.journal.for_task(task.id)
    assert receipt.reversal is Reversal.AUDIT_ONLY
    [program] = [p for p in await runtime.programs() if p.provenance.get("task") == task.id]
    assert program.status == "unverified"


def test_bubblewrap_is_asked_for_every_containment_it_promises():
    argv = Sandbox(Confinement.BWRAP, "test", "bwrap", hide=("/root",)).argv(Path("/w"), "true")
    for flag in ("--unshare-all", "--die-with-parent", "--new-session", "--clearenv"):
        assert flag in argv
    assert argv[argv.index("--cap-drop") + 1] == "ALL"
    assert "--share-net" not in argv
    assert argv.index("--tmpfs") < argv.index("--bind") and argv[argv.index("--bind") + 1] == "/w"
    pairs = list(zip(argv, argv[1:], argv[2:]))
    assert ("--ro-bind", "/", "/") not in pairs and ("--bind", "/", "/") not in pairs, "an allowlist, not the root"
    assert ("--ro-bind", "/usr", "/usr") in pairs
    assert argv[-4:] == ["--", "/bin/sh", "-c", "true"]


async def test_f17_a_named_pipe_in_the_workspace_is_snapshotted_and_restored_as_a_pipe(open_with, run, ws):
    """Copying a pipe by opening it would hang the snapshot forever; it is recreated instead."""
    runtime = await open_with(gating=False)
    task = await run(runtime, shell("mkfifo pipe", "rm pipe && echo gone > gone.txt"))
    assert task.status is TaskStatus.SUCCEEDED, task.error
    assert not (ws / "pipe").exists()
    removal = [r for r in await runtime.journal.for_task(task.id) if "rm pipe" in r.summary][0]
    await runtime.undo(removal.id)
    assert stat.S_ISFIFO((ws / "pipe").lstat().st_mode)
    assert not (ws / "gone.txt").exists()


async def test_f15_shell_output_is_kept_in_a_bounded_ring(open_with, run, db):
    """Hardening finding 15: output used to be buffered whole (3 GB for a gigabyte of zeros)."""
    runtime = await open_with(gating=False)
    task = await run(runtime, shell("yes warden | head -c 100000000; echo; echo the end"))
    assert task.status is TaskStatus.SUCCEEDED, task.error
    [step] = db("SELECT output FROM steps WHERE task_id = ?", task.id)
    assert len(step["output"]) <= runtime.workspace.sandbox.output_limit
    assert step["output"].endswith("the end\n")
