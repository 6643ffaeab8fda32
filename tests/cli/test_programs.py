"""`warden programs`: what was learned can be listed, drawn and forgotten, and stays forgotten."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from tests.cli.test_submit import release, warden


def test_list_draw_and_remove(tmp_path: Path) -> None:
    home = tmp_path / "home"
    tasks = tmp_path / "tasks.json"
    tasks.write_text(json.dumps([release("4.0")]), encoding="utf-8")
    assert warden(home, "submit", str(tasks), "--run").returncode == 0
    with sqlite3.connect(home / "warden.db") as db:
        ids = dict(db.execute("SELECT json_extract(body, '$.goal_template'), id FROM programs").fetchall())
    learned, shipped = ids["Publish the release note for version {version}"], ids["Archive the file {file}"]

    listing = warden(home, "programs")
    assert listing.returncode == 0 and learned in listing.stdout and shipped in listing.stdout

    drawing = warden(home, "programs", "show", learned)
    assert "● s0 start" in drawing.stdout and "▼ fs.write notes/release-{version}.md" in drawing.stdout

    assert warden(home, "programs", "rm", shipped).returncode == 0
    assert not (home / "programs" / f"{shipped}.json").exists()
    assert shipped not in warden(home, "programs").stdout

    missing = warden(home, "programs", "show", "p-none")
    assert missing.returncode == 2 and missing.stderr.strip() == "warden: no program p-none; `warden programs` lists them"
