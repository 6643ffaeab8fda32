"""Scoped grants from the console: a pattern grant given with a key and a confirmation lets the next matching
call run unasked and not one outside its pattern; the grants view revokes it, and the next matching call asks
again; a blocked call takes no scope, nor does a call no pattern can be drawn from; the approval view opens on
its route and names the pattern each scope would cover.

The policy's `[ask]` table holds contained file calls for a person here (they run unasked by default). Every
check is made on the screen and in the database.
"""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Button, Static

from app.console import create_app
from app.screens.approval_detail import ApprovalDetailScreen
from app.screens.confirm import ConfirmScreen
from app.screens.grants import GrantsScreen
from app.screens.receipt_detail import ReceiptDetailScreen
from app.screens.task_detail import TaskDetailScreen
from engine.gate.grants import Scope
from engine.runtime import Switches
from engine.tasks.task import TaskSpec, scripted
from engine.tools.call import ToolCall
from tests.console.test_console_keys import preview, status_of, submit
from tests.console.test_demo_flow import SIZE, query, until
from widgets.approval_list import ApprovalList
from widgets.grant_list import GrantList
from widgets.receipt_journal import ReceiptJournal
from widgets.task_queue import TaskQueue

POLICY = '[ask]\ntools = ["fs.delete", "fs.move"]\n'


def home_and_workspace(tmp_path: Path) -> tuple[Path, Path]:
    home, ws = tmp_path / "home", tmp_path / "ws"
    home.mkdir()
    ws.mkdir()
    (home / "policy.toml").write_text(POLICY, encoding="utf-8")
    for name in ("a.txt", "b.txt", "c.md"):
        (ws / name).write_text(f"{name}\n", encoding="utf-8")
    return home, ws


def delete(name: str) -> TaskSpec:
    return TaskSpec(goal=f"Delete {name}", learn=False, agent=scripted((ToolCall("fs.delete", {"path": name}),)))


def pending(home: Path, task_id: str) -> list[str]:
    return [row[0] for row in query(home, "SELECT id FROM approvals WHERE task_id = ? AND status = 'pending'",
                                    (task_id,))]


def confirming(app) -> bool:
    """A confirmation is on screen, its preview drawn."""
    return isinstance(app.screen, ConfirmScreen) and bool(app.screen.query("#confirm-preview"))


def text_of(screen, selector: str) -> str:
    return str(screen.query_one(selector, Static).render())


def body_text(screen) -> str:
    return "\n".join(str(static.render()) for static in screen.query("#detail-body Static"))


def notices(app) -> str:
    return "\n".join(str(notification.message) for notification in app._notifications)


async def held(pilot, app, home: Path, spec: TaskSpec):
    """Submit `spec` and wait for its call to be held, on screen and in the database."""
    task = await submit(pilot, app, spec)
    approvals = app.query_one(ApprovalList)
    await until(pilot, lambda: len(pending(home, task.id)) == 1, f"{task.goal} to wait for approval")
    [approval_id] = pending(home, task.id)
    await until(pilot, lambda: approval_id in approvals.rows, "its row in the Approvals pane")
    return task, approval_id


async def open_approval(pilot, app, approval_id: str) -> ApprovalDetailScreen:
    await pilot.press("2")
    approvals = app.query_one(ApprovalList)
    approvals.move_cursor(row=approvals.get_row_index(approval_id))
    await pilot.press("enter")
    await until(pilot, lambda: isinstance(app.screen, ApprovalDetailScreen), "the approval's detail")
    screen = app.screen
    assert isinstance(screen, ApprovalDetailScreen)
    await until(pilot, lambda: screen.detail is not None and bool(screen.query("#route")), "the detail to load")
    return screen


async def test_a_pattern_grant_runs_the_next_matching_call_unasked_and_not_one_outside_it(tmp_path: Path) -> None:
    home, ws = home_and_workspace(tmp_path)
    app = create_app(home, ws, switches=Switches())
    async with app.run_test(size=SIZE) as pilot:
        first, approval_id = await held(pilot, app, home, delete("a.txt"))
        assert (ws / "a.txt").exists()

        await pilot.press("1", "P")
        await until(pilot, lambda: app.pane_of(app.focused) == "approvals", "P from Tasks to show the Approvals")
        assert not isinstance(app.screen, ConfirmScreen), "P from another pane offers nothing yet"

        approvals = app.query_one(ApprovalList)
        approvals.move_cursor(row=approvals.get_row_index(approval_id))
        await pilot.press("P")
        await until(pilot, lambda: confirming(app), "the confirmation naming the pattern")
        shown = preview(app)
        assert "fs.delete paths a.txt in any task" in shown and approval_id in shown
        assert query(home, "SELECT count(*) FROM grants") == [(0,)], "nothing is granted before confirming"
        await pilot.press("y")

        await until(pilot, lambda: query(home, "SELECT count(*) FROM grants") == [(1,)], "the grant")
        [(scope, task_id, covers, by, revoked)] = query(
            home, "SELECT scope, task_id, shown, granted_by, revoked_at FROM grants")
        assert (scope, task_id, revoked) == ("pattern", None, None) and covers == "fs.delete paths a.txt" and by
        await until(pilot, lambda: status_of(home, first.id) == "succeeded", "the held task to run")
        assert not (ws / "a.txt").exists()
        assert query(home, "SELECT status FROM approvals WHERE id = ?", (approval_id,)) == [("used",)]

        (ws / "a.txt").write_text("again\n", encoding="utf-8")
        second = await submit(pilot, app, delete("a.txt"))
        await until(pilot, lambda: status_of(home, second.id) == "succeeded", "the matching call to run unasked")
        assert not (ws / "a.txt").exists()
        assert query(home, "SELECT count(*) FROM approvals WHERE task_id = ?", (second.id,)) == [(0,)]
        assert query(home, "SELECT uses FROM grants") == [(1,)]

        outside, outside_approval = await held(pilot, app, home, delete("c.md"))
        assert (ws / "c.md").exists() and status_of(home, outside.id) != "succeeded"
        assert list(approvals.rows) == [outside_approval], "only the call outside the pattern waits"
        assert query(home, "SELECT uses FROM grants") == [(1,)]


async def test_revoking_a_grant_in_the_grants_view_makes_the_next_matching_call_ask(tmp_path: Path) -> None:
    home, ws = home_and_workspace(tmp_path)
    app = create_app(home, ws, switches=Switches())
    async with app.run_test(size=SIZE) as pilot:
        first, approval_id = await held(pilot, app, home, delete("b.txt"))
        assert app.engine is not None
        grant = await app.engine.call(lambda rt: rt.approve(approval_id, scope=Scope.PATTERN))
        assert grant is not None
        await until(pilot, lambda: status_of(home, first.id) == "succeeded", "the task to run")

        await pilot.press("G")
        await until(pilot, lambda: isinstance(app.screen, GrantsScreen) and app.screen.loaded, "the grants view")
        grants = app.screen.query_one(GrantList)
        assert list(grants.rows) == [grant.id]
        cells = " ".join(cell.plain for cell in grants.get_row(grant.id))
        assert "fs.delete paths b.txt in any task" in cells and "session" in cells and grant.granted_by in cells

        await pilot.press("r")
        await until(pilot, lambda: confirming(app), "the revoke confirmation")
        assert grant.id in preview(app) and "fs.delete paths b.txt" in preview(app)
        await pilot.press("n")
        await until(pilot, lambda: isinstance(app.screen, GrantsScreen), "back on the grants view")
        assert query(home, "SELECT revoked_at FROM grants") == [(None,)], "n revokes nothing"

        await pilot.press("r")
        await until(pilot, lambda: confirming(app), "the revoke confirmation again")
        await pilot.press("y")
        await until(pilot, lambda: query(home, "SELECT revoked_at IS NOT NULL, revoked_by FROM grants")[0][0] == 1,
                    "the grant revoked in the database")
        await until(pilot, lambda: isinstance(app.screen, GrantsScreen) and grants.row_count == 0,
                    "the revoked grant to leave the view")
        await pilot.press("escape")
        await until(pilot, lambda: not isinstance(app.screen, GrantsScreen), "the grants view to close")

        (ws / "b.txt").write_text("again\n", encoding="utf-8")
        again, _ = await held(pilot, app, home, delete("b.txt"))
        assert (ws / "b.txt").exists() and status_of(home, again.id) != "succeeded"


async def test_a_blocked_call_holds_no_approval_and_its_details_offer_no_scope(tmp_path: Path) -> None:
    home, ws = home_and_workspace(tmp_path)
    app = create_app(home, ws, switches=Switches())
    async with app.run_test(size=SIZE) as pilot:
        task = await submit(pilot, app, TaskSpec(goal="Wipe the machine", learn=False, agent=scripted((
            ToolCall("shell.run", {"command": "rm -rf /"}),))))
        await until(pilot, lambda: status_of(home, task.id) in ("failed", "blocked"), "the task to be blocked")
        assert query(home, "SELECT count(*) FROM approvals") == [(0,)]
        assert query(home, "SELECT status FROM steps WHERE task_id = ?", (task.id,)) == [("blocked",)]
        assert app.query_one(ApprovalList).row_count == 0

        tasks = app.query_one(TaskQueue)
        await until(pilot, lambda: task.id in tasks.rows, "the task's row")
        await pilot.press("1")
        tasks.move_cursor(row=tasks.get_row_index(task.id))
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, TaskDetailScreen) and bool(app.screen.query("#route")),
                    "the task's detail")
        route = text_of(app.screen, "#route")
        assert route.startswith("blocked: ") and "rm -rf /" in route and "takes no scope" in route
        assert not app.screen.query(Button)
        await pilot.press("P")
        assert query(home, "SELECT count(*) FROM grants") == [(0,)]
        await pilot.press("escape")

        [(receipt_id,)] = query(home, "SELECT id FROM receipts WHERE task_id = ?", (task.id,))
        journal = app.query_one(ReceiptJournal)
        await until(pilot, lambda: receipt_id in journal.rows, "the blocked call's receipt")
        await pilot.press("3")
        journal.move_cursor(row=journal.get_row_index(receipt_id))
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, ReceiptDetailScreen) and bool(app.screen.query("#route")),
                    "the receipt's detail")
        route = text_of(app.screen, "#route")
        assert route.startswith("blocked: ") and "takes no scope" in route


async def test_a_call_with_no_pattern_offers_only_once_or_deny_and_stays_pending(tmp_path: Path) -> None:
    home, ws = home_and_workspace(tmp_path)
    app = create_app(home, ws, switches=Switches())
    async with app.run_test(size=SIZE) as pilot:
        task, approval_id = await held(pilot, app, home, TaskSpec(goal="Rename a.txt", learn=False, agent=scripted((
            ToolCall("fs.move", {"src": "a.txt", "dst": "z.txt"}),))))
        await pilot.press("2")
        await pilot.press("P")
        await until(pilot, lambda: "takes no scope" in notices(app), "one notice saying why")
        assert not isinstance(app.screen, ConfirmScreen)
        assert [line for line in notices(app).splitlines() if "takes no scope" in line][0].count(approval_id) == 1

        screen = await open_approval(pilot, app, approval_id)
        decide = body_text(screen)
        assert "no scope: " in decide and "only once or deny" in decide
        assert "approve for the rest of this task" not in decide
        assert not screen.query("#approve-task") and not screen.query("#approve-pattern")
        assert screen.query("#approve") and screen.query("#deny")
        await pilot.press("T")
        await pilot.press("escape")
        await until(pilot, lambda: not isinstance(app.screen, ApprovalDetailScreen), "the detail to close")
        assert query(home, "SELECT status FROM approvals WHERE id = ?", (approval_id,)) == [("pending",)]
        assert query(home, "SELECT count(*) FROM grants") == [(0,)] and (ws / "a.txt").exists()
        assert status_of(home, task.id) != "succeeded"


async def test_the_approval_view_names_the_route_and_each_scope_s_pattern(tmp_path: Path) -> None:
    home, ws = home_and_workspace(tmp_path)
    app = create_app(home, ws, switches=Switches())
    async with app.run_test(size=SIZE) as pilot:
        task, approval_id = await held(pilot, app, home, delete("a.txt"))
        screen = await open_approval(pilot, app, approval_id)
        route = text_of(screen, "#route")
        [(stored,)] = query(home, "SELECT route FROM approvals WHERE id = ?", (approval_id,))
        assert route == f"asks: {stored}" and "fs.delete" in stored
        decide = body_text(screen)
        assert "a  approve once: exactly this call" in decide
        assert "T  approve for the rest of this task: fs.delete paths a.txt" in decide
        assert "P  approve for this session: fs.delete paths a.txt in any task" in decide
        assert screen.query("#approve-task") and screen.query("#approve-pattern")

        await pilot.press("T")
        await until(pilot, lambda: confirming(app), "the confirmation naming the pattern")
        assert "fs.delete paths a.txt in task " + task.id in preview(app)
        await pilot.press("y")
        await until(pilot, lambda: query(home, "SELECT scope, task_id FROM grants") == [("task", task.id)],
                    "a grant for this task")
        await until(pilot, lambda: not isinstance(app.screen, (ApprovalDetailScreen, ConfirmScreen)),
                    "the decided approval's view to close")
        await until(pilot, lambda: status_of(home, task.id) == "succeeded", "the task to run")
        assert not (ws / "a.txt").exists()
