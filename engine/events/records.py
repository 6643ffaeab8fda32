"""Events are facts: frozen records of what the engine did, persisted as task events."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, ClassVar

_KINDS: dict[str, type["Event"]] = {}


@dataclass(frozen=True)
class Event:
    """Base of every event; `kind` is the class name, the rest is the payload."""

    task_id: str | None

    kind: ClassVar[str] = "Event"

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.kind = cls.__name__
        _KINDS[cls.__name__] = cls

    def payload(self) -> dict[str, Any]:
        data = dataclasses.asdict(self)
        data.pop("task_id")
        return data

    @staticmethod
    def restore(kind: str, task_id: str | None, payload: dict[str, Any]) -> "Event":
        cls = _KINDS[kind]
        names = {f.name for f in dataclasses.fields(cls)}
        return cls(task_id=task_id, **{k: v for k, v in payload.items() if k in names})


@dataclass(frozen=True)
class TaskQueued(Event):
    goal: str


@dataclass(frozen=True)
class TaskStarted(Event):
    mode: str
    program_id: str | None = None


@dataclass(frozen=True)
class TaskPaused(Event):
    reason: str


@dataclass(frozen=True)
class TaskResumed(Event):
    reason: str


@dataclass(frozen=True)
class BudgetExceeded(Event):
    """A task crossed one of its limits (`steps`, `wall_s`, `tokens`, `cost_usd`) and was paused."""

    limit: str
    used: float
    allowed: float


@dataclass(frozen=True)
class BudgetRaised(Event):
    budget: dict
    by: str


@dataclass(frozen=True)
class TaskSucceeded(Event):
    mode: str


@dataclass(frozen=True)
class TaskFailed(Event):
    """`error` is one line; `detail` holds a traceback when an unexpected exception failed the task."""

    error: str
    detail: str = ""


@dataclass(frozen=True)
class TaskCancelled(Event):
    cancelled_by: str


@dataclass(frozen=True)
class AgentStepped(Event):
    """The agent proposed a call (already on record); replayed steps never emit this."""

    idx: int
    call: dict
    usage: dict = dataclasses.field(default_factory=dict)


@dataclass(frozen=True)
class AgentConcluded(Event):
    """The agent said it finished, or gave up; `usage` is what that last proposal cost."""

    outcome: str
    message: str
    usage: dict = dataclasses.field(default_factory=dict)


@dataclass(frozen=True)
class ActionClassified(Event):
    idx: int
    call: dict
    level: str
    tier: str
    rules: list
    reason: str
    route: str = ""  # runs | asks | blocked (`engine/gate/route.py`)
    why: str = ""  # the route's reason, in words


@dataclass(frozen=True)
class ActionBlocked(Event):
    idx: int
    call: dict
    reason: str
    receipt_id: str


@dataclass(frozen=True)
class ApprovalRequested(Event):
    approval_id: str
    call: dict
    reason: str


@dataclass(frozen=True)
class ApprovalDecided(Event):
    approval_id: str
    approved: bool
    decided_by: str


@dataclass(frozen=True)
class ActionCompleted(Event):
    idx: int
    call: dict
    receipt_id: str
    source: str
    output: str


@dataclass(frozen=True)
class ReceiptUndone(Event):
    """A receipt was undone; `forced` when a person overrode a refusal (the risk taken is on record)."""

    receipt_id: str
    forced: bool = False
    by: str = ""


@dataclass(frozen=True)
class ReplayStarted(Event):
    program_id: str
    params: dict


@dataclass(frozen=True)
class StateChecked(Event):
    """One check of a state (or of a branch's guard) before acting: `expected` is the predicate with
    its parameters bound; `observed` has one `{"predicate", "holds", "saw"}` per leaf, what the screen
    showed for it, so a reader can show the check predicate by predicate. `waited_s` is how long the
    replayer waited for the screen to settle into it."""

    program_id: str
    state_id: str
    passed: bool
    expected: dict = dataclasses.field(default_factory=dict)
    observed: list = dataclasses.field(default_factory=list)
    waited_s: float = 0.0


@dataclass(frozen=True)
class ReplayFellBack(Event):
    """Replay stopped at `state_id` and the agent takes over; `end` is `mismatch` (the state's check
    did not hold, nothing was done there) or how its action ended (`failed`)."""

    program_id: str
    state_id: str
    reason: str
    end: str = "mismatch"


@dataclass(frozen=True)
class ProgramExtended(Event):
    """A fallback's continuation was spliced into a program as a branch out of `state_id`."""

    program_id: str
    state_id: str
    states: int


@dataclass(frozen=True)
class ProgramStored(Event):
    """`status` is `verified`, `unverified` (held until a person accepts it), `accepted` or `skipped`."""

    program_id: str
    signature: str
    status: str = "verified"


@dataclass(frozen=True)
class ProgramRemoved(Event):
    program_id: str


@dataclass(frozen=True)
class ProgramRejected(Event):
    signature: str
    reason: str
