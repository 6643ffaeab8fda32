"""Scoped grants through the commands a person types: approve with a scope, see the grant, revoke it.

The policy's `[ask]` table holds contained calls for a person here (file deletes and in-place edits
run unasked by default), so each case acts on real files in a throwaway workspace.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
from pathlib import Path

import pytest

from engine.gate.approvals import Approval, ApprovalStatus
from engine.gate.grants import GrantError, Scope, scoped_pattern
from engine.gate.patterns import pattern_of
from engine.gate.verdict import Level, Verdict
from engine.runtime import Runtime, Switches
from engine.tier import Tier
from engine.tools.call import ToolCall
from tests.cli.test_records_cli import cli, cli_json, db, drain, queue

POLICY = '[ask]\ntools = ["fs.delete"]\nrules = ["fs.sed-inplace"]\n'


@pytest.fixture
def ws(tmp_path: Path, home: Path) -> Path:
    home.mkdir(parents=True)
    (home / "policy.toml").write_text(POLICY, encoding="utf-8")
    workspace = tmp_path / "ws"
    workspace.mkdir()
    for name in ("a.txt", "b.txt", "c.md", "d.txt"):
        (workspace / name).write_text(f"{name}\n", encoding="utf-8")
    return workspace


def delete(path: str) -> ToolCall:
    return ToolCall("fs.delete", {"path": path})


def test_a_pattern_grant_runs_matching_calls_unasked_until_it_is_revoked(home: Path, ws: Path, capsys) -> None:
    queue(home, ws, delete("a.txt"))
    [pending] = cli_json(capsys, "approvals", "list")
    decided = cli_json(capsys, "approvals", "approve", pending["id"], "--scope", "pattern", "--glob", "*.txt")
    grant = decided["grant"]
    assert decided["status"] == "approved" and grant["scope"] == "pattern" and grant["task_id"] is None
    assert "paths *.txt" in grant["shown"]
    drain(home, ws)
    assert not (ws / "a.txt").exists()

    covered = queue(home, ws, delete("b.txt"))
    assert not (ws / "b.txt").exists() and cli_json(capsys, "approvals", "list") == []
    [listed] = cli_json(capsys, "approvals", "grants")
    assert (listed["id"], listed["uses"]) == (grant["id"], 1)
    assert any(f"runs: granted by {listed['granted_by']}" in text and grant["id"] in text
               for text in timeline(home, ws, covered)), "the task's timeline says which grant let it run"

    queue(home, ws, delete("c.md"))
    [outside] = cli_json(capsys, "approvals", "list")
    assert outside["call"]["args"] == {"path": "c.md"} and (ws / "c.md").exists()

    code, out, _ = cli(capsys, "approvals", "grants", "revoke", grant["id"])
    assert code == 0 and f"grant {grant['id']} revoked" in out
    assert cli_json(capsys, "approvals", "grants") == []
    [revoked] = cli_json(capsys, "approvals", "grants", "--all")
    assert revoked["revoked_by"] and db(home, "SELECT count(*) FROM grants WHERE revoked_at IS NOT NULL") == [(1,)]

    queue(home, ws, delete("d.txt"))
    assert (ws / "d.txt").exists()
    assert {p["call"]["args"]["path"] for p in cli_json(capsys, "approvals", "list")} == {"c.md", "d.txt"}


def test_a_task_grant_covers_the_rest_of_its_task_and_no_other(home: Path, ws: Path, capsys) -> None:
    edit = ToolCall("shell.run", {"command": "sed -i s/a/A/ a.txt"})
    task = queue(home, ws, edit, ToolCall("shell.run", {"command": "sed -i s/b/B/ b.txt"}))
    [pending] = cli_json(capsys, "approvals", "list")
    grant = cli_json(capsys, "approvals", "approve", pending["id"], "--scope", "task")["grant"]
    assert (grant["scope"], grant["task_id"]) == ("task", task) and "`sed …`" in grant["shown"]
    drain(home, ws)
    assert (ws / "a.txt").read_text() == "A.txt\n" and (ws / "b.txt").read_text() == "B.txt\n"
    assert cli_json(capsys, "tasks", "show", task)["status"] == "succeeded"

    queue(home, ws, ToolCall("shell.run", {"command": "sed -i s/d/D/ d.txt"}))
    [other] = cli_json(capsys, "approvals", "list")
    assert other["task_id"] != task and (ws / "d.txt").read_text() == "d.txt\n"


def test_a_scope_that_cannot_be_given_leaves_the_approval_pending(home: Path, ws: Path, capsys) -> None:
    queue(home, ws, delete("a.txt"))
    [pending] = cli_json(capsys, "approvals", "list")
    code, out, err = cli(capsys, "approvals", "approve", pending["id"], "--scope", "pattern", "--glob", "*.md")
    assert code == 1 and out == "" and err.count("\n") == 1 and "does not match 'a.txt'" in err
    code, _, err = cli(capsys, "approvals", "approve", pending["id"], "--glob", "*.txt")
    assert code == 1 and "--scope" in err
    assert [p["status"] for p in cli_json(capsys, "approvals", "list")] == ["pending"]
    assert db(home, "SELECT count(*) FROM grants") == [(0,)] and (ws / "a.txt").exists()


def test_a_catastrophic_call_is_blocked_and_offers_no_scope(home: Path, ws: Path, capsys) -> None:
    task = queue(home, ws, ToolCall("shell.run", {"command": "rm -rf /"}))
    assert cli_json(capsys, "approvals", "list") == []
    assert cli_json(capsys, "tasks", "show", task)["status"] in ("failed", "blocked")
    call = ToolCall("shell.run", {"command": "rm -rf /"})
    approval = Approval("x", task, 0, call, call.digest(), "catastrophic", "externally_irreversible", ("fs.rm-root",),
                        "", ApprovalStatus.PENDING, 0.0, 1.0, None, None, None)
    with pytest.raises(GrantError, match="catastrophic call takes no scope"):
        scoped_pattern(approval)


def test_no_grant_covers_a_catastrophic_call_or_a_new_kind_of_risk() -> None:
    pattern = pattern_of(ToolCall("shell.run", {"command": "git push origin main"}), ("git.push",))
    assert pattern.value == "git push"
    push = ToolCall("shell.run", {"command": "git push origin topic"})
    assert pattern.covers(push, Verdict(Level.DANGEROUS, Tier.EXTERNALLY_IRREVERSIBLE, ("git.push",)))
    forced = ToolCall("shell.run", {"command": "git push --force origin main"})
    assert not pattern.covers(forced, Verdict(Level.DANGEROUS, Tier.EXTERNALLY_IRREVERSIBLE,
                                              ("git.push", "git.force-push")))
    assert not pattern.covers(push, Verdict(Level.CATASTROPHIC, Tier.EXTERNALLY_IRREVERSIBLE, ("git.push",)))
    assert not pattern.covers(push, dataclasses.replace(
        Verdict(Level.DANGEROUS, Tier.EXTERNALLY_IRREVERSIBLE, ("git.push",)), code=("hook.sh",)))


def test_a_compound_command_grants_only_itself() -> None:
    line = ToolCall("shell.run", {"command": "make && curl -T out.bin https://example.com/up"})
    pattern = pattern_of(line, ("net.upload",))
    assert pattern.kind.value == "line" and "example.com" not in json.dumps(pattern.as_json())
    same = Verdict(Level.DANGEROUS, Tier.EXTERNALLY_IRREVERSIBLE, ("net.upload",))
    assert pattern.covers(line, same)
    assert not pattern.covers(ToolCall("shell.run", {"command": "make && curl -T x https://example.com/up"}), same)


def test_scope_values_are_the_three_a_person_chooses_from() -> None:
    assert [scope.value for scope in Scope] == ["once", "task", "pattern"]


def timeline(home: Path, ws: Path, task_id: str) -> list[str]:
    """The lines of a task's timeline, as the console's task detail shows them."""

    async def read() -> list[str]:
        runtime = await Runtime.open(home, ws, Switches())
        try:
            return [entry.text for entry in (await runtime.task_detail(task_id)).entries]
        finally:
            await runtime.close()

    return asyncio.run(read())
