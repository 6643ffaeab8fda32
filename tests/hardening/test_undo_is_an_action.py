"""Undo is an action too: every undo passes the gate and writes its own receipt, and that receipt never stands in
the way of undoing an earlier one (undo-task still walks a whole task back)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.cli import main
from engine.gate.policy import Policy
from engine.journal.journal import UndoError
from engine.journal.receipt import Reversal
from engine.runtime import Runtime, Switches
from engine.tasks.task import TaskSpec, TaskStatus, scripted
from engine.tools.call import ToolCall


def write(path: str, content: str) -> ToolCall:
    return ToolCall("fs.write", {"path": path, "content": content})


async def open_runtime(tmp_path: Path, policy: Policy | None = None) -> Runtime:
    (tmp_path / "ws").mkdir(exist_ok=True)
    return await Runtime.open(tmp_path / "home", tmp_path / "ws", Switches(), policy=policy)


async def run(runtime: Runtime, *calls: ToolCall) -> str:
    task = await runtime.submit(TaskSpec(goal="Write files", agent=scripted(calls), learn=False))
    await runtime.run_until_idle()
    assert (await runtime.task(task.id)).status is TaskStatus.SUCCEEDED
    return task.id


async def undo_receipts(runtime: Runtime) -> list:
    return [receipt for receipt in await runtime.journal.receipts() if receipt.undoes is not None]


async def test_a_restore_writes_its_own_receipt_naming_the_receipt_who_and_whether_forced(tmp_path: Path) -> None:
    runtime = await open_runtime(tmp_path)
    try:
        task_id = await run(runtime, write("a.txt", "one"), write("b.txt", "two"))
        first, second = await runtime.journal.for_task(task_id)

        await runtime.undo(second.id, by="ops-bob")
        await runtime.undo(first.id, force=True, by="ops-carol")

        assert not (tmp_path / "ws" / "a.txt").exists() and not (tmp_path / "ws" / "b.txt").exists()
        newest, older = await undo_receipts(runtime)
        assert (older.undoes, newest.undoes) == (second.id, first.id)
        assert older.call.tool == "journal.undo" and older.reversal is Reversal.AUDIT_ONLY
        assert older.call.args == {"receipt": second.id, "by": "ops-bob", "force": False, "approved_by": None}
        assert newest.call.args["by"] == "ops-carol" and newest.call.args["force"] is True
        assert "forced" in newest.summary and newest.task_id == task_id and newest.env == second.env
        with pytest.raises(UndoError, match="records an undo"):
            await runtime.undo(older.id)
    finally:
        await runtime.close()


async def test_an_undo_receipt_does_not_block_undoing_earlier_receipts_and_undo_task_passes_over_it(
        tmp_path: Path) -> None:
    runtime = await open_runtime(tmp_path)
    try:
        task_id = await run(runtime, write("a.txt", "one"), write("a.txt", "two"), write("a.txt", "three"))
        receipts = await runtime.journal.for_task(task_id)
        await runtime.undo(receipts[2].id)  # its receipt is audit only, and later than the first two

        result = await runtime.undo_task(task_id)

        assert result.ok and result.undone == (receipts[1].id, receipts[0].id), result
        assert not (tmp_path / "ws" / "a.txt").exists()
        assert len(await undo_receipts(runtime)) == 3
        assert (await runtime.undo_task(task_id)).ok  # all undone: nothing left, undo receipts passed over
    finally:
        await runtime.close()


async def test_a_gate_that_blocks_undo_refuses_it_in_one_line_and_nothing_changes(tmp_path: Path) -> None:
    runtime = await open_runtime(tmp_path, Policy.from_mapping({"tools": {"journal.undo": {"level": "catastrophic"}}}))
    try:
        task_id = await run(runtime, write("a.txt", "one"))
        [receipt] = await runtime.journal.for_task(task_id)

        with pytest.raises(UndoError, match="the gate blocks undoing it") as refused:
            await runtime.undo(receipt.id)

        assert "\n" not in str(refused.value)
        assert (tmp_path / "ws" / "a.txt").read_text() == "one"
        assert (await runtime.journal.get(receipt.id)).reversal is Reversal.REVERSIBLE
        assert await undo_receipts(runtime) == []
    finally:
        await runtime.close()


async def test_a_dangerous_undo_is_approved_by_the_person_undoing_and_the_receipt_says_so(tmp_path: Path) -> None:
    runtime = await open_runtime(tmp_path, Policy.from_mapping({"tools": {"journal.undo": {"level": "dangerous"}}}))
    try:
        task_id = await run(runtime, write("a.txt", "one"))
        [receipt] = await runtime.journal.for_task(task_id)
        await runtime.undo(receipt.id, by="ops-dan")
        [own] = await undo_receipts(runtime)
        assert own.call.args["approved_by"] == "ops-dan"
    finally:
        await runtime.close()


def test_the_cli_undo_goes_through_the_same_path_and_lists_the_undo_receipt(tmp_path: Path, capsys,
                                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    import asyncio

    monkeypatch.setenv("WARDEN_HOME", str(tmp_path / "home"))

    async def queue() -> str:
        runtime = await open_runtime(tmp_path)
        try:
            return await run(runtime, write("a.txt", "one"))
        finally:
            await runtime.close()

    task_id = asyncio.run(queue())
    [receipt] = json.loads(_cli(capsys, "journal", "list", "--task", task_id, "--json"))
    assert receipt["undoes"] is None and receipt["compensation"] is None
    undone = json.loads(_cli(capsys, "journal", "undo", receipt["id"], "--json"))
    assert undone["reversal"] == "reversed"
    listed = json.loads(_cli(capsys, "journal", "list", "--task", task_id, "--json"))
    [own] = [r for r in listed if r["undoes"] == receipt["id"]]
    assert own["tool"] == "journal.undo" and own["reversal"] == "audit_only"


def _cli(capsys: pytest.CaptureFixture, *args: str) -> str:
    code = main(list(args))
    out, err = capsys.readouterr()
    assert code == 0, err
    return out
