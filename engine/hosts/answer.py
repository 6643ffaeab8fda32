"""One host event decided on an open runtime: the host-independent half of `warden hook` (and of its daemon).

Given a runtime, a host's protocol module (`engine/hosts/claude_code.py`, `codex.py`, `gemini_cli.py`: each
reads its host's events, names its calls and writes its answers) and one event, it opens or finds the session's task,
and for a tool call: records, rules and (for a person) waits on it through `HostSessions`, then answers in the
host's terms. A call of an MCP server the host talks to is recorded and gated as `warden mcp proxy` gates it,
and audited once the host reports it done; a read or a fetch is rated by the gate and not recorded.
"""

from __future__ import annotations

import json
from types import ModuleType

from engine.gate.approvals import Approval
from engine.gate.route import Route, declared_tier
from engine.hosts import claude_code
from engine.hosts.mcp_proxy import rater
from engine.runtime import Runtime
from engine.tools.outcome import StepStatus


def _held(approval: Approval) -> None:
    """Nothing to tell a host while it waits: the console and `warden approvals` show the approval."""


async def answer(runtime: Runtime, event: claude_code.Event, wait: float,
                 host: ModuleType = claude_code) -> dict | None:
    """The answer of `host`'s protocol to `event` (None: nothing to say), waiting up to `wait` seconds for a person."""
    task = await runtime.hosts.task_for(host.HOST, event.session, event.cwd,
                                        f"{host.HOST}: {event.prompt[:80]}" if event.prompt else "")
    if event.name != "PreToolUse" and event.name != "PostToolUse":
        return None
    call = host.call_of(event)
    if call is None:
        return None
    if event.name == "PostToolUse":
        if host.is_edit(event):
            await runtime.hosts.after(task.id, call, host.succeeded(event), json.dumps(event.response)[:2000])
        elif call.tool.startswith("mcp."):
            await runtime.hosts.after_foreign(task.id, call, host.succeeded(event), json.dumps(event.response)[:500])
        return None
    if call.tool.startswith("mcp."):  # a tool of an MCP server the host talks to: recorded, gated, audited
        cleared, _ = await runtime.hosts.before_foreign(task.id, call, wait, rater(runtime.gate, runtime.policy), _held)
        return host.allow(why=cleared.why) if cleared.status is StepStatus.CLEARED else host.deny(cleared.why)
    if call.tool not in runtime.registry.names():
        ruling = runtime.gate.rule(call, declared_tier(runtime.policy, call.tool))
        if ruling.route is Route.BLOCKED:
            return host.deny(ruling.why)
        return host.ask(ruling.why) if ruling.route is Route.ASKS else host.allow(why=ruling.why)
    if host.is_edit(event):
        cleared = await runtime.hosts.before(task.id, call, wait, _held)
    else:
        cleared = await runtime.hosts.clear(task.id, call, wait, _held)
    if cleared.status is not StepStatus.CLEARED:
        return host.deny(cleared.why)
    if host.is_shell(event):
        command = host.exec_command(task.id, cleared.idx, call.args["command"])
        return host.allow({**event.tool_input, "command": command}, cleared.why)
    return host.allow(why=cleared.why)
