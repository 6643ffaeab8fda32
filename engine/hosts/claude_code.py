"""Claude Code's hook protocol: its events in, Warden's calls and decisions, its documented answers out.

Claude Code runs `warden hook claude-code` with one event's JSON on stdin (`hook_event_name`, `session_id`,
`cwd`, and for tools `tool_name`, `tool_input`) and reads a PreToolUse decision from stdout:
`{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow" | "deny",
"permissionDecisionReason": ..., "updatedInput": {...}}}`. What Warden covers:

- `Bash`: cleared by the gate, then rewritten (`updatedInput`) to `warden exec --step TASK:IDX`, so it runs
  in Warden's sandbox with a receipt, its output and exit status passed back;
- file edits (`Write`, `Edit`, `MultiEdit`, `NotebookEdit`): cleared as `fs.write` of the file, snapshotted
  before the host writes, and given a receipt on `PostToolUse`;
- `mcp__server__tool` calls as `mcp.server.tool`: recorded and gated as `warden mcp proxy` gates a call
  (held for a person in Warden; a catastrophic command-like argument is denied), audited on `PostToolUse`;
- `Read` as `fs.read` (a secret location asks), `WebFetch` as an HTTP request (it leaves the machine):
  rated, not recorded; one that would ask is put to the host's own prompt (`ask`), one blocked is denied.

Other tools (Grep, Glob, LS, TodoWrite, …) read inside the project or touch nothing: they are let through
unrecorded. Anything Warden cannot decide is denied (`deny`), never allowed.
"""

from __future__ import annotations

import os
import shlex
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.tools.call import ToolCall

HOST = "claude-code"
EDITS = {"Write": "content", "Edit": "new_string", "MultiEdit": "edits", "NotebookEdit": "new_source"}
PASSED = frozenset({"Grep", "Glob", "LS", "TodoWrite", "Task", "ExitPlanMode", "BashOutput", "KillShell",
                    "SlashCommand", "Skill", "AskUserQuestion"})


@dataclass(frozen=True)
class Event:
    """One hook event as Claude Code sends it."""

    name: str
    session: str
    cwd: Path
    tool: str
    tool_input: Mapping[str, Any]
    prompt: str
    response: Any

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> "Event":
        if not isinstance(raw, Mapping) or not isinstance(raw.get("hook_event_name"), str):
            raise ValueError("not a Claude Code hook event: no hook_event_name")
        session = raw.get("session_id")
        if not isinstance(session, str) or not session:
            raise ValueError("the hook event names no session_id")
        tool_input = raw.get("tool_input") or {}
        if not isinstance(tool_input, Mapping):
            raise ValueError("tool_input is not an object")
        return cls(raw["hook_event_name"], session, Path(str(raw.get("cwd") or os.getcwd())),
                   str(raw.get("tool_name") or ""), tool_input, str(raw.get("prompt") or ""),
                   raw.get("tool_response"))


def call_of(event: Event) -> ToolCall | None:
    """The Warden call a tool event stands for; None for a tool Warden lets through unrecorded."""
    tool, given = event.tool, event.tool_input
    if tool == "Bash":
        return ToolCall("shell.run", {"command": str(given.get("command", ""))})
    if tool in EDITS:
        path = _relative(event.cwd, str(given.get("file_path") or given.get("notebook_path") or ""))
        return ToolCall("fs.write", {"path": path, "content": _content(given.get(EDITS[tool]))})
    if tool == "Read":
        return ToolCall("fs.read", {"path": _relative(event.cwd, str(given.get("file_path", "")))})
    if tool in ("WebFetch", "WebSearch"):
        return ToolCall("http.request", {"url": str(given.get("url") or "https://search.invalid/"),
                                         "method": "GET"})
    if tool.startswith("mcp__"):
        return ToolCall(tool.replace("__", ".", 2), dict(given))
    if tool in PASSED:
        return None
    return ToolCall(f"claude.{tool or 'unknown'}", dict(given))


def is_edit(event: Event) -> bool:
    return event.tool in EDITS


def is_shell(event: Event) -> bool:
    return event.tool == "Bash"


def succeeded(event: Event) -> bool:
    """Whether the host reports the tool call done (`PostToolUse`'s `tool_response`)."""
    response = event.response
    return not (isinstance(response, dict) and (response.get("success") is False or response.get("is_error")))


def exec_command(task_id: str, idx: int, command: str) -> str:
    """The command a cleared Bash call is rewritten to: `warden exec` runs exactly that step, in the sandbox."""
    warden = [sys.executable, "-m", "app.cli"]
    return shlex.join([*warden, "exec", "--step", f"{task_id}:{idx}", "--", command])


def allow(updated: Mapping[str, Any] | None = None, why: str = "") -> dict:
    output: dict[str, Any] = {"hookEventName": "PreToolUse", "permissionDecision": "allow"}
    if why:
        output["permissionDecisionReason"] = why
    if updated is not None:
        output["updatedInput"] = dict(updated)
    return {"hookSpecificOutput": output}


def ask(why: str) -> dict:
    """The host's own prompt: for a call Warden rates but does not record (a read, a fetch, an MCP call)."""
    return {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "ask",
                                   "permissionDecisionReason": f"Warden: {why}"}}


def deny(why: str) -> dict:
    return {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny",
                                   "permissionDecisionReason": f"Warden: {why}"}}


def _relative(cwd: Path, path: str) -> str:
    """A path as the workspace names it: relative to the project when inside it, else as given (the file
    tools' rules then see it is outside)."""
    try:
        return str(Path(path).resolve().relative_to(cwd.resolve())) if path else path
    except ValueError:
        return path


def _content(value: Any) -> str:
    return value if isinstance(value, str) else repr(value)[:10_000] if value is not None else ""
