"""Undoing a whole task: newest first, passing over what never ran, stopping where an undo would lose work."""

from __future__ import annotations

from engine.journal.receipt import Receipt, Reversal, SnapshotKind
from engine.journal.task_undo import plan
from engine.tasks.task import TaskSpec, scripted
from engine.tier import Tier
from engine.tools.call import ToolCall


def tree(root):
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


async def test_undo_task_restores_every_step_newest_first(runtime, run_approving, ws):
    before = tree(ws)
    calls = (ToolCall("fs.write", {"path": "a.txt", "content": "one\n"}),
             ToolCall("fs.append", {"path": "a.txt", "content": "two\n"}),
             ToolCall("fs.write", {"path": "notes/b.txt", "content": "bee\n"}))
    task = await run_approving(runtime, TaskSpec(goal="Write a and b", agent=scripted(calls)))
    receipts = await runtime.journal.for_task(task.id)
    assert len(receipts) == 3 and (ws / "a.txt").read_text() == "one\ntwo\n"

    result = await runtime.undo_task(task.id)

    assert result.ok and result.stopped_at is None
    assert list(result.undone) == [r.id for r in sorted(receipts, key=lambda r: r.step_idx, reverse=True)]
    assert tree(ws) == before
    again = await runtime.undo_task(task.id)
    assert again.ok and again.undone == ()


async def test_undo_task_stops_at_a_later_tasks_change_and_keeps_it(runtime, run_approving, ws):
    first = await run_approving(runtime, TaskSpec(goal="first", agent=scripted((
        ToolCall("fs.write", {"path": "mine.txt", "content": "first\n"}),
        ToolCall("fs.write", {"path": "shared.txt", "content": "first\n"})))))
    await run_approving(runtime, TaskSpec(goal="second", agent=scripted((
        ToolCall("fs.write", {"path": "shared.txt", "content": "a person's later work\n"}),))))
    shared_receipt = next(r for r in await runtime.journal.for_task(first.id) if r.call.args["path"] == "shared.txt")

    result = await runtime.undo_task(first.id)

    assert not result.ok and result.undone == ()
    assert result.stopped_at.receipt_id == shared_receipt.id and "later receipt" in result.stopped_at.reason
    assert (ws / "shared.txt").read_text() == "a person's later work\n"
    assert (ws / "mine.txt").read_text() == "first\n", "nothing before the stop is undone out of order"


def receipt(rid: str, idx: int, reversal: Reversal, snapshot: str | None = "/snap") -> Receipt:
    return Receipt(rid, "t1", idx, ToolCall("fs.write", {"path": f"{rid}.txt", "content": ""}),
                   Tier.LOCAL_REVERSIBLE, SnapshotKind.COPY, snapshot, reversal, f"write {rid}", float(idx))


def test_plan_passes_over_blocked_and_undone_and_stops_at_audit_only() -> None:
    receipts = [receipt("r0", 0, Reversal.REVERSIBLE), receipt("r1", 1, Reversal.AUDIT_ONLY, None),
                receipt("r2", 2, Reversal.REVERSIBLE), receipt("r3", 3, Reversal.AUDIT_ONLY, None),
                receipt("r4", 4, Reversal.REVERSED)]
    tried, result = plan("t1", receipts, blocked={"r3"})
    assert [r.id for r in tried] == ["r2"]
    assert result.stopped_at.receipt_id == "r1" and "audit only" in result.stopped_at.reason
    assert result.as_json()["ok"] is False and result.as_json()["undone"] == ["r2"]
