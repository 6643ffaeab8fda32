"""Smaller console items: the help names `$WARDEN_HOME` once-dollared; a fallback keeps its replay in the mode cell;
toasts leave the status line and a modal's dialog in sight; the Programs list gives the goal template room at 120
columns; a failing check is listed once, with what was seen (e.g. the dialog that covers the element)."""

from __future__ import annotations

import time

from textual.containers import Vertical
from textual.widgets import Footer
from textual.widgets._toast import Toast

from app.console import create_app
from app.screens.confirm import ConfirmScreen
from app.screens.help import help_text
from app.screens.task_detail import TaskDetailScreen
from engine.events.bus import Recorded
from engine.events.records import ReplayFellBack, ReplayStarted, StateChecked, TaskStarted
from engine.runtime import Switches
from engine.tasks.budget import Budget, Spent
from engine.tasks.task import Task, TaskMode, TaskSpec, TaskStatus
from engine.tasks.timeline import build
from tests.console.test_demo_flow import until
from tests.console.test_detail_screens import DetailApp, body_text
from widgets.program_list import ProgramList
from widgets.status_line import StatusLine
from widgets.task_queue import TaskQueue


def test_help_names_warden_home_with_one_dollar() -> None:
    text = help_text([("y", "Approve")]).plain
    assert "$WARDEN_HOME/keymap.toml" in text and "$$" not in text


def task(mode: TaskMode | None, program_id: str | None) -> Task:
    spec = TaskSpec.from_json({"goal": "Archive the file"})
    now = time.time()
    return Task("t1", spec, TaskStatus.RUNNING, mode, program_id, None, now, now)


def test_a_fallback_shows_the_replay_that_was_tried() -> None:
    assert TaskQueue.cells(task(TaskMode.AGENT, "p1"))[2].plain == "replay→agent"
    assert TaskQueue.cells(task(TaskMode.AGENT, None))[2].plain == "agent"
    assert TaskQueue.cells(task(TaskMode.REPLAY, "p1"))[2].plain == "replay"


def test_the_mode_column_holds_a_fallback_whole() -> None:
    [mode] = [column for column in TaskQueue.COLUMNS if column.label == "mode"]
    assert mode.width is not None and mode.width >= len("replay→agent")


async def test_the_programs_list_gives_the_goal_template_room_at_120_columns(tmp_path) -> None:
    app = create_app(tmp_path / "home", tmp_path / "workspace", demo=False, switches=Switches(), web_demo=False)
    async with app.run_test(size=(120, 40)) as pilot:
        body = app.query_one(ProgramList).body
        await until(pilot, lambda: body.scrollable_content_region.width > 0, "the programs list laid out")
        layout = body.column_layout(body.scrollable_content_region.width)
        labels = [body.columns[i].label for i in layout.columns]
        assert "goal template" in labels
        assert layout.widths[labels.index("goal template")] >= 20, dict(zip(labels, layout.widths))


COVERED = 'behind an open dialog: dialog "Unsaved changes"'


async def test_a_failing_check_is_listed_once_with_why_it_failed() -> None:
    save = {"exists": {"role": "button", "name": "Save"}}
    title = {"title": "Contacts"}
    events = [
        TaskStarted("t-0009", "replay", "p-1"), ReplayStarted("t-0009", "p-1", {}),
        StateChecked("t-0009", "p-1", "s1", False, {"all": [title, save]},
                     [{"predicate": title, "holds": True, "saw": ""}, {"predicate": save, "holds": False, "saw": COVERED}]),
        ReplayFellBack("t-0009", "p-1", "s1", 'state s1 (the form) does not hold: a button "Save" is shown'),
    ]
    spec = TaskSpec.from_json({"goal": "Add a contact"})
    detail = build(Task("t-0009", spec, TaskStatus.RUNNING, TaskMode.AGENT, "p-1", None, 1000.0, 1000.0),
                   [Recorded(n, 1000.0 + n, event) for n, event in enumerate(events)], Spent(0, 4.0), Budget())
    app = DetailApp(TaskDetailScreen("t-0009"))
    app.reader.task = detail
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: "Timeline" in body_text(app.screen) and "fell back" in body_text(app.screen),
                    "the task's timeline")
        text = body_text(app.screen)
        assert text.count('"Save"') == 1, "the failing leaf is listed once"
        assert COVERED in text, "the failed leaf says why: what was seen there"


async def shown_toasts(pilot) -> list:
    """The regions of the toasts the current screen shows, once it shows one."""
    screen = pilot.app.screen
    await until(pilot, lambda: any(toast.region.area for toast in screen.query(Toast)), "a toast on screen")
    await pilot.pause()
    return [toast.region for toast in screen.query(Toast)]


async def test_toasts_leave_the_status_line_and_a_modal_visible_at_80_columns(tmp_path) -> None:
    app = create_app(tmp_path / "home", tmp_path / "workspace", demo=False, switches=Switches(), web_demo=False)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        app.notify("t-0001 waits for approval: deletes a file", title="approval needed", timeout=30)
        status, footer = app.query_one(StatusLine).region, app.query_one(Footer).region
        for region in await shown_toasts(pilot):
            assert not region.overlaps(status) and not region.overlaps(footer), (region, status)

        lines = [f"line {n} of what the confirmation names" for n in range(12)]
        app.push_screen(ConfirmScreen("Discard program p-1?", lines, verb="discard", danger=True))
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen), "the confirmation")
        app.notify("t-0002 waits for approval: deletes a file", title="approval needed", timeout=30)
        toasts = await shown_toasts(pilot)
        dialog = app.screen.query_one(Vertical).region
        assert dialog.area and toasts
        for region in toasts:
            assert not region.overlaps(dialog), (region, dialog)
        keys = app.screen.query_one("#confirm-keys").region
        assert keys.area and dialog.contains_region(keys), "the dialog's keys stay in sight below the toasts"
