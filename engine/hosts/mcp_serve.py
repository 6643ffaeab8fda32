"""`warden mcp serve`: Warden's workspace environment offered as MCP tools, over stdio.

Any MCP client then acts through Warden: every tool call is a step of one host-session task (host `mcp-client`,
one session per server process) acting in the workspace, through the gate, approvals (a held call waits up to
`wait` seconds for a person in the console or `warden approvals`) and the journal:

- `write_file`, `append_file`, `delete_file`, `make_dir`, `move` are the registered `fs.*` tools and `run` is
  `shell.run` in the workspace sandbox, each cleared (`HostSessions.clear`) and then run by Warden
  (`HostSessions.run`), with its snapshot and a receipt that `warden journal undo` / `undo-task` reverses;
  `run` answers with what the command printed and its exit status;
- `read_file` and `list_dir` read directly inside the workspace (never through a symlink, never into what the
  sandbox hides), rated by the gate as `fs.read` / `fs.list` (a secret location asks or is blocked); a read
  changes nothing, so it is a step without a receipt.

The web is not offered (yet): a task spec's allowed origins would have to be given to the server.
"""

from __future__ import annotations

import os
import stat
import time
from pathlib import Path
from typing import Any

from engine.envs.workspace import admission, confined
from engine.gate.approvals import Approval
from engine.gate.gate import Gate
from engine.tier import Tier
from engine.tools.call import ToolCall
from engine.tools.outcome import StepStatus

HOST = "mcp-client"
READ_LIMIT = 1024 * 1024
LIST_LIMIT = 1000


def _told(approval: Approval) -> None:
    import sys

    print(f"warden mcp serve: a call waits for a person: approve or deny {approval.id} in the console or with "
          f"`warden approvals approve {approval.id}`", file=sys.stderr, flush=True)


class Workspace:
    """The tools' work, on an open runtime: one host session acting in `root`."""

    def __init__(self, runtime: Any, root: Path, wait: float) -> None:
        self.runtime = runtime
        self.root = root.resolve()
        self.wait = wait
        self.session = f"{os.getpid()}-{time.time_ns()}"
        self.reader = Gate(runtime.policy, enabled=runtime.gate.enabled)  # the read rules know fs.read / fs.list
        self.task_id = ""

    async def open(self) -> str:
        task = await self.runtime.hosts.task_for(HOST, self.session, self.root, f"mcp client in {self.root.name}")
        self.task_id = task.id
        return task.id

    async def act(self, call: ToolCall) -> tuple[bool, str]:
        """A registered tool's call, cleared then run by Warden: (ran without failing, what to answer)."""
        from mcp.server.mcpserver.exceptions import ToolError

        hosts = self.runtime.hosts
        cleared = await hosts.clear(self.task_id, call, self.wait, _told)
        if cleared.status is not StepStatus.CLEARED:
            raise ToolError(_refused(call, cleared.status, cleared.why))
        outcome = await hosts.run(self.task_id, cleared.idx, call)
        if outcome.status in (StepStatus.DONE, StepStatus.FAILED) and outcome.output is not None:
            return outcome.status is StepStatus.DONE, outcome.output.text
        if outcome.status is StepStatus.DONE:
            return True, outcome.message
        raise ToolError(_refused(call, outcome.status, outcome.message))

    async def read(self, call: ToolCall, look: Any) -> Any:
        """A read Warden answers itself: rated by the read rules, recorded as a step, no receipt."""
        from mcp.server.mcpserver.exceptions import ToolError

        env = self.runtime.environment(f"workspace:{self.root}")

        async def perform() -> tuple[bool, str, object]:
            value = look(env, str(call.args.get("path") or "."))
            return True, f"read {call.args.get('path') or '.'}", value

        performed = await self.runtime.hosts.foreign(
            self.task_id, call, self.wait, lambda c: self.reader.rule(c, Tier.LOCAL_REVERSIBLE), perform, _told,
            audit=False)
        if performed.cleared.status is not StepStatus.DONE:
            raise ToolError(_refused(call, performed.cleared.status, performed.cleared.why))
        return performed.value


def _refused(call: ToolCall, status: StepStatus, why: str) -> str:
    why = why if why.startswith(status.value) else f"{status.value}: {why}"
    return f"Warden did not run {call.tool}: {why}"


def _admitted(env: Any, path: str) -> Path:
    admission.check(env.root, path, env.hidden)
    return env.resolve(path)


def read_text(env: Any, path: str) -> str:
    _admitted(env, path)
    data = confined.read_regular(env.root, path)
    if data is None:
        raise FileNotFoundError(f"no regular file {path!r} in the workspace")
    if len(data) > READ_LIMIT:
        raise ValueError(f"{path!r} holds {len(data)} bytes; read_file returns at most {READ_LIMIT}")
    return data.decode("utf-8", errors="replace")


def list_names(env: Any, path: str) -> str:
    where = _admitted(env, path) if path not in ("", ".") else env.root
    hidden = {names for names in env.hidden}
    lines = []
    with os.scandir(where) as entries:
        for entry in sorted(entries, key=lambda e: e.name):
            relative = tuple(where.relative_to(env.root).parts) + (entry.name,)
            if relative in hidden:
                continue
            mode = entry.stat(follow_symlinks=False).st_mode
            kind = "dir" if stat.S_ISDIR(mode) else "link" if stat.S_ISLNK(mode) else "file"
            lines.append(f"{entry.name}{'/' if kind == 'dir' else ''}")
            if len(lines) >= LIST_LIMIT:
                lines.append("…")
                break
    return "\n".join(lines)


def build(work: Workspace) -> Any:
    """The MCP server of `work`'s tools."""
    from mcp.server.mcpserver import MCPServer

    server = MCPServer("warden", instructions="Warden's workspace: every call is gated, journaled and undoable.")

    @server.tool()
    async def write_file(path: str, content: str) -> str:
        """Write (create or replace) a text file in the workspace."""
        return (await work.act(ToolCall("fs.write", {"path": path, "content": content})))[1] or f"wrote {path}"

    @server.tool()
    async def append_file(path: str, content: str) -> str:
        """Append text to a file in the workspace."""
        return (await work.act(ToolCall("fs.append", {"path": path, "content": content})))[1] or f"appended {path}"

    @server.tool()
    async def delete_file(path: str) -> str:
        """Delete a file in the workspace."""
        return (await work.act(ToolCall("fs.delete", {"path": path})))[1] or f"deleted {path}"

    @server.tool()
    async def make_dir(path: str) -> str:
        """Make a directory (and its parents) in the workspace."""
        return (await work.act(ToolCall("fs.mkdir", {"path": path})))[1] or f"made {path}"

    @server.tool()
    async def move(src: str, dst: str) -> str:
        """Move or rename a file or directory inside the workspace."""
        return (await work.act(ToolCall("fs.move", {"src": src, "dst": dst})))[1] or f"moved {src} to {dst}"

    @server.tool()
    async def run(command: str) -> str:
        """Run a shell command in the workspace sandbox; answers with its output and exit status."""
        from mcp.server.mcpserver.exceptions import ToolError

        call = ToolCall("shell.run", {"command": command})
        hosts = work.runtime.hosts
        cleared = await hosts.clear(work.task_id, call, work.wait, _told)
        if cleared.status is not StepStatus.CLEARED:
            raise ToolError(_refused(call, cleared.status, cleared.why))
        outcome = await hosts.run(work.task_id, cleared.idx, call)
        if outcome.output is None:
            if outcome.status is StepStatus.DONE:
                return "exit status: 0"
            raise ToolError(_refused(call, outcome.status, outcome.message))
        code = outcome.output.data.get("exit")
        code = code if isinstance(code, int) else 0 if outcome.status is StepStatus.DONE else 1
        printed = outcome.output.text
        return f"{printed}{'' if printed.endswith(chr(10)) or not printed else chr(10)}" \
               f"exit status: {code}"

    @server.tool()
    async def read_file(path: str) -> str:
        """Read a text file in the workspace."""
        return str(await work.read(ToolCall("fs.read", {"path": path}), read_text))

    @server.tool()
    async def list_dir(path: str = ".") -> str:
        """List a directory of the workspace (directories end with /)."""
        return str(await work.read(ToolCall("fs.list", {"path": path}), list_names))

    return server


async def serve(runtime: Any, root: Path, wait: float) -> None:
    """Serve the workspace `root` on this process's stdin and stdout until the client goes away."""
    work = Workspace(runtime, root, wait)
    await work.open()
    await build(work).run_stdio_async()
