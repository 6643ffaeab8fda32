"""`warden mcp proxy|serve`: MCP over stdio, through Warden's gate, approvals and journal.

- `warden mcp proxy [--name N] [--wait S] -- SERVER_COMMAND…` fronts another stdio MCP server: its tools are
  listed unchanged, every `tools/call` is gated as `mcp.N.TOOL`, held for a person when the gate asks, and
  leaves an audit receipt (`engine/hosts/mcp_proxy.py`).
- `warden mcp serve [--workspace DIR] [--wait S]` offers the workspace's files and sandboxed shell as MCP tools,
  each call a gated, journaled, undoable step (`engine/hosts/mcp_serve.py`).

The MCP SDK is imported only when one of them runs; stdout is the protocol's, so Warden's lines go to stderr.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from engine.errors import WardenError


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "mcp", help="front an MCP server through the gate (proxy), or offer the workspace as MCP tools (serve)",
        description="MCP over stdio through Warden: `proxy` fronts another MCP server and gates and journals its "
        "tool calls; `serve` offers the workspace's files and sandboxed shell as MCP tools.")
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    proxy = actions.add_parser(
        "proxy", help="a stdio MCP server fronting SERVER_COMMAND, every tool call gated and journaled",
        description="Starts SERVER_COMMAND (a stdio MCP server) and serves its tools on stdin/stdout. Each tools/call "
        "is a step of this proxy's session task, rated as mcp.NAME.TOOL: blocked calls are refused with a tool "
        "error, calls the gate asks about wait for a Warden approval, and every call leaves an audit receipt.")
    proxy.add_argument("--name", help="the server's name in Warden's tool names (default: from the command)")
    proxy.add_argument("--wait", type=float, default=300.0,
                       help="seconds a held call waits for a person (default 300); then it is refused")
    proxy.add_argument("command", nargs=argparse.REMAINDER, help="the MCP server's command (after --)")
    proxy.set_defaults(func=run_proxy)
    serve = actions.add_parser(
        "serve", help="offer the workspace's files and sandboxed shell as MCP tools over stdio",
        description="Serves write_file, append_file, delete_file, make_dir, move, read_file, list_dir and run on "
        "stdin/stdout; each call is a gated step of one session task with a receipt `warden journal undo-task` "
        "reverses.")
    serve.add_argument("--workspace", type=Path, help="the workspace (default: the current directory)")
    serve.add_argument("--wait", type=float, default=300.0,
                       help="seconds a held call waits for a person (default 300); then it is refused")
    serve.set_defaults(func=run_serve)


def _on_runtime(work) -> int:
    """`work` on the home's runtime, as the scripting commands run theirs (imported here: `--help` stays light)."""
    from app.commands.scripting import run_on_runtime

    async def done(runtime) -> int:
        await work(runtime)
        return 0

    return run_on_runtime(done)


def run_proxy(args: argparse.Namespace) -> int:
    from engine.hosts import mcp_proxy

    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command:
        raise WardenError("warden mcp proxy needs a server command: warden mcp proxy [--name N] -- COMMAND [ARGS...]")
    name = mcp_proxy.tool_name_part(args.name) if args.name else mcp_proxy.default_name(command)
    if not name:
        raise WardenError(f"--name {args.name!r} leaves nothing usable in a tool name")
    return _on_runtime(lambda runtime: mcp_proxy.serve(runtime, command, name, args.wait, Path.cwd().resolve()))


def run_serve(args: argparse.Namespace) -> int:
    from engine.hosts import mcp_serve

    root = (args.workspace or Path.cwd()).resolve()
    if not root.is_dir():
        raise WardenError(f"no workspace directory {root}")
    return _on_runtime(lambda runtime: mcp_serve.serve(runtime, root, args.wait))
