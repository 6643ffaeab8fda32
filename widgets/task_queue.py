"""The task queue pane: every task of the home, newest first, its status, when it was queued and how long
it ran, where it acts, and what serves it.

A task that succeeded with no evaluator to check it is shown as unchecked, not done: nothing
but the agent's word says it reached its goal. The pane pages through the database, so a home of
any size opens at once and every task is reachable; a running task's time ticks.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from textual.content import Content
from textual.message import Message

from engine.reader import Records
from engine.tasks.task import Task, TaskMode, TaskStatus
from widgets.record_rows import Column, Row
from widgets.record_table import RecordTable
from widgets.record_text import shown
from widgets.record_time import clock, span

STATUS = {
    TaskStatus.QUEUED: "[$text-muted]· queued[/]",
    TaskStatus.RUNNING: "[$accent]▶ running[/]",
    TaskStatus.PAUSED: "[$warning]‖ paused[/]",
    TaskStatus.SUCCEEDED: "[$success]✔ done[/]",
    TaskStatus.FAILED: "[$error]✖ failed[/]",
    TaskStatus.CANCELLED: "[$text-muted]∅ cancelled[/]",
}


UNCHECKED = "[$text-muted]✔ unchecked[/]"
STATUS_CELLS = {status: Content.from_markup(markup) for status, markup in STATUS.items()}
UNCHECKED_CELL = Content.from_markup(UNCHECKED)


class TaskQueue(RecordTable):
    COLUMNS = (
        Column("task", 10),
        Column("status", 11),
        Column("mode", 12, shown_from=100),
        Column("where", 10, shown_from=90),
        Column("goal", least=12),
        Column("queued", 8),
        Column("took", 7),
    )
    EMPTY = "no tasks · warden submit FILE queues some"
    NOUNS = ("task", "tasks")
    PAGED = True

    @dataclass
    class CancelRequested(Message):
        """The operator asked to cancel the highlighted task."""

        task_id: str

    @dataclass
    class BudgetRaiseRequested(Message):
        """The operator asked to double the highlighted task's budget (it resumes if paused on it)."""

        task_id: str

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._ticking: dict[str, Task] = {}

    def on_mount(self) -> None:
        super().on_mount()
        self.set_interval(1.0, self._tick)

    def request_cancel(self) -> bool:
        return self.request(self.CancelRequested)

    def request_budget_raise(self) -> bool:
        return self.request(self.BudgetRaiseRequested)

    def update_task(self, task: Task, new: bool = False) -> None:
        """The task changed (`new`: it was just queued); only its line is redrawn."""
        self.update_row(self.row_of(task), new)

    async def fetch_page(self, records: Records, offset: int, limit: int, text: str) -> tuple[list[Row], int]:
        tasks, total = await records.task_page(offset, limit, text)
        return [self.row_of(task) for task in tasks], total

    async def fetch_place(self, records: Records, key: str, text: str) -> int | None:
        return await records.task_place(key, text)

    async def fetch_count(self, records: Records, text: str) -> int:
        return await records.task_count(text)

    def row_of(self, task: Task) -> Row:
        if task.status is TaskStatus.RUNNING:
            self._ticking[task.id] = task
        else:
            self._ticking.pop(task.id, None)
        return Row(task.id, self.cells(task), task.created_at)

    def _tick(self) -> None:
        """Redraw the time of each running task on screen (its line alone)."""
        for task_id, task in list(self._ticking.items()):
            if self.body.row(task_id) is None:
                del self._ticking[task_id]
            else:
                self.body.put(Row(task.id, self.cells(task), task.created_at))

    @staticmethod
    def cells(task: Task) -> tuple[Content, ...]:
        unchecked = task.status is TaskStatus.SUCCEEDED and task.spec.evaluator is None
        return (
            shown(task.id),
            UNCHECKED_CELL if unchecked else STATUS_CELLS[task.status],
            Content(mode_shown(task)),
            shown(where(task)),
            shown(task.goal if not task.error else f"{task.goal} — {task.error}"),
            Content(clock(task.created_at)),
            took(task),
        )


def mode_shown(task: Task) -> str:
    """`replay`, `agent`, `replay→agent` for a replay that fell back (the agent, with the program it tried), or
    the host (`claude-code`) for a session another program drives."""
    if task.spec.hosted:  # another program drives it: name that program
        return str(task.spec.agent.get("host", "host")) if task.spec.agent else "host"
    if task.mode is TaskMode.AGENT and task.program_id:
        return "replay→agent"
    return task.mode.value if task.mode else ""


def took(task: Task) -> Content:
    """How long it ran: start to finish, or start to now (marked `…`) while it runs."""
    if task.started_at is None:
        return Content("")
    if task.status is TaskStatus.RUNNING:
        return Content.styled(span(time.time() - task.started_at) + "…", "$accent")
    if task.status.finished or task.status is TaskStatus.PAUSED:
        return Content(span(task.updated_at - task.started_at))
    return Content("")


def where(task: Task) -> str:
    """The environment's last name: `workspace:/home/me/site` is `site`."""
    if task.env is None:
        return task.spec.env_kind
    return task.env.rstrip("/").rsplit("/", 1)[-1] or task.env
