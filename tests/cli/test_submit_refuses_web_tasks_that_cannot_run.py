"""`warden submit` refuses, in one line and before queueing anything, a web task that could never run: one
naming `{demo}` (only `warden run --spec` and the console's demo start that site) or starting at a URL the web
environment cannot open (`ftp://`); and a worker's summary counts the tasks it failed."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from tests.cli.test_worker import submit, warden

EXAMPLE = Path(__file__).resolve().parents[2] / "docs" / "examples" / "web" / "add-contact.json"


def queued(home: Path) -> int:
    if not (home / "warden.db").exists():
        return 0
    with sqlite3.connect(home / "warden.db") as db:
        return db.execute("SELECT COUNT(*) FROM tasks").fetchone()[0]


def test_submit_refuses_the_demo_placeholder_and_says_what_to_run(tmp_path: Path) -> None:
    home = tmp_path / "home"
    result = warden(home, "submit", str(EXAMPLE))
    assert result.returncode == 2, result.stdout
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
    assert "{demo}" in result.stderr and f"warden run --spec {EXAMPLE}" in result.stderr
    assert queued(home) == 0


def web_task(start_url: str) -> dict:
    return {"goal": "Open the page", "learn": False, "env": {"kind": "web", "start_url": start_url},
            "agent": {"kind": "scripted", "steps": []}}


def test_submit_refuses_a_start_url_the_web_environment_cannot_open(tmp_path: Path) -> None:
    home = tmp_path / "home"
    file = tmp_path / "tasks.json"
    for url in ("ftp://files.example.org/contacts", "gopher://example.org/", "example.org/contacts"):
        file.write_text(json.dumps([web_task("https://example.org/"), web_task(url)]), encoding="utf-8")
        result = warden(home, "submit", str(file))
        assert result.returncode == 2, (url, result.stdout)
        assert result.stderr.count("\n") == 1 and "task 2" in result.stderr and "start_url" in result.stderr, result.stderr
        assert queued(home) == 0, url  # all or none: the good first task is not queued either


def test_the_worker_summary_counts_a_task_failed_before_it_started(tmp_path: Path) -> None:
    """A web task whose start URL went bad after it was queued (an older Warden queued such tasks) fails at its
    environment's reset, before it starts: the summary counts it among the failed, not as "0 failed"."""
    home, ws = tmp_path / "home", tmp_path / "ws"
    [task_id] = submit(tmp_path, home, ws, [web_task("https://example.org/")])
    with sqlite3.connect(home / "warden.db") as db:
        db.execute("UPDATE tasks SET spec = replace(spec, 'https://', 'ftp://') WHERE id = ?", (task_id,))
    result = warden(home, "worker", "--until-idle", "--workspace", str(ws), "--json")
    assert result.returncode == 0, result.stderr
    summary = json.loads(result.stdout.splitlines()[-1])
    with sqlite3.connect(home / "warden.db") as db:
        [(status,)] = db.execute("SELECT status FROM tasks WHERE id = ?", (task_id,)).fetchall()
    assert status == "failed"
    assert summary["ran"] == [task_id] and summary["failed"] == 1, summary

    said = warden(home, "worker", "--until-idle", "--workspace", str(ws))
    assert "0 failed" in said.stdout  # the task is not run twice: a second worker has nothing to do
