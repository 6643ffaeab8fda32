"""The durable task runner: claim a task, replay a program or run the agent, learn from success.

A task waiting on a person is parked as `paused` and does not hold the runner; a
decision puts it back in the queue, and the next claim resumes it where it stopped.
"""

from __future__ import annotations

import asyncio
import shutil
from pathlib import Path

from engine.agents.scripted import ScriptedAgent
from engine.events.bus import EventBus
from engine.events.records import (
    AgentStepped, ApprovalDecided, ProgramRejected, ProgramStored, ReplayFellBack, ReplayStarted, StateChecked,
    TaskCancelled, TaskFailed, TaskPaused, TaskQueued, TaskResumed, TaskStarted, TaskSucceeded,
)
from engine.gate.approvals import ApprovalBook, ApprovalStatus
from engine.programs.compiler import compile_run
from engine.programs.corpus import Corpus
from engine.programs.predicates import holds
from engine.programs.program import Program
from engine.programs.replayer import ReplayEnd, Replayer, ReplayResult
from engine.programs.selector import select
from engine.programs.verifier import Verifier
from engine.tasks.queue import TaskQueue
from engine.tasks.stepper import Stepper
from engine.tasks.task import Task, TaskError, TaskMode, TaskSpec, TaskStatus
from engine.tools.outcome import StepStatus


class TaskRunner:
    def __init__(
        self, queue: TaskQueue, bus: EventBus, stepper: Stepper, approvals: ApprovalBook, corpus: Corpus,
        verifier: Verifier | None, runs: Path, fallback: bool = True, pace: float = 0.0, lease_seconds: float = 30.0,
    ) -> None:
        self.queue = queue
        self._bus = bus
        self._stepper = stepper
        self._approvals = approvals
        self._corpus = corpus
        self._verifier = verifier
        self._runs = runs
        self._fallback = fallback
        self._pace = pace
        self._lease = lease_seconds
        self._wake = asyncio.Event()

    async def submit(self, spec: TaskSpec) -> Task:
        task = await self.queue.submit(spec)
        await self._bus.publish(TaskQueued(task.id, spec.goal))
        self._wake.set()
        return task

    async def decide(self, approval_id: str, approved: bool, by: str) -> None:
        """Record a person's decision; an approved task goes back in the queue, a denied one fails."""
        await self.expire_approvals()
        approval = await self._approvals.decide(approval_id, approved, by)
        await self._bus.publish(ApprovalDecided(approval.task_id, approval.id, approved, by))
        if approved:
            if await self.queue.move(approval.task_id, TaskStatus.QUEUED, expect=TaskStatus.PAUSED):
                await self._bus.publish(TaskResumed(approval.task_id, f"approval {approval.id} granted by {by}"))
                self._wake.set()
        elif await self.queue.move(approval.task_id, TaskStatus.FAILED, expect=TaskStatus.PAUSED, error=f"denied by {by}"):
            await self._bus.publish(TaskFailed(approval.task_id, f"{approval.call.tool} denied by {by}"))

    async def cancel(self, task_id: str, by: str) -> None:
        """Stop a task: at once if it waits, before its next step if it runs; what it did stays journaled."""
        task = await self.queue.get(task_id)
        if task.status.finished:
            raise TaskError(f"task {task_id} already {task.status.value}")
        if not await self.queue.move(task_id, TaskStatus.CANCELLED, expect=task.status):
            raise TaskError(f"task {task_id} changed state; try again")
        await self._approvals.withdraw(task_id)
        await self._bus.publish(TaskCancelled(task_id, by))

    async def expire_approvals(self) -> None:
        """A task whose approval ran out of time fails; nobody said yes in time."""
        for approval in await self._approvals.expire_due():
            error = f"approval {approval.id} for {approval.call.tool} expired undecided"
            if await self.queue.move(approval.task_id, TaskStatus.FAILED, expect=TaskStatus.PAUSED, error=error):
                await self._bus.publish(TaskFailed(approval.task_id, error))

    async def recover(self) -> None:
        """Tasks whose runner died mid-run (its heartbeat stopped) go back in the queue to resume."""
        for task_id in await self.queue.reap(self._lease):
            await self._bus.publish(TaskResumed(task_id, "recovered: its runner stopped without finishing"))

    async def run_until_idle(self) -> None:
        await self.recover()
        await self.expire_approvals()
        while (task := await self.queue.claim()) is not None:
            await self.run(task)

    async def serve(self) -> None:
        """Run tasks as they come, forever; cancel the caller's task to stop."""
        while True:
            self._wake.clear()
            await self.run_until_idle()
            try:
                await asyncio.wait_for(self._wake.wait(), timeout=1.0)
            except TimeoutError:
                pass

    async def run(self, task: Task) -> None:
        heartbeat = asyncio.create_task(self._beat(task.id))
        try:
            await self._run(task)
        except Exception as exc:
            await self._fail(task, f"internal error: {type(exc).__name__}: {exc}")
            raise
        finally:
            heartbeat.cancel()

    async def _beat(self, task_id: str) -> None:
        while True:
            await asyncio.sleep(self._lease / 3)
            await self.queue.beat(task_id)

    async def _run(self, task: Task) -> None:
        spec, mode, program_id = task.spec, task.mode, task.program_id
        if mode is None:
            self._keep_clean_copy(task)
            choice = select(spec.goal, await self._corpus.all())
            mode, program_id = (TaskMode.REPLAY, choice[0].id) if choice else (TaskMode.AGENT, None)
            await self.queue.set_mode(task.id, mode, program_id)
            await self._bus.publish(TaskStarted(task.id, mode.value, program_id))
        if mode is TaskMode.REPLAY:
            program = await self._corpus.get(program_id)
            if program is None:
                result = ReplayResult(ReplayEnd.MISMATCH, "", 0, f"program {program_id} is no longer stored")
            else:
                result = await self._replay(task, program)
            if result.end is ReplayEnd.COMPLETED:
                await self._corpus.record_run(program_id, task.id, result.end.value)
                await self._finish(task, TaskMode.REPLAY)
                return
            if result.end is ReplayEnd.PAUSED:
                await self._pause(task, result.message)
                return
            if result.end is ReplayEnd.CANCELLED:
                return
            if result.end is ReplayEnd.BLOCKED or not (self._fallback and spec.plan):
                await self._corpus.record_run(program_id, task.id, result.end.value)
                why = ""
                if result.end is not ReplayEnd.BLOCKED:
                    why = " and fallback is off" if spec.plan else " and there is no agent plan to fall back to"
                await self._fail(task, f"replay {result.end.value} at {result.state_id or 'start'}: {result.message}{why}")
                return
            await self._corpus.record_run(program_id, task.id, "fell back")
            await self._bus.publish(ReplayFellBack(task.id, program_id, result.state_id, result.message))
            await self.queue.set_mode(task.id, TaskMode.AGENT, program_id)
        await self._agent(task)

    async def _replay(self, task: Task, program: Program) -> ReplayResult:
        """Replay the task's program; a mismatch or a failed step is the screen disagreeing with it."""
        params = program.bind(task.goal) or {}
        done = await self.queue.count_steps(task.id, "replay")
        if done == 0:
            await self._bus.publish(ReplayStarted(task.id, program.id, params))

        async def on_check(state_id: str, passed: bool) -> None:
            await self._bus.publish(StateChecked(task.id, program.id, state_id, passed))

        async def dispatch(call, idx, state_id):
            outcome = await self._stepper.dispatch(task.id, idx, call, "replay", state_id)
            await self._breathe()
            return outcome

        return await Replayer(program, params, self._stepper.env, dispatch, on_check).run(already_done=done)

    async def _agent(self, task: Task) -> None:
        agent = ScriptedAgent(task.spec.plan, self._stepper.registry)
        base = await self.queue.count_steps(task.id, "replay")
        for position, call in agent.steps(self._stepper.env):
            idx = base + position
            step = await self.queue.step(task.id, idx)
            if step is None or step["status"] != "done":
                await self._bus.publish(AgentStepped(task.id, idx, call.as_json()))
            outcome = await self._stepper.dispatch(task.id, idx, call, "agent")
            await self._breathe()
            if outcome.status is StepStatus.PAUSED:
                await self._pause(task, outcome.message)
                return
            if outcome.status is StepStatus.CANCELLED:
                return
            if outcome.status is not StepStatus.DONE:
                await self._fail(task, outcome.message)
                return
        if await self._finish(task, TaskMode.AGENT):
            await self._learn(task)

    async def _breathe(self) -> None:
        if self._pace:
            await asyncio.sleep(self._pace)

    async def _finish(self, task: Task, mode: TaskMode) -> bool:
        evaluator = task.spec.evaluator
        if evaluator is not None and not holds(evaluator, self._stepper.env):
            await self._fail(task, "the task's evaluator does not hold after the run")
            return False
        if not await self.queue.move(task.id, TaskStatus.SUCCEEDED, expect=TaskStatus.RUNNING):
            return False
        await self._bus.publish(TaskSucceeded(task.id, mode.value))
        return True

    async def _learn(self, task: Task) -> None:
        clean = self._runs / task.id / "before"
        try:
            trace = await self.queue.done_calls(task.id)
            if not task.spec.learn or not trace or not clean.exists():
                return
            program = compile_run(task.goal, trace, self._stepper.registry, {"task": task.id, "agent": ScriptedAgent.name})
            params = {name: spec["example"] for name, spec in program.params.items()}
            if self._verifier is not None:
                verification = await self._verifier.verify(program, params, clean, task.spec.evaluator)
                if not verification.passed:
                    await self._bus.publish(ProgramRejected(task.id, program.signature, verification.reason))
                    return
                program = Program.from_json({**program.to_json(), "verification": verification.record()})
            await self._corpus.upsert(program)
            await self._bus.publish(ProgramStored(task.id, program.id, program.signature))
        finally:
            shutil.rmtree(self._runs / task.id, ignore_errors=True)

    def _keep_clean_copy(self, task: Task) -> None:
        if task.spec.learn and task.spec.plan:
            target = self._runs / task.id / "before"
            shutil.rmtree(target, ignore_errors=True)
            self._stepper.env.copy_to(target)

    async def _pause(self, task: Task, reason: str) -> None:
        """Park the task; a decision that arrived while it was still running is honoured here."""
        if not await self.queue.move(task.id, TaskStatus.PAUSED, expect=TaskStatus.RUNNING):
            return
        await self._bus.publish(TaskPaused(task.id, reason))
        approval = await self._approvals.latest(task.id)
        if approval is None or approval.status not in (ApprovalStatus.APPROVED, ApprovalStatus.DENIED):
            return
        if approval.status is ApprovalStatus.DENIED:
            await self._fail(task, f"{approval.call.tool} denied by {approval.decided_by}", expect=TaskStatus.PAUSED)
        elif await self.queue.move(task.id, TaskStatus.QUEUED, expect=TaskStatus.PAUSED):
            await self._bus.publish(TaskResumed(task.id, f"approval {approval.id} was granted while pausing"))
            self._wake.set()

    async def _fail(self, task: Task, error: str, expect: TaskStatus = TaskStatus.RUNNING) -> None:
        """Fail a task in the state this runner left it; a task cancelled meanwhile stays cancelled."""
        shutil.rmtree(self._runs / task.id, ignore_errors=True)
        if await self.queue.move(task.id, TaskStatus.FAILED, expect=expect, error=error):
            await self._bus.publish(TaskFailed(task.id, error))
