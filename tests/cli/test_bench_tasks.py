"""`warden bench tasks`: every step it times runs exactly once, through the gate and the journal, in each arm."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from app.cli import main

STEPS, PER_TASK = 23, 5


def bench(tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "app.cli", "bench", "tasks", *args], check=False, capture_output=True,
                          text=True, env={**os.environ, "WARDEN_HOME": str(tmp_path / "unused")}, timeout=300)


def test_each_arm_runs_every_step_once_and_reports_json(tmp_path: Path) -> None:
    runs = tmp_path / "runs"
    result = bench(tmp_path, "--steps", str(STEPS), "--steps-per-task", str(PER_TASK), "--workers", "1,4",
                   "--home", str(runs), "--json")
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)

    assert report["benchmark"] == "tasks" and report["mode"] == "processes" and report["tool"] == "fs.write"
    assert [arm["workers"] for arm in report["arms"]] == [1, 4]
    for arm in report["arms"]:
        assert arm["steps"] == arm["steps_done"] == arm["receipts"] == STEPS
        assert arm["tasks"] == 5
        assert 1 <= arm["runners_used"] <= arm["workers"]
        assert arm["wall_s"] > 0 and arm["busy_s"] > 0 and arm["steps_per_s"] > 0 and arm["wall_steps_per_s"] > 0
        assert arm["step_latency_ms"]["n"] == STEPS
        assert arm["step_latency_ms"]["median"] > 0 and arm["step_latency_ms"]["p90"] > 0

        home = Path(arm["home"])
        assert home == runs / f"workers-{arm['workers']}" / "home"
        with sqlite3.connect(home / "warden.db") as db:
            statuses = {row[0] for row in db.execute("SELECT status FROM tasks")}
            done = sorted(row[0] for row in db.execute(
                "SELECT COUNT(*) FROM steps WHERE status = 'done' GROUP BY task_id"))
            steps = db.execute("SELECT COUNT(*), COUNT(DISTINCT task_id || ':' || idx) FROM steps").fetchone()
            receipts = db.execute("SELECT COUNT(DISTINCT task_id || ':' || step_idx) FROM receipts").fetchone()[0]
            completed = db.execute("SELECT COUNT(*) FROM task_events WHERE kind = 'ActionCompleted'").fetchone()[0]
        assert statuses == {"succeeded"}
        assert done == [3, 5, 5, 5, 5]
        assert steps == (STEPS, STEPS)
        assert receipts == completed == STEPS
        written = sorted(path.name for path in (home.parent / "workspace").iterdir())
        assert len(written) == STEPS


def test_the_table_names_each_worker_count(tmp_path: Path) -> None:
    result = bench(tmp_path, "--steps", "4", "--workers", "2")
    assert result.returncode == 0, result.stderr
    assert "warden bench tasks" in result.stdout
    assert "separate processes" in result.stdout
    rows = [line for line in result.stdout.splitlines() if line.startswith("│")]
    assert len(rows) == 1 and rows[0].split("│")[1].strip() == "2" and rows[0].split("│")[2].strip() == "4"


@pytest.mark.parametrize("workers", ["one", "0", ""])
def test_bad_worker_counts_are_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str], workers: str) -> None:
    assert main(["bench", "tasks", "--steps", "1", "--workers", workers, "--home", str(tmp_path / "runs")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("warden: ") and len(err.strip().splitlines()) == 1 and "--workers" in err
    assert not (tmp_path / "runs").exists()
