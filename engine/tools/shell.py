"""`shell.run`: a command run with the workspace as its working directory.

Its effects can reach anywhere, so the gate rates every command; what it does inside
the workspace is covered by a copy of the whole workspace taken before it runs.
"""

from __future__ import annotations

import asyncio
from typing import Any

from engine.envs.workspace import WorkspaceEnv
from engine.gate.verdict import Tier
from engine.tools.fs import RESTORE
from engine.tools.registry import Tool, ToolError

TIMEOUT_SECONDS = 60
OUTPUT_LIMIT = 4000


async def _run(env: WorkspaceEnv, args: dict[str, Any]) -> str:
    process = await asyncio.create_subprocess_shell(
        args["command"],
        cwd=env.root,
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
        start_new_session=True,
    )
    try:
        output, _ = await asyncio.wait_for(process.communicate(), TIMEOUT_SECONDS)
    except TimeoutError:
        process.kill()
        await process.wait()
        raise ToolError(f"shell.run: timed out after {TIMEOUT_SECONDS}s") from None
    text = output.decode(errors="replace")[-OUTPUT_LIMIT:]
    if process.returncode != 0:
        raise ToolError(f"shell.run: exit {process.returncode}: {text.strip()[-200:]}")
    return text


SHELL_RUN = Tool(
    name="shell.run",
    schema={"command": str},
    run=_run,
    tier=Tier.LOCAL_REVERSIBLE,
    reverser=RESTORE,
    touches=lambda a: ["."],
    summary=lambda a: f"$ {a['command'][:60]}",
)
