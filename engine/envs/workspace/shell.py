"""`shell.run`: a command run in the workspace, inside the sandbox the host and policy allow.

Its tier follows from the sandbox, not from hope: `local_reversible` (a copy of the whole
workspace is taken first) only when bubblewrap confines it with no network; otherwise
`externally_irreversible`, with an audit-only receipt. With no sandbox and no opt-in the
tool is unavailable and every call is refused in one line.
"""

from __future__ import annotations

from typing import Any

from engine.envs.workspace.environment import KIND, WorkspaceEnv
from engine.envs.workspace.files import RESTORE
from engine.envs.workspace.sandbox import Sandbox, SandboxTimeout
from engine.tier import Tier
from engine.tools.registry import Tool, ToolError, ToolOutput


def shell_tool(sandbox: Sandbox) -> Tool:
    tier = Tier.LOCAL_REVERSIBLE if sandbox.contains_effects else Tier.EXTERNALLY_IRREVERSIBLE

    async def run(env: WorkspaceEnv, args: dict[str, Any]) -> ToolOutput:
        try:
            finished = await sandbox.run(env.root, args["command"])
        except SandboxTimeout as exc:
            raise ToolError(str(exc)) from None
        text = finished.output.decode(errors="replace")
        data = {"exit": finished.code, "output_bytes": finished.total, "confinement": sandbox.confinement.value}
        if finished.code != 0:
            raise ToolError(f"shell.run: exit {finished.code}: {text.strip()[-300:]}")
        return ToolOutput(text, data)

    return Tool(
        name="shell.run",
        kind=KIND,
        schema={"command": str},
        run=run,
        tier=tier,
        reverser=RESTORE,
        touches=lambda a: ["."],
        summary=lambda a: f"$ {a['command'][:60]}",
        unavailable=sandbox.refusal(),
    )
