"""The replayer: walk a program, checking the live screen before every action.

It never calls a model. At each state it waits, up to the environment's `check_wait_s`, for
the screen to settle into something the program knows: a branch's guard, or the state's
own check. It acts only then; when neither comes it stops *before* acting and says what it
expected and what it saw, so the caller can hand the live screen back to the agent. Every
action goes through `dispatch`, the same gated, journaled path an agent's action takes.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from engine.programs.describe import describe, target
from engine.programs.predicates import Checker, holds, interpolate
from engine.programs.program import Program, State, Transition
from engine.tools.call import ToolCall
from engine.tools.outcome import StepOutcome, StepStatus

MAX_STEPS = 500
POLL_S = 0.1

Dispatch = Callable[[ToolCall, int, str], Awaitable[StepOutcome]]


@dataclass(frozen=True)
class Checked:
    """One check before acting: the predicate with parameters bound, and what each of its parts saw."""

    state_id: str
    passed: bool
    expected: dict
    observed: list[dict]
    waited_s: float


OnCheck = Callable[[Checked], Awaitable[None]]


class ReplayEnd(StrEnum):
    COMPLETED = "completed"
    MISMATCH = "mismatch"
    PAUSED = "paused"
    BLOCKED = "blocked"
    DENIED = "denied"
    FAILED = "failed"
    CANCELLED = "cancelled"


@dataclass(frozen=True)
class ReplayResult:
    """Where replay ended, and for a fallback what it did (`trail`) and which check failed."""

    end: ReplayEnd
    state_id: str
    steps: int
    message: str = ""
    trail: tuple[str, ...] = ()
    failed_check: dict | None = None


_FROM_STEP = {
    StepStatus.PAUSED: ReplayEnd.PAUSED,
    StepStatus.BLOCKED: ReplayEnd.BLOCKED,
    StepStatus.DENIED: ReplayEnd.DENIED,
    StepStatus.FAILED: ReplayEnd.FAILED,
    StepStatus.CANCELLED: ReplayEnd.CANCELLED,
}


@dataclass
class _Walk:
    state_id: str
    steps: int = 0
    trail: list[str] = field(default_factory=list)


class Replayer:
    def __init__(self, program: Program, params: dict[str, str], env: Checker, dispatch: Dispatch, on_check: OnCheck,
                 wait_s: float | None = None) -> None:
        self.program = program
        self.params = params
        self.env = env
        self._dispatch = dispatch
        self._on_check = on_check
        self._wait_s = float(getattr(env, "check_wait_s", 0.0)) if wait_s is None else wait_s

    async def run(self, done: Sequence[ToolCall] = ()) -> ReplayResult:
        """Replay from the start; `done` are the calls a pause interrupted after, which are followed, not repeated."""
        walk = _Walk(self.program.start)
        for call in done:
            taken = self._matching(walk.state_id, call)
            walk.state_id, walk.steps = taken.target, walk.steps + 1
            walk.trail.append(f"{call.tool} (before the pause)")
        while walk.steps <= MAX_STEPS:
            state = self.program.state(walk.state_id)
            transition, checked = await self._arrive(state)
            await self._on_check(checked)
            if not checked.passed:
                return self._end(ReplayEnd.MISMATCH, walk, _mismatch(state, checked), state.check)
            if transition is None:
                return self._end(ReplayEnd.COMPLETED, walk)
            call = self._bound(transition)
            outcome = await self._dispatch(call, walk.steps, walk.state_id)
            if outcome.status is not StepStatus.DONE:
                return self._end(_FROM_STEP[outcome.status], walk, outcome.message)
            walk.trail.append(f"{walk.state_id}: {call.tool} {_args(call)}")
            walk.state_id, walk.steps = transition.target, walk.steps + 1
        return self._end(ReplayEnd.FAILED, walk, f"gave up after {MAX_STEPS} steps")

    def _end(self, end: ReplayEnd, walk: _Walk, message: str = "", failed: dict | None = None) -> ReplayResult:
        return ReplayResult(end, walk.state_id, walk.steps, message, tuple(walk.trail), failed)

    def _bound(self, transition: Transition) -> ToolCall:
        return ToolCall(transition.action.tool, interpolate(transition.action.args, self.params))

    def _matching(self, state_id: str, call: ToolCall) -> Transition:
        """The transition a call already made took (the first one when none matches it exactly)."""
        leaving = self.program.leaving(state_id)
        if not leaving:
            raise ValueError(f"state {state_id} has no transition for {call.tool}, which ran before the pause")
        return next((t for t in leaving if self._bound(t).canonical() == call.canonical()), leaving[0])

    async def _arrive(self, state: State) -> tuple[Transition | None, Checked]:
        """Wait until a branch's guard or the state's check holds; the transition to take (None at a
        terminal state), and the check that let it."""
        guarded = [(t, t.guard) for t in self.program.leaving(state.id) if t.guard is not None]
        plain = [t for t in self.program.leaving(state.id) if t.guard is None]
        terminal = state.id in self.program.terminal
        began = time.monotonic()
        while True:
            for transition, guard in guarded:
                if await holds(guard, self.env, self.params):
                    return transition, self._passed(state.id, guard, began)
            if await holds(state.check, self.env, self.params):
                if terminal or plain:
                    return (None if terminal else plain[0]), self._passed(state.id, state.check, began)
            if time.monotonic() - began >= self._wait_s:
                break
            await asyncio.sleep(POLL_S)
        observed = [await self._observe(part) for part in _parts(interpolate(state.check, self.params))]
        waited = time.monotonic() - began
        if all(part["holds"] for part in observed):  # the check holds, but no way out of the state applies
            observed.append({"predicate": {"transition": "none applies"}, "holds": False, "saw": ""})
        return None, Checked(state.id, False, interpolate(state.check, self.params), observed, round(waited, 3))

    def _passed(self, state_id: str, predicate: dict, began: float) -> Checked:
        bound = interpolate(predicate, self.params)
        observed = [{"predicate": part, "holds": True, "saw": ""} for part in _parts(bound)]
        return Checked(state_id, True, bound, observed, round(time.monotonic() - began, 3))

    async def _observe(self, part: dict) -> dict:
        """One part of a failed check: whether it holds, and what the screen shows for it."""
        passed = await holds(part, self.env)
        saw = ""
        looker = getattr(self.env, "saw", None)
        if not passed and looker is not None and len(part) == 1:
            (form, body), = part.items()
            try:
                saw = str(await looker(form, body))[:200]
            except Exception:  # what was seen is a courtesy to the reader; not seeing it changes nothing
                saw = ""
        return {"predicate": part, "holds": passed, "saw": saw}


def _parts(predicate: dict) -> list[dict]:
    """The conjuncts of a check, as a reader goes through them one by one."""
    if "all" in predicate:
        return [leaf for part in predicate["all"] for leaf in _parts(part)]
    return [predicate]


def _mismatch(state: State, checked: Checked) -> str:
    failed = [part["predicate"] for part in checked.observed if not part["holds"]]
    said = "; ".join(describe(part) if "transition" not in part else "no transition applies" for part in failed)
    return f"state {state.id} ({state.description}) does not hold: {said}"[:600]


def _args(call: ToolCall) -> str:
    return target(call.args) or ""
