"""Tasks as the store keeps them: a goal, how to reach it, and how to tell that it was reached."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from engine.errors import WardenError
from engine.programs.predicates import validate
from engine.tools.call import ToolCall


class TaskError(WardenError):
    """A task cannot be changed as asked (unknown, or already finished)."""


class TaskStatus(StrEnum):
    QUEUED = "queued"
    RUNNING = "running"
    PAUSED = "paused"
    SUCCEEDED = "succeeded"
    FAILED = "failed"
    CANCELLED = "cancelled"

    @property
    def finished(self) -> bool:
        return self in (TaskStatus.SUCCEEDED, TaskStatus.FAILED, TaskStatus.CANCELLED)


class TaskMode(StrEnum):
    AGENT = "agent"
    REPLAY = "replay"


@dataclass(frozen=True)
class TaskSpec:
    """What a caller submits: the goal, the scripted agent's plan, and the task's own evaluator."""

    goal: str
    plan: tuple[ToolCall, ...] = ()
    evaluator: dict | None = None
    learn: bool = True

    def __post_init__(self) -> None:
        if not self.goal.strip():
            raise ValueError("a task needs a goal")
        if self.evaluator is not None:
            validate(self.evaluator, "evaluator")

    def to_json(self) -> dict[str, Any]:
        return {
            "goal": self.goal,
            "plan": [call.as_json() for call in self.plan],
            "evaluator": self.evaluator,
            "learn": self.learn,
        }

    @classmethod
    def from_json(cls, raw: dict[str, Any]) -> "TaskSpec":
        return cls(
            goal=raw["goal"],
            plan=tuple(ToolCall.from_json(call) for call in raw.get("plan", [])),
            evaluator=raw.get("evaluator"),
            learn=bool(raw.get("learn", True)),
        )


@dataclass(frozen=True)
class Task:
    id: str
    spec: TaskSpec
    status: TaskStatus
    mode: TaskMode | None
    program_id: str | None
    error: str | None
    created_at: float
    updated_at: float = field(compare=False)

    @property
    def goal(self) -> str:
        return self.spec.goal

    @classmethod
    def from_row(cls, row) -> "Task":
        return cls(
            id=row["id"],
            spec=TaskSpec.from_json(json.loads(row["spec"])),
            status=TaskStatus(row["status"]),
            mode=TaskMode(row["mode"]) if row["mode"] else None,
            program_id=row["program_id"],
            error=row["error"],
            created_at=row["created_at"],
            updated_at=row["updated_at"],
        )
