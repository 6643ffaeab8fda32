"""Acceptance 7: a compensable web action is undone through its compensator within its window, and refused with
`irrecoverable` after it. The task runs in a real Chromium on the real demo app; the action is the app's JSON API."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from engine.demo_site import DemoSite
from engine.gate.policy import Policy
from engine.journal.export import exported, jsonl
from engine.journal.journal import UndoError
from engine.journal.receipt import Reversal
from engine.runtime import Runtime, Switches
from engine.tasks.task import TaskSpec, TaskStatus
from engine.tier import Tier

WINDOW_S = 600
SYSTEM = "demo-app contacts"


@pytest.fixture
def demo() -> Iterator[DemoSite]:
    with DemoSite(dialog="never", seed=3, slow_seconds=0.05) as running:
        yield running


def compensable_spec(demo: DemoSite, name: str) -> TaskSpec:
    """A web task that creates one contact through the API, its spec declaring the delete that compensates it."""
    env = {"kind": "web", "start_url": demo.url + "/contacts", "timeout_s": 10, "compensators": [{
        "tool": "api.post", "match": {"url": demo.url + "/api/contacts"}, "system": SYSTEM, "noun": "contact",
        "key": "response.id", "window_s": WINDOW_S,
        "compensate": {"tool": "api.delete", "args": {"url": demo.url + "/api/contacts/{key}"}}}]}
    steps = [{"tool": "api.post", "args": {"url": demo.url + "/api/contacts", "json": {"name": name}}}]
    return TaskSpec(goal=f"Add {name} through the API", env=env, agent={"kind": "scripted", "steps": steps},
                    learn=False)


async def run_task(runtime: Runtime, spec: TaskSpec) -> str:
    task = await runtime.submit(spec)
    await runtime.run_until_idle()
    done = await runtime.task(task.id)
    assert done.status is TaskStatus.SUCCEEDED, done.error
    return task.id


def names(demo: DemoSite) -> dict[str, int]:
    return {contact["name"]: contact["id"] for contact in demo.state()["contacts"]}


async def open_runtime(tmp_path: Path, policy: Policy | None = None) -> Runtime:
    return await Runtime.open(tmp_path / "home", tmp_path / "ws", Switches(), policy=policy)


async def test_within_its_window_the_compensator_deletes_the_record_and_the_undo_has_its_own_receipt(
        tmp_path: Path, demo: DemoSite) -> None:
    runtime = await open_runtime(tmp_path)
    try:
        task_id = await run_task(runtime, compensable_spec(demo, "Ada Lovelace"))
        contact_id = names(demo)["Ada Lovelace"]
        [receipt] = await runtime.journal.for_task(task_id)
        assert receipt.tier is Tier.RUNTIME_COMPENSABLE and receipt.reversal is Reversal.COMPENSABLE
        assert receipt.undoable
        compensation = receipt.compensation
        assert (compensation.system, compensation.key) == (SYSTEM, str(contact_id))
        assert compensation.call.as_json() == {"tool": "api.delete",
                                               "args": {"url": f"{demo.url}/api/contacts/{contact_id}"}}
        assert receipt.created_at < compensation.deadline <= receipt.created_at + WINDOW_S + 1

        undone = await runtime.undo(receipt.id, by="ops-alice")

        assert "Ada Lovelace" not in names(demo)
        assert undone.reversal is Reversal.REVERSED and undone.reversed_at is not None
        [own] = [r for r in await runtime.journal.receipts() if r.undoes == receipt.id]
        assert own.call.tool == "journal.undo" and own.reversal is Reversal.AUDIT_ONLY and own.task_id == task_id
        assert own.call.args["compensation"] == compensation.call.as_json()
        assert own.call.args["by"] == "ops-alice" and own.call.args["force"] is False
        assert own.call.args["approved_by"] == "ops-alice"  # api.delete is irreversible: the person undoing approved it
        with pytest.raises(UndoError, match="already undone"):
            await runtime.undo(receipt.id)
        records = [json.loads(line) for line in jsonl(await exported(runtime.store, task_id=task_id)).splitlines()]
        by_id = {record["id"]: record for record in records}
        assert by_id[receipt.id]["compensation"]["system"] == SYSTEM
        assert by_id[receipt.id]["compensation"]["key"] == str(contact_id)
        assert by_id[own.id]["undoes"] == receipt.id and by_id[own.id]["schema"] == "warden.receipt/1"
    finally:
        await runtime.close()


async def test_past_its_window_the_undo_is_refused_irrecoverable_and_the_record_is_named_as_remaining(
        tmp_path: Path, demo: DemoSite) -> None:
    runtime = await open_runtime(tmp_path)
    try:
        task_id = await run_task(runtime, compensable_spec(demo, "Grace Hopper"))
        contact_id = names(demo)["Grace Hopper"]
        [receipt] = await runtime.journal.for_task(task_id)
        runtime.undoer.compensations.clock = lambda: receipt.compensation.deadline + 1

        with pytest.raises(UndoError) as refused:
            await runtime.undo(receipt.id)

        message = str(refused.value)
        assert "irrecoverable" in message and f"contact {contact_id} in {SYSTEM} remains" in message
        assert "\n" not in message
        assert (await runtime.journal.get(receipt.id)).reversal is Reversal.IRRECOVERABLE
        assert names(demo)["Grace Hopper"] == contact_id
        assert not [r for r in await runtime.journal.receipts() if r.undoes == receipt.id]
        result = await runtime.undo_task(task_id)
        assert not result.ok and result.stopped_at.receipt_id == receipt.id
        assert "irrecoverable" in result.stopped_at.reason
    finally:
        await runtime.close()


async def test_a_gate_that_blocks_the_compensating_call_refuses_the_undo_and_changes_nothing(
        tmp_path: Path, demo: DemoSite) -> None:
    policy = Policy.from_mapping({"tools": {"api.delete": {"level": "catastrophic"}}})
    runtime = await open_runtime(tmp_path, policy)
    try:
        task_id = await run_task(runtime, compensable_spec(demo, "Katherine Johnson"))
        contact_id = names(demo)["Katherine Johnson"]
        [receipt] = await runtime.journal.for_task(task_id)

        with pytest.raises(UndoError, match="the gate blocks its compensation api.delete") as refused:
            await runtime.undo(receipt.id)

        assert f"contact {contact_id} in {SYSTEM} remains" in str(refused.value)
        assert (await runtime.journal.get(receipt.id)).reversal is Reversal.COMPENSABLE
        assert names(demo)["Katherine Johnson"] == contact_id
        assert not [r for r in await runtime.journal.receipts() if r.undoes == receipt.id]
    finally:
        await runtime.close()


async def test_undoing_the_task_runs_its_compensations_newest_first(tmp_path: Path, demo: DemoSite) -> None:
    runtime = await open_runtime(tmp_path)
    try:
        spec = compensable_spec(demo, "Ada")
        second = {"tool": "api.post", "args": {"url": demo.url + "/api/contacts", "json": {"name": "Grace"}}}
        spec = TaskSpec(goal="Add two", env=spec.env, learn=False,
                        agent={"kind": "scripted", "steps": [*spec.agent["steps"], second]})
        task_id = await run_task(runtime, spec)
        first, last = await runtime.journal.for_task(task_id)

        result = await runtime.undo_task(task_id)

        assert result.ok and result.undone == (last.id, first.id)
        assert "Ada" not in names(demo) and "Grace" not in names(demo)
        own = [r for r in await runtime.journal.receipts() if r.undoes in (first.id, last.id)]
        assert len(own) == 2 and {r.call.tool for r in own} == {"journal.undo"}
    finally:
        await runtime.close()


async def test_an_api_post_the_spec_declares_no_compensator_for_is_irreversible_and_not_undone(
        tmp_path: Path, demo: DemoSite) -> None:
    runtime = await open_runtime(tmp_path, Policy.from_mapping({"tools": {"api.post": {"allow_irreversible": True}},
                                                                "hosts": {"allow": ["127.0.0.1"]}}))
    try:
        steps = [{"tool": "api.post", "args": {"url": demo.url + "/api/contacts", "json": {"name": "Mary Jackson"}}}]
        task_id = await run_task(runtime, TaskSpec(goal="Add through the API", learn=False, agent={
            "kind": "scripted", "steps": steps}, env={"kind": "web", "start_url": demo.url + "/contacts"}))
        [receipt] = await runtime.journal.for_task(task_id)
        assert receipt.tier is Tier.EXTERNALLY_IRREVERSIBLE and receipt.reversal is Reversal.AUDIT_ONLY
        assert receipt.compensation is None and not receipt.undoable
        with pytest.raises(UndoError, match="audit_only"):
            await runtime.undo(receipt.id)
        assert "Mary Jackson" in names(demo)
    finally:
        await runtime.close()


async def test_a_compensation_whose_undo_died_is_run_again_only_when_forced(tmp_path: Path, demo: DemoSite) -> None:
    runtime = await open_runtime(tmp_path)
    try:
        task_id = await run_task(runtime, compensable_spec(demo, "Dorothy Vaughan"))
        contact_id = names(demo)["Dorothy Vaughan"]
        [receipt] = await runtime.journal.for_task(task_id)
        await runtime.store.execute("UPDATE receipts SET reversal = ? WHERE id = ?",
                                    (Reversal.REVERSING.value, receipt.id))  # claimed by an undo that then died

        with pytest.raises(UndoError, match="cannot be told; check, then force") as refused:
            await runtime.undo(receipt.id)
        assert f"contact {contact_id} in {SYSTEM}" in str(refused.value)
        assert names(demo)["Dorothy Vaughan"] == contact_id

        undone = await runtime.undo(receipt.id, force=True)
        assert undone.reversal is Reversal.REVERSED and "Dorothy Vaughan" not in names(demo)
    finally:
        await runtime.close()
