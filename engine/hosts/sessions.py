"""Host sessions: a session of an agent Warden does not run itself (Claude Code, Codex, Gemini CLI) as a task.

Each session is one task (its agent `{"kind": "host", "host": ..., "session": ...}`, so no runner takes it
up) acting in the session's project directory; each tool call of the host is a step of it, through the same
gate, approvals, journal and events as any other. A call is handled in two moves, because the host runs it:

- `clear` (the host's pre-tool hook): the call is recorded and ruled. Blocked, it is settled blocked with its
  audit receipt; held for a person, the approval waits in the console and `warden approvals` until someone
  decides or `wait` runs out (then it is withdrawn and the call denied); else it is cleared to run.
- `run` (`warden exec --step`, which the hook rewrites a shell call to): the cleared step is dispatched again
  and runs in Warden's sandbox, with its snapshot and receipt; its output and exit status go back to the host.

A call takes the task for as long as it acts (`TaskQueue.take`, fenced by the epoch like a runner's claim), so
two calls of one session never interleave their records; the task rests `paused` between calls.
"""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path

from engine.envs.environment import Environment
from engine.envs.workspace.environment import KIND as WORKSPACE_KIND
from engine.errors import WardenError, one_line
from engine.gate.approvals import Approval, ApprovalBook, ApprovalStatus
from engine.gate.gate import Ruling
from engine.events.bus import EventBus
from engine.events.records import TaskPaused, TaskQueued
from engine.store import Store
from engine.tasks.claim import Claim
from engine.tasks.lease import Lease
from engine.tasks.queue import TaskQueue
from engine.tasks.stepper import Stepper
from engine.tasks.task import HOSTED, Task, TaskSpec, TaskStatus
from engine.tier import Tier
from engine.tools.call import ToolCall
from engine.tools.outcome import StepOutcome, StepStatus

POLL = 0.1
BUSY_WAIT = 30.0  # how long a call waits for another call of its session to let go of the task


class HostError(WardenError):
    """A host's call cannot be handled: its session is unknown, its step is not the one cleared, or it is busy."""


@dataclass(frozen=True)
class Cleared:
    """What `clear` decided for one call: its step, its status (`CLEARED`, `BLOCKED`, `DENIED`), and why."""

    task_id: str
    idx: int
    status: StepStatus
    why: str

    @property
    def line(self) -> str:
        """What became of the call and why, in one line (`blocked (…): …`, `denied: nobody decided …`)."""
        return self.why if self.why.startswith(self.status.value) else f"{self.status.value}: {self.why}"


def _untitled(host: str, session: str) -> str:
    """A session's goal until its first prompt is known."""
    return f"{host} session {session[:12]}"


class HostSessions:
    """The host sessions of one runtime's home: opened by `(host, session)`, their calls cleared, then run."""

    def __init__(self, store: Store, queue: TaskQueue, stepper: Stepper, approvals: ApprovalBook,
                 environment, bus: EventBus, lease_seconds: float = 30.0) -> None:
        self._store = store
        self._bus = bus
        self._queue = queue
        self._stepper = stepper
        self._approvals = approvals
        self._environment = environment  # identity -> Environment | None (the runtime's opener)
        self._lease = lease_seconds
        self.identity = f"host:{os.getpid()}"

    async def task_for(self, host: str, session: str, root: Path, goal: str = "") -> Task:
        """The task of this host session, made (paused, in the workspace `root`) on its first call."""
        found = await self._store.fetchone("SELECT task_id FROM host_sessions WHERE host = ? AND session = ?",
                                           (host, session))
        if found is not None:
            task = await self._queue.get(found["task_id"])
            if goal and task.spec.goal == _untitled(host, session):  # its first prompt names it
                await self._queue.retitle(task.id, goal)
                task = await self._queue.get(task.id)
                await self._bus.publish(TaskPaused(task.id, f"named by its first prompt: {goal}"))
            return task
        spec = TaskSpec(goal=goal or _untitled(host, session), learn=False,
                        agent={"kind": HOSTED, "host": host, "session": session})
        [task] = await self._queue.submit([(spec, f"{WORKSPACE_KIND}:{root.resolve()}")], status=TaskStatus.PAUSED)
        await self._store.execute("INSERT OR IGNORE INTO host_sessions (host, session, task_id, created_at)"
                                  " VALUES (?, ?, ?, ?)", (host, session, task.id, time.time()))
        row = await self._store.fetchone("SELECT task_id FROM host_sessions WHERE host = ? AND session = ?",
                                         (host, session))
        if row is None:
            raise HostError(f"the {host} session {session} could not be recorded")
        if row["task_id"] != task.id:  # another call of the session made it first: that one is the session
            await self._queue.move(task.id, TaskStatus.CANCELLED, expect=TaskStatus.PAUSED)
        else:  # other processes (the console) learn of it from the event, as of any task queued
            await self._bus.publish(TaskQueued(task.id, task.spec.goal))
        return await self._queue.get(row["task_id"])

    async def clear(self, task_id: str, call: ToolCall, wait: float,
                    held: Callable[[Approval], None] | None = None) -> Cleared:
        """Record and rule the host's next call; a call held for a person waits up to `wait` seconds for them
        (`held` is told of the approval first, so whoever waits can say where to decide it)."""
        async with self._taken(task_id) as (claim, env):
            idx = await self._queue.next_idx(task_id)
            outcome = await self._stepper.dispatch(env, claim, idx, call, HOSTED, run=False)
        if outcome.status is not StepStatus.PAUSED:
            return Cleared(task_id, idx, outcome.status, outcome.message)
        unanswered = await self._person(task_id, idx, call, wait, held)
        if unanswered is not None:
            return Cleared(task_id, idx, unanswered.status, unanswered.message)
        async with self._taken(task_id) as (claim, env):
            outcome = await self._stepper.dispatch(env, claim, idx, call, HOSTED, run=False)
        return Cleared(task_id, idx, outcome.status, outcome.message)

    async def run(self, task_id: str, idx: int, call: ToolCall) -> StepOutcome:
        """Run the step `clear` cleared: it must be that very call, still unsettled."""
        step = await self._queue.step(task_id, idx)
        if step is None or step["status"] not in ("proposed", "waiting"):
            raise HostError(f"task {task_id} has no step {idx} waiting to run")
        if self._queue.call_of(step).digest() != call.digest():
            raise HostError(f"step {idx} of task {task_id} was cleared for another call")
        async with self._taken(task_id) as (claim, env):
            return await self._stepper.dispatch(env, claim, idx, call, HOSTED)

    async def before(self, task_id: str, call: ToolCall, wait: float,
                     held: Callable[[Approval], None] | None = None) -> Cleared:
        """For an effect the host performs itself (a file edit): cleared as `clear` does, then snapshotted and
        written ahead, so `after` can give it a receipt an undo restores byte for byte."""
        cleared = await self.clear(task_id, call, wait, held)
        if cleared.status is StepStatus.CLEARED:
            async with self._taken(task_id) as (claim, env):
                await self._stepper.write_ahead(env, claim, cleared.idx, call)
        return cleared

    async def after(self, task_id: str, call: ToolCall, ok: bool, output: str) -> str | None:
        """The host performed the effect `before` wrote ahead for this call: its receipt's id (None when the host
        reported a call Warden never cleared, which then has no step to settle)."""
        rows = await self._store.fetchall("SELECT idx FROM steps WHERE task_id = ? AND status = 'dispatching'"
                                          " ORDER BY idx DESC", (task_id,))
        for row in rows:
            step = await self._queue.step(task_id, row["idx"])
            if step is not None and self._queue.call_of(step).digest() == call.digest():
                async with self._taken(task_id) as (claim, env):
                    return await self._stepper.settle_hosted(env, claim, row["idx"], call, ok, output)
        return None

    async def _decision(self, task_id: str, idx: int, deadline: float) -> ApprovalStatus | None:
        """The person's decision on the call's approval, or None (and the approval withdrawn) past `deadline`."""
        while time.monotonic() < deadline:
            approval = await self._approvals.latest(task_id, idx)
            if approval is None or approval.status is not ApprovalStatus.PENDING:
                return approval.status if approval is not None else ApprovalStatus.WITHDRAWN
            await asyncio.sleep(POLL)
        approval = await self._approvals.latest(task_id, idx)
        if approval is not None and approval.status is ApprovalStatus.PENDING:
            await self._approvals.withdraw_one(approval.id)
            return None
        return approval.status if approval is not None else None

    @asynccontextmanager
    async def _taken(self, task_id: str) -> AsyncIterator[tuple[Claim, Environment]]:
        """The session's task held for one move of one call (its lease beating), then at rest again."""
        task = await self._take(task_id)
        env = self._environment(task.env) if task.env else None
        if env is None:
            await self._queue.move(task_id, TaskStatus.PAUSED, expect=TaskStatus.RUNNING, epoch=task.epoch)
            raise HostError(f"task {task_id}'s workspace {task.env} cannot be opened here")
        claim = Claim(task.id, self.identity, task.epoch)
        lease = Lease(self._queue.database, claim, self._lease)
        lease.start()
        try:
            yield claim, env
        finally:
            lease.stop()
            await self._queue.move(task_id, TaskStatus.PAUSED, expect=TaskStatus.RUNNING, epoch=task.epoch)

    async def _take(self, task_id: str) -> Task:
        deadline = time.monotonic() + BUSY_WAIT
        while True:
            current = await self._queue.get(task_id)
            if not current.spec.hosted:
                raise HostError(f"task {task_id} is not a host session")
            if current.status.finished:
                raise HostError(f"task {task_id} is {current.status.value}: its session can act no more")
            task = await self._queue.take(self.identity, task_id)
            if task is not None:
                return task
            if time.monotonic() > deadline:
                raise HostError(f"task {task_id} is busy with another call of its session")
            await asyncio.sleep(POLL)

    async def foreign(self, task_id: str, call: ToolCall, wait: float, rate: Callable[[ToolCall], Ruling],
                      perform: Callable[[], Awaitable[tuple[bool, str, object]]],
                      held: Callable[[Approval], None] | None = None, audit: bool = True) -> "Performed":
        """A call Warden does not run itself (an MCP server's tool; a read Warden answers directly): cleared by
        `before_foreign`; cleared, `perform` does it and returns (ok, summary, value), and `after_foreign` settles
        it. A call that never ran leaves an audit receipt too (none for a read when `audit` is false)."""
        cleared, receipt = await self.before_foreign(task_id, call, wait, rate, held, audit)
        if cleared.status is not StepStatus.CLEARED:
            return Performed(cleared, receipt)
        try:
            ok, summary, value = await perform()
        except Exception as exc:  # the other program's failure is the call's, never the session's
            ok, summary, value = False, one_line(exc), None
        receipt = await self._settle_foreign(task_id, cleared.idx, call, ok, summary, audit)
        return Performed(Cleared(task_id, cleared.idx, StepStatus.DONE if ok else StepStatus.FAILED, summary),
                         receipt, value)

    async def before_foreign(self, task_id: str, call: ToolCall, wait: float, rate: Callable[[ToolCall], Ruling],
                             held: Callable[[Approval], None] | None = None,
                             audit: bool = True) -> tuple[Cleared, str | None]:
        """Record a call another program performs as the session's next step and route it by `rate` (blocked:
        settled with its audit receipt; held for a person: it waits up to `wait` seconds, as `clear` does). Not
        cleared, it leaves an audit receipt (when `audit`), whose id comes back with it."""
        async with self._taken(task_id) as (claim, env):
            idx = await self._queue.next_idx(task_id)
            outcome = await self._stepper.clear_foreign(env, claim, idx, call, HOSTED, rate(call))
        if outcome.status is StepStatus.PAUSED:
            outcome = await self._foreign_decided(task_id, idx, call, wait, rate, held)
        if outcome.status is StepStatus.CLEARED:
            return Cleared(task_id, idx, outcome.status, outcome.message), None
        step = await self._queue.step(task_id, idx)
        receipt = step["receipt_id"] if step is not None and step["receipt_id"] else None
        if receipt is None and audit:
            task = await self._queue.get(task_id)
            receipt = await self._stepper.audit_settled(task.env, task_id, idx, call, Tier.EXTERNALLY_IRREVERSIBLE,
                                                        f"{outcome.status.value.upper()} {call.tool}: "
                                                        f"{outcome.message}")
        return Cleared(task_id, idx, outcome.status, outcome.message), receipt

    async def after_foreign(self, task_id: str, call: ToolCall, ok: bool, summary: str) -> str | None:
        """The other program did a call `before_foreign` cleared (found by the call itself, as `after` does): its
        audit receipt's id; None when Warden never cleared such a call."""
        rows = await self._store.fetchall("SELECT idx FROM steps WHERE task_id = ? AND status = 'dispatching'"
                                          " ORDER BY idx DESC", (task_id,))
        for row in rows:
            step = await self._queue.step(task_id, row["idx"])
            if step is not None and self._queue.call_of(step).digest() == call.digest():
                return await self._settle_foreign(task_id, row["idx"], call, ok, summary, True)
        return None

    async def _foreign_decided(self, task_id: str, idx: int, call: ToolCall, wait: float,
                               rate: Callable[[ToolCall], Ruling],
                               held: Callable[[Approval], None] | None) -> StepOutcome:
        unanswered = await self._person(task_id, idx, call, wait, held)
        if unanswered is not None:
            return unanswered
        async with self._taken(task_id) as (claim, env):
            return await self._stepper.clear_foreign(env, claim, idx, call, HOSTED, rate(call))

    async def _person(self, task_id: str, idx: int, call: ToolCall, wait: float,
                      held: Callable[[Approval], None] | None) -> StepOutcome | None:
        """Wait for a person to decide the held call (`held` told of its approval first); None once someone did,
        else the call denied, its approval withdrawn and its step settled so."""
        approval = await self._approvals.latest(task_id, idx)
        if held is not None and approval is not None:
            held(approval)
        if await self._decision(task_id, idx, time.monotonic() + wait) is not None:
            return None
        why = f"nobody decided within {wait:g} s: the call was withdrawn"
        async with self._taken(task_id) as (claim, _):
            await self._queue.record(claim, idx, call, StepStatus.DENIED.value, HOSTED, output=why)
        return StepOutcome(StepStatus.DENIED, why)

    async def _settle_foreign(self, task_id: str, idx: int, call: ToolCall, ok: bool, summary: str,
                              audit: bool) -> str | None:
        async with self._taken(task_id) as (claim, env):
            return await self._stepper.settle_foreign(env, claim, idx, call, HOSTED, ok, summary, audit)


@dataclass(frozen=True)
class Performed:
    """What became of a call `HostSessions.foreign` handled: how it was cleared and settled (`DONE`, `FAILED`,
    `BLOCKED`, `DENIED`, `CANCELLED`) and why, its receipt, and what `perform` returned (None when it never ran)."""

    cleared: Cleared
    receipt: str | None
    value: object = None
