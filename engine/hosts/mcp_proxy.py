"""`warden mcp proxy`: a stdio MCP server fronting another one, every `tools/call` gated and journaled.

The proxy starts the other server as its child (the SDK's stdio client) and offers its tools unchanged
(`tools/list` passes through). Each `tools/call` is a step of the proxy's host-session task (host `mcp:NAME`, one
session per proxy process), handled by `HostSessions.foreign`: the call is rated as the tool call
`mcp.NAME.TOOL` with its arguments, as leaving the machine (externally irreversible: what the other program does
is out of Warden's reach); a string argument named like a command (`command`, `cmd`, `script`, `code`) is also
rated as a shell command, and the stricter ruling stands. Blocked (catastrophic), the call is refused with an MCP
tool error naming the reason; held for a person, it waits for a Warden approval (the console, `warden approvals`)
up to `wait` seconds and is forwarded once approved (refused when denied or expired); let run, it is forwarded.
The other server's result passes through. Every call leaves an audit-only receipt of the call and its outcome.

The policy can let a tool of the other server run unasked, as any tool: `irreversible_allowed_tools` (with
`mcp.NAME.TOOL`), or a level for it in `[tools]`.
"""

from __future__ import annotations

import os
import re
import shlex
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from engine.gate.approvals import Approval
from engine.gate.gate import Decision, Gate, Ruling
from engine.gate.policy import Policy
from engine.gate.route import declared_tier, shell_tier
from engine.tier import Tier
from engine.tools.call import ToolCall
from engine.tools.outcome import StepStatus

HOST_PREFIX = "mcp:"
COMMAND_KEYS = ("command", "cmd", "script", "code")
_STRICTNESS = {Decision.ALLOW: 0, Decision.ASK: 1, Decision.BLOCK: 2}


def default_name(command: Sequence[str]) -> str:
    """A name for the fronted server when none is given: its last word's last part (`-m pkg.server` → `server`)."""
    word = Path(command[-1]).name if command else "server"
    word = word.removesuffix(".py").rsplit(".", 1)[-1]
    return tool_name_part(word) or "server"


def tool_name_part(text: str) -> str:
    """`text` as one dot-free part of a Warden tool name."""
    return re.sub(r"[^A-Za-z0-9_-]+", "-", text).strip("-")


def call_for(name: str, tool: str, arguments: dict[str, Any] | None) -> ToolCall:
    """The Warden call an MCP `tools/call` of the server `name` stands for."""
    return ToolCall(f"mcp.{name}.{tool}", dict(arguments or {}))


def rater(gate: Gate, policy: Policy) -> Callable[[ToolCall], Ruling]:
    """How the proxy rates a call: the gate's tool-call rules for it (as leaving the machine), and the shell
    classifier for each command-like string argument; the stricter ruling stands."""

    def rate(call: ToolCall) -> Ruling:
        ruling = gate.rule(call, declared_tier(policy, call.tool))
        for key in COMMAND_KEYS:
            value = call.args.get(key)
            if not isinstance(value, str) or not value.strip():
                continue
            shell = gate.rule(ToolCall("shell.run", {"command": value}), shell_tier(policy))
            if _STRICTNESS[shell.decision] > _STRICTNESS[ruling.decision]:
                reason = f"its {key} argument {shell.verdict.reason}" if shell.decision is Decision.BLOCK \
                    else f"its {key} argument: {shell.verdict.reason}"
                verdict = replace(shell.verdict, tier=Tier.EXTERNALLY_IRREVERSIBLE, reason=reason)
                ruling = Ruling(shell.decision, verdict, f"its {key} argument: {shell.why}")
        return ruling

    return rate


def _told(approval: Approval) -> None:
    print(f"warden mcp proxy: a call waits for a person: approve or deny {approval.id} in the console or with "
          f"`warden approvals approve {approval.id}`", file=sys.stderr, flush=True)


def _summary(result: Any) -> tuple[bool, str]:
    """Whether the other server's result is a success, and a line of what it said."""
    texts = [getattr(block, "text", None) or f"[{getattr(block, 'type', 'content')}]"
             for block in getattr(result, "content", []) or []]
    text = " ".join(texts).replace("\n", " ")
    return not getattr(result, "is_error", False), (text[:300] or "(no content)")


async def serve(runtime: Any, command: list[str], name: str, wait: float, root: Path) -> None:
    """Front the MCP server `command` on this process's stdin and stdout until the client goes away."""
    import mcp_types as types
    from mcp.client.session import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client
    from mcp.server.lowlevel import Server
    from mcp.server.stdio import stdio_server

    rate = rater(runtime.gate, runtime.policy)
    session = f"{os.getpid()}-{time.time_ns()}"
    task = await runtime.hosts.task_for(HOST_PREFIX + name, session, root,
                                        f"mcp proxy {name}: {shlex.join(command)[:80]}")
    params = StdioServerParameters(command=command[0], args=command[1:], env=dict(os.environ), cwd=str(root))
    async with stdio_client(params) as (read, write), ClientSession(read, write) as child:
        await child.initialize()

        async def list_tools(ctx: Any, params: Any) -> Any:
            return await child.list_tools(params=params)

        async def call_tool(ctx: Any, params: Any) -> Any:
            arguments = dict(params.arguments or {})
            call = call_for(name, params.name, arguments)

            async def perform() -> tuple[bool, str, object]:
                result = await child.call_tool(params.name, arguments)
                ok, text = _summary(result)
                return ok, text, result

            performed = await runtime.hosts.foreign(task.id, call, wait, rate, perform, _told)
            if isinstance(performed.value, types.CallToolResult):
                return performed.value
            cleared = performed.cleared
            word = "refused" if cleared.status in (StepStatus.BLOCKED, StepStatus.DENIED) else cleared.status.value
            refusal = f"Warden {word} {params.name}: {cleared.line}"
            return types.CallToolResult(content=[types.TextContent(type="text", text=refusal)],
                                        is_error=True)

        server: Any = Server(f"warden-proxy-{name}", on_list_tools=list_tools, on_call_tool=call_tool)
        async with stdio_server() as (server_read, server_write):
            await server.run(server_read, server_write, server.create_initialization_options())
