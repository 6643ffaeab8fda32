"""`warden submit`: tasks from a file are queued in $WARDEN_HOME and, with --run, run with a line per step."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path


def release(version: str) -> dict:
    note = f"notes/release-{version}.md"
    return {
        "goal": f"Publish the release note for version {version}",
        "agent": {"kind": "scripted", "steps": [
            {"tool": "fs.write", "args": {"path": note, "content": f"# Release {version}\n"}}]},
        "evaluator": {"text": {"path": note, "contains": f"# Release {version}"}},
    }


def warden(home: Path, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "WARDEN_HOME": str(home)}
    return subprocess.run([sys.executable, "-m", "app.cli", *args], capture_output=True, text=True, env=env, timeout=60)


def test_submit_and_run_learns_then_replays(tmp_path: Path) -> None:
    home = tmp_path / "home"
    tasks = tmp_path / "tasks.json"
    tasks.write_text(json.dumps([release("3.0"), release("3.1")]), encoding="utf-8")
    result = warden(home, "submit", str(tasks), "--run")
    assert result.returncode == 0, result.stderr
    assert "✔ state s0" in result.stdout and "stored program" in result.stdout
    assert (home / "workspace" / "notes" / "release-3.1.md").read_text() == "# Release 3.1\n"
    with sqlite3.connect(home / "warden.db") as db:
        modes = db.execute("SELECT mode, status FROM tasks ORDER BY created_at").fetchall()
    assert modes == [("agent", "succeeded"), ("replay", "succeeded")]


def test_f17_submit_refuses_a_bad_file_in_one_line_and_queues_nothing(tmp_path: Path) -> None:
    home = tmp_path / "home"
    tasks = tmp_path / "tasks.json"
    tasks.write_text(json.dumps([release("3.0"), {"goal": "x", "plan": [{"args": {}}]}]), encoding="utf-8")
    result = warden(home, "submit", str(tasks))
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1 and "task 2" in result.stderr
    assert not (home / "warden.db").exists()


def test_f12_f17_submit_checks_every_task_first_and_queues_all_or_none(tmp_path: Path) -> None:
    home = tmp_path / "home"
    tasks = tmp_path / "tasks.json"
    teleport = {"goal": "Teleport", "agent": {"kind": "scripted", "steps": [{"tool": "fs.teleport", "args": {}}]}}
    tasks.write_text(json.dumps([release("5.0"), teleport]), encoding="utf-8")
    refused = warden(home, "submit", str(tasks))
    assert refused.returncode == 2
    assert refused.stderr.startswith("warden: task 2: step 1: unknown tool 'fs.teleport'")
    with sqlite3.connect(home / "warden.db") as db:
        assert db.execute("SELECT COUNT(*) FROM tasks").fetchone() == (0,)

    tasks.write_text(json.dumps([{"agent": {"kind": "scripted", "steps": []}}]), encoding="utf-8")
    missing = warden(home, "submit", str(tasks))
    assert missing.returncode == 2 and missing.stderr.strip() == f'warden: {tasks}: task 1: missing "goal"'

    tasks.write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    deep = warden(home, "submit", str(tasks))
    assert deep.returncode == 2 and deep.stderr.strip() == f"warden: {tasks}: nested too deeply to be a task file"
