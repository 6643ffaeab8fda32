"""`warden exec` and `warden hook` through the commands a person or a host runs (issue 26, first part).

Every command here only touches files in the test's throwaway workspace; the catastrophic ones are data the
gate blocks, never run.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def project(tmp_path: Path) -> Path:
    made = tmp_path / "project"
    made.mkdir()
    (made / "notes.txt").write_text("keep me\n")
    return made


def warden(tmp_path: Path, cwd: Path, *args: str, stdin: str | None = None, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "app.cli", *args], capture_output=True, text=True, timeout=120,
                          cwd=cwd, input=stdin, env={**os.environ, "WARDEN_HOME": str(tmp_path / "home"), **env})


def test_exec_passes_output_and_exit_status_and_leaves_a_receipt_that_undoes(tmp_path: Path, project: Path) -> None:
    done = warden(tmp_path, project, "exec", "--", "sh", "-c", "echo out; echo changed > notes.txt; exit 3")
    assert (done.returncode, done.stdout) == (3, "out\n")
    assert (project / "notes.txt").read_text() == "changed\n"
    [receipt] = json.loads(warden(tmp_path, project, "journal", "list", "--json").stdout)
    assert receipt["summary"].startswith("FAILED $ ") and receipt["reversal"] == "reversible"
    assert warden(tmp_path, project, "journal", "undo", receipt["id"]).returncode == 0
    assert (project / "notes.txt").read_text() == "keep me\n"


def test_exec_refuses_a_blocked_command_in_one_line_and_runs_nothing(tmp_path: Path, project: Path) -> None:
    refused = warden(tmp_path, project, "exec", "--", "rm -rf ~")
    assert refused.returncode == 126 and refused.stdout == ""
    assert refused.stderr.count("\n") == 1 and refused.stderr.startswith("warden: blocked")


def test_exec_holds_egress_for_a_person_and_denies_it_when_nobody_decides(tmp_path: Path, project: Path) -> None:
    held = warden(tmp_path, project, "exec", "--wait", "0.5", "--", "curl -s https://example.com/x")
    assert held.returncode == 126
    assert "waiting for a person: sends an HTTP request to another host (example.com)" in held.stderr
    assert "warden: denied: nobody decided within 0.5 s" in held.stderr
    assert json.loads(warden(tmp_path, project, "approvals", "list", "--json").stdout) == []


def test_exec_with_a_session_groups_its_commands_into_one_task(tmp_path: Path, project: Path) -> None:
    for command in ("echo a > a.txt", "echo b > b.txt"):
        assert warden(tmp_path, project, "exec", "--", command, WARDEN_SESSION="build-1").returncode == 0
    [task] = json.loads(warden(tmp_path, project, "tasks", "--json").stdout)
    assert task["status"] == "paused"
    receipts = json.loads(warden(tmp_path, project, "journal", "list", "--task", task["id"], "--json").stdout)
    assert len(receipts) == 2


def event(project: Path, tool: str, tool_input: dict, name: str = "PreToolUse") -> str:
    return json.dumps({"hook_event_name": name, "session_id": "s-1", "cwd": str(project), "tool_name": tool,
                       "tool_input": tool_input, "transcript_path": "/dev/null"})


def decision(done: subprocess.CompletedProcess) -> dict:
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)["hookSpecificOutput"]


def test_the_hook_rewrites_a_cleared_shell_call_to_warden_exec_of_that_step(tmp_path: Path, project: Path) -> None:
    answer = decision(warden(tmp_path, project, "hook", "claude-code", stdin=event(project, "Bash", {"command": "ls"})))
    assert answer["permissionDecision"] == "allow" and answer["permissionDecisionReason"] == "read-only"
    rewritten = answer["updatedInput"]["command"]
    assert " exec --step t-" in rewritten and rewritten.endswith(":0 -- ls")
    ran = subprocess.run(rewritten, shell=True, capture_output=True, text=True, cwd=project, timeout=120,
                         env={**os.environ, "WARDEN_HOME": str(tmp_path / "home")})
    assert ran.returncode == 0 and "notes.txt" in ran.stdout
    again = subprocess.run(rewritten, shell=True, capture_output=True, text=True, cwd=project, timeout=120,
                           env={**os.environ, "WARDEN_HOME": str(tmp_path / "home")})
    assert again.returncode != 0 and "no step 0 waiting to run" in again.stderr, "a cleared step runs once"


def test_the_hook_denies_catastrophic_and_fails_closed_on_what_it_cannot_read(tmp_path: Path, project: Path) -> None:
    blocked = decision(warden(tmp_path, project, "hook", "claude-code",
                              stdin=event(project, "Bash", {"command": "rm -rf /"})))
    assert blocked["permissionDecision"] == "deny" and "filesystem root" in blocked["permissionDecisionReason"]
    garbled = decision(warden(tmp_path, project, "hook", "claude-code", stdin="{not json"))
    assert garbled["permissionDecision"] == "deny" and "could not be read" in garbled["permissionDecisionReason"]
    (tmp_path / "home" / "warden.db").write_bytes(b"not a database at all" * 50)
    broken = warden(tmp_path, project, "hook", "claude-code", stdin=event(project, "Bash", {"command": "ls"}))
    answer = decision(broken)
    assert answer["permissionDecision"] == "deny" and "nothing ran" in answer["permissionDecisionReason"]
    assert broken.stderr.count("\n") == 1


def test_a_write_is_snapshotted_before_and_receipted_after(tmp_path: Path, project: Path) -> None:
    write = {"file_path": str(project / "notes.txt"), "content": "overwritten\n"}
    before = decision(warden(tmp_path, project, "hook", "claude-code", stdin=event(project, "Write", write)))
    assert before["permissionDecision"] == "allow"
    (project / "notes.txt").write_text("overwritten\n")  # the host writes it
    after = warden(tmp_path, project, "hook", "claude-code",
                   stdin=event(project, "Write", write, name="PostToolUse").replace('"transcript_path"',
                                                                                 '"tool_response": {"success": true}, "transcript_path"'))
    assert after.returncode == 0 and after.stdout == ""
    [receipt] = json.loads(warden(tmp_path, project, "journal", "list", "--json").stdout)
    assert warden(tmp_path, project, "journal", "undo", receipt["id"]).returncode == 0
    assert (project / "notes.txt").read_bytes() == b"keep me\n"


def test_install_merges_is_idempotent_and_uninstall_leaves_the_rest(tmp_path: Path, project: Path) -> None:
    settings = project / ".claude" / "settings.json"
    settings.parent.mkdir()
    mine = {"model": "x", "hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command",
                                                                                   "command": "my-guard"}]}]}}
    settings.write_text(json.dumps(mine))
    first = warden(tmp_path, project, "hook", "install", "claude-code", "--project", str(project))
    assert first.returncode == 0 and "added PreToolUse" in first.stdout
    assert "already installed" in warden(tmp_path, project, "hook", "install", "claude-code", "--project",
                                         str(project)).stdout
    merged = json.loads(settings.read_text())
    assert merged["model"] == "x" and len(merged["hooks"]["PreToolUse"]) == 2
    assert warden(tmp_path, project, "hook", "uninstall", "claude-code", "--project", str(project)).returncode == 0
    assert json.loads(settings.read_text()) == mine


def test_install_refuses_a_settings_file_that_is_not_json_and_changes_nothing(tmp_path: Path, project: Path) -> None:
    settings = project / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_text("{ half")
    refused = warden(tmp_path, project, "hook", "install", "claude-code", "--project", str(project))
    assert refused.returncode != 0 and refused.stderr.count("\n") == 1 and "not readable JSON" in refused.stderr
    assert settings.read_text() == "{ half"


def test_an_mcp_call_the_host_makes_is_gated_and_audited(tmp_path: Path, project: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    (home / "policy.toml").write_text('[tools."mcp.notes.read"]\nlevel = "safe"\nallow_irreversible = true\n')
    run = lambda tool, given, name="PreToolUse": warden(  # noqa: E731
        tmp_path, project, "hook", "claude-code", stdin=event(project, tool, given, name), WARDEN_HOOK_WAIT="0.5")
    held = decision(run("mcp__notes__write", {"text": "hello"}))
    assert held["permissionDecision"] == "deny" and "nobody decided" in held["permissionDecisionReason"]
    blocked = decision(run("mcp__shell__exec", {"command": "rm -rf /"}))
    assert blocked["permissionDecision"] == "deny" and "filesystem root" in blocked["permissionDecisionReason"]
    allowed = decision(run("mcp__notes__read", {"name": "todo"}))
    assert allowed["permissionDecision"] == "allow"
    assert run("mcp__notes__read", {"name": "todo"}, "PostToolUse").returncode == 0
    receipts = json.loads(warden(tmp_path, project, "journal", "list", "--json").stdout)
    assert [r["reversal"] for r in receipts] == ["audit_only"] * 3
    assert {r["tool"] for r in receipts} == {"mcp.notes.write", "mcp.shell.exec", "mcp.notes.read"}
