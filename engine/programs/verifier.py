"""Verify before store: run a fresh program again from a clean start, then ask the task's evaluator.

A program is verified only where its re-run is contained:
- every step `local_reversible`: the run's start state was kept as a fork; the program is
  replayed in a fork of that, never in the real environment;
- steps on a screen, inside the task's scope (`Tool.scoped`): the environment is reset from
  the program's spec, and the program replayed there, only when the spec says its reset
  restores the site (`"resettable": true`, a benchmark's reset), or on a page where no
  request but a read can leave (`can_rehearse`): a step that needs to change the site then
  cannot run (the environment counts it in `writes_refused`), and the program is held for a
  person instead.
Anything else (egress, an unconfined shell, a step the gate would ask a person about: that
person approved the call once, in its run, not again here) is never re-executed: the program
is held as `unverified` until a person accepts it. A step the gate blocks, a replay that
does not reach a terminal state, or an evaluator that does not pass is a rejection. So is
an evaluator that already passes at the clean start: then it cannot tell whether the
program did anything.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path

from engine.envs.environment import Environment
from engine.errors import WardenError, one_line
from engine.gate.gate import Decision, Gate
from engine.programs import rooms
from engine.programs.predicates import holds, interpolate
from engine.programs.program import Program
from engine.programs.replayer import Checked, ReplayEnd, Replayer
from engine.tier import Tier
from engine.tools.call import ToolCall
from engine.tools.outcome import StepOutcome, StepStatus
from engine.tools.registry import ToolError, ToolRegistry

Judge = Callable[[dict, Environment], Awaitable[bool]]


class Verdict(StrEnum):
    VERIFIED = "verified"
    UNVERIFIED = "unverified"
    REJECTED = "rejected"


class Containment(StrEnum):
    """Where a re-run happens: a fork of the kept start, the spec's own reset, or a read-only page."""

    FORK = "replayed in a fork of the run's start state"
    RESET = "replayed after the spec's reset (it declares the site resettable)"
    READ_ONLY = "replayed from the spec's start on a read-only page: no request could change the site"


@dataclass(frozen=True)
class Verification:
    verdict: Verdict
    reason: str
    how: str = ""

    @property
    def passed(self) -> bool:
        return self.verdict is Verdict.VERIFIED

    def record(self) -> dict:
        how = self.how if self.verdict is not Verdict.UNVERIFIED else "not re-executed: " + self.reason
        return {"status": self.verdict.value, "when": time.time(), "how": how, "passed": self.passed,
                "evaluator": self.reason}


@dataclass(frozen=True)
class Offered:
    """What the verify gate made of a program offered to the corpus: its verdict, and whether it was
    stored (one that did not pass is not, while a served one of its family is `kept`)."""

    verification: Verification
    stored: bool
    kept: str | None = None


class Verifier:
    def __init__(self, registry: ToolRegistry, gate: Gate, scratch: Path) -> None:
        self._registry = registry
        self._gate = gate
        self._scratch = scratch

    async def verify(self, program: Program, params: dict[str, str], clean: Environment | None,
                     evaluator: dict | None, live: Environment | None = None,
                     env_spec: dict | None = None, judge: Judge | None = None) -> Verification:
        """`clean` is the kept start state (forked, never acted in); `live` the screen environment that
        `env_spec` (default: the program's own `env`) resets to its start. `evaluator` is concrete:
        it judges the run with these `params`, through `judge` (default: as a predicate), which
        knows the evaluator forms the task runner knows (JS in a page, a sandboxed shell check)."""
        if evaluator is None:
            return Verification(Verdict.REJECTED, "the task has no evaluator to verify against")
        spec = dict(env_spec if env_spec is not None else program.env)
        containment = Containment.FORK
        for transition in program.transitions:
            call = ToolCall(transition.action.tool, interpolate(transition.action.args, params))
            need = self._containment(program, call, live, spec.get("resettable") is True)
            if isinstance(need, Verification):
                return need
            if need is not Containment.FORK:
                containment = need
        if containment is Containment.FORK:
            if clean is None or not clean.can_fork:
                return Verification(Verdict.UNVERIFIED, "no forkable start state was kept for this run")
            async with rooms.room(self._scratch) as place:  # swept if this process dies before it is left
                fork = await clean.fork(place)
                try:
                    return await self._rerun(program, params, fork, evaluator, containment, judge or _predicate)
                finally:
                    await fork.close()
        assert live is not None
        try:
            await live.reset({**spec, **({"read_only": True} if containment is Containment.READ_ONLY else {})})
        except WardenError as exc:
            return Verification(Verdict.UNVERIFIED, f"the spec's start could not be opened again: {one_line(exc)}")
        return await self._rerun(program, params, live, evaluator, containment, judge or _predicate)

    async def sweep(self, older_than: float) -> list[str]:
        """Remove the forks of verifications whose process died (`rooms`); the names removed."""
        return await asyncio.to_thread(rooms.sweep, self._scratch, older_than)

    def _containment(self, program: Program, call: ToolCall, live: Environment | None,
                     resettable: bool) -> Containment | Verification:
        """How one step could be re-run safely, or the verdict when it cannot be."""
        try:
            tool = self._registry.get(call.tool)
        except ToolError as exc:
            return Verification(Verdict.REJECTED, str(exc))
        ruling = self._gate.rule(call, tool.tier_for(call.args), tool)
        if ruling.decision is Decision.BLOCK:
            return Verification(Verdict.REJECTED, f"step {call.tool} is blocked by the gate")
        tier = Tier.strictest(ruling.verdict.tier, tool.tier_for(call.args))
        if tier is Tier.LOCAL_REVERSIBLE:
            containment = Containment.FORK
        elif tool.scoped and live is not None and live.kind == program.kind and resettable:
            containment = Containment.RESET
        elif tool.scoped and live is not None and live.kind == program.kind and getattr(live, "can_rehearse", False):
            containment = Containment.READ_ONLY
        else:
            return Verification(Verdict.UNVERIFIED, f"step {call.tool} is {tier.value}: nothing here can contain a "
                                "re-run of it (declare the spec resettable if its reset restores the site)")
        if ruling.decision is Decision.ASK:
            return Verification(Verdict.UNVERIFIED, f"step {call.tool} needs a person's approval; "
                                "verification does not run it again without one")
        return containment

    async def _rerun(self, program: Program, params: dict[str, str], env: Environment, evaluator: dict,
                     containment: Containment, judge: Judge) -> Verification:
        try:
            if await judge(evaluator, env):
                return Verification(Verdict.REJECTED, "the evaluator already passes at the clean start, so it "
                                    "cannot tell whether the program does anything")
            result = await Replayer(program, params, env, self._dispatch_in(env), _ignore).run()
            if result.end is not ReplayEnd.COMPLETED:
                refused: int = getattr(env, "writes_refused", 0)  # only environments with a write guard count them
                if containment is Containment.READ_ONLY and refused:
                    return Verification(Verdict.UNVERIFIED, f"a step changes the site ({result.message}); re-running "
                                        "it would repeat that: accept the program, or declare the spec resettable")
                why = f"replay did not complete: {result.end.value} at {result.state_id} {result.message}"
                return Verification(Verdict.REJECTED, why.strip())
            if not await judge(evaluator, env):
                return Verification(Verdict.REJECTED, "replay completed but the task's evaluator failed")
        except WardenError as exc:
            return Verification(Verdict.REJECTED, f"the evaluator could not run: {one_line(exc)}")
        return Verification(Verdict.VERIFIED, "replay completed and the task's evaluator passed", containment.value)

    def _dispatch_in(self, env: Environment):
        async def dispatch(call: ToolCall, idx: int, state_id: str) -> StepOutcome:
            try:
                tool = self._registry.check(call)
                if tool.kind != env.kind:
                    raise ToolError(f"{call.tool} acts in a {tool.kind} environment, not {env.kind}")
                await tool.run(env, call.args)
            except Exception as exc:  # a failing step fails the verification, never the runner
                return StepOutcome(StepStatus.FAILED, one_line(exc))
            return StepOutcome(StepStatus.DONE)

        return dispatch


async def _ignore(checked: Checked) -> None:
    return None


async def _predicate(evaluator: dict, env: Environment) -> bool:
    return await holds(evaluator, env)
