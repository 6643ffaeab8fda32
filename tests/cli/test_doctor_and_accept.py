"""`warden doctor` says what the machine gives Warden; `warden programs accept` is how a held program gets served."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

from tests.cli.test_submit import warden


def test_doctor_reports_the_sandbox_and_how_to_get_one(tmp_path: Path) -> None:
    home = tmp_path / "home"
    found = warden(home, "doctor", "--json")
    assert found.returncode == 0, found.stderr
    report = json.loads(found.stdout)
    assert report["sandbox"]["confinement"] == "bubblewrap"
    assert {"home", "policy", "database", "snapshots", "browser", "display"} <= set(report)
    assert "on first use" in report["snapshots"]["detail"] and not home.exists(), "doctor changes nothing"

    (home / "snapshots").mkdir(parents=True)
    probed = json.loads(warden(home, "doctor", "--json").stdout)["snapshots"]
    assert probed["ok"] and isinstance(probed["reflink"], bool) and isinstance(probed["shell_overlay"], bool)
    assert list((home / "snapshots").iterdir()) == [], "the probes leave nothing behind"

    env = {**os.environ, "WARDEN_HOME": str(home), "WARDEN_BWRAP": "/nonexistent/bwrap"}
    missing = subprocess.run([sys.executable, "-m", "app.cli", "doctor"], capture_output=True, text=True, env=env,
                             timeout=60)
    assert missing.returncode == 1
    assert "apt-get install bubblewrap" in " ".join(missing.stdout.split())


def test_an_unverified_program_is_served_only_after_it_is_accepted(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    (home / "policy.toml").write_text('[shell]\negress = "allow"\n\n[tools."shell.run"]\nallow_irreversible = true\n\n'
                                      '[approvals]\nauto_approve_rules = ["fs.redirect-write"]\n')

    def stamp(name: str) -> Path:
        task = tmp_path / f"{name}.json"
        task.write_text(json.dumps({
            "goal": f'Stamp the file "{name}.txt"',
            "agent": {"kind": "scripted", "steps": [{"tool": "shell.run", "args": {"command": f"echo s > {name}.txt"}}]},
            "evaluator": {"exists": f"{name}.txt"},
        }))
        return task

    assert warden(home, "submit", str(stamp("one")), "--run").returncode == 0
    with sqlite3.connect(home / "warden.db") as db:
        [(program_id, status)] = db.execute(
            "SELECT id, json_extract(body, '$.verification.status') FROM programs WHERE signature LIKE '%stamp%'"
        ).fetchall()
    assert status == "unverified"
    assert "unverified" in warden(home, "programs").stdout

    assert warden(home, "submit", str(stamp("two")), "--run").returncode == 0
    accepted = warden(home, "programs", "accept", program_id)
    assert accepted.returncode == 0 and f"accepted {program_id}" in accepted.stdout
    again = warden(home, "programs", "accept", program_id)
    assert again.returncode == 2 and "not waiting to be accepted" in again.stderr

    assert warden(home, "submit", str(stamp("three")), "--run").returncode == 0
    with sqlite3.connect(home / "warden.db") as db:
        modes = dict(db.execute("SELECT goal, mode FROM tasks").fetchall())
    assert modes == {'Stamp the file "one.txt"': "agent", 'Stamp the file "two.txt"': "agent",
                     'Stamp the file "three.txt"': "replay"}
    assert (home / "workspace" / "three.txt").read_text() == "s\n"
