"""Gemini CLI's hook protocol: its events in, Warden's calls and decisions, its documented answers out.

Gemini CLI (`@google/gemini-cli`, hooks as of 0.61) runs `warden hook gemini-cli` with one event's JSON on
stdin: `session_id`, `transcript_path`, `cwd`, `hook_event_name`, `timestamp`, and for the tool events
`tool_name`, `tool_input` (and after the call `tool_response`: `llmContent`, `returnDisplay`, optional
`error`); `BeforeAgent` carries `prompt`. It reads one JSON object from stdout: `decision` (`"allow"`,
`"deny"`/`"block"`, or `"ask"`: the host's own confirmation), `reason` (sent to the model as the tool's
error when denied), and for `BeforeTool` `hookSpecificOutput.tool_input`, which is merged over the model's
arguments before the tool runs. Sources (google-gemini/gemini-cli at 5411f113cafae26161b4969b0237b8e1e024e2c2):
docs/hooks/reference.md, packages/core/src/hooks/types.ts (`HookDecision`, `BeforeToolHookOutput.
getModifiedToolInput`), packages/core/src/scheduler/hook-utils.ts (block, ask, rewrite), and
packages/core/src/tools/definitions/base-declarations.ts (tool names).

Events are named here as Claude Code names them, so one decision serves every host: `BeforeTool` is
`PreToolUse`, `AfterTool` is `PostToolUse`, `BeforeAgent` is `UserPromptSubmit` (`Event.host_name` keeps
Gemini's own name). What Warden covers:

- `run_shell_command`: cleared by the gate, then rewritten (`tool_input.command`) to `warden exec --step
  TASK:IDX`, so it runs in Warden's sandbox with a receipt;
- file edits (`write_file`, `replace`): cleared as `fs.write`, snapshotted before, receipted on `AfterTool`;
- `read_file`/`read_many_files` as `fs.read`, `web_fetch`/`google_web_search` as HTTP requests, and MCP
  tools (`mcp_SERVER_TOOL`), through the tool-call rules: rated, not recorded.

Other tools (glob, grep_search, list_directory, write_todos, …) are let through unrecorded.
"""

from __future__ import annotations

import shlex
import sys
from collections.abc import Mapping
from typing import Any

from engine.hosts.claude_code import Event as _ClaudeEvent
from engine.hosts.claude_code import _content, _relative
from engine.tools.call import ToolCall

HOST = "gemini-cli"
SHELL = "run_shell_command"
EDITS = {"write_file": "content", "replace": "new_string"}
READS = frozenset({"read_file", "read_many_files"})
WEB = frozenset({"web_fetch", "google_web_search"})
PASSED = frozenset({"glob", "grep_search", "list_directory", "write_todos", "save_memory", "ask_user",
                    "activate_skill", "enter_plan_mode", "exit_plan_mode", "update_topic", "complete_task",
                    "get_internal_docs", "list_mcp_resources", "read_mcp_resource"})
NAMES = {"BeforeTool": "PreToolUse", "AfterTool": "PostToolUse", "BeforeAgent": "UserPromptSubmit",
         "SessionStart": "SessionStart", "SessionEnd": "SessionEnd"}


class Event(_ClaudeEvent):
    """One hook event as Gemini CLI sends it, its name translated to Claude Code's (`host_name`: Gemini's)."""

    @property
    def host_name(self) -> str:
        return next((gemini for gemini, ours in NAMES.items() if ours == self.name), self.name)

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> "Event":
        if not isinstance(raw, Mapping) or not isinstance(raw.get("hook_event_name"), str):
            raise ValueError("not a Gemini CLI hook event: no hook_event_name")
        event = _ClaudeEvent.from_json({**raw, "hook_event_name": NAMES.get(raw["hook_event_name"],
                                                                            raw["hook_event_name"])})
        return cls(event.name, event.session, event.cwd, event.tool, event.tool_input, event.prompt,
                   event.response)


def call_of(event: _ClaudeEvent) -> ToolCall | None:
    """The Warden call a tool event stands for; None for a tool Warden lets through unrecorded."""
    tool, given = event.tool, event.tool_input
    if tool == SHELL:
        return ToolCall("shell.run", {"command": str(given.get("command", ""))})
    if tool in EDITS:
        path = _relative(event.cwd, str(given.get("file_path") or ""))
        return ToolCall("fs.write", {"path": path, "content": _content(given.get(EDITS[tool]))})
    if tool in READS:
        paths = given.get("paths") if tool == "read_many_files" else None
        path = str(paths[0]) if isinstance(paths, list) and paths else str(given.get("file_path", ""))
        return ToolCall("fs.read", {"path": _relative(event.cwd, path)})
    if tool in WEB:
        url = given.get("url") or _first_url(str(given.get("prompt", ""))) or "https://search.invalid/"
        return ToolCall("http.request", {"url": str(url), "method": "GET"})
    if tool.startswith("mcp_"):
        server, _, name = tool[len("mcp_"):].partition("_")
        return ToolCall(f"mcp.{server}.{name}" if name else f"mcp.{server}", dict(given))
    if tool in PASSED:
        return None
    return ToolCall(f"gemini.{tool or 'unknown'}", dict(given))


def is_edit(event: _ClaudeEvent) -> bool:
    return event.tool in EDITS


def is_shell(event: _ClaudeEvent) -> bool:
    return event.tool == SHELL


def succeeded(event: _ClaudeEvent) -> bool:
    """Whether an `AfterTool` event reports success (its `tool_response` carries no `error`)."""
    response = event.response
    return not (isinstance(response, dict) and response.get("error"))


def exec_command(task_id: str, idx: int, command: str) -> str:
    """The command a cleared shell call is rewritten to: `warden exec` runs exactly that step, in the sandbox."""
    warden = [sys.executable, "-m", "app.cli"]
    return shlex.join([*warden, "exec", "--step", f"{task_id}:{idx}", "--", command])


def allow(updated: Mapping[str, Any] | None = None, why: str = "") -> dict:
    """Let the call run; `updated` is merged over the model's arguments (`hookSpecificOutput.tool_input`)."""
    output: dict[str, Any] = {"decision": "allow"}
    if why:
        output["reason"] = why
    if updated is not None:
        output["hookSpecificOutput"] = {"hookEventName": "BeforeTool", "tool_input": dict(updated)}
    return output


def ask(why: str) -> dict:
    """Gemini CLI's own confirmation: for a call Warden rates but does not record."""
    return {"decision": "ask", "reason": f"Warden: {why}", "systemMessage": f"Warden: {why}"}


def deny(why: str) -> dict:
    return {"decision": "deny", "reason": f"Warden: {why}"}


def _first_url(text: str) -> str:
    return next((word for word in text.split() if word.startswith(("http://", "https://"))), "")
