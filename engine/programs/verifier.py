"""Verify before store: replay a fresh program from a clean copy, then ask the task's own evaluator.

The clean copy is the workspace as it was before the run; the real workspace is never
touched. A program with a blocked or externally irreversible step is refused, since
re-executing it to check it would do the irreversible thing again.
"""

from __future__ import annotations

import shutil
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from engine.envs.workspace import WorkspaceEnv
from engine.gate.gate import Decision, Gate
from engine.gate.verdict import Tier
from engine.programs.predicates import holds, interpolate
from engine.programs.program import Program
from engine.programs.replayer import ReplayEnd, Replayer
from engine.tools.call import ToolCall
from engine.tools.outcome import StepOutcome, StepStatus
from engine.tools.registry import ToolError, ToolRegistry


@dataclass(frozen=True)
class Verification:
    passed: bool
    reason: str

    def record(self) -> dict:
        return {"when": time.time(), "how": "replay from clean copy", "passed": self.passed, "evaluator": self.reason}


class Verifier:
    def __init__(self, registry: ToolRegistry, gate: Gate, scratch: Path) -> None:
        self._registry = registry
        self._gate = gate
        self._scratch = scratch

    async def verify(self, program: Program, params: dict[str, str], clean: Path, evaluator: dict | None) -> Verification:
        if evaluator is None:
            return Verification(False, "the task has no evaluator to verify against")
        for transition in program.transitions:
            call = ToolCall(transition.action.tool, interpolate(transition.action.args, params))
            ruling = self._gate.rule(call, self._registry.get(call.tool).tier_for(call.args))
            if ruling.decision is Decision.BLOCK:
                return Verification(False, f"step {call.tool} is blocked by the gate")
            if ruling.verdict.tier is Tier.EXTERNALLY_IRREVERSIBLE:
                return Verification(False, f"step {call.tool} is externally irreversible; not re-executed to verify")
        self._scratch.mkdir(parents=True, exist_ok=True)
        sandbox_root = Path(tempfile.mkdtemp(prefix="verify-", dir=self._scratch))
        try:
            sandbox = WorkspaceEnv(clean).copy_to(sandbox_root)
            result = await Replayer(program, params, sandbox, self._sandbox_dispatch(sandbox), _ignore).run()
            if result.end is not ReplayEnd.COMPLETED:
                why = f"replay from clean did not complete: {result.end.value} at {result.state_id} {result.message}"
                return Verification(False, why.strip())
            if not holds(evaluator, sandbox):
                return Verification(False, "replay completed but the task's evaluator failed")
            return Verification(True, "replay completed and the task's evaluator passed")
        finally:
            shutil.rmtree(sandbox_root, ignore_errors=True)

    def _sandbox_dispatch(self, sandbox: WorkspaceEnv):
        async def dispatch(call: ToolCall, idx: int, state_id: str) -> StepOutcome:
            try:
                tool = self._registry.check(call)
                await tool.run(sandbox, call.args)
            except (ToolError, OSError) as exc:
                return StepOutcome(StepStatus.FAILED, str(exc))
            return StepOutcome(StepStatus.DONE)

        return dispatch


async def _ignore(state_id: str, passed: bool) -> None:
    return None
