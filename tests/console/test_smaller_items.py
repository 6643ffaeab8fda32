"""Smaller console items: the help names `$WARDEN_HOME` once-dollared; a fallback keeps its replay in the mode cell."""

from __future__ import annotations

import time

from app.screens.help import help_text
from engine.tasks.task import Task, TaskMode, TaskSpec, TaskStatus
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
