"""Finding 12: one bad input stopped the runner with a traceback. Here: a full disk and damaged pages.

(A symlink loop, a 300-character name, text that is not Unicode and JSON nested 100,000
deep have their own tests named `test_f12_…` beside the features they exercise.)
"""

from __future__ import annotations

import json
import resource
import sqlite3
import subprocess
import sys
from pathlib import Path

from tests.cli.test_submit import warden

FILE_LIMIT = 4 * 1024 * 1024
APPROVING_RUNNER = """
import asyncio, sys
from engine.runtime import Runtime, Switches

async def main():
    runtime = await Runtime.open(sys.argv[1], sys.argv[2], Switches())
    for _ in range(10):
        await runtime.run_until_idle()
        for approval in await runtime.pending_approvals():
            await runtime.approve(approval.id)
    await runtime.close()

asyncio.run(main())
"""


def task(goal: str, step: dict) -> dict:
    return {"goal": goal, "agent": {"kind": "scripted", "steps": [step]}}


def test_f12_a_full_disk_fails_the_task_that_filled_it_and_the_others_run(tmp_path: Path) -> None:
    """`ulimit -f`: writes past 4 MB fail with EFBIG, as on a full disk (the database stays small)."""
    home, ws = tmp_path / "home", tmp_path / "ws"
    tasks = tmp_path / "tasks.json"
    tasks.write_text(json.dumps([
        task("Write a", {"tool": "fs.write", "args": {"path": "a.txt", "content": "a\n"}}),
        task("Fill the disk", {"tool": "shell.run", "args": {"command": "head -c 8000000 /dev/zero > big.bin"}}),
        task("Write b", {"tool": "fs.write", "args": {"path": "b.txt", "content": "b\n"}}),
    ]))

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (FILE_LIMIT, FILE_LIMIT))

    assert warden(home, "submit", str(tasks), "--workspace", str(ws)).returncode == 0
    result = subprocess.run([sys.executable, "-c", APPROVING_RUNNER, str(home), str(ws)], capture_output=True,
                            text=True, timeout=120, preexec_fn=limit)
    assert "Traceback" not in result.stderr, result.stderr
    with sqlite3.connect(home / "warden.db") as db:
        rows = dict(db.execute("SELECT goal, status FROM tasks").fetchall())
        [error] = db.execute("SELECT error FROM tasks WHERE goal = 'Fill the disk'").fetchone()
    assert rows == {"Write a": "succeeded", "Fill the disk": "failed", "Write b": "succeeded"}
    assert ("File too large" in error or "File size limit exceeded" in error) and "\n" not in error and "internal error" not in error
    assert (ws / "big.bin").stat().st_size <= FILE_LIMIT


def test_f12_a_database_with_damaged_pages_is_reported_in_one_line(tmp_path: Path) -> None:
    home = tmp_path / "home"
    tasks = tmp_path / "tasks.json"
    tasks.write_text(json.dumps([task("Write a", {"tool": "fs.write", "args": {"path": "a.txt", "content": "a"}})]))
    assert warden(home, "submit", str(tasks)).returncode == 0
    with sqlite3.connect(home / "warden.db") as db:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        [(root, size)] = db.execute("SELECT rootpage, (SELECT page_size FROM pragma_page_size)"
                                    " FROM sqlite_master WHERE name = 'tasks'").fetchall()
    data = bytearray((home / "warden.db").read_bytes())
    data[(root - 1) * size : root * size] = b"\xde\xad" * (size // 2)
    (home / "warden.db").write_bytes(bytes(data))

    result = warden(home, "submit", str(tasks), "--run")
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1 and "malformed" in result.stderr and "Traceback" not in result.stderr
