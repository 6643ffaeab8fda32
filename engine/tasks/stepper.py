"""One step, the same way for an agent and a replay: gate, approval, snapshot, run, receipt.

The call is on record before the gate rules on it. The step is marked `dispatching`
before its side effect (write ahead, fenced by the runner's claim, leaving what the
receipt will need and what the tool's witness saw) and `done` (or `failed`: a failing
tool may still have changed something) with its receipt in one transaction after it.
The effect itself runs inside the task's `EffectFence`, so a runner reclaimed between
those writes never acts; the whole step holds its environment's fence shared (`EnvironmentFence`),
so an undo there waits for it, or refuses. A step found `dispatching` on resume is settled by evidence:
the witness or the idempotent effect check says it ran (its receipt is written from
what was left) or did not (it runs again). When nothing can be told, a local step is rolled
back to the snapshot its write-ahead took (its effect is confined to those targets, and the
fence keeps everyone else out) and runs again; a step with no snapshot is put to a person,
who is told why. Any exception a tool raises fails the step, never the runner.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, replace

import aiosqlite

from engine.envs.environment import Environment
from engine.envs.scene import scene_of
from engine.envs.fence import EnvironmentFence
from engine.errors import DiskFull, WardenError, one_line, out_of_space
from engine.events.bus import EventBus
from engine.events.records import ActionBlocked, ActionClassified, ActionCompleted, ApprovalRequested
from engine.gate.approvals import Approval, ApprovalBook, ApprovalStatus
from engine.gate.gate import Decision, Gate, Ruling
from engine.gate.grants import GrantBook
from engine.gate.verdict import Level, Verdict
from engine.journal.compensation import bound
from engine.journal import deferred
from engine.journal.journal import Journal, Prepared
from engine.programs.predicates import holds
from engine.store import Store
from engine.tasks.claim import Claim, LeaseLost
from engine.tasks.fence import EffectFence
from engine.tasks.queue import TaskQueue
from engine.tasks.task import TaskStatus
from engine.tier import Tier
from engine.tools.call import ToolCall
from engine.tools.outcome import StepOutcome, StepStatus
from engine.tools.pins import Pin, binding, changed
from engine.tools.registry import CommandFailed, Tool, ToolError, ToolOutput, ToolRegistry
from engine.tools.witness import Evidence

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
    fence: EffectFence
    acting: EnvironmentFence
    grants: GrantBook | None = None

    async def dispatch(self, env: Environment, claim: Claim, idx: int, call: ToolCall, source: str,
                       state_id: str | None = None, run: bool = True) -> StepOutcome:
        """One step, holding its environment's fence shared from before its snapshot until it is settled,
        so an undo in that environment never runs while the step may change what it restores. With `run`
        false a call the gate lets run (or a person approved) is only `CLEARED`: recorded, ruled and left
        proposed for a later dispatch of the same step to run (a host's hook clears, `warden exec` runs)."""
        async with self.acting.acting(env.identity):
            return await self._dispatch(env, claim, idx, call, source, state_id, run)

    async def _dispatch(self, env: Environment, claim: Claim, idx: int, call: ToolCall, source: str,
                        state_id: str | None, run: bool = True) -> StepOutcome:
        task_id = claim.task_id
        previous, ended = await self._previous(task_id, idx)
        if ended is not None:
            return ended
        step = _Step(claim, idx, call, source, state_id)
        interrupted = previous is not None and previous["status"] == "dispatching"
        left = json.loads(previous["pending"]) if interrupted and previous is not None and previous["pending"] else {}
        if previous is None:
            await self.queue.propose(env, claim, idx, call, source, state_id)
        try:
            tool = self.registry.check(call)
            if tool.kind != env.kind:
                raise ToolError(f"{call.tool} acts in a {tool.kind} environment; this task acts in {env.kind}")
        except ToolError as exc:
            return await self._settle(step, StepStatus.FAILED, str(exc), left)
        evidence, rolled_back = None, False
        if interrupted:
            async with self.fence.hold(claim):  # a stale runner's effect is over, or it will not start
                evidence = await self._evidence(env, tool, call, left)
                if evidence.ran is None:
                    rolled_back = await self._rollback(env, left)
            if evidence.ran is True:
                return await self._confirm(env, tool, step, left, evidence)
            if evidence.ran is False or rolled_back:  # as if it never ran: it is a new step again
                self.drop(left)
                interrupted, left, evidence = False, {}, None
        ruling = await self._ruling(task_id, idx, call, tool, interrupted)
        verdict = ruling.verdict
        if self.gate.enabled:
            await self.bus.publish(ActionClassified(
                task_id, idx, call.as_json(), verdict.level.label, verdict.tier.value, list(verdict.rules), verdict.reason,
                ruling.route.value, ruling.why,
            ))
        if ruling.decision is Decision.BLOCK:
            return await self._block(env, step, verdict, left)
        approval = None
        if ruling.decision is Decision.ASK or interrupted:
            latest = await self.approvals.latest(task_id, idx)
            if latest is not None and latest.call_hash == call.digest() and latest.status is ApprovalStatus.DENIED:
                return await self._settle(step, StepStatus.DENIED, f"{call.tool} denied by {latest.decided_by}", left)
            code = await self._pin(env, tool, verdict)
            approval = await self.approvals.usable(task_id, idx, call, code)
            if approval is None:
                outdated = await self.approvals.outdated(task_id, idx, call, code)
                return await self._ask(step, verdict, evidence, rolled_back, code, outdated, env=env, why=ruling.why)
            moved = self.approvals.moved(approval, await scene_of(env, call)) if approval.scene else None
            if moved is not None:  # given on another page, or for another element: it does not cover this
                await self.approvals.retire(approval)
                return await self._ask(step, verdict, evidence, rolled_back, code, env=env,
                                       moved=f"the screen changed after approval {approval.id} was given: {moved}")
        if not run:
            return StepOutcome(StepStatus.CLEARED, ruling.why)
        return await self._run(env, tool, step, verdict, approval, left)

    async def _previous(self, task_id: str, idx: int) -> tuple[aiosqlite.Row | None, StepOutcome | None]:
        """The step as recorded so far, and its outcome when there is nothing left to do: the task was cancelled,
        or the step is already settled (a resumed step is never dispatched twice)."""
        if (await self.queue.get(task_id)).status is TaskStatus.CANCELLED:
            return None, StepOutcome(StepStatus.CANCELLED, "cancelled")
        previous = await self.queue.step(task_id, idx)
        if previous is not None and previous["status"] in _SETTLED:
            return previous, StepOutcome(_SETTLED[previous["status"]], previous["output"] or "")
        return previous, None

    async def _ruling(self, task_id: str, idx: int, call: ToolCall, tool: Tool, interrupted: bool) -> Ruling:
        """The gate's ruling, with a call it would ask about run instead when a person's live grant covers it (never
        a step interrupted mid-dispatch: whether it already ran is a question about that step, not its pattern;
        nor a step a person approved on its own: that approval is spent on it)."""
        ruling = self.gate.rule(call, tool.tier_for(call.args), tool)
        if ruling.decision is not Decision.ASK or interrupted or self.grants is None:
            return ruling
        if await self.approvals.usable(task_id, idx, call) is not None:
            return ruling
        grant = await self.grants.covering(task_id, call, ruling.verdict)
        if grant is None:
            return ruling
        await self.grants.used(grant)
        return Ruling(Decision.ALLOW, ruling.verdict, f"granted by {grant.granted_by}: {grant.describe()} ({grant.id})")

    @staticmethod
    async def _pin(env: Environment, tool: Tool, verdict: Verdict) -> tuple[Pin, ...]:
        """What the files the call runs as code hold now: an approval is bound to it (none when the gate
        names no such file, or the tool cannot read its environment's files)."""
        if not verdict.code or tool.pin is None:
            return ()
        return await tool.pin(env, verdict.code)

    async def _evidence(self, env: Environment, tool: Tool, call: ToolCall, left: dict) -> Evidence:
        """What can be told about a step interrupted mid-dispatch: its witness, else its idempotent effect."""
        if tool.witness is not None and "witness" in left:
            try:
                return await tool.witness.after(env, call.args, left["witness"])
            except (WardenError, OSError) as exc:
                return Evidence(None, f"its witness could not look: {one_line(exc)}")
        effect = tool.effect(call.args) if tool.idempotent else None
        if effect is None:
            return Evidence(None, f"{call.tool} leaves nothing that tells whether it ran")
        try:
            if await holds(effect, env):
                return Evidence(True, "its effect holds, and running it again would change nothing")
        except WardenError as exc:
            return Evidence(None, f"its effect could not be checked: {one_line(exc)}")
        return Evidence(None, "its effect does not hold")

    async def _rollback(self, env: Environment, left: dict) -> bool:
        """Put an interrupted local step's targets back as its write-ahead snapshot found them, so it runs
        again exactly once; False when it left no snapshot (an external effect: only a person can judge)."""
        if self.journal is None or not left.get("prepared") or Tier(left["tier"]) is not Tier.LOCAL_REVERSIBLE:
            return False
        return await self.journal.rollback(env, Prepared.from_json(left["prepared"]))

    async def _confirm(self, env: Environment, tool: Tool, step: "_Step", left: dict, evidence: Evidence) -> StepOutcome:
        """An interrupted step that did take effect: done, with the receipt its write-ahead prepared."""
        message = f"interrupted step had already taken effect: {evidence.seen}"
        if self.journal is not None and left.get("prepared"):
            await self.journal.seal(env, Prepared.from_json(left["prepared"]))
        async with self.store.transaction() as db:
            receipt_id = None
            if self.journal is not None and left.get("prepared"):
                prepared = Prepared.from_json(left["prepared"])
                receipt = await self.journal.commit(db, prepared, step.claim.task_id, step.idx, step.call,
                                                    Tier(left["tier"]), f"{tool.describe(step.call.args)} (confirmed on resume)")
                receipt_id = receipt.id
            await self.queue.mark_step(db, step.claim, step.idx, step.call, "done", step.source, step.state_id,
                                       receipt_id, output=message)
        await self.bus.publish(ActionCompleted(step.claim.task_id, step.idx, step.call.as_json(), receipt_id or "",
                                               step.source, message))
        return StepOutcome(StepStatus.DONE, message, None, await env.observe())

    async def _run(self, env: Environment, tool: Tool, step: "_Step", verdict: Verdict, approval: Approval | None,
                   left: dict) -> StepOutcome:
        task_id, call = step.claim.task_id, step.call
        journal = self.journal
        prepared: Prepared | None = None
        ahead = False
        try:
            try:
                if journal is not None:
                    prepared = await journal.prepare(env, tool, call, verdict.tier)
                pending = {"tier": verdict.tier.value, "prepared": prepared.as_json() if prepared else None}
                if tool.witness is not None:
                    pending["witness"] = await tool.witness.before(env, call.args)
                code: tuple[Pin, ...] = ()
                if approval is not None and approval.binding:  # read again last, as close to the effect as it gets
                    code = await self._pin(env, tool, verdict)
                    if binding(code) != approval.binding:
                        return await self._ask(step, verdict, None, code=code, outdated=approval, env=env)
                async with self.store.transaction() as db:
                    if approval is not None:
                        await self.approvals.consume(db, approval, call, code)
                    await self.queue.mark_step(db, step.claim, step.idx, call, "dispatching", step.source,
                                               step.state_id, pending=json.dumps(pending))
                ahead = True
            except (WardenError, OSError) as exc:
                if isinstance(exc, (LeaseLost, DiskFull)):
                    raise
                if out_of_space(exc):  # the snapshot could not be kept: no step can be journaled, whatever the task
                    raise DiskFull(f"the disk holding Warden's snapshots is full ({one_line(exc)})") from None
                return await self._settle(step, StepStatus.FAILED, one_line(exc), left)
            self.drop(left)
            output: ToolOutput | None
            try:
                async with self.fence.hold(step.claim):
                    with deferred.granted(deferred.into(prepared) if tool.snapshots_itself else None):
                        output, status = await tool.run(env, call.args), StepStatus.DONE
                message = output.text
            except LeaseLost:
                raise
            except CommandFailed as exc:  # it ran and failed: what it printed is kept for whoever passes it on
                output, status, message = exc.output, StepStatus.FAILED, one_line(exc)
            except Exception as exc:  # a tool's failure is the step's, never the runner's
                output, status, message = None, StepStatus.FAILED, one_line(exc)
            if prepared is not None and tool.snapshots_itself:
                prepared = await deferred.settle(prepared)
            if journal is not None and prepared is not None:
                await journal.seal(env, prepared)
            async with self.store.transaction() as db:
                receipt = None
                if journal is not None and prepared is not None:
                    summary = tool.describe(call.args)
                    summary = summary if status is StepStatus.DONE else f"FAILED {summary}"
                    compensation = bound(tool, call, verdict.tier, output, time.time())
                    receipt = await journal.commit(db, prepared, task_id, step.idx, call, verdict.tier, summary,
                                                   compensation)
                receipt_id = receipt.id if receipt else None
                await self.queue.mark_step(db, step.claim, step.idx, call, status.value, step.source, step.state_id,
                                           receipt_id, output=message[-OUTPUT_LIMIT:])
        finally:
            if journal is not None and prepared is not None and not ahead:
                journal.discard(prepared)
        if status is StepStatus.FAILED:
            return StepOutcome(StepStatus.FAILED, message, output)
        await self.bus.publish(ActionCompleted(task_id, step.idx, call.as_json(), receipt_id or "", step.source,
                                               message[-500:]))
        return StepOutcome(StepStatus.DONE, message, output, await env.observe())

    async def write_ahead(self, env: Environment, claim: Claim, idx: int, call: ToolCall) -> None:
        """For an effect its host performs (Claude Code's Write): a cleared step is snapshotted and written ahead,
        `dispatching`, as `_run` does before a tool runs; `settle_hosted` writes its receipt once the host ran it."""
        tool = self.registry.check(call)
        tier = tool.tier_for(call.args)
        prepared = await self.journal.prepare(env, tool, call, tier) if self.journal is not None else None
        pending = {"tier": tier.value, "prepared": prepared.as_json() if prepared else None}
        await self.queue.record_pending(claim, idx, call, "host", json.dumps(pending))

    async def settle_hosted(self, env: Environment, claim: Claim, idx: int, call: ToolCall, ok: bool,
                            output: str) -> str | None:
        """The host ran a step written ahead: seal its snapshot and commit its receipt, and mark it done (or failed:
        a failing tool may still have changed something); the receipt's id, if the journal keeps one."""
        row = await self.queue.step(claim.task_id, idx)
        if row is None or row["status"] != "dispatching" or not row["pending"]:
            raise ToolError(f"step {idx} of task {claim.task_id} was not written ahead")
        left = json.loads(row["pending"])
        tool, tier = self.registry.check(call), Tier(left["tier"])
        prepared = Prepared.from_json(left["prepared"]) if left.get("prepared") else None
        if self.journal is not None and prepared is not None:
            await self.journal.seal(env, prepared)
        status = StepStatus.DONE if ok else StepStatus.FAILED
        async with self.store.transaction() as db:
            receipt = None
            if self.journal is not None and prepared is not None:
                summary = tool.describe(call.args) + ("" if ok else " (FAILED)")
                receipt = await self.journal.commit(db, prepared, claim.task_id, idx, call, tier, summary)
            await self.queue.mark_step(db, claim, idx, call, status.value, "host", receipt_id=receipt.id if receipt
                                       else None, output=output[-OUTPUT_LIMIT:])
        await self.bus.publish(ActionCompleted(claim.task_id, idx, call.as_json(), receipt.id if receipt else "", "host",
                                               output[-500:]))
        return receipt.id if receipt else None

    async def sweep(self, older_than: float) -> None:
        if self.journal is not None:
            await self.journal.sweep(older_than)

    def drop(self, left: dict) -> None:
        """Remove the snapshot an interrupted write-ahead prepared, once it can no longer become a receipt."""
        if self.journal is not None and left.get("prepared"):
            self.journal.discard(Prepared.from_json(left["prepared"]))

    async def _settle(self, step: "_Step", status: StepStatus, message: str, left: dict) -> StepOutcome:
        await self.queue.record(step.claim, step.idx, step.call, status.value, step.source, step.state_id,
                                output=message)
        self.drop(left)
        return StepOutcome(status, message)

    async def _block(self, env: Environment, step: "_Step", verdict: Verdict, left: dict) -> StepOutcome:
        task_id, call = step.claim.task_id, step.call
        reason = f"blocked ({', '.join(verdict.rules) or verdict.level.label}): {verdict.reason}"
        receipt_id = ""
        if self.journal is not None:
            receipt = await self.journal.audit(env.identity, task_id, step.idx, call, verdict.tier,
                                               f"BLOCKED {call.tool}: {verdict.reason}")
            receipt_id = receipt.id
        async with self.store.transaction() as db:
            await self.queue.mark_step(db, step.claim, step.idx, call, "blocked", step.source, step.state_id,
                                       receipt_id or None, output=reason)
        self.drop(left)
        await self.bus.publish(ActionBlocked(task_id, step.idx, call.as_json(), reason, receipt_id))
        return StepOutcome(StepStatus.BLOCKED, reason)

    async def _ask(self, step: "_Step", verdict: Verdict, evidence: Evidence | None, rolled_back: bool = False,
                   code: tuple[Pin, ...] = (), outdated: Approval | None = None, *, env: Environment | None = None,
                   moved: str = "", why: str = "") -> StepOutcome:
        """Ask a person, about the call and what its code files hold now (`code`); for a step interrupted
        mid-dispatch, say plainly that it may already have run, and why, or that what it did was rolled back
        and it would run afresh; for one approved on code that has changed since (`outdated`), say which.
        A screen call is asked about where it would act in `env` now (its scene: the page and the element,
        named in the reason), and the approval is given on that; `moved` says why an earlier one did not do."""
        scene = await scene_of(env, step.call) if env is not None else None
        if moved:
            reason = f"Asked again: {moved}. Rated: {verdict.reason}"
            verdict = Verdict(verdict.level, verdict.tier, verdict.rules + ("approval.scene-changed",), reason,
                              verdict.code)
        if outdated is not None:
            reason = (f"The code it runs changed after approval {outdated.id} was given:"
                      f" {', '.join(changed(outdated.code, code)) or 'its code files'} now hold other contents;"
                      f" this asks about what would run now. Rated: {verdict.reason}")
            verdict = Verdict(verdict.level, verdict.tier, verdict.rules + ("approval.code-changed",), reason,
                              verdict.code)
        if rolled_back:
            reason = (f"A crash interrupted this step mid-dispatch; whatever it had done was rolled back to its"
                      f" snapshot, and approving runs it afresh. Rated: {verdict.reason}")
            verdict = Verdict(verdict.level, verdict.tier, verdict.rules + ("resume.rolled_back",), reason, verdict.code)
        if evidence is not None:
            level = verdict.level if verdict.level is not Level.SAFE else Level.DANGEROUS
            reason = (f"INTERRUPTED mid-dispatch by a crash: it may already have run. Journal: it was written ahead,"
                      f" no receipt followed. Effect check: {evidence.seen}. Rated: {verdict.reason}")
            verdict = Verdict(level, verdict.tier, verdict.rules + ("resume.interrupted",), reason, verdict.code)
        else:
            await self.queue.record(step.claim, step.idx, step.call, "waiting", step.source, step.state_id)
        if scene is not None:
            verdict = replace(verdict, reason=f"{verdict.reason}; it {scene.phrase()}")
        approval = await self.approvals.request(step.claim.task_id, step.idx, step.call, verdict, code, scene, why)
        await self.bus.publish(ApprovalRequested(step.claim.task_id, approval.id, step.call.as_json(), verdict.reason))
        return StepOutcome(StepStatus.PAUSED, f"waiting for approval {approval.id}: {verdict.reason}")

    async def clear_foreign(self, env: Environment, claim: Claim, idx: int, call: ToolCall, source: str,
                            ruling: Ruling) -> StepOutcome:
        """For a call another program performs and no registered tool stands for (an MCP server's tool, a read
        Warden answers itself): recorded, then routed by `ruling` (the caller's rating of it: the gate's, maybe
        made stricter). Blocked, it is settled with its audit receipt; held for a person, an approval is asked
        (`PAUSED`); else it is `CLEARED` and written ahead `dispatching`, spending the approval that let it, for
        `settle_foreign` to record what the other program did."""
        async with self.acting.acting(env.identity):
            task_id = claim.task_id
            previous, ended = await self._previous(task_id, idx)
            if ended is not None:
                return ended
            if previous is not None and previous["status"] == "dispatching":
                raise ToolError(f"step {idx} of task {task_id} was already cleared")
            step = _Step(claim, idx, call, source, None)
            if previous is None:
                await self.queue.propose(env, claim, idx, call, source)
            verdict = ruling.verdict
            if self.gate.enabled:
                await self.bus.publish(ActionClassified(
                    task_id, idx, call.as_json(), verdict.level.label, verdict.tier.value, list(verdict.rules),
                    verdict.reason, ruling.route.value, ruling.why))
            if ruling.decision is Decision.BLOCK:
                return await self._block(env, step, verdict, {})
            approval, why = None, ruling.why
            if ruling.decision is Decision.ASK:
                latest = await self.approvals.latest(task_id, idx)
                if latest is not None and latest.call_hash == call.digest() and latest.status is ApprovalStatus.DENIED:
                    return await self._settle(step, StepStatus.DENIED, f"{call.tool} denied by {latest.decided_by}", {})
                approval = await self.approvals.usable(task_id, idx, call)
                grant = (await self.grants.covering(task_id, call, verdict)
                         if approval is None and self.grants is not None else None)
                if approval is None and grant is None:
                    return await self._ask(step, verdict, None, env=env, why=ruling.why)
                if grant is not None and self.grants is not None:
                    await self.grants.used(grant)
                    why = f"granted by {grant.granted_by}: {grant.describe()} ({grant.id})"
            pending = json.dumps({"tier": verdict.tier.value, "prepared": None, "foreign": True})
            async with self.store.transaction() as db:
                if approval is not None:
                    await self.approvals.consume(db, approval, call)
                await self.queue.mark_step(db, claim, idx, call, "dispatching", source, pending=pending)
            return StepOutcome(StepStatus.CLEARED, why)

    async def settle_foreign(self, env: Environment, claim: Claim, idx: int, call: ToolCall, source: str, ok: bool,
                             summary: str, audit: bool = True) -> str | None:
        """The other program answered a call `clear_foreign` cleared: it is marked done (or failed), with an
        audit-only receipt of the call and `summary` when `audit` (its effect is out of Warden's reach: nothing
        to undo); the receipt's id, if one was written."""
        row = await self.queue.step(claim.task_id, idx)
        if row is None or row["status"] != "dispatching" or not row["pending"]:
            raise ToolError(f"step {idx} of task {claim.task_id} was not cleared")
        left = json.loads(row["pending"])
        if not left.get("foreign"):
            raise ToolError(f"step {idx} of task {claim.task_id} is not a foreign call")
        receipt_id = None
        if audit and self.journal is not None:
            text = f"{call.tool}: {summary}" if ok else f"FAILED {call.tool}: {summary}"
            receipt_id = (await self.journal.audit(env.identity, claim.task_id, idx, call, Tier(left["tier"]),
                                                   text[:500])).id
        status = StepStatus.DONE if ok else StepStatus.FAILED
        async with self.store.transaction() as db:
            await self.queue.mark_step(db, claim, idx, call, status.value, source, None, receipt_id,
                                       output=summary[-OUTPUT_LIMIT:])
        await self.bus.publish(ActionCompleted(claim.task_id, idx, call.as_json(), receipt_id or "", source,
                                               summary[-500:]))
        return receipt_id

    async def audit_settled(self, env: str | None, task_id: str, idx: int, call: ToolCall, tier: Tier,
                            summary: str) -> str | None:
        """An audit-only receipt for a call settled without running (denied, withdrawn): its id, if kept."""
        if self.journal is None:
            return None
        return (await self.journal.audit(env, task_id, idx, call, tier, summary[:500])).id


@dataclass(frozen=True)
class _Step:
    """Where a step is written: under which claim, at which index, for which call."""

    claim: Claim
    idx: int
    call: ToolCall
    source: str
    state_id: str | None
