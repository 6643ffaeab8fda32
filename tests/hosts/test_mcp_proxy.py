"""Issue 26, acceptance 4: `warden mcp proxy -- <a small MCP server>`, driven by the real SDK's stdio client.

The fronted server (`tests/hosts/mcp_fixture_server.py`) never executes anything: `run_shell` only records the
command it was given, and `write_note` writes into a temporary directory.
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

ROOT = Path(__file__).resolve().parents[2]


def environment(tmp_path: Path) -> dict[str, str]:
    return {**os.environ, "WARDEN_HOME": str(tmp_path / "warden"), "MCP_FIXTURE_DIR": str(tmp_path / "notes")}


def warden(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "app.cli", *args], capture_output=True, text=True, timeout=120,
                          env=env, cwd=ROOT)


@asynccontextmanager
async def proxied(env: dict[str, str], wait: float = 60) -> AsyncIterator[ClientSession]:
    params = StdioServerParameters(
        command=sys.executable, env=env, cwd=str(ROOT),
        args=["-m", "app.cli", "mcp", "proxy", "--name", "fixture", "--wait", str(wait), "--",
              sys.executable, "-m", "tests.hosts.mcp_fixture_server"])
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        yield session


def text_of(result) -> str:
    return " ".join(getattr(block, "text", "") for block in result.content)


def receipts(env: dict[str, str]) -> list[dict]:
    listed = warden(env, "journal", "list", "--json")
    assert listed.returncode == 0, listed.stderr
    return json.loads(listed.stdout)


async def approve_when_asked(env: dict[str, str], decision: str = "approve") -> str:
    """Poll `warden approvals list --json` until a call waits, then approve (or deny) it, as a person would."""
    for _ in range(300):
        listed = await asyncio.to_thread(warden, env, "approvals", "list", "--json")
        assert listed.returncode == 0, listed.stderr
        pending = json.loads(listed.stdout)
        if pending:
            [approval] = pending
            done = await asyncio.to_thread(warden, env, "approvals", decision, approval["id"])
            assert done.returncode == 0, done.stderr
            return approval["id"]
        await asyncio.sleep(0.2)
    raise AssertionError("no approval was asked for")


def test_the_client_lists_the_fronted_servers_tools(tmp_path: Path) -> None:
    async def go() -> list[str]:
        async with proxied(environment(tmp_path)) as session:
            return [tool.name for tool in (await session.list_tools()).tools]

    assert asyncio.run(go()) == ["echo", "write_note", "run_shell"]


def test_a_call_the_gate_asks_about_waits_for_approval_then_runs_once(tmp_path: Path) -> None:
    env = environment(tmp_path)

    async def go():
        async with proxied(env) as session:
            await session.list_tools()
            call = asyncio.create_task(session.call_tool("write_note", {"name": "hello", "text": "hi there"}))
            approved = await approve_when_asked(env)
            result = await asyncio.wait_for(call, 120)
            return approved, result

    approved, result = asyncio.run(go())
    assert not result.is_error, text_of(result)
    assert "wrote hello.txt" in text_of(result)
    assert (tmp_path / "notes" / "hello.txt").read_text() == "hi there"  # appended once: it ran exactly once
    [receipt] = [r for r in receipts(env) if r["call"]["tool"] == "mcp.fixture.write_note"]
    assert receipt["reversal"] == "audit_only"
    assert "wrote hello.txt" in receipt["summary"]


def test_a_catastrophic_call_is_refused_with_its_reason_and_never_reaches_the_server(tmp_path: Path) -> None:
    env = environment(tmp_path)

    async def go():
        async with proxied(env) as session:
            return await session.call_tool("run_shell", {"command": "rm -rf /"})

    result = asyncio.run(go())
    assert result.is_error
    assert "refused run_shell" in text_of(result)
    assert "command argument" in text_of(result) and "filesystem root" in text_of(result)
    assert not (tmp_path / "notes" / "commands.log").exists()  # the fixture recorded nothing
    listed = warden(env, "approvals", "list", "--json")
    assert json.loads(listed.stdout) == []  # refused outright, never put to a person


def test_every_call_leaves_a_receipt_whatever_became_of_it(tmp_path: Path) -> None:
    env = environment(tmp_path)

    async def go():
        async with proxied(env) as session:
            blocked = await session.call_tool("run_shell", {"command": "rm -rf /"})
            denied = asyncio.create_task(session.call_tool("echo", {"text": "not this one"}))
            await approve_when_asked(env, "deny")
            refused = await asyncio.wait_for(denied, 120)
            asked = asyncio.create_task(session.call_tool("echo", {"text": "hello"}))
            await approve_when_asked(env)
            return blocked, refused, await asyncio.wait_for(asked, 120)

    blocked, refused, echoed = asyncio.run(go())
    assert blocked.is_error and refused.is_error and "denied" in text_of(refused)
    assert not echoed.is_error and text_of(echoed) == "hello"
    found = receipts(env)
    assert {r["step_idx"] for r in found} == {0, 1, 2}
    assert all(r["reversal"] == "audit_only" for r in found)
    by_step = {r["step_idx"]: r["summary"] for r in found}
    assert by_step[0].startswith("BLOCKED mcp.fixture.run_shell")
    assert by_step[1].startswith("DENIED mcp.fixture.echo")
    assert by_step[2] == "mcp.fixture.echo: hello"


def test_a_held_call_nobody_decides_is_refused_when_its_wait_runs_out(tmp_path: Path) -> None:
    env = environment(tmp_path)

    async def go():
        async with proxied(env, wait=0.5) as session:
            return await session.call_tool("write_note", {"name": "late", "text": "x"})

    result = asyncio.run(go())
    assert result.is_error and "withdrawn" in text_of(result)
    assert not (tmp_path / "notes" / "late.txt").exists()
    [receipt] = receipts(env)
    assert receipt["summary"].startswith("DENIED mcp.fixture.write_note")
