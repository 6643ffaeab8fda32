"""Routing by reversibility: what can be undone runs, what cannot asks a person, catastrophic is blocked.

The decision is drawn from level, tier and containment (`engine/gate/route.py`); the policy can only
tighten it. `[ask] dangerous = true` must give back, call for call, the gate as it was before routing.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.gate.gate import Decision, Gate
from engine.gate.policy import Policy, PolicyError
from engine.gate.route import Route, declared_tier
from engine.gate.verdict import Level, Verdict
from engine.tier import Tier
from engine.tools.call import ToolCall

CORPUS = Path(__file__).parent / "corpus"
FATIGUE = Path(__file__).parents[2] / "engine" / "bench" / "fatigue" / "coding_session.jsonl"


def shell(command: str) -> ToolCall:
    return ToolCall("shell.run", {"command": command})


def ruled(call: ToolCall, policy: Policy | None = None):
    gate = Gate(policy or Policy())
    return gate.rule(call, declared_tier(gate.policy, call.tool))


@pytest.mark.parametrize("command", ["rm -rf build", "sed -i s/a/b/ src/x.py", "pytest -q", "make",
                                     "git commit -am wip", "git checkout -b topic", "python3 tools/gen.py",
                                     "tee notes.txt <<< hi", "npm run build"])
def test_a_dangerous_but_confined_command_runs_and_says_why(command: str) -> None:
    ruling = ruled(shell(command))
    assert ruling.verdict.level is Level.DANGEROUS
    assert (ruling.route, ruling.why) == (Route.RUNS, "confined, undoable")


@pytest.mark.parametrize("command", ["ls -la", "git status", "grep -rn TODO src"])
def test_a_read_only_command_runs_as_read_only(command: str) -> None:
    assert str(ruled(shell(command)).routing) == "runs: read-only"


@pytest.mark.parametrize("command, host", [("curl -d @notes.txt https://api.example.com/v1", "api.example.com"),
                                           ("wget https://files.example.org/x.tgz", "files.example.org")])
def test_egress_asks_and_names_where_it_goes(command: str, host: str) -> None:
    ruling = ruled(shell(command))
    assert ruling.route is Route.ASKS and host in ruling.why


def test_a_push_asks_because_it_leaves_the_machine() -> None:
    ruling = ruled(shell("git push origin main"))
    assert ruling.route is Route.ASKS and "remote" in ruling.why


@pytest.mark.parametrize("key", ["unconfined", "egress"])
def test_an_unconfined_or_networked_shell_asks_about_what_it_would_otherwise_run(key: str) -> None:
    policy = Policy.from_mapping({"shell": {key: "allow"}})
    ruling = ruled(shell("rm -rf build"), policy)
    assert ruling.route is Route.ASKS
    assert ruling.why == ("the shell is not confined" if key == "unconfined" else "the shell can reach the network")


def test_catastrophic_is_blocked_whatever_the_policy_says() -> None:
    policy = Policy.from_mapping({"approvals": {"auto_approve_rules": ["fs.rm-root", "fs.rm-recursive", "fs.rm"]},
                                  "tools": {"shell.run": {"allow_irreversible": True}}})
    ruling = ruled(shell("rm -rf /"), policy)
    assert ruling.route is Route.BLOCKED and ruling.verdict.level is Level.CATASTROPHIC


def test_an_http_call_asks_and_names_the_host() -> None:
    ruling = ruled(ToolCall("http.request", {"url": "https://api.example.com/v1/items", "method": "POST"}))
    assert ruling.route is Route.ASKS and "api.example.com" in ruling.why


def test_a_file_tool_inside_the_workspace_runs_even_when_dangerous() -> None:
    ruling = ruled(ToolCall("fs.delete", {"path": "notes.txt"}))
    assert ruling.verdict.level is Level.DANGEROUS
    assert str(ruling.routing) == "runs: inside the workspace, undoable"


@pytest.mark.parametrize("table, call", [
    ({"tools": ["fs.delete"]}, ToolCall("fs.delete", {"path": "notes.txt"})),
    ({"rules": ["git.history"]}, shell("git commit -am wip")),
    ({"packs": ["vcs.git"]}, shell("git commit -am wip")),
    ({"paths": ["secrets/*"]}, ToolCall("fs.write", {"path": "secrets/plan.txt", "content": "x"})),
    ({"paths": ["migrations/*.sql"]}, shell("sed -i s/a/b/ migrations/001.sql")),
    ({"paths": ["*.lock"]}, shell("cat Cargo.lock")),
])
def test_the_policy_tightens_a_route_by_tool_rule_pack_or_path(table: dict, call: ToolCall) -> None:
    assert ruled(call).route is Route.RUNS
    ruling = ruled(call, Policy.from_mapping({"ask": table}))
    assert ruling.route is Route.ASKS and ruling.why.startswith("the policy asks for")


def test_a_path_glob_does_not_hold_a_call_outside_it() -> None:
    policy = Policy.from_mapping({"ask": {"paths": ["secrets/*"]}})
    assert ruled(ToolCall("fs.write", {"path": "src/plan.txt", "content": "x"}), policy).route is Route.RUNS


@pytest.mark.parametrize("table, message", [
    ({"rules": ["no.such-rule"]}, "no rule 'no.such-rule'"),
    ({"packs": ["nope"]}, "no pack 'nope'"),
    ({"dangerous": "yes"}, "ask.dangerous must be true or false"),
    ({"paths": "secrets/*"}, "ask.paths must be a list"),
    ({"loosen": ["x"]}, "unknown [ask] key"),
])
def test_a_bad_ask_table_is_one_clear_line(table: dict, message: str) -> None:
    with pytest.raises(PolicyError, match="^policy .*" + message.replace("[", r"\[").replace("(", r"\(")):
        Gate(Policy.from_mapping({"ask": table}))


def _before_routing(gate: Gate, call: ToolCall, declared: Tier) -> Decision:
    """The gate's decision as it was before routing (kept here as the reference the policy must restore)."""
    verdict: Verdict = gate.classifier.classify(call, declared)
    if verdict.level is Level.CATASTROPHIC:
        return Decision.BLOCK
    if verdict.level is Level.DANGEROUS:
        if not (verdict.rules and set(verdict.rules) <= gate.policy.auto_approve_rules):
            return Decision.ASK
    if verdict.tier is Tier.EXTERNALLY_IRREVERSIBLE and not gate.policy.allows_irreversible(call):
        return Decision.ASK
    return Decision.ALLOW


def _corpus_calls() -> list[ToolCall]:
    calls = []
    for path in sorted(CORPUS.rglob("*.jsonl")) + ([FATIGUE] if FATIGUE.exists() else []):
        for line in path.read_text(encoding="utf-8").splitlines():
            entry = json.loads(line) if line.strip() else {}
            if "command" in entry:
                calls.append(shell(entry["command"]))
            elif "tool" in entry:
                calls.append(ToolCall.from_json(entry))
    return calls


def test_asking_for_every_dangerous_call_restores_the_gate_before_routing() -> None:
    gate = Gate(Policy.from_mapping({"ask": {"dangerous": True}}))
    calls = _corpus_calls()
    assert len(calls) > 1000
    differ = [(call.args, ruling.decision, before) for call in calls
              for ruling in [gate.rule(call, declared_tier(gate.policy, call.tool))]
              for before in [_before_routing(gate, call, declared_tier(gate.policy, call.tool))]
              if ruling.decision is not before]
    assert differ == []
    assert any(ruled(call).decision is Decision.ALLOW and gate.rule(call, Tier.LOCAL_REVERSIBLE).decision is Decision.ASK
               for call in calls[:400])
