"""The demo through the console's Pilot: approve with `a`, undo with `u`, check files and the database."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from textual.widgets import Static

from app.console import create_app
from app.screens.confirm import ConfirmScreen
from engine.demo import SCRATCH_BYTES
from engine.runtime import Switches, operator
from widgets.approval_list import ApprovalList
from widgets.program_graph import ProgramGraph
from widgets.receipt_journal import ReceiptJournal
from widgets.task_queue import TaskQueue

SIZE = (160, 48)
ASK_DANGEROUS = "[ask]\ndangerous = true\n"
"""A policy line that holds every dangerous call for a person, contained or not (as the gate did before it routed
by reversibility): tests of how the console shows and decides approvals need calls that ask."""


def asking(home: Path, policy: str = "") -> Path:
    """Make `home` with a policy that asks about every dangerous call (`policy` adds to it); returns `home`."""
    home.mkdir(parents=True, exist_ok=True)
    (home / "policy.toml").write_text(policy + ASK_DANGEROUS, encoding="utf-8")
    return home


def query(home: Path, sql: str, params: tuple = ()) -> list[tuple]:
    with sqlite3.connect(home / "warden.db") as db:
        return db.execute(sql, params).fetchall()


async def until(pilot, condition, what: str, attempts: int = 1500) -> None:
    for _ in range(attempts):
        if condition():
            return
        await pilot.pause(0.02)
    raise AssertionError(f"timed out waiting for {what}")


async def test_demo_approve_then_undo(tmp_path: Path) -> None:
    home, workspace = asking(tmp_path / "home"), tmp_path / "workspace"
    app = create_app(home, workspace, demo=True, switches=Switches(), web_demo=False)
    async with app.run_test(size=SIZE) as pilot:
        approvals = app.query_one(ApprovalList)
        await until(pilot, lambda: approvals.row_count == 1, "the dangerous step to wait for approval")
        assert (workspace / "scratch.txt").read_bytes() == SCRATCH_BYTES
        assert query(home, "SELECT status FROM approvals") == [("pending",)]

        await pilot.press("a")
        await pilot.pause(0.2)
        assert query(home, "SELECT status FROM approvals") == [("pending",)], "`a` from Tasks only shows Approvals"
        assert app.pane_of(app.focused) == "approvals"
        await pilot.press("a")
        await until(pilot, lambda: not (workspace / "scratch.txt").exists(), "the approved delete to run")
        await until(pilot, lambda: approvals.row_count == 0, "the approvals pane to empty")
        assert query(home, "SELECT status, decided_by FROM approvals") == [("used", operator())]

        now = lambda: dict(query(home, "SELECT goal, status FROM tasks"))  # noqa: E731
        await until(pilot, lambda: now()["Delete the scratch file scratch.txt"] == "succeeded", "the task to end")
        statuses = now()
        assert statuses["Clean up everything on the machine"] == "failed"
        modes = dict(query(home, "SELECT goal, mode FROM tasks"))
        assert modes["Publish the release note for version 1.3"] == "replay"

        journal = app.query_one(ReceiptJournal)
        [(receipt_id,)] = query(
            home,
            "SELECT id FROM receipts WHERE json_extract(call, '$.tool') = 'fs.delete'"
            " AND json_extract(call, '$.args.path') = 'scratch.txt'",
        )
        await until(pilot, lambda: receipt_id in journal.rows, "the delete's receipt in the journal")
        await pilot.press("3")
        assert journal.selected_key == receipt_id, "the journal opens on its newest receipt, the delete"
        await pilot.press("u")
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen), "the undo confirmation")
        preview = str(app.screen.query_one("#confirm-preview", Static).render())
        assert receipt_id in preview and "scratch.txt" in preview
        assert not (workspace / "scratch.txt").exists(), "nothing is undone before the person confirms"
        await pilot.press("y")
        await until(pilot, lambda: (workspace / "scratch.txt").exists(), "undo to restore the file")
        assert (workspace / "scratch.txt").read_bytes() == SCRATCH_BYTES
        reversal = lambda: query(home, "SELECT reversal FROM receipts WHERE id = ?", (receipt_id,))  # noqa: E731
        await until(pilot, lambda: reversal() == [("reversed",)], "the receipt to be marked reversed")

        assert app.query_one(TaskQueue).row_count == 4
        assert app.query_one(ProgramGraph).program is not None
