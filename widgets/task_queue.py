"""The task queue pane: every task of the home, its status, where it acts, and what serves it.

A task that succeeded with no evaluator to check it is shown as unchecked, not done: nothing
but the agent's word says it reached its goal.
"""

from __future__ import annotations

from dataclasses import dataclass

from textual.content import Content
from textual.message import Message

from engine.tasks.task import Task, TaskStatus
from widgets.record_table import RecordTable

STATUS = {
    TaskStatus.QUEUED: "[$text-muted]· queued[/]",
    TaskStatus.RUNNING: "[$accent]▶ running[/]",
    TaskStatus.PAUSED: "[$warning]‖ paused[/]",
    TaskStatus.SUCCEEDED: "[$success]✔ done[/]",
    TaskStatus.FAILED: "[$error]✖ failed[/]",
    TaskStatus.CANCELLED: "[$text-muted]∅ cancelled[/]",
}


UNCHECKED = "[$text-muted]✔ unchecked[/]"


class TaskQueue(RecordTable):
    COLUMNS = ("task", ("status", 11), "mode", "where", "goal")
    EMPTY = "no tasks · warden submit FILE queues some"

    @dataclass
    class CancelRequested(Message):
        """The operator asked to cancel the highlighted task."""

        task_id: str

    @dataclass
    class BudgetRaiseRequested(Message):
        """The operator asked to double the highlighted task's budget (it resumes if paused on it)."""

        task_id: str

    def request_cancel(self) -> bool:
        return self.request(self.CancelRequested)

    def request_budget_raise(self) -> bool:
        return self.request(self.BudgetRaiseRequested)

    def show_tasks(self, tasks: list[Task]) -> None:
        self.show((task.id, self.cells(task), task.created_at) for task in tasks)

    def update_task(self, task: Task) -> None:
        self.upsert(task.id, self.cells(task), task.created_at)

    @staticmethod
    def cells(task: Task) -> tuple:
        unchecked = task.status is TaskStatus.SUCCEEDED and task.spec.evaluator is None
        return (
            task.id,
            Content.from_markup(UNCHECKED if unchecked else STATUS[task.status]),
            task.mode.value if task.mode else "",
            where(task),
            task.goal if not task.error else f"{task.goal} — {task.error}",
        )


def where(task: Task) -> str:
    """The environment's last name: `workspace:/home/me/site` is `site`."""
    if task.env is None:
        return task.spec.env_kind
    return task.env.rstrip("/").rsplit("/", 1)[-1] or task.env
