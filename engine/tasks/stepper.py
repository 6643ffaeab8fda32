"""One step, the same way for an agent and a replay: gate, approval, snapshot, run, receipt.

The step is marked `dispatching` before its side effect (write ahead) and `done` (or
`failed`: a failing tool may still have changed something) with its receipt in one
transaction after it; a step found `dispatching` on resume is settled by
the tool's effect check, or else needs a fresh approval rather than a blind retry.
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass

from engine.envs.workspace import EscapeError, WorkspaceEnv
from engine.events.bus import EventBus
from engine.events.records import ActionBlocked, ActionClassified, ActionCompleted, ApprovalRequested
from engine.gate.approvals import ApprovalBook, ApprovalError, ApprovalStatus
from engine.gate.gate import Decision, Gate
from engine.gate.verdict import Level, Verdict
from engine.journal.journal import Journal
from engine.programs.predicates import holds
from engine.store import Store
from engine.tasks.queue import TaskQueue
from engine.tasks.task import TaskStatus
from engine.tools.call import ToolCall
from engine.tools.outcome import StepOutcome, StepStatus
from engine.tools.registry import ToolError, ToolRegistry


@dataclass(frozen=True)
class Stepper:
    store: Store
    bus: EventBus
    queue: TaskQueue
    gate: Gate
    approvals: ApprovalBook
    journal: Journal | None
    registry: ToolRegistry
    env: WorkspaceEnv

    async def dispatch(self, task_id: str, idx: int, call: ToolCall, source: str, state_id: str | None = None) -> StepOutcome:
        if (await self.queue.get(task_id)).status is TaskStatus.CANCELLED:
            return StepOutcome(StepStatus.CANCELLED, "cancelled")
        previous = await self.queue.step(task_id, idx)
        interrupted = previous is not None and previous["status"] == "dispatching"
        if previous is not None and previous["status"] == "done":
            return StepOutcome(StepStatus.DONE, "already done")
        try:
            tool = self.registry.check(call)
        except ToolError as exc:
            return StepOutcome(StepStatus.FAILED, str(exc))
        if interrupted:
            effect = tool.effect(call.args)
            if effect is not None and holds(effect, self.env):
                async with self.store.transaction() as db:
                    await self.queue.mark_step(db, task_id, idx, call, "done", source, state_id)
                return StepOutcome(StepStatus.DONE, "interrupted step had already taken effect")
        ruling = self.gate.rule(call, tool.tier_for(call.args))
        verdict = ruling.verdict
        if self.gate.enabled:
            await self.bus.publish(ActionClassified(
                task_id, idx, call.as_json(), verdict.level.label, verdict.tier.value, list(verdict.rules), verdict.reason,
            ))
        if ruling.decision is Decision.BLOCK:
            return await self._block(task_id, idx, call, source, state_id, verdict)
        approval = None
        if ruling.decision is Decision.ASK or interrupted:
            approval = await self.approvals.usable(task_id, idx, call)
            if approval is None:
                return await self._ask(task_id, idx, call, verdict, interrupted)
        prepared = None
        try:
            if self.journal is not None:
                prepared = self.journal.prepare(tool, call, verdict.tier)
            async with self.store.transaction() as db:
                if approval is not None:
                    await self.approvals.consume(db, approval, call)
                await self.queue.mark_step(db, task_id, idx, call, "dispatching", source, state_id)
        except (EscapeError, ApprovalError, OSError) as exc:
            if prepared is not None and prepared.snapshot_path:
                shutil.rmtree(prepared.snapshot_path, ignore_errors=True)
            async with self.store.transaction() as db:
                await self.queue.mark_step(db, task_id, idx, call, "failed", source, state_id)
            return StepOutcome(StepStatus.FAILED, str(exc))
        try:
            output, status = await tool.run(self.env, call.args), "done"
        except (ToolError, EscapeError, OSError) as exc:
            output, status = str(exc), "failed"
        async with self.store.transaction() as db:
            receipt = None
            if prepared is not None:
                summary = tool.describe(call.args) if status == "done" else f"FAILED {tool.describe(call.args)}"
                receipt = await self.journal.commit(db, prepared, task_id, idx, call, verdict.tier, summary)
            receipt_id = receipt.id if receipt else None
            await self.queue.mark_step(db, task_id, idx, call, status, source, state_id, receipt_id)
        if status == "failed":
            return StepOutcome(StepStatus.FAILED, output)
        await self.bus.publish(ActionCompleted(task_id, idx, call.as_json(), receipt_id or "", source, output[-500:]))
        return StepOutcome(StepStatus.DONE, output)

    async def _block(self, task_id, idx, call, source, state_id, verdict: Verdict) -> StepOutcome:
        reason = f"blocked ({', '.join(verdict.rules) or verdict.level.label}): {verdict.reason}"
        receipt_id = ""
        if self.journal is not None:
            receipt = await self.journal.audit(task_id, idx, call, verdict.tier, f"BLOCKED {call.tool}: {verdict.reason}")
            receipt_id = receipt.id
        async with self.store.transaction() as db:
            await self.queue.mark_step(db, task_id, idx, call, "blocked", source, state_id, receipt_id or None)
        await self.bus.publish(ActionBlocked(task_id, idx, call.as_json(), reason, receipt_id))
        return StepOutcome(StepStatus.BLOCKED, reason)

    async def _ask(self, task_id, idx, call, verdict: Verdict, interrupted: bool) -> StepOutcome:
        latest = await self.approvals.latest(task_id, idx)
        if latest is not None and latest.call_hash == call.digest() and latest.status is ApprovalStatus.DENIED:
            return StepOutcome(StepStatus.FAILED, f"denied by {latest.decided_by}")
        if interrupted and verdict.level is Level.SAFE:
            verdict = Verdict(Level.DANGEROUS, verdict.tier, verdict.rules + ("resume.interrupted",),
                              "interrupted mid-dispatch: it may already have run")
        approval = await self.approvals.request(task_id, idx, call, verdict)
        await self.bus.publish(ApprovalRequested(task_id, approval.id, call.as_json(), verdict.reason))
        return StepOutcome(StepStatus.PAUSED, f"waiting for approval {approval.id}: {verdict.reason}")
