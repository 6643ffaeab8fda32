"""Codex CLI's hook protocol: its events in, Warden's calls and decisions, its documented answers out.

Codex (`@openai/codex`, hooks stable and on by default: `[features] hooks`) runs `warden hook codex` with
one event's JSON on stdin, shaped like Claude Code's: `session_id`, `turn_id`, `transcript_path`, `cwd`,
`hook_event_name`, `model`, `permission_mode`, and for tools `tool_name`, `tool_use_id`, `tool_input`
(`{"command": ...}` for the shell tool, named `Bash`; `apply_patch` for file edits; `mcp__SERVER__TOOL` with
its arguments), and after the call `tool_response`. It reads a `PreToolUse` decision from stdout:
`{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow" | "deny",
"permissionDecisionReason": ..., "updatedInput": {...}}}`. Sources (openai/codex):
codex-rs/hooks/schema/generated/pre-tool-use.command.{input,output}.schema.json at
3be4afd35fc40b4b183892be0db2007095ef40ea, codex-rs/hooks/src/engine/output_parser.rs at
0ea83813ef8631debc8ad777641fe532f0deffc2, codex-rs/hooks/src/events/pre_tool_use.rs at
0082977cebb9fbd524046914dbc4305e5b8e0b95.

Codex differs from Claude Code in three ways this module follows:

- `"permissionDecision": "ask"` is rejected as unsupported, and a rejected answer does not block: the call
  would run. So `ask` here is a `deny` whose reason says a person must decide (in Warden's console or
  `warden approvals`) and the call be retried;
- `"allow"` is accepted only with `updatedInput`; a plain allow is an empty answer (`{}`), which lets the
  call run;
- `"deny"` needs a non-empty `permissionDecisionReason` (always given here).

What Warden covers: `Bash` is cleared and rewritten (`updatedInput.command`) to `warden exec --step
TASK:IDX`; `apply_patch` is cleared as `fs.write` of the first file it touches (`edited_paths` names all of
them), snapshotted before and receipted on `PostToolUse`; `mcp__server__tool` goes through the tool-call
rules. Other tools are let through unrecorded.
"""

from __future__ import annotations

import re
import shlex
import sys
from collections.abc import Mapping
from typing import Any

from engine.hosts.claude_code import Event, _content, _relative
from engine.tools.call import ToolCall

__all__ = ["HOST", "Event", "call_of", "is_edit", "is_shell", "edited_paths", "succeeded", "exec_command",
           "allow", "ask", "deny"]

HOST = "codex"
SHELL = "Bash"
SHELLS = frozenset({"Bash", "shell", "local_shell", "exec_command", "container.exec"})
EDITS = frozenset({"apply_patch"})
PATCH_FILE = re.compile(r"^\*\*\* (?:Add|Update|Delete) File: (.+)$|^\*\*\* Move to: (.+)$", re.MULTILINE)


def call_of(event: Event) -> ToolCall | None:
    """The Warden call a tool event stands for; None for a tool Warden lets through unrecorded."""
    tool, given = event.tool, event.tool_input
    if tool in SHELLS:
        return ToolCall("shell.run", {"command": _command(given)})
    if tool in EDITS:
        paths = edited_paths(event)
        return ToolCall("fs.write", {"path": paths[0] if paths else "", "content": _added(_patch(given))})
    if tool.startswith("mcp__"):
        return ToolCall(tool.replace("__", ".", 2), dict(given))
    return None


def is_edit(event: Event) -> bool:
    return event.tool in EDITS


def is_shell(event: Event) -> bool:
    return event.tool in SHELLS


def edited_paths(event: Event) -> list[str]:
    """Every file an `apply_patch` call adds, updates, deletes or moves to, as the workspace names it."""
    found = [match.group(1) or match.group(2) for match in PATCH_FILE.finditer(_patch(event.tool_input))]
    return [_relative(event.cwd, path.strip()) for path in dict.fromkeys(found)]


def succeeded(event: Event) -> bool:
    response = event.response
    if isinstance(response, dict):
        return not (response.get("success") is False or response.get("is_error") or response.get("error"))
    return True


def exec_command(task_id: str, idx: int, command: str) -> str:
    """The command a cleared shell call is rewritten to: `warden exec` runs exactly that step, in the sandbox."""
    warden = [sys.executable, "-m", "app.cli"]
    return shlex.join([*warden, "exec", "--step", f"{task_id}:{idx}", "--", command])


def allow(updated: Mapping[str, Any] | None = None, why: str = "") -> dict:
    """Let the call run; with `updated`, as rewritten. Codex rejects an allow without `updatedInput`, so a
    plain allow says nothing (`{}`), and `why` goes unsaid."""
    if updated is None:
        return {}
    output: dict[str, Any] = {"hookEventName": "PreToolUse", "permissionDecision": "allow",
                              "updatedInput": dict(updated)}
    if why:
        output["permissionDecisionReason"] = why
    return {"hookSpecificOutput": output}


def ask(why: str) -> dict:
    """Codex has no hook `ask` (it would ignore it and run the call): a deny that says a person must decide."""
    return deny(f"{why}. This needs a person's approval: approve it in Warden (console or `warden approvals`),"
                " then retry")


def deny(why: str) -> dict:
    return {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny",
                                   "permissionDecisionReason": f"Warden: {why or 'denied'}"}}


def _command(given: Mapping[str, Any]) -> str:
    command = given.get("command", given.get("cmd", ""))
    if isinstance(command, list):
        return shlex.join(str(part) for part in command)
    return str(command)


def _patch(given: Mapping[str, Any]) -> str:
    for key in ("command", "input", "patch"):
        value = given.get(key)
        if isinstance(value, str):
            return value
        if isinstance(value, list):
            return "\n".join(str(part) for part in value)
    return ""


def _added(patch: str) -> str:
    """The lines a patch adds (its `+` lines), as the content the gate rates; the whole patch if none."""
    added = [line[1:] for line in patch.splitlines() if line.startswith("+")]
    return _content("\n".join(added) + "\n" if added else patch)
