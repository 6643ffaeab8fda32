"""Issue 26, acceptance 7 for Codex: install, and one deny and one allow round trip.

The real Codex CLI (`@openai/codex`, pinned in `hosts_install.py`) is installed and starts offline
(`--version`), but these tests do not run a model session through it: the hook protocol is exercised with
payloads as Codex documents and builds them. Sources, openai/codex:
  - codex-rs/hooks/schema/generated/pre-tool-use.command.input.schema.json (3be4afd35fc40b4b183892be0db2007095ef40ea):
    `cwd`, `hook_event_name` "PreToolUse", `model`, `permission_mode`, `session_id`, `tool_input`
    (`{"command": ...}`), `tool_name` "Bash", `tool_use_id`, `transcript_path`;
    codex-rs/hooks/src/events/pre_tool_use.rs (0082977cebb9fbd524046914dbc4305e5b8e0b95) adds `turn_id`;
  - the output schema beside it and codex-rs/hooks/src/engine/output_parser.rs
    (0ea83813ef8631debc8ad777641fe532f0deffc2): `hookSpecificOutput.permissionDecision` allow (only with
    `updatedInput`) / deny (with a non-empty `permissionDecisionReason`); `ask` is rejected as unsupported;
  - codex-rs/hooks/src/engine/discovery.rs (`hooks.json` beside config.toml) and the config crate's
    `HooksFile` / `HookHandlerConfig` (`type: "command"`, `command`, `timeout` in seconds).
Every command is harmless even if a hook failed open: the project and HOME are throwaway directories, and
the denied command is never run by the test.
"""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from engine.hosts import codex
from engine.hosts.settings import install_codex, settings_path, uninstall_for
from engine.tools.call import ToolCall
from tests.hosts.hook_cli import project_env, warden
from tests.hosts.hosts_install import host_binary

WARDEN = [sys.executable, "-m", "app.cli", "hook", "codex"]


def pre_tool_use(cwd: Path, tool: str, tool_input: dict) -> dict:
    return {"session_id": "019a0000-0000-7000-8000-000000000001", "turn_id": "turn-1",
            "transcript_path": None, "cwd": str(cwd), "hook_event_name": "PreToolUse", "model": "gpt-5-codex",
            "permission_mode": "default", "tool_name": tool, "tool_use_id": "call-1", "tool_input": tool_input}


PATCH = """*** Begin Patch
*** Add File: hello.txt
+Hello world
*** Update File: src/app.py
@@ def greet():
-print("Hi")
+print("Hello")
*** Delete File: obsolete.txt
*** End Patch
"""


# ---- the protocol module, directly ----

def test_a_bash_event_is_a_shell_call(tmp_path: Path) -> None:
    event = codex.Event.from_json(pre_tool_use(tmp_path, "Bash", {"command": "ls"}))
    assert (event.name, event.session, event.cwd) == ("PreToolUse", "019a0000-0000-7000-8000-000000000001", tmp_path)
    assert codex.call_of(event) == ToolCall("shell.run", {"command": "ls"})
    assert codex.is_shell(event) and not codex.is_edit(event)


def test_apply_patch_is_an_edit_of_every_file_it_touches(tmp_path: Path) -> None:
    event = codex.Event.from_json(pre_tool_use(tmp_path, "apply_patch", {"command": PATCH}))
    assert codex.is_edit(event)
    assert codex.edited_paths(event) == ["hello.txt", "src/app.py", "obsolete.txt"]
    call = codex.call_of(event)
    assert call is not None and call.tool == "fs.write" and call.args["path"] == "hello.txt"
    assert "Hello world" in call.args["content"]
    mcp = codex.Event.from_json(pre_tool_use(tmp_path, "mcp__files__delete", {"path": "x"}))
    assert codex.call_of(mcp) == ToolCall("mcp.files.delete", {"path": "x"})
    assert codex.call_of(codex.Event.from_json(pre_tool_use(tmp_path, "update_plan", {}))) is None


def test_answers_follow_what_codex_accepts() -> None:
    command = codex.exec_command("task-1", 2, "ls")
    assert command.endswith("exec --step task-1:2 -- ls")
    assert codex.allow({"command": command}, "safe") == {"hookSpecificOutput": {
        "hookEventName": "PreToolUse", "permissionDecision": "allow", "updatedInput": {"command": command},
        "permissionDecisionReason": "safe"}}
    assert codex.allow(why="safe") == {}, "Codex rejects an allow without updatedInput: say nothing instead"
    denied = codex.deny("catastrophic")["hookSpecificOutput"]
    assert denied["permissionDecision"] == "deny" and denied["permissionDecisionReason"] == "Warden: catastrophic"
    asked = codex.ask("sends data off the machine")["hookSpecificOutput"]
    assert asked["permissionDecision"] == "deny", "Codex ignores `ask`, which would let the call run"
    assert "approval" in asked["permissionDecisionReason"]


def test_install_writes_hooks_json_beside_codex_config_and_uninstall_takes_out_only_warden(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = settings_path("codex", tmp_path)
    assert path == tmp_path / ".codex" / "hooks.json"
    monkeypatch.setenv("CODEX_HOME", str(tmp_path / "codex-home"))
    assert settings_path("codex", None) == tmp_path / "codex-home" / "hooks.json"
    path.parent.mkdir()
    (path.parent / "config.toml").write_text('model = "o4"\n')
    theirs = {"matcher": "^Bash$", "hooks": [{"type": "command", "command": "./audit.sh"}]}
    path.write_text(json.dumps({"hooks": {"PreToolUse": [theirs]}}))
    assert "added PreToolUse, PostToolUse, UserPromptSubmit, SessionStart" in install_codex(path, WARDEN)
    assert "already installed" in install_codex(path, WARDEN)
    hooks = json.loads(path.read_text())["hooks"]
    assert hooks["PreToolUse"][0] == theirs
    assert hooks["PreToolUse"][1] == {"hooks": [{"type": "command", "command": shlex.join(WARDEN), "timeout": 600}]}, \
        "no matcher (every tool), timeout in seconds"
    assert "removed" in uninstall_for("codex", path, WARDEN)
    assert json.loads(path.read_text()) == {"hooks": {"PreToolUse": [theirs]}}
    assert (path.parent / "config.toml").read_text() == 'model = "o4"\n', "the TOML is never touched"


def test_the_real_codex_starts_offline() -> None:
    assert host_binary("codex").exists()


# ---- through the CLI (`warden hook codex`, once hook.py names the host) ----

def test_warden_hook_install_codex_writes_the_project_hooks_json(tmp_path: Path) -> None:
    project, env = project_env(tmp_path)
    installed = warden(env, "hook", "install", "codex", "--project", str(project))
    assert installed.returncode == 0, installed.stderr
    hooks = json.loads((project / ".codex" / "hooks.json").read_text())["hooks"]
    assert set(hooks) >= {"PreToolUse", "PostToolUse"}
    assert hooks["PreToolUse"][0]["hooks"][0]["command"].endswith("hook codex")
    removed = warden(env, "hook", "uninstall", "codex", "--project", str(project))
    assert removed.returncode == 0 and json.loads((project / ".codex" / "hooks.json").read_text()) == {}


def test_a_catastrophic_shell_call_is_denied_with_a_reason_the_model_reads(tmp_path: Path) -> None:
    project, env = project_env(tmp_path)
    done = warden(env, "hook", "codex", stdin=json.dumps(pre_tool_use(project, "Bash", {"command": "rm -rf ~"})))
    assert done.returncode == 0, done.stderr
    output = json.loads(done.stdout)["hookSpecificOutput"]
    assert output["permissionDecision"] == "deny" and output["permissionDecisionReason"].startswith("Warden:")
    assert (tmp_path / "home" / "precious.txt").exists()


def test_a_safe_shell_call_is_allowed_rewritten_to_warden_exec_and_leaves_a_receipt(tmp_path: Path) -> None:
    project, env = project_env(tmp_path)
    done = warden(env, "hook", "codex", stdin=json.dumps(pre_tool_use(project, "Bash", {"command": "ls"})))
    assert done.returncode == 0, done.stderr
    output = json.loads(done.stdout)["hookSpecificOutput"]
    assert output["permissionDecision"] == "allow"
    command = output["updatedInput"]["command"]
    assert " exec --step " in command and command.endswith("-- ls")
    ran = subprocess.run(command, shell=True, cwd=project, env=env, capture_output=True, text=True, timeout=120)
    assert ran.returncode == 0 and "notes.txt" in ran.stdout, ran.stderr
    receipts = json.loads(warden(env, "journal", "list", "--json").stdout)
    assert any(receipt["summary"].startswith("$ ls") for receipt in receipts), receipts
    [task] = json.loads(warden(env, "tasks", "--json").stdout)
    assert task["goal"].startswith("codex")
