"""`warden bench console --json` with tiny numbers, through the CLI: every figure is reported.

Only what does not depend on timing is asserted: the report's shape, that each phase ran as many
tasks and keys as asked, and that every timed key and event was measured.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def test_bench_console_reports_first_frame_throughput_keys_and_events(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "app.cli", "bench", "console", "--programs", "3", "--receipts", "300", "--tasks", "40",
         "--workspace-mb", "1", "--throughput-tasks", "12", "--rounds", "2", "--keys", "8", "--events", "6", "--rate", "30", "--json",
         "--output", str(tmp_path / "report.json")],
        check=False, capture_output=True, text=True, env={**os.environ, "WARDEN_HOME": str(tmp_path / "home")},
        timeout=600, cwd=REPO)
    assert done.returncode == 0, done.stderr[-3000:]
    report = json.loads(done.stdout)
    assert json.loads((tmp_path / "report.json").read_text()) == report
    assert (report["programs"], report["receipts"], report["tasks"]) == (3, 300, 40)
    assert report["first_frame_s"] > 0 and report["first_frame_target_s"] == 1.5
    throughput = report["throughput"]
    assert throughput["tasks"] == 12 and throughput["headless_per_s"] > 0 and throughput["console_per_s"] > 0
    assert throughput["slowdown"] > 0 and throughput["slowdown_target"] == 1.5
    assert len(throughput["rounds"]) == 2
    keys = report["key_to_cursor_ms"]
    assert keys["at_rest"]["n"] == 4 and keys["while_tasks_run"]["n"] == 8
    assert keys["while_tasks_run"]["median"] > 0
    assert report["submissions"] == 6 and report["events_timed"] >= 6
    assert set(report["event_to_pane_ms"]) == {"median", "p99", "max"}
    assert not (tmp_path / "home").exists(), "the bench works in a throwaway home"
