"""The console's safe keys and its frame: confirmations naming their target, the status line, tabs and zoom."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Static, Tabs

from app.console import create_app
from app.screens.confirm import ConfirmScreen
from app.screens.error_log import ErrorLogScreen
from app.screens.help import HelpScreen
from engine.runtime import Runtime, Switches
from engine.tasks.task import TaskSpec, scripted
from engine.tools.call import ToolCall
from tests.console.test_demo_flow import SIZE, asking, query, until
from widgets.approval_list import ApprovalList
from widgets.receipt_journal import ReceiptJournal
from widgets.status_line import StatusLine
from widgets.task_queue import TaskQueue


async def submit(pilot, app, spec: TaskSpec):
    await until(pilot, lambda: app.engine is not None, "the engine to start")
    [task] = await app.engine.call(lambda rt: rt.submit_all([spec]))
    return task


def preview(app) -> str:
    return str(app.screen.query_one("#confirm-preview", Static).render())


def status_of(home: Path, task_id: str) -> str:
    return query(home, "SELECT status FROM tasks WHERE id = ?", (task_id,))[0][0]


async def test_U_undoes_a_whole_task_after_naming_every_receipt(tmp_path: Path) -> None:
    home, ws = tmp_path / "home", tmp_path / "ws"
    ws.mkdir()
    (ws / "keep.txt").write_text("mine\n")
    app = create_app(home, ws, switches=Switches())
    async with app.run_test(size=SIZE) as pilot:
        task = await submit(pilot, app, TaskSpec(goal="Write notes", learn=False, agent=scripted((
            ToolCall("fs.write", {"path": "a.txt", "content": "one\n"}),
            ToolCall("fs.append", {"path": "keep.txt", "content": "theirs\n"}),
            ToolCall("fs.write", {"path": "b.txt", "content": "bee\n"})))))
        await until(pilot, lambda: status_of(home, task.id) == "succeeded", "the task to finish")
        tasks = app.query_one(TaskQueue)
        await until(pilot, lambda: task.id in tasks.rows, "the task's row")
        tasks.focus()
        tasks.move_cursor(row=tasks.get_row_index(task.id))

        await pilot.press("U")
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen), "the confirmation")
        shown = preview(app)
        receipts = [r for (r,) in query(home, "SELECT id FROM receipts WHERE task_id = ? ORDER BY step_idx DESC",
                                        (task.id,))]
        assert len(receipts) == 3 and all(r in shown for r in receipts)
        assert shown.index(receipts[0]) < shown.index(receipts[2]), "newest first"
        await pilot.press("escape")
        await until(pilot, lambda: not isinstance(app.screen, ConfirmScreen), "the confirmation to close")
        assert (ws / "a.txt").exists(), "escape undoes nothing"

        await pilot.press("U")
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen), "the confirmation again")
        await pilot.press("y")
        await until(pilot, lambda: not (ws / "a.txt").exists() and not (ws / "b.txt").exists(), "the task undone")
        assert (ws / "keep.txt").read_text() == "mine\n"
        assert query(home, "SELECT DISTINCT reversal FROM receipts WHERE task_id = ? AND undoes IS NULL",
                         (task.id,)) == [("reversed",)]


async def delete_waiting_on_the_cursor(pilot, app, ws: Path):
    """A task whose delete of `old.txt` waits for approval, highlighted in the Tasks pane."""
    (ws / "old.txt").write_text("old\n")
    task = await submit(pilot, app, TaskSpec(goal="Delete old.txt", learn=False, agent=scripted((
        ToolCall("fs.delete", {"path": "old.txt"}),))))
    await until(pilot, lambda: app.query_one(ApprovalList).row_count == 1, "the delete to wait for approval")
    tasks = app.query_one(TaskQueue)
    tasks.focus()
    tasks.move_cursor(row=tasks.get_row_index(task.id))
    return task


async def test_c_asks_before_cancelling_and_names_the_task(tmp_path: Path) -> None:
    home, ws = asking(tmp_path / "home"), tmp_path / "ws"
    ws.mkdir()
    app = create_app(home, ws, switches=Switches())
    async with app.run_test(size=SIZE) as pilot:
        task = await delete_waiting_on_the_cursor(pilot, app, ws)
        assert app.query_one(StatusLine).waiting == 1
        assert "(1 waiting)" in str(app.query_one(ApprovalList).border_title)

        await pilot.press("c")
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen), "the confirmation")
        assert task.id in preview(app) and "Delete old.txt" in preview(app)
        await pilot.press("n")
        await until(pilot, lambda: not isinstance(app.screen, ConfirmScreen), "the confirmation to close")
        assert status_of(home, task.id) == "paused"

        await pilot.press("c")
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen), "the confirmation again")
        await pilot.press("enter")
        await until(pilot, lambda: status_of(home, task.id) == "cancelled", "the task cancelled")
        assert (ws / "old.txt").read_text() == "old\n"
        await until(pilot, lambda: app.query_one(StatusLine).waiting == 0, "nothing left waiting")


async def test_an_engine_that_stops_says_so_in_the_status_line_and_the_log(tmp_path: Path, monkeypatch) -> None:
    async def broken_serve(self) -> None:
        raise OSError("database disk image is malformed")

    monkeypatch.setattr(Runtime, "serve", broken_serve)
    app = create_app(tmp_path / "home", tmp_path / "ws", switches=Switches())
    async with app.run_test(size=SIZE) as pilot:
        status = app.query_one(StatusLine)
        await until(pilot, lambda: status.has_class("-stopped"), "the status line to say the engine stopped")
        line = str(status.render())
        assert "engine stopped" in line and "database disk image is malformed" in line
        await pilot.press("exclamation_mark")
        await until(pilot, lambda: isinstance(app.screen, ErrorLogScreen), "the error log")
        assert "database disk image is malformed" in str(app.screen.query_one("#error-log", Static).render())


async def test_below_100_columns_the_panes_are_tabs(tmp_path: Path) -> None:
    app = create_app(tmp_path / "home", tmp_path / "ws", switches=Switches())
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: app.engine is not None, "the engine to start")
        tasks, journal = app.query_one(TaskQueue), app.query_one(ReceiptJournal)
        assert app.query_one(Tabs).display and tasks.display and not journal.display
        assert tasks.region.width == 80
        await pilot.press("3")
        await pilot.pause()
        assert journal.display and not tasks.display and app.pane_of(app.focused) == "journal"
        await pilot.press("tab")
        await pilot.pause()
        assert app.query_one("#programs-pane").display and not journal.display
        await pilot.resize_terminal(160, 48)
        await pilot.pause()
        assert not app.query_one(Tabs).display and tasks.display and journal.display


async def test_z_zooms_the_focused_pane_and_restores_it(tmp_path: Path) -> None:
    app = create_app(tmp_path / "home", tmp_path / "ws", switches=Switches())
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: app.engine is not None, "the engine to start")
        journal = app.query_one(ReceiptJournal)
        await pilot.press("3")
        half = journal.region.width
        await pilot.press("z")
        await pilot.pause()
        assert app.screen.maximized is journal and journal.region.width == SIZE[0] > half
        await pilot.press("z")
        await pilot.pause()
        assert app.screen.maximized is None and journal.region.width == half


async def test_help_lists_the_keys_as_mapped_and_t_cycles_three_themes(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    (home / "keymap.toml").write_text('"warden.approve" = "y"\n')
    app = create_app(home, tmp_path / "ws", switches=Switches())
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("question_mark")
        await until(pilot, lambda: isinstance(app.screen, HelpScreen), "the help screen")
        text = str(app.screen.query_one("#help", Static).render())
        assert "Approve" in text and " y " in text.replace("\n", " ")
        await pilot.press("escape")
        seen = [app.theme]
        for _ in range(3):
            await pilot.press("t")
            seen.append(app.theme)
        assert seen[0] == seen[3] and len(set(seen)) == 3 and "warden-high-contrast" in seen


async def test_record_keys_do_nothing_under_a_confirmation(tmp_path: Path) -> None:
    home, ws = asking(tmp_path / "home"), tmp_path / "ws"
    ws.mkdir()
    app = create_app(home, ws, switches=Switches())
    async with app.run_test(size=SIZE) as pilot:
        await delete_waiting_on_the_cursor(pilot, app, ws)
        await pilot.press("c")
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen), "the cancel confirmation")
        await pilot.press("a")
        await pilot.pause(0.3)
        assert (ws / "old.txt").exists() and query(home, "SELECT status FROM approvals") == [("pending",)]
        assert isinstance(app.screen, ConfirmScreen)
