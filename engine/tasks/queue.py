"""The task queue's SQL: submit, claim by compare-and-swap, move between states, record steps.

A step's life: `proposed` (written before the gate rules on it), `waiting` (for a person),
`dispatching` (written ahead of its side effect), then `done`, `failed`, `blocked` or `denied`.

Long text is kept out of the rows that change. SQLite writes a whole row again (its overflow pages
too) on any update, so a 5 MB argument in a `steps` row, or a 5 MB plan in a `tasks` row, would be
written again by every change of status and every heartbeat, and the file would hold a spare copy.
So a call or a spec holding text longer than `KEPT_CHARS` is written whole once, in `step_calls` or
`task_specs` (a call again only if it changes), and its row keeps it abridged (`engine/tools/abridge.py`).
"""

from __future__ import annotations

import json
import time
import uuid
from dataclasses import replace
from pathlib import Path

import aiosqlite

from engine.agents.agent import Outcome, Turn
from engine.redaction.calls import recorded_call, revealed_call
from engine.redaction.fields import secret_values
from engine.redaction.redactor import Redactor
from engine.store import Store
from engine.store.matching import containing
from engine.tasks.budget import Budget, Spent
from engine.tasks.claim import Claim, LeaseLost
from engine.tasks.task import Task, TaskError, TaskMode, TaskSpec, TaskStatus
from engine.tools.abridge import abridged, abridged_value
from engine.tools.call import ToolCall


SETTLED = ("done", "failed", "blocked", "denied")
STARTED = "(SELECT MIN(e.at) FROM task_events e WHERE e.task_id = t.id AND e.kind = 'TaskStarted')"
TASK_WORDS = ("t.id", "t.goal", "t.status", "t.mode", "t.program_id", "t.error", "t.env")
STEPS = ("SELECT s.*, COALESCE((SELECT c.call FROM step_calls c WHERE c.task_id = s.task_id AND c.idx = s.idx), s.call)"
         " AS whole_call FROM steps s")
"""Steps, each with its whole call (`whole_call`): from `step_calls` when it holds long text, else its row's."""
WHOLE_SPEC = "COALESCE((SELECT ts.spec FROM task_specs ts WHERE ts.task_id = t.id), t.spec) AS whole_spec"
"""A task's whole spec, selected beside `t.*`: from `task_specs` when it holds long text, else its row's."""


class TaskQueue:
    def __init__(self, store: Store) -> None:
        self._store = store

    @property
    def database(self) -> Path:
        return self._store.path

    async def submit(self, specs: list[tuple[TaskSpec, str]], status: TaskStatus = TaskStatus.QUEUED) -> list[Task]:
        """Queue every spec, with the identity of the environment it acts in, in one transaction:
        all of them, or (on any failure) none. A hosted task starts `paused`: no runner may take it up."""
        ids = []
        async with self._store.transaction() as db:
            for spec, env in specs:
                now = time.time()
                task_id = "t-" + uuid.uuid4().hex[:8]
                goal, short, whole = self._recorded(spec)
                await db.execute(
                    "INSERT INTO tasks (id, goal, spec, status, created_at, updated_at, env) VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (task_id, goal, short, status.value, now, now, env),
                )
                if short != whole:
                    await db.execute("INSERT INTO task_specs (task_id, spec) VALUES (?, ?)", (task_id, whole))
                ids.append(task_id)
        return [await self.get(task_id) for task_id in ids]

    def _recorded(self, spec: TaskSpec) -> tuple[str, str, str]:
        """How a spec is stored: its goal and its JSON, abridged and whole, secrets redacted."""
        recorded = self.redactor.scrub(spec.to_json(), keep=True)
        return self.redactor.text(spec.goal, keep=True), json.dumps(abridged_value(recorded)), json.dumps(recorded)

    async def retitle(self, task_id: str, goal: str) -> None:
        """Give a task the goal it turned out to have (a host session is named by its first prompt, which may
        arrive after its first event)."""
        spec = replace((await self.get(task_id)).spec, goal=goal)
        recorded_goal, short, whole = self._recorded(spec)
        async with self._store.transaction() as db:
            await db.execute("UPDATE tasks SET goal = ?, spec = ? WHERE id = ?", (recorded_goal, short, task_id))
            await db.execute("DELETE FROM task_specs WHERE task_id = ?", (task_id,))
            if short != whole:
                await db.execute("INSERT INTO task_specs (task_id, spec) VALUES (?, ?)", (task_id, whole))

    @property
    def redactor(self) -> Redactor:
        """The home's redactor: goals, specs, calls and outputs are written through it."""
        return self._store.redactor

    def revealed(self, task: Task) -> Task:
        """The task with its spec's secrets given back from the vault, for the runner that runs it."""
        spec = TaskSpec.from_json(self.redactor.reveal(task.spec.to_json()))
        return replace(task, spec=spec)

    async def get(self, task_id: str) -> Task:
        row = await self._store.fetchone(f"SELECT t.*, {WHOLE_SPEC} FROM tasks t WHERE t.id = ?", (task_id,))
        if row is None:
            raise TaskError(f"no task {task_id}")
        return _task(row)

    async def finished(self, task_id: str) -> bool:
        """True for a task that has ended, and for an id no task has (nothing will resume it)."""
        row = await self._store.fetchone("SELECT status FROM tasks WHERE id = ?", (task_id,))
        return row is None or TaskStatus(row["status"]).finished

    async def all(self) -> list[Task]:
        rows = await self._store.fetchall(f"SELECT t.*, {WHOLE_SPEC} FROM tasks t ORDER BY t.created_at, t.rowid")
        return [_task(row) for row in rows]

    async def page(self, offset: int, limit: int, text: str = "") -> tuple[list[Task], int]:
        """Tasks newest first from `offset`, each with when it started, and how many match in all (one
        statement, so the two agree). `text` keeps only tasks whose id, goal, status, mode, program, error
        or environment contain it, in any case (ASCII)."""
        matching, params = containing(text, TASK_WORDS)
        rows = await self._store.fetchall(
            f"SELECT t.*, {WHOLE_SPEC}, {STARTED} AS started_at, (SELECT COUNT(*) FROM tasks t WHERE {matching}) AS total"
            f" FROM tasks t WHERE {matching} ORDER BY t.created_at DESC, t.rowid DESC LIMIT ? OFFSET ?",
            (*params, *params, limit, offset))
        if not rows:
            return [], await self.count(text)
        return [_task(row) for row in rows], rows[0]["total"]

    async def count(self, text: str = "") -> int:
        """How many tasks `page` would list for `text`."""
        matching, params = containing(text, TASK_WORDS)
        row = await self._store.fetchrow(f"SELECT COUNT(*) AS n FROM tasks t WHERE {matching}", params)
        return row["n"]

    async def place(self, task_id: str, text: str = "") -> int | None:
        """Where the task stands in `page`'s order (0 is the newest); None when it is not listed."""
        matching, params = containing(text, TASK_WORDS)
        row = await self._store.fetchone(
            f"SELECT (SELECT COUNT(*) FROM tasks t WHERE {matching} AND (t.created_at > me.created_at"
            " OR t.created_at = me.created_at AND t.rowid > me.rowid)) AS n,"
            f" (SELECT COUNT(*) FROM tasks t WHERE t.id = me.id AND {matching}) AS listed"
            " FROM tasks me WHERE me.id = ?", (*params, *params, task_id))
        return row["n"] if row is not None and row["listed"] else None

    async def listed(self, task_ids: list[str]) -> list[Task]:
        """These tasks as `page` gives them (with when each started), in no particular order."""
        if not task_ids:
            return []
        marks = ", ".join("?" * len(task_ids))
        rows = await self._store.fetchall(
            f"SELECT t.*, {WHOLE_SPEC}, {STARTED} AS started_at FROM tasks t WHERE t.id IN ({marks})", task_ids)
        return [_task(row) for row in rows]

    async def claim(self, runner: str, task_id: str | None = None) -> Task | None:
        """Take the oldest queued task (or that one task) for `runner`, raising its epoch; the status check
        in the UPDATE makes a double claim impossible, and the epoch fences out whoever held it before."""
        if task_id is not None:
            ids = [task_id]
        else:
            rows = await self._store.fetchall(
                "SELECT id FROM tasks WHERE status = ? ORDER BY created_at, rowid LIMIT 8", (TaskStatus.QUEUED.value,)
            )
            ids = [row["id"] for row in rows]
        for candidate in ids:
            now = time.time()
            claimed = await self._store.execute(
                "UPDATE tasks SET status = ?, updated_at = ?, heartbeat_at = ?, claimed_by = ?, epoch = epoch + 1"
                " WHERE id = ? AND status = ?",
                (TaskStatus.RUNNING.value, now, now, runner, candidate, TaskStatus.QUEUED.value),
            )
            if claimed:
                return await self.get(candidate)
        return None

    async def take(self, runner: str, task_id: str) -> Task | None:
        """Take a hosted task (`TaskSpec.hosted`) for one call of its host, from `paused` (or `queued`, where a
        decision left it), raising its epoch as `claim` does; None while another call of it holds it."""
        now = time.time()
        taken = await self._store.execute(
            "UPDATE tasks SET status = ?, updated_at = ?, heartbeat_at = ?, claimed_by = ?, epoch = epoch + 1"
            " WHERE id = ? AND status IN (?, ?)",
            (TaskStatus.RUNNING.value, now, now, runner, task_id, TaskStatus.PAUSED.value, TaskStatus.QUEUED.value),
        )
        return await self.get(task_id) if taken else None

    async def reap(self, lease_seconds: float) -> list[str]:
        """Put back in the queue every running task whose runner has not beaten within the lease."""
        rows = await self._store.fetchall(
            "SELECT id FROM tasks WHERE status = ? AND COALESCE(heartbeat_at, 0) < ?",
            (TaskStatus.RUNNING.value, time.time() - lease_seconds),
        )
        return [row["id"] for row in rows if await self.move(row["id"], TaskStatus.QUEUED, expect=TaskStatus.RUNNING)]

    async def release(self, runner: str) -> list[str]:
        """Put back in the queue the tasks `runner` holds, as it stops before they rest (a signal, a full disk):
        another runner takes them up at once rather than after the lease. That claim raises the epoch, so
        nothing the stopped runner still tries to write lands, and a step it left `dispatching` is settled
        by its evidence, as after a crash."""
        async with self._store.transaction() as db:
            rows = await db.execute_fetchall("SELECT id FROM tasks WHERE status = ? AND claimed_by = ?",
                                             (TaskStatus.RUNNING.value, runner))
            await db.execute("UPDATE tasks SET status = ?, updated_at = ? WHERE status = ? AND claimed_by = ?",
                             (TaskStatus.QUEUED.value, time.time(), TaskStatus.RUNNING.value, runner))
        return [row[0] for row in rows]

    async def move(self, task_id: str, status: TaskStatus, expect: TaskStatus | None = None, error: str | None = None,
                   epoch: int | None = None) -> bool:
        """Change a task's status if it is in `expect` (and, given an epoch, still under that claim)."""
        sql = "UPDATE tasks SET status = ?, error = COALESCE(?, error), updated_at = ? WHERE id = ?"
        params: list = [status.value, error and self._store.redactor.text(error), time.time(), task_id]
        if expect is not None:
            sql += " AND status = ?"
            params.append(expect.value)
        if epoch is not None:
            sql += " AND epoch = ?"
            params.append(epoch)
        return await self._store.execute(sql, params) == 1

    @staticmethod
    async def hold(db: aiosqlite.Connection, claim: Claim, settling: bool = False) -> None:
        """Inside a write transaction: refuse it unless the task still runs under this claim.

        Settling a step (writing what a call did) is also allowed once the task was cancelled
        under this claim: the call ran before the cancel could stop it, and that is a fact.
        """
        _held(list(await db.execute_fetchall(_holds_sql(settling), (claim.task_id, claim.runner, claim.epoch))), claim)

    async def check(self, claim: Claim) -> None:
        """Outside a transaction: LeaseLost unless the task still runs (or was cancelled) under this claim.
        A cancel does not stop an effect already written ahead, as a settling write is allowed after it."""
        _held(await self._store.fetchall(_holds_sql(True), (claim.task_id, claim.runner, claim.epoch)), claim)

    async def set_mode(self, task_id: str, mode: TaskMode, program_id: str | None) -> None:
        await self._store.execute(
            "UPDATE tasks SET mode = ?, program_id = ?, updated_at = ? WHERE id = ?",
            (mode.value, program_id, time.time(), task_id),
        )

    async def step(self, task_id: str, idx: int) -> aiosqlite.Row | None:
        return await self._store.fetchone(f"{STEPS} WHERE s.task_id = ? AND s.idx = ?", (task_id, idx))

    async def open_step(self, task_id: str) -> aiosqlite.Row | None:
        """The newest step proposed but not yet settled: resume dispatches it, the agent is not asked again."""
        return await self._store.fetchone(
            f"{STEPS} WHERE s.task_id = ? AND s.status IN ('proposed', 'waiting', 'dispatching')"
            " ORDER BY s.idx DESC LIMIT 1", (task_id,)
        )

    def call_of(self, step: aiosqlite.Row) -> ToolCall:
        """The real call of a recorded step, its secrets given back from the vault, to be run again."""
        return revealed_call(self._store.redactor, ToolCall.from_json(json.loads(step["whole_call"])))

    async def next_idx(self, task_id: str) -> int:
        row = await self._store.fetchrow("SELECT COALESCE(MAX(idx) + 1, 0) AS n FROM steps WHERE task_id = ?", (task_id,))
        return row["n"]

    async def history(self, task_id: str) -> list[Turn]:
        """Every settled step of the task, in order, as an agent is told about it: its own calls as it made
        them (secrets back from the vault), what they printed as recorded (redacted)."""
        rows = await self._store.fetchall(
            f"{STEPS} WHERE s.task_id = ? AND s.status IN {SETTLED} ORDER BY s.idx", (task_id,)
        )
        return [Turn(row["idx"], self.call_of(row), row["source"], Outcome(row["status"]),
                     row["output"] or "") for row in rows]

    async def settle_open(self, task_id: str, output: str) -> list[str]:
        """Mark every unsettled step of a task that is being failed as `failed`, with the reason;
        returns what their write-aheads left pending (the caller drops their snapshots)."""
        async with self._store.transaction() as db:
            rows = await db.execute_fetchall(
                "SELECT pending FROM steps WHERE task_id = ? AND pending IS NOT NULL"
                " AND status IN ('proposed', 'waiting', 'dispatching')", (task_id,))
            await db.execute(
                "UPDATE steps SET status = 'failed', output = ?, pending = NULL WHERE task_id = ?"
                " AND status IN ('proposed', 'waiting', 'dispatching')", (self._store.redactor.text(output), task_id)
            )
        return [row[0] for row in rows]

    async def done_calls(self, task_id: str, source: str | None = None) -> list[ToolCall]:
        """The task's done calls in order; with `source`, only the agent's or only the replay's."""
        rows = await self._store.fetchall(
            f"{STEPS} WHERE s.task_id = ? AND s.status = 'done' AND s.source = coalesce(?, s.source) ORDER BY s.idx",
            (task_id, source),
        )
        return [ToolCall.from_json(json.loads(row["whole_call"])) for row in rows]

    async def count_steps(self, task_id: str, source: str, status: str | None = "done") -> int:
        """Steps of one source; with `status=None`, every proposal of that source, settled or not."""
        sql = "SELECT COUNT(*) AS n FROM steps WHERE task_id = ? AND source = ?"
        params: tuple = (task_id, source)
        if status is not None:
            sql, params = sql + " AND status = ?", params + (status,)
        row = await self._store.fetchrow(sql, params)
        return row["n"]

    async def propose(self, env: object, claim: Claim, idx: int, call: ToolCall, source: str,
                      state_id: str | None = None) -> None:
        """Record a call as `proposed`, first marking what its environment knows is secret in it (a password
        field's text), so not even the first record of it holds that."""
        self.redactor.mark(*await secret_values(env, call))
        await self.record(claim, idx, call, "proposed", source, state_id)

    async def record_pending(self, claim: Claim, idx: int, call: ToolCall, source: str, pending: str) -> None:
        """Mark a step `dispatching` with what its write-ahead left, in a transaction of its own."""
        async with self._store.transaction() as db:
            await self.mark_step(db, claim, idx, call, "dispatching", source, pending=pending)

    async def record(self, claim: Claim, idx: int, call: ToolCall, status: str, source: str,
                     state_id: str | None = None, output: str | None = None) -> None:
        """`mark_step` in a transaction of its own."""
        async with self._store.transaction() as db:
            await self.mark_step(db, claim, idx, call, status, source, state_id, output=output)

    async def mark_step(
        self, db: aiosqlite.Connection, claim: Claim, idx: int, call: ToolCall, status: str, source: str,
        state_id: str | None = None, receipt_id: str | None = None, output: str | None = None,
        pending: str | None = None,
    ) -> None:
        """Write a step under the runner's claim (fenced); `pending` is what a write-ahead leaves for
        whoever settles the step if this runner dies before it does, and is cleared by any other write.
        The call is written with its secrets sealed away (`recorded_call`), its output and pending redacted."""
        await self.hold(db, claim, settling=status in SETTLED)
        redactor = self._store.redactor
        output = None if output is None else redactor.text(output)
        pending = None if pending is None else redactor.text(pending)
        call = recorded_call(redactor, call)
        whole, short = call.canonical(), abridged(call).canonical()
        if short != whole:
            await db.execute(
                "INSERT INTO step_calls (task_id, idx, call) VALUES (?, ?, ?)"
                " ON CONFLICT (task_id, idx) DO UPDATE SET call = excluded.call WHERE call IS NOT excluded.call",
                (claim.task_id, idx, whole),
            )
        else:
            await db.execute("DELETE FROM step_calls WHERE task_id = ? AND idx = ?", (claim.task_id, idx))
        await db.execute(
            "INSERT INTO steps (task_id, idx, call, status, source, state_id, receipt_id, output, pending)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
            " ON CONFLICT (task_id, idx) DO UPDATE SET call = excluded.call, status = excluded.status,"
            " source = excluded.source, state_id = excluded.state_id, pending = excluded.pending,"
            " receipt_id = COALESCE(excluded.receipt_id, receipt_id), output = COALESCE(excluded.output, output)",
            (claim.task_id, idx, short, status, source, state_id, receipt_id, output, pending),
        )

    async def spent(self, task_id: str) -> Spent:
        row = await self._store.fetchone("SELECT usage FROM tasks WHERE id = ?", (task_id,))
        return Spent.from_json(json.loads(row["usage"]) if row and row["usage"] else None)

    async def spend(self, claim: Claim, spent: Spent) -> None:
        """Write what the task has used so far, under the runner's claim."""
        async with self._store.transaction() as db:
            await self.hold(db, claim)
            await db.execute("UPDATE tasks SET usage = ? WHERE id = ?", (json.dumps(spent.as_json()), claim.task_id))

    async def budget(self, task: Task) -> Budget:
        """The task's budget: its spec's, with every limit a person raised since."""
        row = await self._store.fetchone("SELECT budget FROM tasks WHERE id = ?", (task.id,))
        raised = Budget.from_json(json.loads(row["budget"])) if row and row["budget"] else Budget()
        return task.spec.budget.over(raised)

    async def raise_budget(self, task_id: str, raised: Budget) -> Budget:
        """Record limits a person set for this task (each replaces the spec's); returns the raised set."""
        async with self._store.transaction() as db:
            rows = list(await db.execute_fetchall("SELECT budget FROM tasks WHERE id = ?", (task_id,)))
            if not rows:
                raise TaskError(f"no task {task_id}")
            before = Budget.from_json(json.loads(rows[0][0])) if rows[0][0] else Budget()
            merged = before.over(raised)
            await db.execute("UPDATE tasks SET budget = ? WHERE id = ?", (json.dumps(merged.as_json()), task_id))
        return merged

    async def trace(self, task_id: str, idx: int, trace: dict) -> None:
        """Attach what the step saw before, what it acted on, and what it saw after (an annotation, not a fact
        the task depends on)."""
        await self._store.execute("UPDATE steps SET trace = ? WHERE task_id = ? AND idx = ?",
                                  (json.dumps(self._store.redactor.scrub(trace)), task_id, idx))

    async def traces(self, task_id: str) -> list[dict]:
        rows = await self._store.fetchall(
            f"{STEPS} WHERE s.task_id = ? ORDER BY s.idx", (task_id,))
        return [{"idx": row["idx"], "call": json.loads(row["whole_call"]), "source": row["source"], "status": row["status"],
                 **(json.loads(row["trace"]) if row["trace"] else {})} for row in rows]


def _holds_sql(settling: bool) -> str:
    statuses = "('running', 'cancelled')" if settling else "('running')"
    return f"SELECT 1 FROM tasks WHERE id = ? AND status IN {statuses} AND claimed_by = ? AND epoch = ?"


def _held(rows: list[aiosqlite.Row], claim: Claim) -> None:
    if not rows:
        raise LeaseLost(f"task {claim.task_id}: claim {claim.epoch} of {claim.runner} no longer holds")


def _task(row: aiosqlite.Row) -> Task:
    """A task from a row selected with its whole spec beside it (`WHOLE_SPEC`)."""
    return Task.from_row({**dict(row), "spec": row["whole_spec"]})
