"""Finding 4 (second half): an approved unconfined shell step rewrote a file, leaving an audit-only receipt
and no snapshot, and undo of an earlier write to that file went ahead and discarded the rewrite."""

from __future__ import annotations

import pytest

from engine.gate.policy import Policy
from engine.journal.journal import UndoError
from engine.journal.receipt import Reversal
from engine.runtime import Runtime, Switches
from engine.tasks.task import TaskSpec, TaskStatus, scripted
from engine.tools.call import ToolCall


async def test_f04_an_audit_only_step_blocks_undo_of_earlier_receipts_unless_forced(tmp_path, run_approving,
                                                                                    monkeypatch):
    monkeypatch.setenv("WARDEN_BWRAP", str(tmp_path / "no-bubblewrap-here"))  # the host without a sandbox
    home, ws = tmp_path / "home", tmp_path / "ws"
    home.mkdir()
    (home / "policy.toml").write_text('[shell]\nunconfined = "allow"\n')
    runtime = await Runtime.open(home, ws, Switches(), policy=Policy.load(home / "policy.toml"))
    try:
        task = await run_approving(runtime, TaskSpec(goal="Write then rewrite", agent=scripted([
            ToolCall("fs.write", {"path": "b.txt", "content": "first\n"}),
            ToolCall("shell.run", {"command": "printf 'rewritten\\n' > b.txt"}),
        ])))
        assert task.status is TaskStatus.SUCCEEDED, task.error
        write, shell = sorted(await runtime.journal.for_task(task.id), key=lambda r: r.step_idx)
        assert shell.reversal is Reversal.AUDIT_ONLY and write.reversal is Reversal.REVERSIBLE

        with pytest.raises(UndoError, match=f"{shell.id}.*unknown.*force"):
            await runtime.undo(write.id)
        assert (ws / "b.txt").read_text() == "rewritten\n"
        assert (await runtime.receipt(write.id)).reversal is Reversal.REVERSIBLE

        await runtime.undo(write.id, force=True)
        assert not (ws / "b.txt").exists()
    finally:
        await runtime.close()


async def test_f04_a_blocked_call_is_no_unknown_change(runtime, run):
    """A blocked call never ran: its audit receipt must not block anything."""
    task = await run(runtime, TaskSpec(goal="Write, then try the catastrophic", agent=scripted([
        ToolCall("fs.write", {"path": "c.txt", "content": "c\n"}),
        ToolCall("shell.run", {"command": "rm -rf /"}),
    ])))
    assert task.status is TaskStatus.FAILED
    write = next(r for r in await runtime.journal.for_task(task.id) if r.call.tool == "fs.write")
    await runtime.undo(write.id)
    assert (await runtime.receipt(write.id)).reversal is Reversal.REVERSED
