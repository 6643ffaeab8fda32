"""The cursor follows its record: a receipt arriving above it never moves `u` onto another record."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Static

from app.console import create_app
from app.screens.confirm import ConfirmScreen
from engine.runtime import Switches
from engine.tasks.task import TaskSpec, scripted
from engine.tools.call import ToolCall
from tests.console.test_console_keys import submit
from tests.console.test_demo_flow import SIZE, query, until
from widgets.receipt_journal import ReceiptJournal


def write(path: str, content: str) -> TaskSpec:
    return TaskSpec(goal=f"Write {path}", learn=False, agent=scripted((ToolCall("fs.write", {"path": path,
                                                                                             "content": content}),)))


async def test_a_new_receipt_leaves_the_cursor_on_its_record_and_u_undoes_that_one(tmp_path: Path) -> None:
    home, ws = tmp_path / "home", tmp_path / "ws"
    ws.mkdir()
    (ws / "a.txt").write_bytes(b"the person's a\n")
    app = create_app(home, ws, switches=Switches())
    async with app.run_test(size=SIZE) as pilot:
        first = await submit(pilot, app, write("a.txt", "agent's a\n"))
        second = await submit(pilot, app, write("b.txt", "agent's b\n"))
        journal = app.query_one(ReceiptJournal)
        receipt_of = lambda task: query(home, "SELECT id FROM receipts WHERE task_id = ?", (task.id,))  # noqa: E731
        await until(pilot, lambda: receipt_of(first) and receipt_of(second), "both receipts")
        [(mine,)], [(other,)] = receipt_of(first), receipt_of(second)
        await until(pilot, lambda: mine in journal.rows and other in journal.rows, "both rows")
        await pilot.press("3")
        journal.move_cursor(row=journal.get_row_index(mine))
        assert journal.selected_key == mine
        row_before = journal.get_row_index(mine)

        third = await submit(pilot, app, write("c.txt", "agent's c\n"))
        await until(pilot, lambda: receipt_of(third) and receipt_of(third)[0][0] in journal.rows, "the new receipt")
        assert journal.get_row_index(mine) == row_before + 1, "the new receipt is drawn above, newest first"
        assert journal.selected_key == mine, "the cursor stayed on its record, not on its row"

        await pilot.press("u")
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen), "the undo confirmation")
        shown = str(app.screen.query_one("#confirm-preview", Static).render())
        assert mine in shown and "a.txt" in shown and other not in shown
        await pilot.press("y")
        await until(pilot, lambda: (ws / "a.txt").read_bytes() == b"the person's a\n", "a.txt restored")
        assert (ws / "b.txt").read_bytes() == b"agent's b\n" and (ws / "c.txt").read_bytes() == b"agent's c\n"
        assert query(home, "SELECT id FROM receipts WHERE reversal = 'reversed'") == [(mine,)]
