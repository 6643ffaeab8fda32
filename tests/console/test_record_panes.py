"""The record panes at any scale: the cursor follows its record, newest first, every record reachable
and counted, `/` finds records that were never loaded, and text columns use the width they have."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

from app.console import create_app
from app.screens.confirm import ConfirmScreen
from engine.journal.journal import Prepared
from engine.journal.receipt import SnapshotKind
from engine.runtime import Runtime, Switches
from engine.tasks.task import TaskSpec, scripted
from engine.tier import Tier
from engine.tools.call import ToolCall
from tests.console.test_demo_flow import asking, query, until
from widgets.approval_list import ApprovalList
from widgets.program_list import ProgramList
from widgets.receipt_journal import ReceiptJournal
from widgets.record_rows import RecordRows
from widgets.record_time import clock
from widgets.task_queue import TaskQueue

SIZE = (160, 48)


def write(path: str, content: str, goal: str | None = None) -> TaskSpec:
    return TaskSpec(goal=goal or f"Write {path}", learn=False,
                    agent=scripted([ToolCall("fs.write", {"path": path, "content": content})]))


async def run(pilot, app, *specs: TaskSpec) -> list[str]:
    """Submit the tasks through the console's engine and wait until they have finished."""
    await until(pilot, lambda: app.engine is not None, "the engine to start")
    tasks = await app.engine.call(lambda rt: rt.submit_all(list(specs)))
    ids = [task.id for task in tasks]
    marks = ",".join("?" * len(ids))
    await until(pilot, lambda: query(app.home, f"SELECT COUNT(*) FROM tasks WHERE id IN ({marks})"
                                     " AND status IN ('succeeded', 'failed')", tuple(ids)) == [(len(ids),)],
                "the tasks to finish")
    return ids


def receipt_of(home: Path, path: str) -> str:
    [(receipt_id,)] = query(home, "SELECT id FROM receipts WHERE json_extract(call, '$.args.path') = ?", (path,))
    return receipt_id


def line(rows: RecordRows, place: int) -> str:
    """The text drawn for the record at `place` (which must be on screen), its lines joined by a line feed."""
    first = (place - rows.scroll_top) * rows.row_height + 1
    return "\n".join("".join(segment.text for segment in rows.render_line(first + part))
                     for part in range(rows.row_height))


async def fill_journal(home: Path, workspace: Path, count: int) -> list[str]:
    """`count` receipts, oldest first, with summaries `wrote note-0000.txt`, `wrote note-0001.txt`, …"""
    runtime = await Runtime.open(home, workspace, Switches())
    ids = [f"{number:012x}" for number in range(count)]
    try:
        async with runtime.store.transaction() as db:
            for number, receipt_id in enumerate(ids):
                call = ToolCall("fs.write", {"path": f"note-{number:04d}.txt", "content": "x"})
                await runtime.journal.commit(db, Prepared(receipt_id, runtime.workspace.identity, SnapshotKind.NONE,
                                                          None), None, None, call, Tier.LOCAL_REVERSIBLE,
                                             f"wrote note-{number:04d}.txt")
    finally:
        await runtime.close()
    return ids


async def test_the_cursor_stays_on_its_receipt_when_another_arrives_and_u_undoes_that_one(tmp_path: Path) -> None:
    home, workspace = tmp_path / "home", tmp_path / "workspace"
    workspace.mkdir(parents=True)
    (workspace / "a.txt").write_bytes(b"original\n")
    app = create_app(home, workspace, switches=Switches())
    async with app.run_test(size=SIZE) as pilot:
        journal, tasks = app.query_one(ReceiptJournal), app.query_one(TaskQueue)
        await run(pilot, app, write("a.txt", "changed\n"))
        await run(pilot, app, write("b.txt", "b\n"))
        await until(pilot, lambda: journal.row_count == 2, "both receipts")
        target = receipt_of(home, "a.txt")
        journal.focus()
        await pilot.press("home", "down")
        assert journal.selected_key == target and journal.get_row_index(target) == 1

        tasks.focus()
        await pilot.pause()
        await run(pilot, app, write("c.txt", "c\n"))
        await until(pilot, lambda: journal.row_count == 3, "the new receipt")
        newest = receipt_of(home, "c.txt")
        assert journal.get_row_at(0)[0].plain == newest, "the new receipt is at the top"
        assert journal.selected_key == target, "the cursor stayed on its receipt, not on its row"
        assert journal.get_row_index(target) == 2 and journal.body.cursor == 2
        assert target in line(journal.body, 2)

        asked: list[str] = []
        post = journal.post_message
        journal.post_message = lambda message: (  # type: ignore[method-assign]
            asked.append(message.receipt_id) if isinstance(message, ReceiptJournal.UndoRequested) else None,
            post(message))[1]
        journal.focus()
        await pilot.press("u")
        assert asked == [target]
        await pilot.pause(0.2)
        if isinstance(app.screen, ConfirmScreen):
            await pilot.press("y")
        await until(pilot, lambda: (workspace / "a.txt").read_bytes() == b"original\n", "a.txt restored")
        assert (workspace / "b.txt").read_bytes() == b"b\n" and (workspace / "c.txt").read_bytes() == b"c\n"
        assert query(home, "SELECT reversal FROM receipts WHERE id = ?", (target,)) == [("reversed",)]


async def test_tasks_and_receipts_are_listed_newest_first_with_their_times(tmp_path: Path) -> None:
    home, workspace = tmp_path / "home", tmp_path / "workspace"
    app = create_app(home, workspace, switches=Switches())
    async with app.run_test(size=SIZE) as pilot:
        tasks, journal = app.query_one(TaskQueue), app.query_one(ReceiptJournal)
        first = (await run(pilot, app, write("one.txt", "1")))[0]
        second = (await run(pilot, app, write("two.txt", "2")))[0]
        await until(pilot, lambda: tasks.row_count == 2 and journal.row_count == 2, "both rows in both panes")
        await until(pilot, lambda: all("✔" in tasks.get_row(task)[1].plain for task in (first, second)),
                    "the tasks drawn finished")
        assert [tasks.get_row_at(place)[0].plain for place in (0, 1)] == [second, first]
        assert [journal.get_row_at(place)[0].plain for place in (0, 1)] == [receipt_of(home, "two.txt"),
                                                                          receipt_of(home, "one.txt")]
        [(created, updated)] = query(home, "SELECT created_at, updated_at FROM tasks WHERE id = ?", (first,))
        row = tasks.get_row(first)
        queued, took = row[5].plain, row[6].plain
        assert queued in (time.strftime("%H:%M:%S", time.localtime(created)), clock(created)), queued
        assert took.endswith("s") and float(took.rstrip("s")) <= updated - created + 0.05, took
        assert str(tasks.border_subtitle) == "2 tasks" and str(journal.border_subtitle) == "2 receipts"


async def test_every_receipt_is_reachable_counted_and_found_by_the_filter(tmp_path: Path) -> None:
    home, workspace = tmp_path / "home", tmp_path / "workspace"
    ids = await fill_journal(home, workspace, 600)
    app = create_app(home, workspace, switches=Switches())
    async with app.run_test(size=SIZE) as pilot:
        journal = app.query_one(ReceiptJournal)
        await until(pilot, lambda: journal.row_count == 600 and journal.rows, "the journal's first page")
        assert str(journal.border_subtitle) == "600 receipts"
        assert ids[-1] in journal.rows and ids[2] not in journal.rows, "only the stretch in view is loaded"

        journal.focus()
        await pilot.press("end")
        await until(pilot, lambda: journal.selected_key == ids[0], "the oldest receipt under the cursor")
        assert journal.get_row_index(ids[0]) == 599
        await pilot.press("home")
        await until(pilot, lambda: journal.selected_key == ids[-1], "back at the newest")
        await pilot.press("down", "down")
        await until(pilot, lambda: ids[2] not in journal.rows, "the oldest stretch released")

        await pilot.press("slash")
        assert app.focused is journal.bar
        await pilot.press(*"NOTE-0002")
        await until(pilot, lambda: journal.row_count == 1, "the filter to reach the third oldest receipt")
        assert journal.selected_key == ids[2] and "note-0002.txt" in line(journal.body, 0)
        assert str(journal.border_subtitle) == 'filtered: "NOTE-0002" · 1 of 600'
        await pilot.press("enter")
        assert app.focused is journal.body and journal.row_count == 1

        await pilot.press("escape")
        await until(pilot, lambda: journal.row_count == 600, "every receipt back")
        assert str(journal.border_subtitle) == "600 receipts"
        assert journal.selected_key == ids[2] and journal.get_row_index(ids[2]) == 597, \
            "the cursor stays on the record it was on"


async def test_filter_on_tasks_and_approvals_and_the_approval_call_keeps_its_path_and_tail(tmp_path: Path) -> None:
    home, workspace = tmp_path / "home", tmp_path / "workspace"
    asking(home, '[tools."fs.write"]\nlevel = "dangerous"\n[tools."shell.run"]\nlevel = "dangerous"\n')
    padded = "echo " + "x" * 300 + " > padded.txt"
    app = create_app(home, workspace, switches=Switches())
    async with app.run_test(size=(240, 60)) as pilot:
        await until(pilot, lambda: app.engine is not None, "the engine to start")
        await app.engine.call(lambda rt: rt.submit_all([
            write("target.txt", "y" * 500, goal="Write the target file"),
            TaskSpec(goal="Run a padded command", learn=False,
                     agent=scripted([ToolCall("shell.run", {"command": padded})])),
        ]))
        approvals, tasks = app.query_one(ApprovalList), app.query_one(TaskQueue)
        await until(pilot, lambda: approvals.row_count == 2, "both calls to wait for approval")
        drawn = [line(approvals.body, place) for place in (0, 1)]
        [written] = [text for text in drawn if "fs.write" in text]
        [shell] = [text for text in drawn if "$ echo" in text]
        assert "fs.write path='target.txt' content='yyy" in written, "the path comes before the long content"
        assert "$ echo xxx" in shell and "…" in shell and "> padded.txt" in shell, \
            "a command longer than two lines loses its middle, never its end"

        approvals.focus()
        await pilot.press("slash", *"padded", "enter")
        await until(pilot, lambda: approvals.row_count == 1, "the approvals filtered")
        assert "$ echo" in line(approvals.body, 0)
        assert str(approvals.border_subtitle) == 'filtered: "padded" · 1 of 2'

        tasks.focus()
        await pilot.press("slash", *"target file")
        await until(pilot, lambda: tasks.filter_text == "target file" and tasks.row_count == 1,
                    "the tasks filtered by all that was typed (keys slower than the pause apply a prefix first)")
        assert tasks.get_row_at(0)[4].plain == "Write the target file"
        await pilot.press("escape")
        await until(pilot, lambda: tasks.row_count == 2, "both tasks again")
        assert query(home, "SELECT COUNT(*) FROM approvals WHERE status = 'pending'") == [(2,)], "nothing was decided"

        programs = app.query_one(ProgramList)
        await until(pilot, lambda: programs.row_count == 1, "the shipped program")
        programs.focus()
        await pilot.press("slash", *"no such family")
        await until(pilot, lambda: programs.filter_text == "no such family",
                    "the programs filtered by all that was typed (a prefix such as \"no such\" lists none too)")
        assert programs.row_count == 0
        assert str(programs.border_subtitle) == 'filtered: "no such family" · 0 of 1'
        await pilot.press("escape")
        await until(pilot, lambda: programs.row_count == 1, "the program back")


async def test_text_columns_take_the_width_there_is(tmp_path: Path) -> None:
    home, workspace = tmp_path / "home", tmp_path / "workspace"
    goal = "Publish the release note for version 1.2 in full"
    drawn: dict[int, str] = {}
    for width, height in ((80, 24), (120, 40), (240, 60)):
        app = create_app(home, workspace, switches=Switches())
        async with app.run_test(size=(width, height)) as pilot:
            tasks = app.query_one(TaskQueue)
            if width == 80:
                await run(pilot, app, write("n.txt", "n", goal=goal))
            await until(pilot, lambda tasks=tasks: tasks.row_count == 1 and tasks.rows, "the task's row")
            tasks.focus()
            await pilot.pause()
            drawn[width] = line(tasks.body, 0)
        await asyncio.sleep(0)
    assert goal in drawn[240], drawn[240]
    assert goal not in drawn[120] and goal[:12] in drawn[120] and "…" in drawn[120], drawn[120]
    assert goal[:20] in drawn[80], drawn[80]
    assert len(drawn[240].strip()) > len(drawn[120].strip())
