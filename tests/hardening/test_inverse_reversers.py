"""Reversers beyond restore (recovery issue): an append, a create, a move and a mkdir are undone by their
inverse operation, so the snapshot holds what the inverse needs and no copy of the data. Each inverse checks
its precondition first and refuses, changing nothing, when the workspace is no longer as the call left it."""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
import stat
from pathlib import Path

import pytest

from app.cli import main
from engine.journal.journal import UndoError
from engine.journal.receipt import Receipt, Reversal, SnapshotKind
from engine.runtime import Runtime, Switches
from engine.tasks.task import TaskSpec, TaskStatus, scripted
from engine.tier import Tier
from engine.tools.call import ToolCall

BIG = 50 * 1024 * 1024


def tree(root: Path) -> dict[str, tuple]:
    """Every entry under the workspace: type, bytes (or link target) and permission bits."""
    found = {}
    for folder, dirnames, filenames in os.walk(root):
        for name in [*dirnames, *filenames]:
            path = os.path.join(folder, name)
            info = os.lstat(path)
            content = None if stat.S_ISDIR(info.st_mode) else hashlib.sha256(Path(path).read_bytes()).hexdigest()
            found[os.path.relpath(path, root)] = (stat.S_IFMT(info.st_mode), content, stat.S_IMODE(info.st_mode))
    return found


def held_bytes(saved: str) -> int:
    return sum(os.lstat(os.path.join(folder, name)).st_size
               for folder, _, names in os.walk(saved) for name in names)


@pytest.fixture
async def runtime(tmp_path):
    (tmp_path / "ws").mkdir(exist_ok=True)
    opened = await Runtime.open(tmp_path / "home", tmp_path / "ws", Switches())
    yield opened
    await opened.close()


async def run(runtime: Runtime, *calls: ToolCall) -> list[Receipt]:
    task = await runtime.submit(TaskSpec(goal="Tidy the workspace", learn=False, agent=scripted(list(calls))))
    for _ in range(len(calls) + 1):
        await runtime.run_until_idle()
        for approval in await runtime.pending_approvals():  # the gate's level is not the point here
            await runtime.approve(approval.id)
    assert (await runtime.task(task.id)).status is TaskStatus.SUCCEEDED
    return await runtime.journal.for_task(task.id)


async def test_an_append_to_a_50_mb_file_keeps_a_few_hundred_bytes_and_undo_truncates_it_back(runtime):
    ws = runtime.workspace.root
    log = ws / "big.log"
    with open(log, "wb") as out:
        out.write(os.urandom(1 << 20) * (BIG // (1 << 20) - 1))
        out.write(b"x" * ((1 << 20) - 5) + b"tail\n")
    os.chmod(log, 0o640)
    before, mtime = tree(ws), log.stat().st_mtime_ns

    [receipt] = await run(runtime, ToolCall("fs.append", {"path": "big.log", "content": "one more line\n"}))
    assert receipt.snapshot_kind is SnapshotKind.INVERSE and receipt.reversal is Reversal.REVERSIBLE
    assert held_bytes(receipt.snapshot_path) < 2048, "the snapshot records a length and a hash, not a copy"
    assert log.stat().st_size == BIG + len("one more line\n")

    await runtime.undo(receipt.id)
    assert tree(ws) == before
    assert log.stat().st_mtime_ns == mtime, "the truncated file has the modification time it had"


async def test_a_create_a_mkdir_and_a_move_are_undone_by_their_inverses_to_the_exact_tree(runtime):
    ws = runtime.workspace.root
    (ws / "src" / "inner").mkdir(parents=True)
    (ws / "src" / "inner" / "data.bin").write_bytes(os.urandom(256 * 1024))
    (ws / "src" / "note.txt").write_text("note\n")
    os.chmod(ws / "src" / "note.txt", 0o600)
    before = tree(ws)

    receipts = await run(runtime,
                         ToolCall("fs.write", {"path": "new/deeper/made.txt", "content": "made\n"}),
                         ToolCall("fs.mkdir", {"path": "x/y/z"}),
                         ToolCall("fs.move", {"src": "src", "dst": "moved/here/src"}),
                         ToolCall("fs.append", {"path": "fresh.log", "content": "first\n"}))
    assert [r.snapshot_kind for r in receipts] == [SnapshotKind.INVERSE] * 4
    assert all(held_bytes(r.snapshot_path) < 2048 for r in receipts), "the moved tree was not copied"
    assert (ws / "moved/here/src/inner/data.bin").exists() and (ws / "x/y/z").is_dir()

    result = await runtime.undo_task(receipts[0].task_id)
    assert result.ok, result.stopped_at
    assert tree(ws) == before, "created parents are removed again, the tree is back where it was"


async def test_a_write_over_an_existing_file_and_a_delete_still_take_a_copy(runtime):
    ws = runtime.workspace.root
    (ws / "a.txt").write_text("old\n")
    (ws / "b.txt").write_text("gone soon\n")
    before = tree(ws)
    receipts = await run(runtime, ToolCall("fs.write", {"path": "a.txt", "content": "new\n"}),
                         ToolCall("fs.delete", {"path": "b.txt"}))
    assert [r.snapshot_kind for r in receipts] == [SnapshotKind.COPY, SnapshotKind.COPY]
    assert (await runtime.undo_task(receipts[0].task_id)).ok
    assert tree(ws) == before


async def test_a_move_is_still_undone_after_a_later_restore_gave_the_moved_file_a_new_inode(runtime):
    """Undoing the later write restores a copy (a new inode) of what the move left: the move back accepts it,
    since it holds what the move left."""
    ws = runtime.workspace.root
    (ws / "a.txt").write_text("a\n")
    before = tree(ws)
    receipts = await run(runtime, ToolCall("fs.move", {"src": "a.txt", "dst": "b.txt"}),
                         ToolCall("fs.write", {"path": "b.txt", "content": "rewritten\n"}),
                         ToolCall("shell.run", {"command": "chmod 600 b.txt"}))
    assert receipts[0].snapshot_kind is SnapshotKind.INVERSE
    result = await runtime.undo_task(receipts[0].task_id)
    assert result.ok, result.stopped_at
    assert tree(ws) == before


async def test_an_append_whose_prefix_changed_is_refused_even_forced_and_nothing_changes(runtime):
    ws = runtime.workspace.root
    (ws / "notes.txt").write_text("mine\n")
    [receipt] = await run(runtime, ToolCall("fs.append", {"path": "notes.txt", "content": "agent\n"}))
    (ws / "notes.txt").write_text("MINE\nagent\n")

    with pytest.raises(UndoError, match="changed since"):
        await runtime.undo(receipt.id)
    with pytest.raises(UndoError, match=r"notes\.txt.*first 5 bytes"):
        await runtime.undo(receipt.id, force=True)
    assert (ws / "notes.txt").read_text() == "MINE\nagent\n"
    assert (await runtime.journal.get(receipt.id)).reversal is Reversal.REVERSIBLE


async def test_a_mkdir_is_not_undone_over_a_person_s_file_in_it_even_forced(runtime):
    ws = runtime.workspace.root
    [receipt] = await run(runtime, ToolCall("fs.mkdir", {"path": "d"}))
    (ws / "d" / "person.txt").write_text("keep me\n")
    with pytest.raises(UndoError, match="changed since"):
        await runtime.undo(receipt.id)
    with pytest.raises(UndoError, match=r"d is not empty"):
        await runtime.undo(receipt.id, force=True)
    assert (ws / "d" / "person.txt").read_text() == "keep me\n"
    assert (await runtime.journal.get(receipt.id)).reversal is Reversal.REVERSIBLE


async def test_a_move_back_refuses_when_the_source_is_taken_or_the_destination_is_another_file(runtime):
    ws = runtime.workspace.root
    (ws / "a.txt").write_text("a\n")
    [receipt] = await run(runtime, ToolCall("fs.move", {"src": "a.txt", "dst": "b.txt"}))
    (ws / "a.txt").write_text("a person's new a\n")
    with pytest.raises(UndoError, match=r"a\.txt is taken"):
        await runtime.undo(receipt.id, force=True)
    (ws / "a.txt").unlink()
    (ws / "b.txt").unlink()
    (ws / "b.txt").write_text("another file\n")
    with pytest.raises(UndoError, match=r"b\.txt is no longer what the move left"):
        await runtime.undo(receipt.id, force=True)
    assert sorted(p.name for p in ws.iterdir()) == ["b.txt"]
    assert (ws / "b.txt").read_text() == "another file\n"


async def test_a_created_file_replaced_by_a_directory_is_not_deleted(runtime):
    ws = runtime.workspace.root
    [receipt] = await run(runtime, ToolCall("fs.write", {"path": "made.txt", "content": "x\n"}))
    (ws / "made.txt").unlink()
    (ws / "made.txt").mkdir()
    (ws / "made.txt" / "inside").write_text("person\n")
    with pytest.raises(UndoError, match=r"made\.txt: it is no longer the file"):
        await runtime.undo(receipt.id, force=True)
    assert (ws / "made.txt" / "inside").read_text() == "person\n"


@pytest.mark.parametrize("appended", [b"", b"line", b"line\n"], ids=["nothing", "part", "all"])
async def test_rollback_of_an_interrupted_append_brings_the_file_back_to_its_length(runtime, appended):
    """A crash mid-append may leave nothing, part or all of it appended: rollback truncates to the recorded
    length once the prefix is found intact."""
    ws = runtime.workspace.root
    (ws / "log.txt").write_text("kept\n")
    env = runtime.workspace
    call = ToolCall("fs.append", {"path": "log.txt", "content": "line\n"})
    tool = next(t for t in env.tools() if t.name == "fs.append")
    prepared = await runtime.journal.prepare(env, tool, call, Tier.LOCAL_REVERSIBLE)
    assert prepared.snapshot_kind is SnapshotKind.INVERSE
    with open(ws / "log.txt", "ab") as out:
        out.write(appended)
    assert await runtime.journal.rollback(env, prepared)
    assert (ws / "log.txt").read_bytes() == b"kept\n"


async def test_rollback_of_an_interrupted_append_refuses_when_the_prefix_is_not_intact(runtime):
    ws = runtime.workspace.root
    (ws / "log.txt").write_text("kept\n")
    env = runtime.workspace
    tool = next(t for t in env.tools() if t.name == "fs.append")
    prepared = await runtime.journal.prepare(env, tool, ToolCall("fs.append", {"path": "log.txt", "content": "x"}),
                                             Tier.LOCAL_REVERSIBLE)
    (ws / "log.txt").write_text("KEPT\nx")
    assert not await runtime.journal.rollback(env, prepared), "not rolled back: a person judges the step"
    assert (ws / "log.txt").read_text() == "KEPT\nx"


async def test_rollback_of_an_interrupted_move_and_create(runtime):
    ws = runtime.workspace.root
    (ws / "a.txt").write_text("a\n")
    env = runtime.workspace
    tools = {t.name: t for t in env.tools()}
    move = ToolCall("fs.move", {"src": "a.txt", "dst": "sub/b.txt"})
    moved = await runtime.journal.prepare(env, tools["fs.move"], move, Tier.LOCAL_REVERSIBLE)
    await tools["fs.move"].run(env, move.args)
    assert await runtime.journal.rollback(env, moved)
    assert sorted(p.name for p in ws.iterdir()) == ["a.txt"], "moved back, the made parent removed"

    not_moved = await runtime.journal.prepare(env, tools["fs.move"], move, Tier.LOCAL_REVERSIBLE)
    assert await runtime.journal.rollback(env, not_moved), "a move that never happened leaves nothing to do"
    assert (ws / "a.txt").read_text() == "a\n"

    write = ToolCall("fs.write", {"path": "c.txt", "content": "c\n"})
    created = await runtime.journal.prepare(env, tools["fs.write"], write, Tier.LOCAL_REVERSIBLE)
    await tools["fs.write"].run(env, write.args)
    assert await runtime.journal.rollback(env, created)
    assert sorted(p.name for p in ws.iterdir()) == ["a.txt"]


def test_the_cli_shows_diffs_and_exports_an_inverse_receipt(tmp_path, monkeypatch, capsys):
    async def work() -> list[Receipt]:
        (tmp_path / "ws").mkdir()
        (tmp_path / "ws" / "a.txt").write_text("a\n")
        runtime = await Runtime.open(tmp_path / "home", tmp_path / "ws", Switches())
        try:
            return await run(runtime, ToolCall("fs.append", {"path": "a.txt", "content": "more\n"}),
                             ToolCall("fs.move", {"src": "a.txt", "dst": "b.txt"}))
        finally:
            await runtime.close()

    receipts = asyncio.run(work())
    monkeypatch.setenv("WARDEN_HOME", str(tmp_path / "home"))
    capsys.readouterr()
    assert main(["journal", "show", receipts[0].id, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["snapshot_kind"] == "inverse"
    assert main(["journal", "diff", receipts[0].id]) == 0
    assert "more" in capsys.readouterr().out
    assert main(["journal", "diff", receipts[1].id]) == 0
    capsys.readouterr()
    assert main(["journal", "export"]) == 0
    kinds = {json.loads(line)["snapshot_kind"] for line in capsys.readouterr().out.splitlines() if line.strip()}
    assert kinds == {"inverse"}
