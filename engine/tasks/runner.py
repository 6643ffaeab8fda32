"""The durable task runner: claim a task, replay a program or run the agent loop, learn from success.

The runner owns the agent loop: observe, ask the agent to propose, put the proposal on
record, let the gate rule, dispatch, observe again. A task waiting on a person is parked
as `paused` and does not hold the runner; a decision puts it back in the queue, and the
next claim dispatches the stored proposal without asking the agent again. Whatever goes
wrong inside one task fails that task, and the runner goes on with the next.
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import socket
import time
import traceback
from dataclasses import replace
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from engine.agents.agent import Act, AgentContext, AgentError, AgentFactory, Finish, Price
from engine.envs.environment import Environment, Observation
from engine.errors import DiskFull, WardenError, one_line
from engine.events.bus import EventBus
from engine.events.records import (
    AgentConcluded, AgentStepped, ApprovalDecided, BudgetExceeded, BudgetRaised, ProgramExtended, ProgramRejected,
    ProgramStored, ReplayFellBack, ReplayStarted, StateChecked, TaskCancelled, TaskFailed, TaskPaused, TaskQueued, TaskResumed,
    TaskStarted, TaskSucceeded,
)
from engine.gate.approvals import ApprovalBook, ApprovalStatus
from engine.programs.compiler import Recorded, compile_run
from engine.programs.corpus import Corpus
from engine.programs.program import Program
from engine.programs.replayer import Checked, ReplayEnd, Replayer, ReplayResult
from engine.programs.selector import select
from engine.programs.splice import extend
from engine.programs.verifier import Offered, Verdict, Verification, Verifier
from engine.redaction.calls import revealed_call
from engine.store import DatabaseDamaged, StoreError
from engine.tasks.budget import Budget
from engine.tasks.claim import Claim, LeaseLost
from engine.tasks.evaluator import EvaluatorError, ShellCheck, judge
from engine.tasks.lease import Lease
from engine.tasks.queue import TaskQueue
from engine.tasks.retrace import DoneStep, Retracer
from engine.tasks.stepper import Stepper
from engine.tasks.task import Task, TaskError, TaskMode, TaskSpec, TaskStatus
from engine.tools.call import ToolCall
from engine.tools.outcome import StepOutcome, StepStatus

SERVED = frozenset({"verified", "accepted"})
ORPHAN_AGE = 600.0  # seconds before an unreferenced snapshot is taken for a dead runner's, not a live one's
DEFAULT_MAX_STEPS = 30
TRACE_TEXT = 2000  # characters of an observation kept in a step's trace
BUDGET_PAUSE = "budget: "


class TaskRunner:
    def __init__(
        self, queue: TaskQueue, bus: EventBus, stepper: Stepper, approvals: ApprovalBook, corpus: Corpus,
        verifier: Verifier | None, environments: Mapping[str, Environment], agents: Mapping[str, AgentFactory],
        runs: Path, fallback: bool = True, pace: float = 0.0, lease_seconds: float = 30.0,
        max_steps: int = DEFAULT_MAX_STEPS, opener: Callable[[str], Environment | None] = lambda identity: None,
        prices: Mapping[str, Price] | None = None, shell_check: ShellCheck | None = None,
    ) -> None:
        self.queue = queue
        self._bus = bus
        self._stepper = stepper
        self._approvals = approvals
        self._corpus = corpus
        self._verifier = verifier
        self._environments = environments
        self._opener = opener
        self._agents = agents
        self._runs = runs
        self._fallback = fallback
        self._pace = pace
        self._lease = lease_seconds
        self._max_steps = max_steps
        self._prices = dict(prices or {})
        self._shell_check = shell_check
        self._retracer = Retracer(stepper.registry, stepper.gate, stepper.fence)
        self._clean: dict[str, Environment] = {}
        self._holders: dict[str, str] = {}  # environment identity → the task it was last reset for
        self._wake = asyncio.Event()
        self._acting = asyncio.Lock()  # one task, or one verification from outside a task, acts at a time
        self.identity = f"{socket.gethostname()}:{os.getpid()}"

    async def submit(self, specs: list[TaskSpec]) -> list[Task]:
        """Check every spec as far as it can be checked before running, then queue all of them or none."""
        for number, spec in enumerate(specs, 1):
            try:
                self._check(spec)
            except TaskError as exc:
                raise TaskError(f"task {number}: {exc}" if len(specs) > 1 else str(exc)) from None
        tasks = await self.queue.submit([(spec, self._environments[spec.env_kind].identity) for spec in specs])
        for task in tasks:
            await self._bus.publish(TaskQueued(task.id, task.goal))
        self._wake.set()
        return tasks

    def _check(self, spec: TaskSpec) -> None:
        """The environment and agent exist, and the agent accepts its spec (a script's steps are real calls)."""
        if spec.env_kind not in self._environments:
            raise TaskError(f"no {spec.env_kind} environment here; this runtime has {sorted(self._environments)}")
        check_spec = getattr(self._environments[spec.env_kind], "check_spec", None)
        if check_spec is not None:  # what the environment's reset would refuse is refused now, not by the worker
            try:
                check_spec(spec.env)
            except WardenError as exc:
                raise TaskError(str(exc)) from None
        if spec.agent is None:
            return
        factory = self._agents.get(spec.agent["kind"])
        if factory is None:
            raise TaskError(f"no agent of kind {spec.agent['kind']!r}; known: {sorted(self._agents)}")
        try:
            factory(spec.agent, self._context(spec))
        except AgentError as exc:
            raise TaskError(str(exc)) from None

    def _context(self, spec: TaskSpec, briefing: str = "") -> AgentContext:
        return AgentContext(spec.goal, self._stepper.registry, spec.env_kind, self._prices, briefing)

    async def decide(self, approval_id: str, approved: bool, by: str) -> None:
        """Record a person's decision; either way the task goes back in the queue, and the agent is told a denial."""
        await self.expire_approvals()
        approval = await self._approvals.decide(approval_id, approved, by)
        await self._bus.publish(ApprovalDecided(approval.task_id, approval.id, approved, by))
        verb = "granted" if approved else "denied"
        if (await self.queue.get(approval.task_id)).spec.hosted:  # its host's call is waiting on the decision itself
            return
        if await self.queue.move(approval.task_id, TaskStatus.QUEUED, expect=TaskStatus.PAUSED):
            await self._bus.publish(TaskResumed(approval.task_id, f"approval {approval.id} {verb} by {by}"))
            self._wake.set()

    async def cancel(self, task_id: str, by: str) -> None:
        """Stop a task: at once if it waits, before its next step if it runs; what it did stays journaled."""
        task = await self.queue.get(task_id)
        if task.status.finished:
            raise TaskError(f"task {task_id} already {task.status.value}")
        if not await self.queue.move(task_id, TaskStatus.CANCELLED, expect=task.status):
            raise TaskError(f"task {task_id} changed state; try again")
        await self._approvals.withdraw(task_id)
        await self._drop_clean(task_id, self._clean.pop(task_id, None))
        await self._bus.publish(TaskCancelled(task_id, by))

    async def expire_approvals(self) -> None:
        """A task whose approval ran out of time fails; nobody said yes in time."""
        for approval in await self._approvals.expire_due():
            error = f"approval {approval.id} for {approval.call.tool} expired undecided"
            if await self.queue.move(approval.task_id, TaskStatus.FAILED, expect=TaskStatus.PAUSED, error=error):
                await self._bus.publish(TaskFailed(approval.task_id, error))

    async def recover(self) -> None:
        """Tasks whose runner died mid-run (its heartbeat stopped) go back in the queue to resume;
        start states kept for tasks that have finished since (a runner died holding them), forks of
        verifications whose process died, and snapshots a dead runner took but never wrote ahead, are
        removed."""
        for task_id in await self.queue.reap(self._lease):
            await self._bus.publish(TaskResumed(task_id, "recovered: its runner stopped without finishing"))
        kept = await asyncio.to_thread(lambda: [p.name for p in self._runs.iterdir()] if self._runs.is_dir() else [])
        for task_id in kept:
            if task_id not in self._clean and await self.queue.finished(task_id):
                await asyncio.to_thread(shutil.rmtree, self._runs / task_id, True)
        if self._verifier is not None:
            await self._verifier.sweep(ORPHAN_AGE)
        await self._stepper.sweep(ORPHAN_AGE)

    async def run_until_idle(self) -> None:
        await self.recover()
        await self.expire_approvals()
        while (task := await self.queue.claim(self.identity)) is not None:
            await self.run(task)

    async def run_task(self, task_id: str) -> None:
        """Run one task (and no other) until it rests: finished, or paused for a person or its budget."""
        await self.recover()
        await self.expire_approvals()
        while (task := await self.queue.claim(self.identity, task_id)) is not None:
            await self.run(task)

    async def serve(self) -> None:
        """Run tasks as they come, forever; a database that is busy is retried, not fatal; a full disk
        (`DiskFull`) or damaged pages (`DatabaseDamaged`), which no wait mends, end it."""
        while True:
            self._wake.clear()
            try:
                await self.run_until_idle()
            except DatabaseDamaged:  # waiting cannot mend damaged pages: serving ends, and says why
                raise
            except StoreError:
                await asyncio.sleep(1.0)
            try:
                await asyncio.wait_for(self._wake.wait(), timeout=1.0)
            except TimeoutError:
                pass

    async def run(self, task: Task) -> None:
        """Run one claimed task to its next rest; an unexpected error fails it, and never escapes, except a full
        disk (`DiskFull`), which is no task's fault and stops the runner."""
        lease = Lease(self.queue.database, Claim(task.id, self.identity, task.epoch), self._lease)
        lease.start()
        try:
            async with self._acting:
                await self._run(task, lease)
        except LeaseLost:
            pass
        except (DiskFull, DatabaseDamaged):  # no task's fault, and nothing can be recorded: the runner stops
            raise
        except Exception as exc:
            await self._crash(task, exc)
        finally:
            lease.stop()

    async def _crash(self, task: Task, exc: Exception) -> None:
        """Fail the task with one line, its traceback in the event, its open steps settled; an error Warden
        names (a browser that died, a page that never loaded) is said as it is, not as an internal one."""
        error = one_line(exc) if isinstance(exc, WardenError) else f"internal error: {one_line(exc)}"
        detail = "".join(traceback.format_exception(exc))
        try:
            await self._fail(task, error, detail=detail)
        except Exception:
            pass  # the database itself is failing: the lease runs out and recovery takes the task up again

    def _env_for(self, task: Task) -> Environment | None:
        """The environment the task was submitted for (tasks from before that was kept: the kind's own)."""
        if task.env is None:
            return self._environments.get(task.spec.env_kind)
        return self._opener(task.env)

    async def _run(self, task: Task, lease: Lease) -> None:
        task = self.queue.revealed(task)
        spec, mode, program_id = task.spec, task.mode, task.program_id
        if spec.hosted:  # its host drives it (a call whose hook died left it running): only its host goes on
            await self.queue.move(task.id, TaskStatus.PAUSED, expect=TaskStatus.RUNNING, epoch=task.epoch)
            return
        env = self._env_for(task)
        if env is None:
            await self._fail(task, f"its environment {task.env or spec.env_kind} cannot be opened here")
            return
        stale = not getattr(env, "durable", True) and (self._holders.get(env.identity) != task.id
                                                       or not getattr(env, "ready", True))
        if mode is None or stale:
            try:
                await env.reset(spec.env)
            except WardenError as exc:
                await self._fail(task, f"{env.kind} environment: {one_line(exc)}")
                return
            self._holders[env.identity] = task.id
            if mode is not None and not await self._retrace(task, env, lease):
                return
        if mode is None:
            await self._keep_clean_start(task, env)
            statuses = SERVED | ({"skipped"} if self._verifier is None else set())
            choice = select(spec.goal, await self._corpus.candidates(spec.goal, env.kind, statuses=statuses))
            mode, program_id = (TaskMode.REPLAY, choice[0].id) if choice else (TaskMode.AGENT, None)
            await self.queue.set_mode(task.id, mode, program_id)
            await self._bus.publish(TaskStarted(task.id, mode.value, program_id))
        if mode is TaskMode.REPLAY:
            if program_id is None:  # a replay is always set with its program (`set_mode`): this row is damaged
                await self._fail(task, "it is set to replay a program, but names none")
                return
            program = await self._corpus.get(program_id)
            if program is None:
                result = ReplayResult(ReplayEnd.MISMATCH, "", 0, f"program {program_id} is no longer stored")
            else:
                result = await self._replay(task, program, env, lease)
            if result.end is ReplayEnd.COMPLETED:
                await self._corpus.record_run(program_id, task.id, result.end.value)
                await self._finish(task, TaskMode.REPLAY, env)
                return
            if result.end is ReplayEnd.PAUSED:
                await self._pause(task, result.message)
                return
            if result.end is ReplayEnd.CANCELLED:
                return
            if result.end in (ReplayEnd.BLOCKED, ReplayEnd.DENIED) or not (self._fallback and spec.agent):
                await self._corpus.record_run(program_id, task.id, result.end.value, result.message)
                why = ""
                if result.end not in (ReplayEnd.BLOCKED, ReplayEnd.DENIED):
                    why = " and fallback is off" if spec.agent else " and the task has no agent to fall back to"
                await self._fail(task, f"replay {result.end.value} at {result.state_id or 'start'}: {result.message}{why}")
                return
            await self._corpus.record_run(program_id, task.id, "fell back", result.message)
            await self._bus.publish(ReplayFellBack(task.id, program_id, result.state_id, result.message, result.end.value))
            await self.queue.set_mode(task.id, TaskMode.AGENT, program_id)
        await self._agent(task, env, lease)

    async def _retrace(self, task: Task, env: Environment, lease: Lease) -> bool:
        """A task going on in a screen this runner did not hold for it, freshly reset: its done steps are replayed,
        each checked against its trace (`engine/tasks/retrace.py`), so its next step acts where the last one left
        off. False when that cannot be done: the task has failed, saying why, and nothing acted on the reset screen."""
        steps = [DoneStep(row["idx"], revealed_call(self.queue.redactor, ToolCall.from_json(row["call"])),
                          {key: row[key] for key in ("before", "target", "after") if key in row})
                 for row in await self.queue.traces(task.id) if row["status"] == "done"]
        retraced = await self._retracer.retrace(env, lease.claim, steps, task.spec.env.get("resettable") is True)
        if not retraced.held:
            self._holders.pop(env.identity, None)
            await self._fail(task, retraced.stopped)
            return False
        if retraced.replayed:
            done = ", ".join(str(idx) for idx in retraced.replayed)
            await self._bus.publish(TaskResumed(task.id, f"its {env.kind} screen was re-established here: replayed "
                                                         f"done step(s) {done}, each as its trace recorded"))
        return True

    def _serves(self, program: Program) -> bool:
        return program.status in SERVED or (self._verifier is None and program.status == "skipped")

    async def _replay(self, task: Task, program: Program, env: Environment, lease: Lease) -> ReplayResult:
        """Replay the task's program; a mismatch or a failed step is the screen disagreeing with it."""
        params = program.bind(task.goal) or {}
        done = await self.queue.done_calls(task.id, "replay")
        if not done:
            await self._bus.publish(ReplayStarted(task.id, program.id, params))

        async def on_check(checked: Checked) -> None:
            await self._bus.publish(StateChecked(task.id, program.id, checked.state_id, checked.passed, checked.expected,
                                                 checked.observed, checked.waited_s))

        async def dispatch(call, idx, state_id):
            lease.ensure()
            outcome = await self._stepper.dispatch(env, lease.claim, idx, call, "replay", state_id)
            if outcome.observation is not None:  # it ran now: what it acted on and left, to re-establish it by
                await self.queue.trace(task.id, idx, _trace(None, outcome))
            await self._breathe()
            return outcome

        try:
            return await Replayer(program, params, env, dispatch, on_check).run(done)
        except ValueError as exc:  # the stored program changed under a paused replay
            return ReplayResult(ReplayEnd.MISMATCH, program.start, len(done), one_line(exc))

    async def _agent(self, task: Task, env: Environment, lease: Lease) -> None:
        if task.spec.agent is None:
            await self._fail(task, "no stored program serves this goal and the task has no agent")
            return
        try:
            briefing = await self._briefing(task)
            agent = self._agents[task.spec.agent["kind"]](task.spec.agent, self._context(task.spec, briefing))
        except (AgentError, KeyError) as exc:
            await self._fail(task, f"agent: {one_line(exc)}")
            return
        cap = task.spec.max_steps or self._max_steps
        budget = await self.queue.budget(task)
        spent, started = await self.queue.spent(task.id), time.monotonic()
        base_wall = spent.wall_s
        observation = None
        while True:
            lease.ensure()
            spent = replace(spent, wall_s=base_wall + time.monotonic() - started)
            open_step = await self.queue.open_step(task.id)
            if open_step is not None and open_step["source"] == "agent":
                idx, call = open_step["idx"], self.queue.call_of(open_step)
                before = None
            else:
                if (await self.queue.get(task.id)).status is not TaskStatus.RUNNING:
                    return
                if await self.queue.count_steps(task.id, "agent", status=None) >= cap:
                    await self._fail(task, f"the agent used its {cap} steps without finishing")
                    return
                # A budget is spent only when there is another step to take: an agent whose proposal costs
                # nothing (a script) is asked first, and one that has finished finishes within its budget.
                over = budget.exceeded(spent)
                if over is not None and not getattr(agent, "costless", False):
                    await self.queue.spend(lease.claim, spent)
                    await self._over_budget(task, *over)
                    return
                before = observation or await env.observe()
                proposal = await agent.propose(before, await self.queue.history(task.id))
                observation = None
                if over is not None and isinstance(proposal, Act):
                    await self.queue.spend(lease.claim, spent)
                    await self._over_budget(task, *over)
                    return
                spent = replace(spent, usage=spent.usage + proposal.usage,
                                steps=spent.steps + isinstance(proposal, Act),
                                wall_s=base_wall + time.monotonic() - started)
                await self.queue.spend(lease.claim, spent)
                if not isinstance(proposal, Act):
                    concluded = "finished" if isinstance(proposal, Finish) else "gave up"
                    message = proposal.summary if isinstance(proposal, Finish) else proposal.reason
                    await self._bus.publish(AgentConcluded(task.id, concluded, message, proposal.usage.as_json()))
                    if isinstance(proposal, Finish):
                        if await self._finish(task, TaskMode.AGENT, env):
                            await self._learn(task, env)
                    else:
                        await self._fail(task, message)
                    return
                idx, call = await self.queue.next_idx(task.id), proposal.call
                await self.queue.propose(env, lease.claim, idx, call, "agent")
                await self._bus.publish(AgentStepped(task.id, idx, call.as_json(), proposal.usage.as_json()))
            outcome = await self._stepper.dispatch(env, lease.claim, idx, call, "agent")
            await self._breathe()
            if outcome.status is StepStatus.PAUSED:
                await self._pause(task, outcome.message)
                return
            if outcome.status is StepStatus.CANCELLED:
                return
            observation = outcome.observation
            await self.queue.trace(task.id, idx, _trace(before, outcome))

    async def _breathe(self) -> None:
        if self._pace:
            await asyncio.sleep(self._pace)

    async def _over_budget(self, task: Task, limit: str, used: float, allowed: float) -> None:
        """Park a task that reached a limit; raising the budget (`raise_budget`) puts it back in the queue."""
        reason = f"{BUDGET_PAUSE}{limit} {used:g} of {allowed:g} used; raise the budget to resume"
        if await self.queue.move(task.id, TaskStatus.PAUSED, expect=TaskStatus.RUNNING, epoch=task.epoch):
            await self._bus.publish(BudgetExceeded(task.id, limit, used, allowed))
            await self._bus.publish(TaskPaused(task.id, reason))

    async def raise_budget(self, task_id: str, raised: Budget, by: str) -> Budget:
        """Raise a task's limits; a task paused on its budget goes back in the queue if it is now within it."""
        budget = await self.queue.raise_budget(task_id, raised)
        await self._bus.publish(BudgetRaised(task_id, budget.as_json(), by))
        task = await self.queue.get(task_id)
        latest = await self._approvals.latest(task_id)
        paused_on_budget = task.status is TaskStatus.PAUSED and (latest is None or latest.status is not ApprovalStatus.PENDING)
        within = (await self.queue.budget(task)).exceeded(await self.queue.spent(task_id)) is None
        if paused_on_budget and within and await self.queue.move(task_id, TaskStatus.QUEUED, expect=TaskStatus.PAUSED):
            await self._bus.publish(TaskResumed(task_id, f"budget raised by {by}"))
            self._wake.set()
        return budget

    async def _finish(self, task: Task, mode: TaskMode, env: Environment) -> bool:
        evaluator = task.spec.evaluator
        if evaluator is not None:
            try:
                solved = await judge(evaluator, env, self._shell_check)
            except EvaluatorError as exc:
                await self._fail(task, one_line(exc))
                return False
            if not solved:
                await self._fail(task, "the task's evaluator does not hold after the run")
                return False
        if not await self.queue.move(task.id, TaskStatus.SUCCEEDED, expect=TaskStatus.RUNNING, epoch=task.epoch):
            return False
        await self._bus.publish(TaskSucceeded(task.id, mode.value))
        return True

    async def _briefing(self, task: Task) -> str:
        """For an agent taking over from a replay: what the replay did and why it stopped (from the journal
        and the events, so a resumed task is told the same)."""
        fell = [e for e in await self._bus.history(task.id) if isinstance(e, ReplayFellBack)]
        if not fell:
            return ""
        done = await self.queue.done_calls(task.id, "replay")
        did = "; ".join(call.tool + " " + json.dumps(call.args, ensure_ascii=False)[:120] for call in done) or "nothing"
        return (f"A stored program ({fell[-1].program_id}) replayed part of this task and handed it to you. "
                f"It did: {did}. It stopped at state {fell[-1].state_id}: {fell[-1].reason}. "
                "Continue from the screen as it is now; do not repeat what was done.")

    async def _learn(self, task: Task, env: Environment) -> None:
        """Compile (or extend), verify and store the run; the task has succeeded already, so learning never fails it."""
        clean = self._clean.pop(task.id, None)
        try:
            steps = [(row["source"], Recorded(ToolCall.from_json(row["call"]),
                                              {k: row[k] for k in ("before", "target", "after") if k in row} or None))
                     for row in await self.queue.traces(task.id) if row["status"] == "done"]
            agent = task.spec.agent
            if not task.spec.learn or not steps or agent is None:  # only an agent's run is learned from
                return
            if self.queue.redactor.holds_secret([task.goal, [step.call.as_json() for _, step in steps]]):
                await self._bus.publish(ProgramRejected(task.id, "", "the run used a secret, and a program would "
                                                                     "have to hold it; nothing was learned"))
                return
            fell = [e for e in await self._bus.history(task.id) if isinstance(e, ReplayFellBack)]
            base = await self._corpus.get(fell[-1].program_id) if fell else None
            continuation = [step for source, step in steps if source == "agent"]
            if base is not None and fell and continuation:
                failed = base.state(fell[-1].state_id).check if fell[-1].end == ReplayEnd.MISMATCH.value else None
                params = base.bind(task.goal) or {}
                program = extend(base, fell[-1].state_id, failed, continuation, params, self._stepper.registry)
            else:
                provenance = {"task": task.id, "agent": agent["kind"]}
                program = compile_run(task.goal, [step for _, step in steps], self._stepper.registry, env.kind,
                                      provenance, task.spec.env, task.spec.evaluator)
                params = {name: spec["example"] for name, spec in program.params.items()}
            offered = await self.offer(program, params, task.spec.evaluator, task.spec.env, env, clean, task.id)
            if base is not None and program.revision > base.revision and offered.stored:
                await self._bus.publish(ProgramExtended(task.id, program.id, fell[-1].state_id,
                                                        len(program.states) - len(base.states)))
        except Exception as exc:
            await self._bus.publish(ProgramRejected(task.id, "", f"could not learn from the run: {one_line(exc)}"))
        finally:
            await self._drop_clean(task.id, clean)

    async def offer(self, program: Program, params: dict[str, str], evaluator: dict | None, env_spec: Mapping[str, Any],
                    env: Environment, clean: Environment | None = None, task_id: str | None = None,
                    hold_unjudged: bool = False) -> Offered:
        """Put a program through the verify gate into the corpus: it replaces the one of its signature only
        if it passes, and one held for a person never pushes out one that is served. `evaluator` is
        concrete for `params`; `clean` a kept start to fork (workspace), else a screen is reset. With
        `hold_unjudged` a program that has no evaluator is held for a person rather than refused."""
        if evaluator is None and hold_unjudged:
            verification = Verification(Verdict.UNVERIFIED, "no evaluator travels with it to judge a re-run")
        elif self._verifier is None:
            await self._put(program, {"status": "skipped", "how": "the verify gate is switched off", "passed": False},
                            task_id)
            return Offered(Verification(Verdict.UNVERIFIED, "the verify gate is switched off"), True)
        else:
            verify = self._verifier.verify(
                program, params, clean if env.can_fork else None, evaluator, live=None if env.can_fork else env,
                env_spec={**env_spec, "kind": env.kind},
                judge=lambda evaluator, at: judge(evaluator, at, self._shell_check))
            if task_id is None:  # from outside a task: wait until no task is acting in the environment
                async with self._acting:
                    verification = await verify
            else:
                verification = await verify
            self._holders.pop(env.identity, None)  # a screen was reset to verify: the next task resets it again
            if verification.verdict is Verdict.REJECTED:
                await self._bus.publish(ProgramRejected(task_id, program.signature, verification.reason))
                return Offered(verification, False)
        served = [p for p in await self._corpus.all() if p.signature == program.signature and self._serves(p)]
        if served and not verification.passed:
            await self._bus.publish(ProgramRejected(task_id, program.signature, f"kept {served[0].id}, which is served: "
                                                    f"the new version is {verification.verdict.value}: "
                                                    f"{verification.reason}"))
            return Offered(verification, False, served[0].id)
        await self._put(program, verification.record(), task_id)
        return Offered(verification, True)

    async def _put(self, program: Program, record: dict, task_id: str | None) -> None:
        program = program.with_verification(record)
        await self._corpus.upsert(program)
        await self._bus.publish(ProgramStored(task_id, program.id, program.signature, program.status))

    async def _keep_clean_start(self, task: Task, env: Environment) -> None:
        """A fork of the start state, for verifying the program this run may become."""
        if task.spec.learn and task.spec.agent is not None and env.can_fork:
            await self._drop_clean(task.id, self._clean.pop(task.id, None))
            self._clean[task.id] = await env.fork(self._runs / task.id)

    async def _drop_clean(self, task_id: str, clean: Environment | None) -> None:
        if clean is not None:
            await clean.close()
        await asyncio.to_thread(shutil.rmtree, self._runs / task_id, True)

    async def _pause(self, task: Task, reason: str) -> None:
        """Park the task; a decision that arrived while it was still running is honoured here."""
        if not await self.queue.move(task.id, TaskStatus.PAUSED, expect=TaskStatus.RUNNING, epoch=task.epoch):
            return
        await self._bus.publish(TaskPaused(task.id, reason))
        approval = await self._approvals.latest(task.id)
        if approval is None or approval.status not in (ApprovalStatus.APPROVED, ApprovalStatus.DENIED):
            return
        if await self.queue.move(task.id, TaskStatus.QUEUED, expect=TaskStatus.PAUSED):
            verb = "granted" if approval.status is ApprovalStatus.APPROVED else "denied"
            await self._bus.publish(TaskResumed(task.id, f"approval {approval.id} was {verb} while pausing"))
            self._wake.set()

    async def _fail(self, task: Task, error: str, expect: TaskStatus = TaskStatus.RUNNING, detail: str = "") -> None:
        """Fail a task in the state this runner left it (a task cancelled or reclaimed meanwhile is not
        touched); its unsettled steps fail with it, and their prepared snapshots go."""
        await self._drop_clean(task.id, self._clean.pop(task.id, None))
        epoch = task.epoch if expect is TaskStatus.RUNNING else None
        if await self.queue.move(task.id, TaskStatus.FAILED, expect=expect, error=error, epoch=epoch):
            for pending in await self.queue.settle_open(task.id, error):
                self._stepper.drop(json.loads(pending))
            await self._bus.publish(TaskFailed(task.id, error, detail))


def _seen(observation: Observation | None) -> dict | None:
    """An observation as a trace keeps it: its kind, its page facts, and the start of its text."""
    if observation is None:
        return None
    facts = {k: observation.fields[k] for k in ("url", "title", "package") if k in observation.fields}
    return {"kind": observation.kind, **facts, "text": observation.text[:TRACE_TEXT]}


def _trace(before: Observation | None, outcome: StepOutcome) -> dict:
    """What one step saw before, what it acted on (the element a coordinate click hit), and what it saw after."""
    data = outcome.output.data if outcome.output is not None else {}
    return {"before": _seen(before), "target": data.get("target"), "after": _seen(outcome.observation)}
