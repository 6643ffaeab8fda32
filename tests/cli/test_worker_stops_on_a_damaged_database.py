"""A database with damaged pages is not a busy one: `warden worker --until-idle` stops on it in one line with a
non-zero exit instead of retrying forever, and fails no task for it."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path

from tests.cli.test_worker import environment, submit


def damage(home: Path, table: str) -> None:
    """Overwrite the root page of `table` with garbage, as a disk or a copy that went wrong would."""
    with sqlite3.connect(home / "warden.db") as db:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        [(root, size)] = db.execute("SELECT rootpage, (SELECT page_size FROM pragma_page_size)"
                                    " FROM sqlite_master WHERE name = ?", (table,)).fetchall()
    data = bytearray((home / "warden.db").read_bytes())
    data[(root - 1) * size : root * size] = b"\xde\xad" * (size // 2)
    (home / "warden.db").write_bytes(bytes(data))


def test_worker_until_idle_stops_in_one_line_on_damaged_pages(tmp_path: Path) -> None:
    home, ws = tmp_path / "home", tmp_path / "ws"
    submit(tmp_path, home, ws, [{"goal": "Write a", "learn": False,
                                 "plan": [{"tool": "fs.write", "args": {"path": "a.txt", "content": "a"}}]}])
    damage(home, "steps")  # the tasks table is whole: `warden tasks list` still lists the task
    try:
        result = subprocess.run([sys.executable, "-m", "app.cli", "worker", "--until-idle", "--workspace", str(ws)],
                                capture_output=True, text=True, env=environment(home), timeout=60)
    except subprocess.TimeoutExpired:
        raise AssertionError("the worker retried a damaged database instead of stopping") from None
    assert result.returncode != 0
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr, result.stderr
    assert result.stderr.startswith("warden: stopped: database") and "damaged" in result.stderr
    assert "malformed" in result.stderr
    assert not (ws / "a.txt").exists()
