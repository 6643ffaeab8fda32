"""Issue 26, acceptance 1 and 3: a real Claude Code session under Warden's hooks.

`warden hook install claude-code --project DIR` writes the project's hooks; a scripted stand-in of the
Messages API then has Claude Code list the files, delete one, overwrite one with Write, send a request to a
loopback listener and delete `~`. Every command is harmless on this machine even if a hook failed open: the
project and HOME are throwaway directories and the listener only counts what reaches it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.hardening.loopback import tcp_listener
from tests.hosts.claude_install import claude_binary
from tests.hosts.messages_standin import MessagesStandIn, Turn, text, tool_use

ROOT = Path(__file__).resolve().parents[2]


def warden(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "app.cli", *args], capture_output=True, text=True, timeout=120,
                          env=env, cwd=ROOT)


def session(tmp_path: Path, script: list[Turn], standin: type[MessagesStandIn] = MessagesStandIn) -> tuple[dict, dict]:
    """Install the hooks into a fresh project, run Claude Code on `script`; its JSON result and the env used."""
    home, project, warden_home = tmp_path / "home", tmp_path / "project", tmp_path / "warden"
    home.mkdir()
    project.mkdir()
    (home / "precious.txt").write_text("the person's own file\n")
    (project / "notes.txt").write_text("keep me\n")
    (project / "data.txt").write_text("old contents\n")
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(home), "WARDEN_HOME": str(warden_home),
           "WARDEN_HOOK_WAIT": "2", "XDG_CONFIG_HOME": str(home / ".config"), "XDG_CACHE_HOME": str(home / ".cache"),
           "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1", "DISABLE_AUTOUPDATER": "1", "DISABLE_TELEMETRY": "1",
           "ANTHROPIC_API_KEY": "dummy", "WARDEN_SERVE_IDLE_MINUTES": "0.2"}
    installed = warden(env, "hook", "install", "claude-code", "--project", str(project))
    assert installed.returncode == 0, installed.stderr
    with standin(script, max_seconds=240) as api:
        done = subprocess.run([str(claude_binary()), "-p", "tidy the project", "--output-format", "json",
                               "--permission-mode", "acceptEdits"], cwd=project,
                              env={**env, "ANTHROPIC_BASE_URL": api.url}, capture_output=True, text=True, timeout=200,
                              stdin=subprocess.DEVNULL)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout), env


def test_a_claude_code_session_runs_under_the_gate_with_receipts_that_undo(tmp_path: Path) -> None:
    with tcp_listener() as listener:
        script = [tool_use("Bash", {"command": "ls"}),
                  tool_use("Bash", {"command": "rm notes.txt"}),
                  tool_use("Write", {"file_path": str(tmp_path / "project" / "data.txt"), "content": "new contents\n"}),
                  tool_use("Bash", {"command": f"curl -s -d x {listener.origin}/upload"}),
                  tool_use("Bash", {"command": "rm -rf ~"}),
                  text("done")]
        result, env = session(tmp_path, script)
        assert not listener.reached, "the request was held for a person, nobody approved it, and it never left"
    project = tmp_path / "project"
    assert result["result"] == "done"
    assert (tmp_path / "home" / "precious.txt").read_text() == "the person's own file\n", "~ survived"
    assert not (project / "notes.txt").exists() and (project / "data.txt").read_text() == "new contents\n"

    receipts = json.loads(warden(env, "journal", "list", "--json").stdout)
    by_summary = {receipt["summary"]: receipt for receipt in receipts}
    listing = next(r for s, r in by_summary.items() if s.startswith("$ ls"))
    assert listing["reversal"] in ("reversible", "audit_only")
    deleted = next(r for s, r in by_summary.items() if s.startswith("$ rm notes.txt"))
    written = next(r for s, r in by_summary.items() if "data.txt" in s and not s.startswith("$"))
    assert any(s.startswith("BLOCKED shell.run") and "home directory" in s for s in by_summary), by_summary
    for receipt in (written, deleted):
        undone = warden(env, "journal", "undo", receipt["id"])
        assert undone.returncode == 0, undone.stderr
    assert (project / "notes.txt").read_bytes() == b"keep me\n"
    assert (project / "data.txt").read_bytes() == b"old contents\n"

    [task] = json.loads(warden(env, "tasks", "--json").stdout)
    assert task["goal"].startswith("claude-code") and task["status"] == "paused"


def test_an_unreadable_home_mid_session_denies_the_next_shell_call_and_nothing_runs(tmp_path: Path) -> None:
    """The second call finds Warden's database damaged: the hook cannot decide, so it denies, in one line."""
    damaged = tmp_path / "warden" / "warden.db"

    class Damaging(MessagesStandIn):
        def _turn_for(self, body: dict) -> Turn:
            turn = super()._turn_for(body)
            if self.played and self.played[-1] == 1:  # just before the second call is proposed
                damaged.write_bytes(b"this is not a database" * 100)
            return turn

    script = [tool_use("Bash", {"command": "echo one > one.txt"}), tool_use("Bash", {"command": "echo two > two.txt"}),
              text("done")]
    session(tmp_path, script, Damaging)
    project = tmp_path / "project"
    assert (project / "one.txt").read_text() == "one\n"
    assert not (project / "two.txt").exists(), "nothing ran once Warden could not decide"
