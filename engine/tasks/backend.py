"""The task backend: all that the rest of Warden may know about how tasks are scheduled.

`TaskRunner` (one SQLite file, in-process) is the first implementation; a fleet would
put a durable execution engine such as Temporal behind the same methods.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from engine.envs.environment import Environment
from engine.programs.program import Program
from engine.programs.verifier import Offered
from engine.tasks.budget import Budget
from engine.tasks.task import Task, TaskSpec


class TaskBackend(Protocol):
    """`identity` names the runner in the claims it takes (`claimed_by`); a process running several sets each its own."""

    identity: str

    async def submit(self, specs: list[TaskSpec]) -> list[Task]: ...

    async def decide(self, approval_id: str, approved: bool, by: str) -> None: ...

    async def cancel(self, task_id: str, by: str) -> None: ...

    async def raise_budget(self, task_id: str, raised: Budget, by: str) -> Budget: ...

    async def run_until_idle(self) -> None: ...

    async def run_task(self, task_id: str) -> None: ...

    async def serve(self) -> None: ...

    async def offer(self, program: Program, params: dict[str, str], evaluator: dict | None, env_spec: Mapping[str, Any],
                    env: Environment, clean: Environment | None = None, task_id: str | None = None,
                    hold_unjudged: bool = False) -> Offered: ...
