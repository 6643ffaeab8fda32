"""A runner's claim on a task, fenced by an epoch: each claim of a task raises it by one.

Every step write checks, in its own transaction, that the task is still running under
this claim's epoch. A runner that stalled and was reclaimed holds an older epoch, so it
can no longer write ahead, and what it cannot write ahead it does not run.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.errors import WardenError


class LeaseLost(WardenError):
    """This runner may no longer act for the task."""


@dataclass(frozen=True)
class Claim:
    task_id: str
    runner: str
    epoch: int
