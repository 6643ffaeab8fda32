"""`warden journal match`: an auditor holding a value finds every record of it by its keyed hash, never in clear."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path

from engine.redaction.redactor import Redactor
from engine.runtime import Runtime, Switches
from engine.tasks.task import TaskSpec, scripted
from engine.tools.call import ToolCall

TOKEN = "ghp_" + "Zq7" * 12


def match(home: Path, value: str, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "app.cli", "journal", "match", *args], input=value,
                          capture_output=True, text=True, timeout=60, env={**os.environ, "WARDEN_HOME": str(home)})


def test_a_value_used_in_a_task_is_found_by_its_placeholder_and_another_is_not(tmp_path: Path) -> None:
    home, ws = tmp_path / "home", tmp_path / "ws"
    ws.mkdir()

    async def plant() -> str:
        runtime = await Runtime.open(home, ws, Switches())
        try:
            [task] = await runtime.submit_all([TaskSpec(goal="Write the deploy config", learn=False, agent=scripted([
                ToolCall("fs.write", {"path": "deploy.conf", "content": f"token = {TOKEN}\n"})]))])
            await runtime.run_until_idle()
            [receipt] = await runtime.journal.for_task(task.id)
            return receipt.id
        finally:
            await runtime.close()

    receipt_id = asyncio.run(plant())
    found = match(home, TOKEN + "\n", "--json")
    assert found.returncode == 0, found.stderr
    report = json.loads(found.stdout)
    assert report["placeholder"] == Redactor(home, environ={}).placeholder(TOKEN)
    assert report["found"]["receipts"] == [receipt_id]
    assert report["found"]["steps"] and report["found"]["tasks"], "the spec and the step hold the call too"
    assert TOKEN not in found.stdout

    shown = match(home, TOKEN)
    assert shown.returncode == 0 and shown.stdout.splitlines()[0] == f"recorded as {report['placeholder']}"
    assert f"receipts: {receipt_id}" in shown.stdout and TOKEN not in shown.stdout

    other = match(home, "ghp_" + "Xy9" * 12)
    assert other.returncode == 1 and other.stdout.strip().endswith("in no record of this home")
    empty = match(home, "")
    assert empty.returncode == 2 and "reads the value from stdin" in empty.stderr
