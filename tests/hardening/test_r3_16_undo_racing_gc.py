"""Round three, finding 16: an undo racing `journal gc` printed a traceback.

gc demotes a receipt (`reversible` → `audit_only`) and then deletes its snapshot; an undo that had
read the receipt as reversible before that went on to read the snapshot's files and died on a
FileNotFoundError, or marked the demoted receipt `irrecoverable` over gc's reason. Now an undo that
finds its snapshot (or a later receipt's) taken away under it looks at the receipt again and refuses
in one line, and gc's record stands.

The first test puts gc at each point of an undo where it used to hurt; the second runs undos and gc
at the same time on threads of their own, each with its own runtime, as two processes would.
"""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path

import pytest

from engine.journal.gc import collect
from engine.envs.workspace.environment import WorkspaceEnv
from engine.journal.journal import Journal, UndoError
from engine.journal.receipt import Reversal
from engine.runtime import Runtime, Switches
from engine.tasks.task import TaskSpec, TaskStatus, scripted
from engine.tools.call import ToolCall


async def written(home: Path, ws: Path, count: int) -> list[str]:
    """`count` receipts of fs.write over files f0.txt … (copy snapshots), oldest first."""
    ws.mkdir(exist_ok=True)
    for number in range(count):
        (ws / f"f{number}.txt").write_text(f"before {number}\n")
    runtime = await Runtime.open(home, ws, Switches())
    try:
        task = await runtime.submit(TaskSpec(goal="rewrite", learn=False, agent=scripted(
            [ToolCall("fs.write", {"path": f"f{number}.txt", "content": f"after {number}\n"})
             for number in range(count)])))
        await runtime.run_until_idle()
        assert (await runtime.task(task.id)).status is TaskStatus.SUCCEEDED
        return [receipt.id for receipt in await runtime.journal.for_task(task.id)]
    finally:
        await runtime.close()


def whole_gc(home: Path, ws: Path) -> None:
    """A whole gc (every snapshot, by age 0), run to completion by another runtime on a thread of its own,
    as another process would, while the caller's loop waits for it."""
    async def go() -> None:
        other = await Runtime.open(home, ws, Switches())
        try:
            await collect(other.store, other.home / "snapshots", older_than=0)
        finally:
            await other.close()

    worker = threading.Thread(target=asyncio.run, args=(go(),))
    worker.start()
    worker.join()


READS = {"reading its paths": 1, "reading a later receipt's paths": 2, "reading its paths for the edit check": 3}


@pytest.mark.parametrize("moment", ["after reading it as reversible", *READS])
async def test_r3_16_gc_between_an_undos_checks_gives_one_line_and_keeps_gcs_record(
        tmp_path: Path, monkeypatch, moment: str) -> None:
    """The undo of the older of two receipts (on other files), with a whole gc run at one of its steps."""
    home, ws = tmp_path / "home", tmp_path / "ws"
    receipt_id, _ = await written(home, ws, 2)
    runtime = await Runtime.open(home, ws, Switches())
    try:
        if moment == "after reading it as reversible":
            refusing, calls = Journal._refuse, []

            def refuse(receipt):
                refusing(receipt)
                calls.append(receipt)
                if len(calls) == 1:
                    whole_gc(home, ws)

            monkeypatch.setattr(Journal, "_refuse", staticmethod(refuse))
        else:
            reading, calls = WorkspaceEnv.snapshot_targets, []

            def snapshot_targets(self, saved):
                calls.append(saved)
                if len(calls) == READS[moment]:
                    whole_gc(home, ws)
                return reading(self, saved)

            monkeypatch.setattr(WorkspaceEnv, "snapshot_targets", snapshot_targets)
        with pytest.raises(UndoError) as refused:
            await runtime.undo(receipt_id)
        assert "\n" not in str(refused.value)
        receipt = await runtime.journal.get(receipt_id)
        assert receipt.reversal is Reversal.AUDIT_ONLY and receipt.snapshot_path is None, \
            "gc's demotion stands: the undo neither restored nor marked it irrecoverable"
        assert "snapshot removed by gc" in receipt.summary
        assert (ws / "f0.txt").read_text() == "after 0\n"
    finally:
        await runtime.close()


async def test_r3_16_undos_and_gc_at_the_same_time_never_raise_anything_but_one_line(tmp_path: Path) -> None:
    home, ws = tmp_path / "home", tmp_path / "ws"
    receipt_ids = await written(home, ws, 24)
    failures: list[BaseException] = []
    start = threading.Barrier(2)

    def undoing() -> None:
        async def go() -> None:
            runtime = await Runtime.open(home, ws, Switches())
            try:
                start.wait()
                for receipt_id in reversed(receipt_ids):
                    try:
                        await runtime.undo(receipt_id)
                    except UndoError as exc:
                        assert "\n" not in str(exc)
            finally:
                await runtime.close()

        try:
            asyncio.run(go())
        except BaseException as exc:  # anything but a one-line refusal is the finding
            failures.append(exc)

    def collecting() -> None:
        async def go() -> None:
            runtime = await Runtime.open(home, ws, Switches())
            try:
                start.wait()
                for _ in range(3):
                    await collect(runtime.store, runtime.home / "snapshots", older_than=0)
            finally:
                await runtime.close()

        try:
            asyncio.run(go())
        except BaseException as exc:
            failures.append(exc)

    threads = [threading.Thread(target=undoing), threading.Thread(target=collecting)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=300)
    assert not failures, failures

    runtime = await Runtime.open(home, ws, Switches())
    try:
        for number, receipt_id in enumerate(receipt_ids):
            receipt = await runtime.journal.get(receipt_id)
            text = (ws / f"f{number}.txt").read_text()
            if receipt.reversal is Reversal.REVERSED:
                assert text == f"before {number}\n"
            else:
                assert receipt.reversal is Reversal.AUDIT_ONLY and "snapshot removed by gc" in receipt.summary
                assert text == f"after {number}\n"
            assert receipt.snapshot_path is None or not Path(receipt.snapshot_path).exists()
    finally:
        await runtime.close()
