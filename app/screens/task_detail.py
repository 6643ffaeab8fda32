"""A task in full: its timeline (queued, steps and their outputs, approvals with who and when, replay
checks, fallbacks, the result), each event timed from when it was queued, and its budget use."""

from __future__ import annotations

from typing import Any

from textual.content import Content
from textual.widget import Widget

from app.screens.record_detail import DetailScreen, blocked_lines, labelled, section
from engine.tasks.task import TaskStatus
from engine.tasks.timeline import TaskDetail, Use
from engine.visible import visible

TONES = {"good": "$text-success", "bad": "$text-error", "wait": "$text-warning"}
STATUS_TONES = {TaskStatus.SUCCEEDED: "$text-success", TaskStatus.FAILED: "$text-error",
                TaskStatus.PAUSED: "$text-warning", TaskStatus.CANCELLED: "$text-muted"}


class TaskDetailScreen(DetailScreen[TaskDetail]):
    KIND = "task"

    async def fetch(self, reader: Any) -> TaskDetail:
        return await reader.task_detail(self.record_id)

    def title_line(self, detail: TaskDetail) -> Content:
        task = detail.task
        return Content.assemble(("Task ", "bold"), visible(task.id), " · ",
                                (task.status.value, STATUS_TONES.get(task.status, "")),
                                f" · {task.mode.value if task.mode else 'not started'}")

    def render_detail(self, detail: TaskDetail) -> list[Widget]:
        task = detail.task
        facts = [labelled("goal", task.goal), labelled("status", task.status.value, STATUS_TONES.get(task.status, "")),
                 labelled("environment", task.spec.env_kind)]
        if task.program_id:
            facts.append(labelled("program", task.program_id))
        if task.error:
            facts.append(labelled("error", task.error, "$text-error"))
        widgets: list[Widget] = []
        for entry in detail.entries:
            if entry.kind == "ActionBlocked":
                widgets += blocked_lines(entry.text)
        widgets += section("Task", facts)
        widgets += section("Budget", [_use(use) for use in detail.budget])
        timeline: list[Content] = []
        for entry in detail.entries:
            timeline.append(Content.assemble((f"{_offset(entry.at):>8}", "$text-muted"), "  ",
                                             (visible(entry.text), TONES.get(entry.tone, ""))))
            timeline.extend(Content.assemble(" " * 12, (visible(line), "$text-muted")) for line in entry.detail)
        widgets += section("Timeline", timeline or [Content.styled("No events recorded.", "$text-muted")])
        return widgets


def _offset(seconds: float) -> str:
    """+1.2s under a minute, +3m04s beyond: times from when the task was queued."""
    if seconds < 60:
        return f"+{max(seconds, 0):.1f}s"
    minutes, rest = divmod(int(seconds), 60)
    return f"+{minutes}m{rest:02d}s"


def _use(use: Use) -> Content:
    used = f"{use.used:.2f}" if use.limit == "cost_usd" else f"{use.used:g}" if use.limit != "wall_s" else f"{use.used:.1f}"
    if use.allowed is None:
        return labelled(use.limit, f"{used} (no limit)")
    share = use.used / use.allowed if use.allowed else 1.0
    tone = "$text-error" if share >= 1 else "$text-warning" if share >= 0.8 else "$text-success"
    return labelled(use.limit, f"{used} of {use.allowed:g} ({share:.0%})", tone)
