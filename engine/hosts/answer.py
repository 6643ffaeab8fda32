"""One host event decided on an open runtime: the host-independent half of `warden hook` (and of its daemon).

Given a runtime and one event of a host (`engine/hosts/claude_code.py`), it opens or finds the session's task,
and for a tool call: records, rules and (for a person) waits on it through `HostSessions`, then answers in the
host's terms. A call Warden does not run (a read, a fetch, an MCP call) is rated by the gate and not recorded.
"""

from __future__ import annotations

import json

from engine.gate.approvals import Approval
from engine.gate.route import Route, declared_tier
from engine.hosts import claude_code
from engine.runtime import Runtime
from engine.tools.outcome import StepStatus


def _held(approval: Approval) -> None:
    """Nothing to tell a host while it waits: the console and `warden approvals` show the approval."""


async def answer(runtime: Runtime, event: claude_code.Event, wait: float) -> dict | None:
    """The host's answer to `event` (None: nothing to say), waiting up to `wait` seconds for a person."""
    task = await runtime.hosts.task_for(claude_code.HOST, event.session, event.cwd,
                                        f"claude-code: {event.prompt[:80]}" if event.prompt else "")
    if event.name != "PreToolUse" and event.name != "PostToolUse":
        return None
    call = claude_code.call_of(event)
    if call is None:
        return None
    if event.name == "PostToolUse":
        if claude_code.is_edit(event):
            await runtime.hosts.after(task.id, call, _succeeded(event.response), json.dumps(event.response)[:2000])
        return None
    if call.tool not in runtime.registry.names():
        ruling = runtime.gate.rule(call, declared_tier(runtime.policy, call.tool))
        if ruling.route is Route.BLOCKED:
            return claude_code.deny(ruling.why)
        return claude_code.ask(ruling.why) if ruling.route is Route.ASKS else claude_code.allow(why=ruling.why)
    if claude_code.is_edit(event):
        cleared = await runtime.hosts.before(task.id, call, wait, _held)
    else:
        cleared = await runtime.hosts.clear(task.id, call, wait, _held)
    if cleared.status is not StepStatus.CLEARED:
        return claude_code.deny(cleared.why)
    if event.tool == "Bash":
        command = claude_code.exec_command(task.id, cleared.idx, call.args["command"])
        return claude_code.allow({**event.tool_input, "command": command}, cleared.why)
    return claude_code.allow(why=cleared.why)


def _succeeded(response: object) -> bool:
    return not (isinstance(response, dict) and (response.get("success") is False or response.get("is_error")))
