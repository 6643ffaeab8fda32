"""Tasks as the store keeps them: a goal, how to reach it, and how to tell that it was reached."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from engine.errors import WardenError
from engine.tasks.budget import HIGHEST, Budget, check_limit
from engine.tasks.evaluator import validate_evaluator
from engine.tools.call import ToolCall
from engine.wellformed import lone_surrogate


class TaskError(WardenError):
    """A task cannot be changed as asked (unknown, or already finished)."""


HOSTED = "host"  # the agent kind of a task another program drives (`TaskSpec.hosted`)


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


DEFAULT_ENV = {"kind": "workspace"}


def scripted(steps) -> dict[str, Any]:
    """The agent part of a spec for the scripted agent: `{"kind": "scripted", "steps": [...]}`."""
    return {"kind": "scripted", "steps": [s.as_json() if isinstance(s, ToolCall) else s for s in steps]}


@dataclass(frozen=True)
class TaskSpec:
    """What a caller submits: the goal, the environment to act in, the agent, and how to tell it worked.

    The agent is separate from the task: `{"kind": "scripted", "steps": [...]}` today, a
    model agent, or none (then only a stored program can serve the task).
    `max_steps` caps the agent's proposals (None: the runtime's default); crossing it fails
    the task. `budget` limits steps, seconds, tokens and dollars; crossing one pauses it.
    """

    goal: str
    env: Mapping[str, Any] = field(default_factory=lambda: dict(DEFAULT_ENV))
    agent: Mapping[str, Any] | None = None
    evaluator: dict | None = None
    learn: bool = True
    max_steps: int | None = None
    budget: Budget = field(default_factory=Budget)

    def __post_init__(self) -> None:
        if not isinstance(self.goal, str) or not self.goal.strip():
            raise ValueError('"goal" must be a non-empty string')
        if (bad := lone_surrogate(self.goal)) is not None:
            raise ValueError(f'"goal" holds a lone surrogate ({bad}), which is not a character: write the character '
                             'itself, or leave it out')
        if not isinstance(self.env, Mapping) or not isinstance(self.env.get("kind"), str):
            raise ValueError('env must be an object with a "kind", e.g. {"kind": "workspace"}')
        if self.agent is not None and (not isinstance(self.agent, Mapping) or not isinstance(self.agent.get("kind"), str)):
            raise ValueError('agent must be an object with a "kind", e.g. {"kind": "scripted", "steps": [...]}')
        if self.max_steps is not None:
            check_limit("max_steps", self.max_steps, HIGHEST["steps"], whole=True)
        if self.evaluator is not None:
            validate_evaluator(self.evaluator, self.env_kind)

    @property
    def hosted(self) -> bool:
        """Whether another program drives the task (a host session of Claude Code, Codex, Gemini CLI or an MCP
        client, `engine/hosts/`): its calls arrive through that host's hooks, and no runner ever runs it."""
        return self.agent is not None and self.agent.get("kind") == HOSTED

    @property
    def env_kind(self) -> str:
        return self.env["kind"]

    def to_json(self) -> dict[str, Any]:
        return {
            "goal": self.goal,
            "env": dict(self.env),
            "agent": dict(self.agent) if self.agent is not None else None,
            "evaluator": self.evaluator,
            "learn": self.learn,
            "max_steps": self.max_steps,
            "budget": self.budget.as_json(),
        }

    @classmethod
    def from_json(cls, raw: dict[str, Any]) -> "TaskSpec":
        """A spec from JSON; a bare `plan` (the older form) means the scripted agent with those steps,
        and `evaluate` is another name for `evaluator`."""
        if not isinstance(raw, dict):
            raise ValueError(f"a task is a JSON object, got {type(raw).__name__}")
        if "goal" not in raw:
            raise ValueError('missing "goal"')
        unknown = set(raw) - {"goal", "env", "agent", "plan", "evaluator", "evaluate", "learn", "max_steps", "budget"}
        if unknown:
            hint = " (goal_js is resolved by `warden run --spec`)" if "goal_js" in unknown else ""
            raise ValueError(f"unknown task field(s) {sorted(unknown)}{hint}")
        if "evaluator" in raw and "evaluate" in raw:
            raise ValueError('give "evaluate" or "evaluator", not both')
        agent = raw.get("agent")
        if agent is None and raw.get("plan"):
            agent = scripted(ToolCall.from_json(call) for call in raw["plan"])
        return cls(
            goal=raw["goal"],
            env=raw.get("env") or dict(DEFAULT_ENV),
            agent=agent,
            evaluator=raw.get("evaluate", raw.get("evaluator")),
            learn=bool(raw.get("learn", True)),
            max_steps=raw.get("max_steps"),
            budget=Budget.from_json(raw.get("budget")),
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
    claimed_by: str | None = field(default=None, compare=False)
    epoch: int = field(default=0, compare=False)
    env: str | None = field(default=None, compare=False)
    started_at: float | None = field(default=None, compare=False)
    """When it first started running; only listings read it (None otherwise, and before it starts)."""

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
            claimed_by=row["claimed_by"],
            epoch=row["epoch"],
            env=row["env"],
            started_at=row["started_at"] if "started_at" in row.keys() else None,
        )
