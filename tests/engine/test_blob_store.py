"""Snapshots keep file contents in a content-addressed blob store: identical contents once, modes in the manifest,
garbage collected once no snapshot links a blob; past the caps no snapshot is kept and the receipt says why."""

from __future__ import annotations

import json
import os
import shutil
import stat
from pathlib import Path

import pytest

from engine.envs.environment import SnapshotDeclined
from engine.envs.workspace import blobs, snapshot
from engine.envs.workspace.environment import WorkspaceEnv
from engine.errors import WardenError
from engine.journal.receipt import Reversal, SnapshotKind
from engine.tasks.task import TaskSpec, TaskStatus, scripted
from engine.tools.call import ToolCall


@pytest.fixture
def tree(tmp_path: Path) -> tuple[WorkspaceEnv, Path]:
    root = tmp_path / "ws"
    root.mkdir()
    (root / "a.txt").write_bytes(b"same contents\n")
    (root / "b.sh").write_bytes(b"same contents\n")
    os.chmod(root / "b.sh", 0o751)
    (root / "sub").mkdir(mode=0o705)
    (root / "sub" / "c.bin").write_bytes(bytes(range(256)) * 10)
    os.chmod(root / "sub" / "c.bin", 0o600)
    os.symlink("../a.txt", root / "sub" / "link")
    os.utime(root / "a.txt", ns=(1_000_000_000, 2_000_000_000))
    return WorkspaceEnv(root), tmp_path / "home" / "snapshots"


def blob_files(snapshots: Path) -> list[Path]:
    return sorted(path for path in blobs.location(snapshots).rglob("*") if path.is_file())


def tree_state(root: Path) -> dict[str, tuple]:
    state = {}
    for path in sorted(root.rglob("*")):
        found = os.lstat(path)
        kind = "link" if path.is_symlink() else "dir" if path.is_dir() else "file"
        body = os.readlink(path) if kind == "link" else path.read_bytes() if kind == "file" else None
        state[str(path.relative_to(root))] = (kind, stat.S_IMODE(found.st_mode) if kind != "link" else None, body)
    state["."] = ("dir", stat.S_IMODE(os.lstat(root).st_mode), None)
    return state


def test_identical_contents_are_kept_once_and_each_snapshot_links_its_blob(tree):
    env, snapshots = tree
    assert snapshot.take(env, ["a.txt", "b.sh"], snapshots / "one") == "copy"
    assert snapshot.take(env, ["a.txt"], snapshots / "two") == "copy"
    [blob] = blob_files(snapshots)
    assert blob.read_bytes() == b"same contents\n"
    assert os.stat(blob).st_nlink == 4  # the blob's own name and three data files
    for data in (snapshots / "one" / "data-0", snapshots / "one" / "data-1", snapshots / "two" / "data-0"):
        assert os.stat(data).st_ino == os.stat(blob).st_ino
    [first, second] = json.loads((snapshots / "one" / "manifest.json").read_text())
    assert (first["node"]["mode"], second["node"]["mode"]) == (stat.S_IMODE(os.stat(env.root / "a.txt").st_mode), 0o751)
    assert first["node"]["blob"] == second["node"]["blob"] == blob.name


def test_restore_puts_back_bytes_modes_times_and_structure_that_the_blob_does_not_carry(tree):
    env, snapshots = tree
    before = tree_state(env.root)
    times = os.stat(env.root / "a.txt").st_mtime_ns
    snapshot.take(env, ["a.txt", "b.sh", "sub"], snapshots / "files")
    snapshot.take(env, ["."], snapshots / "whole")
    for name in ("a.txt", "b.sh"):
        (env.root / name).write_bytes(b"changed")
        os.chmod(env.root / name, 0o600)
    (env.root / "sub" / "c.bin").unlink()
    (env.root / "sub" / "new").write_text("new")

    snapshot.restore(env, snapshots / "files")
    assert tree_state(env.root) == before
    assert os.stat(env.root / "a.txt").st_mtime_ns == times

    (env.root / "a.txt").unlink()
    (env.root / "extra").mkdir()
    os.chmod(env.root, 0o711)
    snapshot.restore(env, snapshots / "whole")
    assert tree_state(env.root) == before


def test_a_blob_no_snapshot_links_is_collected_and_one_in_use_is_kept(tree):
    env, snapshots = tree
    snapshot.take(env, ["a.txt"], snapshots / "one")
    snapshot.take(env, ["sub/c.bin"], snapshots / "two")
    assert len(blob_files(snapshots)) == 2
    shutil.rmtree(snapshots / "two")
    removed, freed = blobs.collect(blobs.location(snapshots))
    assert (removed, freed) == (1, 2560)
    [kept] = blob_files(snapshots)
    assert kept.read_bytes() == b"same contents\n"
    snapshot.restore(env, snapshots / "one")
    assert (env.root / "a.txt").read_bytes() == b"same contents\n"


def test_past_the_byte_cap_nothing_is_kept_and_the_check_reads_no_data(tree, monkeypatch):
    env, snapshots = tree
    (env.root / "big").mkdir()
    with open(env.root / "big" / "sparse.img", "wb") as sparse:
        sparse.truncate(3 * (1 << 30))
    opened: list[int] = []
    real_open = os.open

    def watching(path, flags, *args, **kwargs):
        opened.append(flags)
        return real_open(path, flags, *args, **kwargs)

    monkeypatch.setattr(os, "open", watching)
    with pytest.raises(SnapshotDeclined, match=r"not snapshotted: 3\.0 GiB past the 1 GiB cap \(WARDEN_SNAPSHOT_MAX_BYTES\)"):
        snapshot.take(env, ["a.txt", "big"], snapshots / "big")
    assert opened and all(flags & os.O_DIRECTORY for flags in opened)
    assert not (snapshots / "big").exists() and not blob_files(snapshots)


def test_the_caps_come_from_the_environment_and_a_bad_value_is_one_line(tree, monkeypatch):
    env, snapshots = tree
    monkeypatch.setenv("WARDEN_SNAPSHOT_MAX_FILES", "3")
    with pytest.raises(SnapshotDeclined, match=r"more than 3 files, past the 3-file cap \(WARDEN_SNAPSHOT_MAX_FILES\)"):
        snapshot.take(env, ["."], snapshots / "whole")
    assert snapshot.take(env, ["sub"], snapshots / "sub") == "copy"
    monkeypatch.setenv("WARDEN_SNAPSHOT_MAX_FILES", "0")
    monkeypatch.setenv("WARDEN_SNAPSHOT_MAX_BYTES", "100")
    with pytest.raises(SnapshotDeclined, match=r"2\.5 KiB past the 100 bytes cap"):
        snapshot.take(env, ["sub"], snapshots / "again")
    monkeypatch.setenv("WARDEN_SNAPSHOT_MAX_BYTES", "lots")
    with pytest.raises(WardenError, match=r"WARDEN_SNAPSHOT_MAX_BYTES must be a whole number"):
        snapshot.take(env, ["sub"], snapshots / "bad")


def write(path: str, content: str) -> TaskSpec:
    return TaskSpec(goal=f"write {path}", agent=scripted((ToolCall("fs.write", {"path": path, "content": content}),)))


async def test_a_step_past_the_cap_runs_with_an_honest_audit_only_receipt(runtime, run_approving, ws, monkeypatch):
    (ws / "large.txt").write_bytes(b"x" * 5000)
    monkeypatch.setenv("WARDEN_SNAPSHOT_MAX_BYTES", "4096")
    task = await run_approving(runtime, write("large.txt", "small now\n"))
    assert task.status is TaskStatus.SUCCEEDED, task.error
    [receipt] = await runtime.journal.for_task(task.id)
    assert (receipt.reversal, receipt.snapshot_kind, receipt.snapshot_path) == (
        Reversal.AUDIT_ONLY, SnapshotKind.NONE, None)
    assert "not snapshotted: 4.9 KiB past the 4 KiB cap (WARDEN_SNAPSHOT_MAX_BYTES)" in receipt.summary


async def test_through_the_runtime_a_copy_receipt_dedupes_undoes_and_its_blob_is_swept(
        runtime, run_approving, ws, tmp_path):
    (ws / "one.txt").write_text("shared\n")
    (ws / "two.txt").write_text("shared\n")
    os.chmod(ws / "two.txt", 0o640)
    first = await run_approving(runtime, write("one.txt", "1\n"))
    second = await run_approving(runtime, write("two.txt", "2\n"))
    [one], [two] = await runtime.journal.for_task(first.id), await runtime.journal.for_task(second.id)
    assert one.snapshot_kind is two.snapshot_kind is SnapshotKind.COPY
    snapshots = Path(one.snapshot_path).parent
    [blob] = blob_files(snapshots)
    assert blob.read_bytes() == b"shared\n"

    await runtime.undo(two.id)
    await runtime.undo(one.id)
    assert (ws / "one.txt").read_text() == (ws / "two.txt").read_text() == "shared\n"
    assert stat.S_IMODE(os.stat(ws / "two.txt").st_mode) == 0o640
    await runtime.journal.sweep(3600)
    assert blob_files(snapshots) == []
