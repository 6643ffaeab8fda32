"""Shared fixtures: a runtime on a seeded demo workspace, and a read-only view of its database."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from engine.demo import seed_workspace
from engine.gate.policy import Policy
from engine.runtime import Runtime, Switches
from engine.tasks.task import Task, TaskSpec
from tests.asking import ASKING


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    return tmp_path / "ws"


@pytest.fixture
async def open_runtime(tmp_path: Path, ws: Path):
    """`await open_runtime(Switches(...), policy=...)`: a runtime in tmp_path/home on the seeded workspace (under
    the home's policy.toml unless `policy` is given), closed after the test."""
    opened: list[Runtime] = []

    async def open_(switches: Switches = Switches(), policy: Policy | None = None) -> Runtime:
        if not ws.exists():
            seed_workspace(ws)
        runtime = await Runtime.open(tmp_path / "home", ws, switches, policy=policy)
        opened.append(runtime)
        return runtime

    yield open_
    for runtime in opened:
        await runtime.close()


@pytest.fixture
async def runtime(open_runtime) -> Runtime:
    return await open_runtime()


@pytest.fixture
async def asking_runtime(open_runtime) -> Runtime:
    """A runtime under which every dangerous call asks a person (tests/asking.py): for tests of approvals."""
    return await open_runtime(policy=ASKING)


@pytest.fixture
def db(tmp_path: Path):
    """`db(sql, *params)`: rows (as dicts) read straight from the database file, read-only."""

    def query(sql: str, *params) -> list[dict]:
        con = sqlite3.connect(f"file:{tmp_path / 'home' / 'warden.db'}?mode=ro", uri=True)
        con.row_factory = sqlite3.Row
        try:
            return [dict(row) for row in con.execute(sql, params)]
        finally:
            con.close()

    return query


@pytest.fixture
def run():
    """`await run(runtime, spec)`: submit, run until idle, return the task as the store now has it."""

    async def run_(runtime: Runtime, spec: TaskSpec) -> Task:
        task = await runtime.submit(spec)
        await runtime.run_until_idle()
        return await runtime.queue.get(task.id)

    return run_


@pytest.fixture
def run_approving():
    """Like `run`, approving every approval the task asks for: for tests where the gate's level is not the point."""

    async def run_(runtime: Runtime, spec: TaskSpec) -> Task:
        task = await runtime.submit(spec)
        for _ in range(20):
            await runtime.run_until_idle()
            pending = [a for a in await runtime.pending_approvals() if a.task_id == task.id]
            if not pending:
                break
            for approval in pending:
                await runtime.approve(approval.id)
        return await runtime.queue.get(task.id)

    return run_
