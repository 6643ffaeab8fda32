"""The task queue pane: every task, its status and whether an agent or a program serves it."""

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


class TaskQueue(RecordTable):
    COLUMNS = ("task", ("status", 11), "mode", "goal")
    EMPTY = "no tasks · warden submit FILE queues some"

    @dataclass
    class CancelRequested(Message):
        """The operator asked to cancel the highlighted task."""

        task_id: str

    def request_cancel(self) -> bool:
        return self.request(self.CancelRequested)

    def show_tasks(self, tasks: list[Task]) -> None:
        self.show((task.id, self.cells(task), task.created_at) for task in tasks)

    def update_task(self, task: Task) -> None:
        self.upsert(task.id, self.cells(task), task.created_at)

    @staticmethod
    def cells(task: Task) -> tuple:
        return (
            task.id,
            Content.from_markup(STATUS[task.status]),
            task.mode.value if task.mode else "",
            task.goal if not task.error else f"{task.goal} — {task.error}",
        )
