"""Issue 26, acceptance 5: `warden mcp serve`, driven by the real SDK's stdio client: an MCP client writes a file
and runs a confined command in the workspace, and `warden journal undo-task` then restores it byte for byte."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path

from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

ROOT = Path(__file__).resolve().parents[2]


def warden(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "app.cli", *args], capture_output=True, text=True, timeout=120,
                          env=env, cwd=ROOT)


def text_of(result) -> str:
    return " ".join(getattr(block, "text", "") for block in result.content)


def tree(root: Path) -> dict[str, bytes]:
    return {str(path.relative_to(root)): path.read_bytes() for path in sorted(root.rglob("*")) if path.is_file()}


def test_an_mcp_clients_writes_and_commands_are_undone_by_undo_task(tmp_path: Path) -> None:
    workspace = tmp_path / "project"
    workspace.mkdir()
    (workspace / "notes.txt").write_bytes(b"keep me\r\nexactly\n")
    (workspace / "data.bin").write_bytes(bytes(range(256)))
    before = tree(workspace)
    env = {**os.environ, "WARDEN_HOME": str(tmp_path / "warden")}
    params = StdioServerParameters(command=sys.executable, env=env, cwd=str(ROOT),
                                   args=["-m", "app.cli", "mcp", "serve", "--workspace", str(workspace),
                                         "--wait", "5"])

    async def go() -> dict[str, object]:
        async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            names = [tool.name for tool in (await session.list_tools()).tools]
            wrote = await session.call_tool("write_file", {"path": "notes.txt", "content": "overwritten\n"})
            made = await session.call_tool("write_file", {"path": "new/fresh.txt", "content": "fresh\n"})
            ran = await session.call_tool("run", {"command": "echo hi > hi.txt"})
            read = await session.call_tool("read_file", {"path": "hi.txt"})
            listed = await session.call_tool("list_dir", {"path": "."})
            return {"names": names, "wrote": wrote, "made": made, "ran": ran, "read": read, "listed": listed}

    got = asyncio.run(go())
    assert set(got["names"]) == {"write_file", "append_file", "delete_file", "make_dir", "move", "read_file",
                                 "list_dir", "run"}
    for key in ("wrote", "made", "ran", "read", "listed"):
        assert not got[key].is_error, (key, text_of(got[key]))
    assert "exit status: 0" in text_of(got["ran"])
    assert text_of(got["read"]) == "hi\n"
    assert "hi.txt" in text_of(got["listed"]).split("\n")
    assert (workspace / "hi.txt").read_text() == "hi\n"
    assert (workspace / "notes.txt").read_text() == "overwritten\n"
    assert (workspace / "new" / "fresh.txt").exists()

    listed = warden(env, "journal", "list", "--json")
    assert listed.returncode == 0, listed.stderr
    receipts = json.loads(listed.stdout)
    assert {r["call"]["tool"] for r in receipts} == {"fs.write", "shell.run"}  # reads leave no receipt
    [task_id] = {r["task_id"] for r in receipts}
    undone = warden(env, "journal", "undo-task", task_id)
    assert undone.returncode == 0, undone.stdout + undone.stderr
    assert tree(workspace) == before  # byte for byte: the overwrite back, the new files gone
    assert not (workspace / "new").exists()


def test_a_read_of_a_secret_location_follows_the_gate(tmp_path: Path) -> None:
    workspace = tmp_path / "project"
    (workspace / ".ssh").mkdir(parents=True)
    (workspace / ".ssh" / "id_rsa").write_text("not a real key\n")
    env = {**os.environ, "WARDEN_HOME": str(tmp_path / "warden")}
    params = StdioServerParameters(command=sys.executable, env=env, cwd=str(ROOT),
                                   args=["-m", "app.cli", "mcp", "serve", "--workspace", str(workspace),
                                         "--wait", "0.5"])

    async def go():
        async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            return await session.call_tool("read_file", {"path": ".ssh/id_rsa"})

    result = asyncio.run(go())
    assert result.is_error  # held for a person, and nobody approved it within the wait
    assert "withdrawn" in text_of(result) and "not a real key" not in text_of(result)
