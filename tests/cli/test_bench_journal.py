"""`warden bench journal`: each arm snapshots with the kind it names, at both sizes, and reports per-action cost."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path


def bench(tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "app.cli", "bench", "journal", *args], check=False,
                          capture_output=True, text=True, env={**os.environ, "WARDEN_HOME": str(tmp_path / "unused")},
                          timeout=300)


def test_every_arm_gets_the_snapshot_kind_it_measures(tmp_path: Path) -> None:
    result = bench(tmp_path, "--runs", "2", "--dir", str(tmp_path), "--json")
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)

    copies = {(arm["place"], arm["size"]) for arm in report["arms"] if arm["arm"] == "copy"}
    assert {("temp", "4 KB"), ("temp", "100 MB")} <= copies
    for arm in report["arms"]:
        assert arm["snapshot_kind"] == arm["arm"], arm
        assert 0 < arm["per_action_ms"]["median"] <= arm["per_action_ms"]["max"]
        assert arm["snapshot_ms"]["median"] > 0 and arm["receipt_ms"]["median"] > 0
    if report["reflink"] == "measured":
        assert {arm["size"] for arm in report["arms"] if arm["arm"] == "reflink"} == {"4 KB", "100 MB"}
    else:
        assert report["reflink"].startswith("not available: ")
    assert list(tmp_path.glob("warden-bench-journal-*")) == [], "the bench leaves its files behind"


def test_a_bad_run_count_is_one_line_and_exit_2(tmp_path: Path) -> None:
    result = bench(tmp_path, "--runs", "0", "--no-loopback")
    assert result.returncode == 2
    assert result.stderr.strip() == "warden: bench journal: --runs must be at least 1"
