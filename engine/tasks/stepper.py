"""One step, the same way for an agent and a replay: gate, approval, snapshot, run, receipt.

The call is on record before the gate rules on it. The step is marked `dispatching`
before its side effect (write ahead) and `done` (or `failed`: a failing tool may still
have changed something) with its receipt in one transaction after it; a step found
`dispatching` on resume is settled by the tool's effect check, or else needs a fresh
approval rather than a blind retry. Any exception a tool raises fails the step, never
the runner.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.envs.environment import Environment
from engine.errors import WardenError, one_line
from engine.events.bus import EventBus
from engine.events.records import ActionBlocked, ActionClassified, ActionCompleted, ApprovalRequested
from engine.gate.approvals import ApprovalBook, ApprovalStatus
from engine.gate.gate import Decision, Gate
from engine.gate.verdict import Level, Verdict
from engine.journal.journal import Journal, Prepared
from engine.programs.predicates import holds
from engine.store import Store
from engine.tasks.queue import TaskQueue
from engine.tasks.task import TaskStatus
from engine.tools.call import ToolCall
from engine.tools.outcome import StepOutcome, StepStatus
from engine.tools.registry import Tool, ToolError, ToolRegistry

OUTPUT_LIMIT = 64 * 1024
_SETTLED = {"done": StepStatus.DONE, "failed": StepStatus.FAILED, "blocked": StepStatus.BLOCKED,
            "denied": StepStatus.DENIED}


@dataclass(frozen=True)
class Stepper:
    store: Store
    bus: EventBus
    queue: TaskQueue
    gate: Gate
    approvals: ApprovalBook
    journal: Journal | None
    registry: ToolRegistry

    async def dispatch(self, env: Environment, task_id: str, idx: int, call: ToolCall, source: str,
                       state_id: str | None = None) -> StepOutcome:
        if (await self.queue.get(task_id)).status is TaskStatus.CANCELLED:
            return StepOutcome(StepStatus.CANCELLED, "cancelled")
        previous = await self.queue.step(task_id, idx)
        if previous is not None and previous["status"] in _SETTLED:
            return StepOutcome(_SETTLED[previous["status"]], previous["output"] or "")
        interrupted = previous is not None and previous["status"] == "dispatching"
        if previous is None:
            await self.queue.record(task_id, idx, call, "proposed", source, state_id)
        try:
            tool = self.registry.check(call)
            if tool.kind != env.kind:
                raise ToolError(f"{call.tool} acts in a {tool.kind} environment; this task acts in {env.kind}")
        except ToolError as exc:
            return await self._settle(task_id, idx, call, source, state_id, StepStatus.FAILED, str(exc))
        if interrupted and tool.idempotent:
            effect = tool.effect(call.args)
            if effect is not None and await holds(effect, env):
                return await self._settle(task_id, idx, call, source, state_id, StepStatus.DONE,
                                          "interrupted step had already taken effect")
        ruling = self.gate.rule(call, tool.tier_for(call.args))
        verdict = ruling.verdict
        if self.gate.enabled:
            await self.bus.publish(ActionClassified(
                task_id, idx, call.as_json(), verdict.level.label, verdict.tier.value, list(verdict.rules), verdict.reason,
            ))
        if ruling.decision is Decision.BLOCK:
            return await self._block(env, task_id, idx, call, source, state_id, verdict)
        approval = None
        if ruling.decision is Decision.ASK or interrupted:
            latest = await self.approvals.latest(task_id, idx)
            if latest is not None and latest.call_hash == call.digest() and latest.status is ApprovalStatus.DENIED:
                return await self._settle(task_id, idx, call, source, state_id, StepStatus.DENIED,
                                          f"{call.tool} denied by {latest.decided_by}")
            approval = await self.approvals.usable(task_id, idx, call)
            if approval is None:
                return await self._ask(task_id, idx, call, source, state_id, verdict, interrupted)
        return await self._run(env, tool, task_id, idx, call, source, state_id, verdict, approval)

    async def _run(self, env, tool: Tool, task_id, idx, call, source, state_id, verdict: Verdict, approval) -> StepOutcome:
        prepared: Prepared | None = None
        committed = False
        try:
            try:
                if self.journal is not None:
                    prepared = await self.journal.prepare(env, tool, call, verdict.tier)
                async with self.store.transaction() as db:
                    if approval is not None:
                        await self.approvals.consume(db, approval, call)
                    await self.queue.mark_step(db, task_id, idx, call, "dispatching", source, state_id)
            except (WardenError, OSError) as exc:
                return await self._settle(task_id, idx, call, source, state_id, StepStatus.FAILED, one_line(exc))
            try:
                output, status = await tool.run(env, call.args), StepStatus.DONE
                message = output.text
            except Exception as exc:  # a tool's failure is the step's, never the runner's
                output, status, message = None, StepStatus.FAILED, one_line(exc)
            async with self.store.transaction() as db:
                receipt = None
                if prepared is not None:
                    summary = tool.describe(call.args)
                    summary = summary if status is StepStatus.DONE else f"FAILED {summary}"
                    receipt = await self.journal.commit(db, prepared, task_id, idx, call, verdict.tier, summary)
                receipt_id = receipt.id if receipt else None
                await self.queue.mark_step(db, task_id, idx, call, status.value, source, state_id, receipt_id,
                                           output=message[-OUTPUT_LIMIT:])
            committed = True
        finally:
            if prepared is not None and not committed:
                self.journal.discard(prepared)
        if status is StepStatus.FAILED:
            return StepOutcome(StepStatus.FAILED, message)
        await self.bus.publish(ActionCompleted(task_id, idx, call.as_json(), receipt_id or "", source, message[-500:]))
        return StepOutcome(StepStatus.DONE, message, output, await env.observe())

    async def _settle(self, task_id, idx, call, source, state_id, status: StepStatus, message: str) -> StepOutcome:
        await self.queue.record(task_id, idx, call, status.value, source, state_id, output=message)
        return StepOutcome(status, message)

    async def _block(self, env, task_id, idx, call, source, state_id, verdict: Verdict) -> StepOutcome:
        reason = f"blocked ({', '.join(verdict.rules) or verdict.level.label}): {verdict.reason}"
        receipt_id = ""
        if self.journal is not None:
            receipt = await self.journal.audit(env.identity, task_id, idx, call, verdict.tier,
                                               f"BLOCKED {call.tool}: {verdict.reason}")
            receipt_id = receipt.id
        async with self.store.transaction() as db:
            await self.queue.mark_step(db, task_id, idx, call, "blocked", source, state_id, receipt_id or None,
                                       output=reason)
        await self.bus.publish(ActionBlocked(task_id, idx, call.as_json(), reason, receipt_id))
        return StepOutcome(StepStatus.BLOCKED, reason)

    async def _ask(self, task_id, idx, call, source, state_id, verdict: Verdict, interrupted: bool) -> StepOutcome:
        if interrupted and verdict.level is Level.SAFE:
            verdict = Verdict(Level.DANGEROUS, verdict.tier, verdict.rules + ("resume.interrupted",),
                              "interrupted mid-dispatch: it may already have run")
        if not interrupted:
            await self.queue.record(task_id, idx, call, "waiting", source, state_id)
        approval = await self.approvals.request(task_id, idx, call, verdict)
        await self.bus.publish(ApprovalRequested(task_id, approval.id, call.as_json(), verdict.reason))
        return StepOutcome(StepStatus.PAUSED, f"waiting for approval {approval.id}: {verdict.reason}")

