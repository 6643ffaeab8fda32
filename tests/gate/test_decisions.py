"""What the gate does with a verdict: run, ask or block, as the policy allows and no further."""

from __future__ import annotations

import dataclasses

import pytest

from engine.demo import SCRATCH_BYTES, demo_tasks, seed_workspace
from engine.gate.gate import Decision, Gate
from engine.gate.policy import Policy
from engine.gate.verdict import Level
from engine.tier import Tier
from engine.runtime import Runtime, Switches
from engine.tasks.task import TaskStatus
from engine.tools.call import ToolCall

GET_DOCS = ToolCall("http.request", {"method": "GET", "url": "https://docs.example.org/a"})
GET_ELSEWHERE = ToolCall("http.request", {"method": "GET", "url": "https://elsewhere.example.net/a"})
ALLOW_DOCS = Policy.from_mapping(
    {"tools": {"http.request": {"allow_irreversible": True}}, "hosts": {"allow": ["docs.example.org"]}}
)


def test_irreversible_call_asks_unless_tool_and_host_are_allowed() -> None:
    assert Gate(Policy()).rule(GET_DOCS, Tier.EXTERNALLY_IRREVERSIBLE).decision is Decision.ASK
    assert Gate(ALLOW_DOCS).rule(GET_DOCS, Tier.EXTERNALLY_IRREVERSIBLE).decision is Decision.ALLOW
    assert Gate(ALLOW_DOCS).rule(GET_ELSEWHERE, Tier.EXTERNALLY_IRREVERSIBLE).decision is Decision.ASK
    hosts_only = Policy.from_mapping({"hosts": {"allow": ["docs.example.org"]}})
    assert Gate(hosts_only).rule(GET_DOCS, Tier.EXTERNALLY_IRREVERSIBLE).decision is Decision.ASK


def test_auto_approval_never_reaches_catastrophic() -> None:
    delete_root = ToolCall("fs.delete", {"path": "/"})
    rules = Gate(Policy()).rule(delete_root, Tier.LOCAL_REVERSIBLE).verdict.rules
    everything = Policy.from_mapping({"approvals": {"auto_approve_rules": list(rules)}})
    assert Gate(everything).rule(delete_root, Tier.LOCAL_REVERSIBLE).decision is Decision.BLOCK


def test_gating_off_makes_no_classifier_call() -> None:
    gate = Gate(Policy(), enabled=False)
    assert gate.rule(ToolCall("fs.delete", {"path": "/"}), Tier.LOCAL_REVERSIBLE).decision is Decision.ALLOW
    assert gate.calls == 0


async def test_auto_approved_rule_runs_without_asking(tmp_path) -> None:
    seed_workspace(tmp_path / "ws")
    policy = Policy.from_mapping({"approvals": {"auto_approve_rules": ["fs.delete"]}})
    runtime = await Runtime.open(tmp_path / "home", tmp_path / "ws", Switches(), policy=policy)
    try:
        task = await runtime.submit(demo_tasks()[2])
        await runtime.run_until_idle()
        assert (await runtime.queue.get(task.id)).status is TaskStatus.SUCCEEDED
        assert await runtime.approvals.latest(task.id) is None
        [receipt] = await runtime.journal.for_task(task.id)
        await runtime.undo(receipt.id)
        assert (tmp_path / "ws" / "scratch.txt").read_bytes() == SCRATCH_BYTES
    finally:
        await runtime.close()


def test_policy_cannot_be_loosened_while_running() -> None:
    policy = Policy(tool_levels={"fs.delete": Level.DANGEROUS})
    with pytest.raises(dataclasses.FrozenInstanceError):
        policy.auto_approve_rules = frozenset({"fs.delete"})
    with pytest.raises(TypeError):
        policy.tool_levels["fs.delete"] = Level.SAFE
