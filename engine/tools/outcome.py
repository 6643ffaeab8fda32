"""What became of one dispatched step; shared by the agent loop, replay and verification."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class StepStatus(StrEnum):
    DONE = "done"
    PAUSED = "paused"
    BLOCKED = "blocked"
    FAILED = "failed"
    CANCELLED = "cancelled"


@dataclass(frozen=True)
class StepOutcome:
    status: StepStatus
    message: str = ""
