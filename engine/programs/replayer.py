"""The replayer: walk a program, checking each state on the live screen before acting.

It never calls a model; the moment a check fails it stops and says where, so the
caller can hand control back to the agent. Every action goes through `dispatch`,
which is the same gated, journaled path an agent's action takes.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from enum import StrEnum

from engine.programs.predicates import Checker, holds, interpolate
from engine.programs.program import Program
from engine.tools.call import ToolCall
from engine.tools.outcome import StepOutcome, StepStatus

MAX_STEPS = 500

Dispatch = Callable[[ToolCall, int, str], Awaitable[StepOutcome]]
OnCheck = Callable[[str, bool], Awaitable[None]]


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
    end: ReplayEnd
    state_id: str
    steps: int
    message: str = ""


_FROM_STEP = {
    StepStatus.PAUSED: ReplayEnd.PAUSED,
    StepStatus.BLOCKED: ReplayEnd.BLOCKED,
    StepStatus.DENIED: ReplayEnd.DENIED,
    StepStatus.FAILED: ReplayEnd.FAILED,
    StepStatus.CANCELLED: ReplayEnd.CANCELLED,
}


class Replayer:
    def __init__(self, program: Program, params: dict[str, str], env: Checker, dispatch: Dispatch, on_check: OnCheck) -> None:
        self.program = program
        self.params = params
        self.env = env
        self._dispatch = dispatch
        self._on_check = on_check

    async def run(self, already_done: int = 0) -> ReplayResult:
        """Replay from the start; the first `already_done` steps ran before a pause and are not repeated."""
        state_id, idx = self.program.start, 0
        while idx <= MAX_STEPS:
            state = self.program.state(state_id)
            transitions = [t for t in self.program.leaving(state_id)
                           if t.guard is None or await holds(t.guard, self.env, self.params)]
            if idx < already_done and transitions:
                state_id, idx = transitions[0].target, idx + 1
                continue
            passed = await holds(state.check, self.env, self.params)
            await self._on_check(state_id, passed)
            if not passed:
                return ReplayResult(ReplayEnd.MISMATCH, state_id, idx, f"state {state_id} ({state.description}) does not hold")
            if state_id in self.program.terminal:
                return ReplayResult(ReplayEnd.COMPLETED, state_id, idx)
            if not transitions:
                return ReplayResult(ReplayEnd.MISMATCH, state_id, idx, f"no transition out of {state_id} applies")
            transition = transitions[0]
            call = ToolCall(transition.action.tool, interpolate(transition.action.args, self.params))
            outcome = await self._dispatch(call, idx, state_id)
            if outcome.status is not StepStatus.DONE:
                return ReplayResult(_FROM_STEP[outcome.status], state_id, idx, outcome.message)
            state_id, idx = transition.target, idx + 1
        return ReplayResult(ReplayEnd.FAILED, state_id, idx, f"gave up after {MAX_STEPS} steps")
