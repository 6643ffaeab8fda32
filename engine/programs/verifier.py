"""Verify before store: replay a fresh program in a fork of the run's start state, then ask the task's evaluator.

The real environment is never touched. A step whose effect would leave the fork (egress,
an unconfined shell, anything not `local_reversible` as the gate rates it now), and a
step the gate would ask a person about, are never re-executed: a person approved that
call once, in its run, not again here. Such a program is held as `unverified` until a
person accepts it. A
program with a step the gate blocks, or that fails its replay or its evaluator, is refused.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path

from engine.envs.environment import Environment
from engine.errors import one_line
from engine.gate.gate import Decision, Gate
from engine.programs.predicates import holds, interpolate
from engine.programs.program import Program
from engine.programs.replayer import ReplayEnd, Replayer
from engine.tier import Tier
from engine.tools.call import ToolCall
from engine.tools.outcome import StepOutcome, StepStatus
from engine.tools.registry import ToolError, ToolRegistry

HOW = "replay in a fork of the run's start state"


class Verdict(StrEnum):
    VERIFIED = "verified"
    UNVERIFIED = "unverified"
    REJECTED = "rejected"


@dataclass(frozen=True)
class Verification:
    verdict: Verdict
    reason: str

    @property
    def passed(self) -> bool:
        return self.verdict is Verdict.VERIFIED

    def record(self) -> dict:
        how = HOW if self.verdict is not Verdict.UNVERIFIED else "not re-executed: " + self.reason
        return {"status": self.verdict.value, "when": time.time(), "how": how, "passed": self.passed,
                "evaluator": self.reason}


class Verifier:
    def __init__(self, registry: ToolRegistry, gate: Gate, scratch: Path) -> None:
        self._registry = registry
        self._gate = gate
        self._scratch = scratch

    async def verify(self, program: Program, params: dict[str, str], clean: Environment | None,
                     evaluator: dict | None) -> Verification:
        """`clean` is the start state kept before the run; it is forked, never acted in."""
        if evaluator is None:
            return Verification(Verdict.REJECTED, "the task has no evaluator to verify against")
        for transition in program.transitions:
            call = ToolCall(transition.action.tool, interpolate(transition.action.args, params))
            try:
                tool = self._registry.get(call.tool)
            except ToolError as exc:
                return Verification(Verdict.REJECTED, str(exc))
            ruling = self._gate.rule(call, tool.tier_for(call.args), tool)
            if ruling.decision is Decision.BLOCK:
                return Verification(Verdict.REJECTED, f"step {call.tool} is blocked by the gate")
            tier = Tier.strictest(ruling.verdict.tier, tool.tier_for(call.args))
            if tier is not Tier.LOCAL_REVERSIBLE:
                return Verification(Verdict.UNVERIFIED, f"step {call.tool} is {tier.value}: a fork cannot contain it")
            if ruling.decision is Decision.ASK:
                return Verification(Verdict.UNVERIFIED, f"step {call.tool} needs a person's approval; "
                                    "verification does not run it again without one")
        if clean is None or not clean.can_fork:
            return Verification(Verdict.UNVERIFIED, "no forkable start state was kept for this run")
        fork = await clean.fork(self._scratch)
        try:
            result = await Replayer(program, params, fork, self._dispatch_in(fork), _ignore).run()
            if result.end is not ReplayEnd.COMPLETED:
                why = f"replay in a fork did not complete: {result.end.value} at {result.state_id} {result.message}"
                return Verification(Verdict.REJECTED, why.strip())
            if not await holds(evaluator, fork):
                return Verification(Verdict.REJECTED, "replay completed but the task's evaluator failed")
            return Verification(Verdict.VERIFIED, "replay completed and the task's evaluator passed")
        finally:
            await fork.close()

    def _dispatch_in(self, fork: Environment):
        async def dispatch(call: ToolCall, idx: int, state_id: str) -> StepOutcome:
            try:
                tool = self._registry.check(call)
                if tool.kind != fork.kind:
                    raise ToolError(f"{call.tool} acts in a {tool.kind} environment, not {fork.kind}")
                await tool.run(fork, call.args)
            except Exception as exc:  # a failing step fails the verification, never the runner
                return StepOutcome(StepStatus.FAILED, one_line(exc))
            return StepOutcome(StepStatus.DONE)

        return dispatch


async def _ignore(state_id: str, passed: bool) -> None:
    return None
