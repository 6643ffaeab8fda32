"""A small stdio MCP server the MCP tests put behind `warden mcp proxy`.

Its tools touch nothing outside the directory `$MCP_FIXTURE_DIR` names: `echo` answers with its text,
`write_note` writes `NAME.txt` there, and `run_shell` only appends the command it was given to
`commands.log` there. It never executes anything.
"""

from __future__ import annotations

import os
from pathlib import Path

from mcp.server.mcpserver import MCPServer

server = MCPServer("fixture")


def _place() -> Path:
    place = Path(os.environ["MCP_FIXTURE_DIR"])
    place.mkdir(parents=True, exist_ok=True)
    return place


@server.tool()
def echo(text: str) -> str:
    """Answer with the text given."""
    return text


@server.tool()
def write_note(name: str, text: str) -> str:
    """Write a note NAME.txt into the fixture's directory."""
    path = _place() / f"{Path(name).name}.txt"
    with path.open("a") as file:  # appended, so a second run would show
        file.write(text)
    return f"wrote {path.name}"


@server.tool()
def run_shell(command: str) -> str:
    """Pretend to run a command: it is only recorded, never executed."""
    with (_place() / "commands.log").open("a") as file:
        file.write(command + "\n")
    return "recorded"


if __name__ == "__main__":
    import asyncio

    asyncio.run(server.run_stdio_async())
