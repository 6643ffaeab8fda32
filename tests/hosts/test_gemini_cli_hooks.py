"""Issue 26, acceptance 7 for Gemini CLI: install, and one deny and one allow round trip.

The real Gemini CLI (`@google/gemini-cli`, pinned in `hosts_install.py`) is installed and starts offline
(`--version`), but these tests do not run a model session through it: the hook protocol is exercised with
payloads as Gemini CLI documents and builds them. Sources, google-gemini/gemini-cli at
5411f113cafae26161b4969b0237b8e1e024e2c2:
  - docs/hooks/reference.md: stdin `session_id`, `transcript_path`, `cwd`, `hook_event_name`, `timestamp`;
    BeforeTool `tool_name`, `tool_input`; AfterTool adds `tool_response` (`llmContent`, `returnDisplay`,
    `error`); output `decision` (allow / deny / block / ask), `reason`, `hookSpecificOutput.tool_input`;
  - packages/core/src/hooks/types.ts (`BeforeToolInput`, `HookDecision`, `BeforeToolHookOutput`);
  - packages/core/src/tools/definitions/base-declarations.ts (`run_shell_command`, `write_file`, `replace`);
  - docs/hooks/index.md (settings.json `hooks`: `matcher`, `hooks[].type/command/name/timeout` in ms).
Every command is harmless even if a hook failed open: the project and HOME are throwaway directories, and
the denied command is never run by the test.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from engine.hosts import gemini_cli
from engine.hosts.settings import install_gemini, settings_path, uninstall_for
from tests.hosts.hook_cli import project_env, warden
from tests.hosts.hosts_install import host_binary

WARDEN = [sys.executable, "-m", "app.cli", "hook", "gemini-cli"]


def before_tool(cwd: Path, tool: str, tool_input: dict) -> dict:
    return {"session_id": "gemini-session-1", "transcript_path": str(cwd / ".gemini" / "chat.json"),
            "cwd": str(cwd), "hook_event_name": "BeforeTool", "timestamp": "2026-08-21T16:16:56.000Z",
            "tool_name": tool, "tool_input": tool_input}


# ---- the protocol module, directly ----

def test_a_before_tool_event_reads_as_a_pre_tool_use_with_gemini_names_kept(tmp_path: Path) -> None:
    event = gemini_cli.Event.from_json(before_tool(tmp_path, "run_shell_command",
                                                   {"command": "ls", "description": "list"}))
    assert (event.name, event.host_name, event.session, event.cwd) == ("PreToolUse", "BeforeTool",
                                                                      "gemini-session-1", tmp_path)
    assert gemini_cli.call_of(event) == gemini_cli.ToolCall("shell.run", {"command": "ls"})
    assert gemini_cli.is_shell(event) and not gemini_cli.is_edit(event)
    after = gemini_cli.Event.from_json({**before_tool(tmp_path, "write_file", {}), "hook_event_name": "AfterTool",
                                        "tool_response": {"llmContent": "", "returnDisplay": "", "error": "EACCES"}})
    assert after.name == "PostToolUse" and not gemini_cli.succeeded(after)
    prompt = gemini_cli.Event.from_json({**before_tool(tmp_path, "", {}), "hook_event_name": "BeforeAgent",
                                         "prompt": "tidy up"})
    assert (prompt.name, prompt.prompt) == ("UserPromptSubmit", "tidy up")


def test_file_tools_are_edits_of_the_file_relative_to_the_project(tmp_path: Path) -> None:
    write = gemini_cli.Event.from_json(before_tool(tmp_path, "write_file",
                                                   {"file_path": str(tmp_path / "a.txt"), "content": "new\n"}))
    replace = gemini_cli.Event.from_json(before_tool(tmp_path, "replace", {
        "file_path": str(tmp_path / "b.txt"), "old_string": "x", "new_string": "y", "instruction": "swap"}))
    assert gemini_cli.call_of(write) == gemini_cli.ToolCall("fs.write", {"path": "a.txt", "content": "new\n"})
    assert gemini_cli.call_of(replace) == gemini_cli.ToolCall("fs.write", {"path": "b.txt", "content": "y"})
    assert gemini_cli.is_edit(write) and gemini_cli.is_edit(replace)
    read = gemini_cli.Event.from_json(before_tool(tmp_path, "read_file", {"file_path": str(tmp_path / "c")}))
    assert gemini_cli.call_of(read) == gemini_cli.ToolCall("fs.read", {"path": "c"})
    assert gemini_cli.call_of(gemini_cli.Event.from_json(before_tool(tmp_path, "glob", {"pattern": "*"}))) is None
    mcp = gemini_cli.Event.from_json(before_tool(tmp_path, "mcp_files_delete", {"path": "x"}))
    assert gemini_cli.call_of(mcp) == gemini_cli.ToolCall("mcp.files.delete", {"path": "x"})


def test_answers_are_in_gemini_cli_documented_output() -> None:
    command = gemini_cli.exec_command("task-1", 3, "ls -la")
    assert command.endswith("exec --step task-1:3 -- 'ls -la'")
    assert gemini_cli.allow({"command": command}, "safe") == {
        "decision": "allow", "reason": "safe",
        "hookSpecificOutput": {"hookEventName": "BeforeTool", "tool_input": {"command": command}}}
    assert gemini_cli.allow() == {"decision": "allow"}
    assert gemini_cli.deny("catastrophic") == {"decision": "deny", "reason": "Warden: catastrophic"}
    assert gemini_cli.ask("reads a secret")["decision"] == "ask"


def test_install_merges_into_gemini_settings_and_uninstall_takes_out_only_warden(tmp_path: Path) -> None:
    path = settings_path("gemini-cli", tmp_path)
    assert path == tmp_path / ".gemini" / "settings.json"
    path.parent.mkdir()
    theirs = {"matcher": "write_file", "hooks": [{"type": "command", "command": "./lint.sh"}]}
    path.write_text(json.dumps({"theme": "dark", "hooks": {"BeforeTool": [theirs]}}))
    assert "added BeforeTool, AfterTool, BeforeAgent, SessionStart" in install_gemini(path, WARDEN)
    assert "already installed" in install_gemini(path, WARDEN)
    settings = json.loads(path.read_text())
    assert settings["theme"] == "dark" and settings["hooks"]["BeforeTool"][0] == theirs
    ours = settings["hooks"]["BeforeTool"][1]
    assert ours["matcher"] == "*" and ours["hooks"][0]["name"] == "warden"
    assert ours["hooks"][0]["timeout"] == 600_000, "Gemini CLI's hook timeout is in milliseconds"
    assert "removed" in uninstall_for("gemini-cli", path, WARDEN)
    assert json.loads(path.read_text()) == {"theme": "dark", "hooks": {"BeforeTool": [theirs]}}


def test_the_real_gemini_cli_starts_offline() -> None:
    assert host_binary("gemini-cli").exists()


# ---- through the CLI (`warden hook gemini-cli`, once hook.py names the host) ----

def test_warden_hook_install_gemini_cli_writes_the_project_settings(tmp_path: Path) -> None:
    project, env = project_env(tmp_path)
    installed = warden(env, "hook", "install", "gemini-cli", "--project", str(project))
    assert installed.returncode == 0, installed.stderr
    hooks = json.loads((project / ".gemini" / "settings.json").read_text())["hooks"]
    assert set(hooks) >= {"BeforeTool", "AfterTool"}
    assert hooks["BeforeTool"][0]["hooks"][0]["command"].endswith("hook gemini-cli")
    removed = warden(env, "hook", "uninstall", "gemini-cli", "--project", str(project))
    assert removed.returncode == 0 and "hooks" not in json.loads((project / ".gemini" / "settings.json").read_text())


def test_a_catastrophic_shell_call_is_denied_with_a_reason_the_model_reads(tmp_path: Path) -> None:
    project, env = project_env(tmp_path)
    done = warden(env, "hook", "gemini-cli", stdin=json.dumps(before_tool(project, "run_shell_command",
                                                                          {"command": "rm -rf ~"})))
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert answer["decision"] == "deny" and answer["reason"].startswith("Warden:")
    assert (tmp_path / "home" / "precious.txt").exists()


def test_a_safe_shell_call_is_allowed_rewritten_to_warden_exec_and_leaves_a_receipt(tmp_path: Path) -> None:
    project, env = project_env(tmp_path)
    done = warden(env, "hook", "gemini-cli", stdin=json.dumps(before_tool(project, "run_shell_command",
                                                                          {"command": "ls"})))
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert answer["decision"] == "allow"
    command = answer["hookSpecificOutput"]["tool_input"]["command"]
    assert " exec --step " in command and command.endswith("-- ls")
    ran = subprocess.run(command, shell=True, cwd=project, env=env, capture_output=True, text=True, timeout=120)
    assert ran.returncode == 0 and "notes.txt" in ran.stdout, ran.stderr
    receipts = json.loads(warden(env, "journal", "list", "--json").stdout)
    assert any(receipt["summary"].startswith("$ ls") for receipt in receipts), receipts
    [task] = json.loads(warden(env, "tasks", "--json").stdout)
    assert task["goal"].startswith("gemini-cli")
