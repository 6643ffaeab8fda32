"""What became of one dispatched step; shared by the agent loop, replay and verification."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING

from engine.tools.registry import ToolOutput

if TYPE_CHECKING:
    from engine.envs.environment import Observation


class StepStatus(StrEnum):
    DONE = "done"
    PAUSED = "paused"
    BLOCKED = "blocked"
    DENIED = "denied"
    FAILED = "failed"
    CANCELLED = "cancelled"
    CLEARED = "cleared"  # ruled and allowed, not yet run: its host runs it next (`Stepper.dispatch(run=False)`)


@dataclass(frozen=True)
class StepOutcome:
    """`message` is one line for a person; `output` is the tool's whole answer; `observation` the screen after."""

    status: StepStatus
    message: str = ""
    output: ToolOutput | None = None
    observation: "Observation | None" = None
