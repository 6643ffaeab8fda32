"""`warden journal export` and `warden journal gc` end to end: versioned JSON lines filtered by task and
time, and snapshots reclaimed oldest first, their receipts demoted to audit_only, write-aheads spared."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from pathlib import Path

import pytest

from app.cli import main
from engine.journal.gc import snapshot_bytes
from engine.runtime import Runtime, Switches
from engine.tasks.task import TaskSpec, scripted
from engine.tools.call import ToolCall


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    workspace = tmp_path / "ws"
    workspace.mkdir()
    return workspace


def queue(home: Path, ws: Path, *calls: ToolCall) -> str:
    """Run a scripted task acting in `ws` until idle; its id."""

    async def go() -> str:
        runtime = await Runtime.open(home, ws, Switches())
        try:
            [task] = await runtime.submit_all([TaskSpec(goal="Edit the notes", agent=scripted(calls))])
            await runtime.run_until_idle()
            return task.id
        finally:
            await runtime.close()

    return asyncio.run(go())


def cli(capsys: pytest.CaptureFixture, *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def export(capsys: pytest.CaptureFixture, *args: str) -> list[dict]:
    code, out, err = cli(capsys, "journal", "export", *args)
    assert code == 0, err
    return [json.loads(line) for line in out.splitlines()]


def write(path: str, size: int) -> ToolCall:
    return ToolCall("fs.write", {"path": path, "content": "x" * size})


def three_tasks(home: Path, ws: Path) -> list[str]:
    """Three tasks, each overwriting its own file (so each receipt's snapshot holds that file's old bytes)."""
    for name, size in (("a.txt", 3000), ("b.txt", 2000), ("c.txt", 1000)):
        (ws / name).write_text("o" * size, encoding="utf-8")
    return [queue(home, ws, write(name, 10)) for name in ("a.txt", "b.txt", "c.txt")]


def test_export_writes_one_versioned_record_per_receipt_oldest_first(home: Path, ws: Path, capsys) -> None:
    first = queue(home, ws, write("one.txt", 5), write("two.txt", 5))
    second = queue(home, ws, write("three.txt", 5))
    records = export(capsys)
    assert [r["task_id"] for r in records] == [first, first, second]
    assert all(r["schema"] == "warden.receipt/1" for r in records)
    assert [r["created_at"] for r in records] == sorted(r["created_at"] for r in records)
    one = records[0]
    assert (one["tool"], one["call"], one["step_idx"]) == ("fs.write", {"tool": "fs.write", "args": {
        "path": "one.txt", "content": "xxxxx"}}, 0)
    assert one["reversal"] == "reversible" and one["undoable"] and one["snapshot_kind"] == "inverse"
    assert {"id", "env", "tier", "summary", "snapshot_path", "reversed_at"} <= set(one)

    assert [r["id"] for r in export(capsys, "--task", second)] == [records[2]["id"]]
    boundary = str(records[2]["created_at"])
    assert [r["id"] for r in export(capsys, "--since", boundary)] == [records[2]["id"]]
    assert [r["id"] for r in export(capsys, "--until", str(records[1]["created_at"]))] == [
        records[0]["id"], records[1]["id"]]
    assert len(export(capsys, "--since", "2000-01-01", "--until", "2999-12-31T23:59:59Z")) == 3
    assert export(capsys, "--until", "2000-01-01T00:00:00+00:00") == []

    target = home.parent / "receipts.jsonl"
    code, out, _ = cli(capsys, "journal", "export", "--task", first, "--output", str(target))
    assert code == 0 and out == ""
    assert [json.loads(line)["id"] for line in target.read_text().splitlines()] == [r["id"] for r in records[:2]]


@pytest.mark.parametrize("bound", ["--since", "--until"])
def test_export_refuses_a_bad_time_in_one_line(home: Path, ws: Path, capsys, bound: str) -> None:
    code, out, err = cli(capsys, "journal", "export", bound, "last tuesday")
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "not a time: 'last tuesday'" in err


def test_gc_to_a_size_budget_removes_the_oldest_snapshots_and_demotes_their_receipts(
        home: Path, ws: Path, capsys) -> None:
    three_tasks(home, ws)
    records = export(capsys)
    paths = [Path(r["snapshot_path"]) for r in records]
    sizes = [snapshot_bytes(path) for path in paths]
    assert sizes[0] > sizes[1] > sizes[2] > 0

    code, out, err = cli(capsys, "journal", "gc", "--max-bytes", str(sizes[2]), "--json")
    assert code == 0, err
    assert json.loads(out) == {"removed": 2, "bytes": sizes[0] + sizes[1],
                               "receipt_ids": [records[0]["id"], records[1]["id"]], "outside_store": []}
    assert not paths[0].exists() and not paths[1].exists() and paths[2].exists()
    after = export(capsys)
    for record in after[:2]:
        assert record["reversal"] == "audit_only" and not record["undoable"] and record["snapshot_path"] is None
        assert record["summary"].endswith(f"(snapshot removed by gc: over the {sizes[2]}-byte budget)")
    assert after[2]["reversal"] == "reversible" and after[2]["summary"] == records[2]["summary"]

    code, out, err = cli(capsys, "journal", "undo", records[0]["id"])
    assert code == 1 and out == "" and err.count("\n") == 1
    assert f"receipt {records[0]['id']} is audit_only" in err
    assert (ws / "a.txt").read_text() == "x" * 10

    code, out, _ = cli(capsys, "journal", "gc", "--max-bytes", str(sizes[2]))
    assert (code, out) == (0, "removed nothing\n")
    code, out, _ = cli(capsys, "journal", "gc", "--older-than", "0")
    assert code == 0 and out.startswith("removed 1 snapshot(s)") and records[2]["id"] in out


def test_gc_by_age_spares_young_snapshots(home: Path, ws: Path, capsys) -> None:
    three_tasks(home, ws)
    code, out, _ = cli(capsys, "journal", "gc", "--older-than", "3600", "--json")
    assert code == 0 and json.loads(out) == {"removed": 0, "bytes": 0, "receipt_ids": [], "outside_store": []}
    assert all(r["reversal"] == "reversible" for r in export(capsys))


def test_gc_leaves_undone_receipts_and_the_snapshot_of_a_dispatching_step(home: Path, ws: Path, capsys) -> None:
    ids = three_tasks(home, ws)
    records = export(capsys)
    assert cli(capsys, "journal", "undo", records[2]["id"])[0] == 0
    oldest = records[0]
    prepared = {"receipt_id": oldest["id"], "env": oldest["env"], "snapshot_kind": "copy",
                "snapshot_path": oldest["snapshot_path"]}
    with sqlite3.connect(home / "warden.db") as con:
        con.execute("UPDATE steps SET status = 'dispatching', pending = ? WHERE task_id = ? AND idx = 0",
                    (json.dumps({"tier": "local_reversible", "prepared": prepared}), ids[0]))
    con.close()

    code, out, err = cli(capsys, "journal", "gc", "--max-bytes", "0", "--json")
    assert code == 0, err
    assert json.loads(out)["receipt_ids"] == [records[1]["id"]]
    assert Path(oldest["snapshot_path"]).exists()
    after = export(capsys)
    assert [r["reversal"] for r in after] == ["reversible", "audit_only", "reversed", "audit_only"]
    assert after[3]["tool"] == "journal.undo" and after[3]["call"]["args"]["receipt"] == records[2]["id"]


def test_gc_never_deletes_a_directory_outside_the_snapshot_store(home: Path, ws: Path, tmp_path: Path,
                                                                 capsys) -> None:
    """A database row is not trusted to name what gc may delete: a path it points elsewhere is left alone."""
    three_tasks(home, ws)
    records = export(capsys)
    decoy = tmp_path / "precious"
    decoy.mkdir()
    (decoy / "keep.txt").write_text("mine\n", encoding="utf-8")
    with sqlite3.connect(home / "warden.db") as con:
        con.execute("UPDATE receipts SET snapshot_path = ? WHERE id = ?", (str(decoy), records[0]["id"]))
        con.execute("UPDATE receipts SET snapshot_path = ? WHERE id = ?",
                    (str(home / "snapshots" / ".." / ".." / "ws"), records[1]["id"]))
    con.close()

    code, out, err = cli(capsys, "journal", "gc", "--older-than", "0")
    assert code == 0, err
    lines = out.splitlines()
    assert len(lines) == 2 and lines[0].startswith("removed 1 snapshot(s)") and lines[0].endswith(records[2]["id"])
    assert lines[1] == (f"left alone: 2 receipt(s) whose snapshot lies outside this home's store "
                        f"({records[0]['id']} {records[1]['id']})")
    assert (decoy / "keep.txt").read_text(encoding="utf-8") == "mine\n"
    assert sorted(p.name for p in ws.iterdir()) == ["a.txt", "b.txt", "c.txt"]
    assert [r["reversal"] for r in export(capsys)] == ["reversible", "reversible", "audit_only"]


def test_gc_needs_exactly_one_budget(home: Path, capsys) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["journal", "gc"])
    assert exit_.value.code == 2
    with pytest.raises(SystemExit):
        main(["journal", "gc", "--older-than", "1", "--max-bytes", "1"])
    with pytest.raises(SystemExit):
        main(["journal", "gc", "--max-bytes", "-1"])
    capsys.readouterr()
