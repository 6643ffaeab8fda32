"""Keys act on what is on screen, and only there: `a`/`d` decide only the approval the person sees, a replay
never moves the Programs selection, a pane opens on its newest record, and an off-screen row is never acted on."""

from __future__ import annotations

import asyncio
from pathlib import Path

from app.console import create_app
from app.screens.confirm import ConfirmScreen
from app.screens.program_decision import ProgramDecisionScreen
from engine.runtime import Runtime, Switches
from engine.tasks.task import TaskSpec, scripted
from engine.tools.call import ToolCall
from tests.console.test_console_keys import preview, submit
from tests.console.test_demo_flow import SIZE, asking, query, until
from tests.console.test_program_graph import Console, attic_then_delete, retire
from tests.console.test_program_review import decision
from widgets.approval_list import ApprovalList
from widgets.program_graph import ProgramGraph
from widgets.program_list import ProgramList
from widgets.receipt_journal import ReceiptJournal


def delete(name: str) -> TaskSpec:
    return TaskSpec(goal=f"Delete {name}", learn=False, agent=scripted((ToolCall("fs.delete", {"path": name}),)))


def writes(count: int, prefix: str = "f") -> TaskSpec:
    return TaskSpec(goal=f"Write {count} files {prefix}*", learn=False, agent=scripted(tuple(
        ToolCall("fs.write", {"path": f"{prefix}{n:02}.txt", "content": f"{n}\n"}) for n in range(count))))


def statuses(home: Path) -> list[str]:
    return [status for (status,) in query(home, "SELECT status FROM approvals ORDER BY id")]


async def waiting(pilot, app, ws: Path, *names: str) -> None:
    for name in names:
        (ws / name).write_text(name)
        await submit(pilot, app, delete(name))
    await until(pilot, lambda: app.query_one(ApprovalList).row_count == len(names), "the deletes to wait")


async def test_a_from_the_tasks_tab_approves_nothing_and_shows_the_approvals_tab(tmp_path: Path) -> None:
    home, ws = asking(tmp_path / "home"), tmp_path / "ws"
    ws.mkdir()
    app = create_app(home, ws, switches=Switches())
    async with app.run_test(size=(80, 24)) as pilot:
        await waiting(pilot, app, ws, "old.txt")
        approvals = app.query_one(ApprovalList)
        assert app.pane_of(app.focused) == "tasks" and not approvals.display
        await pilot.press("a")
        await pilot.pause(0.3)
        assert statuses(home) == ["pending"] and (ws / "old.txt").exists()
        assert approvals.display and app.pane_of(app.focused) == "approvals"
        assert approvals.selected_key is not None


async def test_d_from_the_journal_denies_nothing_and_focuses_the_approvals(tmp_path: Path) -> None:
    home, ws = asking(tmp_path / "home"), tmp_path / "ws"
    ws.mkdir()
    app = create_app(home, ws, switches=Switches())
    async with app.run_test(size=SIZE) as pilot:
        await waiting(pilot, app, ws, "old.txt")
        await pilot.press("3")
        await pilot.press("d")
        await pilot.pause(0.3)
        assert statuses(home) == ["pending"]
        assert app.pane_of(app.focused) == "approvals"
        await pilot.press("3", "a")
        await pilot.pause(0.3)
        assert statuses(home) == ["pending"] and (ws / "old.txt").exists()
        assert app.pane_of(app.focused) == "approvals"


async def test_a_pressed_twice_approves_one_call_until_the_next_has_been_seen(tmp_path: Path) -> None:
    home, ws = asking(tmp_path / "home"), tmp_path / "ws"
    ws.mkdir()
    app = create_app(home, ws, switches=Switches())
    now = [1000.0]
    app.clock = lambda: now[0]
    async with app.run_test(size=SIZE) as pilot:
        await waiting(pilot, app, ws, "one.txt", "two.txt")
        approvals = app.query_one(ApprovalList)
        await pilot.press("2")
        now[0] += 5
        await pilot.press("a", "a")
        await until(pilot, lambda: statuses(home).count("pending") == 1, "one call decided")
        await until(pilot, lambda: approvals.row_count == 1, "the decided call to leave the pane")
        await pilot.press("a")
        await pilot.pause(0.3)
        assert statuses(home).count("pending") == 1, "the next call was not on screen for a moment"
        now[0] += 0.6
        await pilot.press("a")
        await until(pilot, lambda: "pending" not in statuses(home), "the second call, seen, approved")


async def test_a_replay_leaves_the_programs_selection_alone_and_x_names_the_selected(tmp_path: Path) -> None:
    console = Console(tmp_path)
    app = console.app
    async with app.run_test(size=SIZE) as pilot:
        await console.learn(pilot)
        programs = app.query_one(ProgramList)
        [(learned,)] = query(console.home, "SELECT id FROM programs WHERE json_extract(body, '$.goal_template') = ?",
                             ("Retire the file {file}",))
        chosen = next(key for key in programs.rows if key != learned)
        await pilot.press("4")
        programs.move_cursor(row=programs.get_row_index(chosen))

        other = await Runtime.open(console.home, console.workspace, Switches(verify_gate=False))
        try:
            task = await other.submit(retire("b.txt", *attic_then_delete("b.txt")))
            runs = asyncio.ensure_future(other.run_task(task.id))
            await until(pilot, lambda: console.status(task.id) == ("paused", "replay"), "the other process's replay")
            await pilot.pause(0.3)
            assert programs.selected_key == chosen, "the replay did not move the selection"
            graph = app.query_one(ProgramGraph)
            assert graph.program is not None and graph.program.id == chosen
            await pilot.press("f")
            await until(pilot, lambda: graph.program is not None and graph.program.id == learned,
                        "`f`: the graph follows the live replay")
            assert programs.selected_key == chosen, "following the replay does not move the selection either"
            await pilot.press("x")
            await until(pilot, lambda: isinstance(app.screen, ProgramDecisionScreen), "the discard modal")
            assert chosen in decision(app) and learned not in decision(app)
            await pilot.press("n")
            await asyncio.wait_for(runs, 30)
        finally:
            await other.close()


async def test_after_3_u_names_the_newest_receipt(tmp_path: Path) -> None:
    home, ws = tmp_path / "home", tmp_path / "ws"
    ws.mkdir()
    app = create_app(home, ws, switches=Switches())
    async with app.run_test(size=SIZE) as pilot:
        journal = app.query_one(ReceiptJournal)
        await pilot.press("3")
        task = await submit(pilot, app, writes(4))
        await until(pilot, lambda: journal.row_count == 4, "the four receipts")
        [(newest,)] = query(home, "SELECT id FROM receipts WHERE task_id = ? ORDER BY step_idx DESC LIMIT 1",
                            (task.id,))
        await pilot.press("3", "u")
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen), "the undo confirmation")
        assert newest in preview(app) and "f03.txt" in preview(app)
        await pilot.press("n")


async def test_a_highlighted_row_off_screen_is_shown_not_acted_on(tmp_path: Path) -> None:
    home, ws = tmp_path / "home", tmp_path / "ws"
    ws.mkdir()
    app = create_app(home, ws, switches=Switches())
    async with app.run_test(size=(80, 24)) as pilot:
        journal = app.query_one(ReceiptJournal)
        for prefix in ("f", "g"):
            await submit(pilot, app, writes(20, prefix))
        await until(pilot, lambda: journal.row_count == 40, "the forty receipts")
        await pilot.press("3")
        await pilot.pause()
        body = journal.body
        body.scroll_to(y=20, animate=False, immediate=True)
        await pilot.pause()
        assert not body.scroll_top <= body.cursor < body.scroll_top + body.body_height
        await pilot.press("u")
        await pilot.pause(0.3)
        assert not isinstance(app.screen, ConfirmScreen), "nothing is asked about a row out of sight"
        assert body.scroll_top <= body.cursor < body.scroll_top + body.body_height, "it is scrolled into view"
        assert query(home, "SELECT count(*) FROM receipts WHERE reversal = 'reversed'") == [(0,)]
        await pilot.press("u")
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen), "now seen, it is asked about")
        await pilot.press("n")
