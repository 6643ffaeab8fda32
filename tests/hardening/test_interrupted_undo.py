"""An undo killed after its claim leaves the receipt `reversing`; it used to stay so for good ("being undone by
another process"). An undo holds the receipt's lock from claim to end, so a free lock on a `reversing` receipt
means the undo died: a restore is resumed, a compensation is run again only when forced."""

from __future__ import annotations

import fcntl
import os
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from engine.journal.journal import UndoError
from engine.journal.receipt import Reversal
from engine.runtime import Runtime, Switches
from engine.tasks.task import TaskSpec, TaskStatus, scripted
from engine.tools.call import ToolCall

REPO = Path(__file__).resolve().parents[2]
KILLED_AFTER_RESTORING = """
import asyncio, os, signal, sys
from pathlib import Path
from engine.journal import journal
from engine.runtime import Runtime, Switches

restoring = journal._reverse

async def restore_then_die(*args):
    await restoring(*args)
    os.kill(os.getpid(), signal.SIGKILL)  # restored, never marked reversed

journal._reverse = restore_then_die

async def main(base, receipt_id):
    runtime = await Runtime.open(base / "home", base / "ws", Switches())
    await runtime.undo(receipt_id)

asyncio.run(main(Path(sys.argv[1]), sys.argv[2]))
"""


async def written(tmp_path: Path) -> tuple[Runtime, str]:
    """A runtime, and the receipt of an fs.write over notes.txt (a copy snapshot)."""
    (tmp_path / "ws").mkdir()
    (tmp_path / "ws" / "notes.txt").write_text("before\n")
    runtime = await Runtime.open(tmp_path / "home", tmp_path / "ws", Switches())
    task = await runtime.submit(TaskSpec(goal="Rewrite the notes", learn=False, agent=scripted([
        ToolCall("fs.write", {"path": "notes.txt", "content": "after\n"})])))
    await runtime.run_until_idle()
    assert (await runtime.task(task.id)).status is TaskStatus.SUCCEEDED
    [receipt] = await runtime.journal.for_task(task.id)
    return runtime, receipt.id


async def test_an_undo_killed_before_it_marked_the_receipt_is_resumed_by_the_next(tmp_path: Path) -> None:
    runtime, receipt_id = await written(tmp_path)
    try:
        child = tmp_path / "undo.py"
        child.write_text(KILLED_AFTER_RESTORING, encoding="utf-8")
        killed = subprocess.run([sys.executable, str(child), str(tmp_path), receipt_id], capture_output=True,
                                text=True, timeout=120, cwd=REPO)
        assert killed.returncode == -signal.SIGKILL, killed.stderr
        assert (await runtime.journal.get(receipt_id)).reversal is Reversal.REVERSING
        assert (tmp_path / "ws" / "notes.txt").read_text() == "before\n"

        undone = await runtime.undo(receipt_id)

        assert undone.reversal is Reversal.REVERSED
        assert (tmp_path / "ws" / "notes.txt").read_text() == "before\n"
        [own] = [r for r in await runtime.journal.receipts() if r.undoes == receipt_id]
        assert "resuming an undo that stopped" in own.summary
    finally:
        await runtime.close()


async def test_a_live_undo_holding_the_lock_is_never_taken_over(tmp_path: Path) -> None:
    runtime, receipt_id = await written(tmp_path)
    try:
        with sqlite3.connect(tmp_path / "home" / "warden.db") as db:
            db.execute("UPDATE receipts SET reversal = 'reversing' WHERE id = ?", (receipt_id,))
        db.close()
        lock = os.open(tmp_path / "home" / "fences" / f"undo-{receipt_id}.lock", os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(lock, fcntl.LOCK_EX)  # another undo, alive
            with pytest.raises(UndoError, match="being undone by another process"):
                await runtime.undo(receipt_id)
            assert (tmp_path / "ws" / "notes.txt").read_text() == "after\n"
        finally:
            os.close(lock)
        assert (await runtime.undo(receipt_id)).reversal is Reversal.REVERSED, "once it is gone, the undo resumes"
    finally:
        await runtime.close()
