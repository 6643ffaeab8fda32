"""Round three, finding 14: a full disk, SIGTERM, and content stored seven times.

(a) On a full disk `warden worker --until-idle` retried silently for minutes: a full disk is now one
line on stderr and a non-zero exit. (b) SIGTERM printed a traceback and left the running task claimed
until its lease ran out: it is now one line, exit 143, and the task goes back to the queue. (c) A 5 MB
`fs.write` was stored about seven times (the spec, the step, the receipt and three events): the step
keeps the arguments whole, the receipt and the events keep long text as its digest, length and start.

The full disk is a real one: a small tmpfs mounted as the home (root only; skipped elsewhere).
"""

from __future__ import annotations

import errno
import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from engine.errors import DiskFull
from engine.runtime import Runtime, Switches
from engine.tasks.task import TaskSpec, TaskStatus, scripted
from engine.tools.call import ToolCall

FILE_CHARS = 999_000
FILES = 5


def warden(home: Path, *args: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "app.cli", *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env={**os.environ, "WARDEN_HOME": str(home)})


def submit(tmp_path: Path, home: Path, workspace: Path, tasks: list[dict]) -> list[str]:
    file = tmp_path / "tasks.json"
    file.write_text(json.dumps(tasks), encoding="utf-8")
    process = warden(home, "submit", str(file), "--workspace", str(workspace), "--json")
    stdout, stderr = process.communicate(timeout=120)
    assert process.returncode == 0, stderr
    return json.loads(stdout)["task_ids"]


def finished(process: subprocess.Popen, timeout: float) -> tuple[str, str]:
    """The process's output once it exits; a process still running after `timeout` is killed and fails the test."""
    try:
        return process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        stdout, stderr = process.communicate()
        pytest.fail(f"still running after {timeout:g}s; stdout {stdout[-300:]!r}, stderr {stderr[-300:]!r}")


@pytest.fixture
def small_disk(tmp_path: Path):
    """A 3 MB tmpfs, unmounted after the test."""
    if os.geteuid() != 0:
        pytest.skip("mounting a tmpfs needs root")
    mount = tmp_path / "disk"
    mount.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=3m", "tmpfs", str(mount)], capture_output=True, text=True)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.strip()}")
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=False)


def fill(disk: Path, leave: int) -> None:
    """Take all but about `leave` bytes of the disk with one file."""
    stat = os.statvfs(disk)
    free = stat.f_bavail * stat.f_frsize
    with (disk / "filler").open("wb") as handle:
        handle.write(b"\0" * max(0, free - leave))


def test_r3_14_a_full_disk_stops_the_worker_in_one_line(tmp_path: Path, small_disk: Path) -> None:
    home, workspace = small_disk / "home", tmp_path / "ws"
    content = "x" * 200_000
    ids = submit(tmp_path, home, workspace, [
        {"goal": f"write {n}", "learn": False, "plan": [{"tool": "fs.write", "args": {"path": f"f{n}.txt", "content": content}}]}
        for n in range(3)])
    fill(small_disk, leave=150_000)

    worker = warden(home, "worker", "--until-idle", "--workspace", str(workspace))
    _, stderr = finished(worker, timeout=60)
    assert worker.returncode not in (0, None), stderr
    lines = stderr.strip().splitlines()
    assert len(lines) == 1 and "full" in lines[0] and "Traceback" not in stderr, stderr
    (small_disk / "filler").unlink()
    with sqlite3.connect(home / "warden.db") as db:
        statuses = dict(db.execute("SELECT id, status FROM tasks").fetchall())
    assert set(statuses) == set(ids) and "failed" not in statuses.values(), "a full disk is not the tasks' fault"


def test_r3_14_sigterm_stops_the_worker_in_one_line_and_releases_its_task(tmp_path: Path) -> None:
    home, workspace = tmp_path / "home", tmp_path / "ws"
    [task_id] = submit(tmp_path, home, workspace, [{"goal": "wait", "learn": False, "plan": [
        {"tool": "shell.run", "args": {"command": "sleep 60"}}]}])
    worker = warden(home, "worker", "--until-idle", "--workspace", str(workspace))
    try:
        deadline = time.monotonic() + 60
        while (step := _step(home, task_id)) != "dispatching" and worker.poll() is None and time.monotonic() < deadline:
            time.sleep(0.01)  # polling the database for the step to start, as the worker tests do
        if step != "dispatching":
            worker.kill()
            pytest.skip(f"the command never started here (step {step}): {worker.communicate()[1][-300:]}")
        worker.send_signal(signal.SIGTERM)
        stdout, stderr = finished(worker, timeout=30)
    finally:
        if worker.poll() is None:
            worker.kill()
            worker.communicate()
    assert worker.returncode == 128 + signal.SIGTERM, stderr
    assert "Traceback" not in stderr and "exception" not in stderr.lower(), stderr
    lines = stderr.strip().splitlines()
    assert len(lines) == 1 and "SIGTERM" in lines[0] and task_id in lines[0], stderr
    with sqlite3.connect(home / "warden.db") as db:
        assert db.execute("SELECT status FROM tasks WHERE id = ?", (task_id,)).fetchone() == ("queued",)


def _step(home: Path, task_id: str) -> str | None:
    with sqlite3.connect(home / "warden.db") as db:
        row = db.execute("SELECT status FROM steps WHERE task_id = ? AND idx = 0", (task_id,)).fetchone()
    return row[0] if row else None


async def test_r3_14_written_content_is_stored_once(tmp_path: Path) -> None:
    home, workspace = tmp_path / "home", tmp_path / "ws"
    runtime = await Runtime.open(home, workspace, Switches())
    try:
        calls = [ToolCall("fs.write", {"path": f"big{n}.txt", "content": str(n) * FILE_CHARS}) for n in range(FILES)]
        task = await runtime.submit(TaskSpec(goal="Write five big files", agent=scripted(calls), learn=False))
        await runtime.run_until_idle()
        assert (await runtime.queue.get(task.id)).status is TaskStatus.SUCCEEDED
        assert (workspace / "big4.txt").read_text() == "4" * FILE_CHARS
        [stepped] = [e for e in await runtime.history(task.id) if e.kind == "ActionCompleted" and e.idx == 4]
        assert stepped.call["args"]["path"] == "big4.txt" and len(json.dumps(stepped.call)) < 2_000
        [receipt] = [r for r in await runtime.journal.for_task(task.id) if r.step_idx == 4]
        assert len(receipt.call.canonical()) < 2_000
    finally:
        await runtime.close()
    stored = sum(path.stat().st_size for path in home.iterdir() if path.name.startswith("warden.db"))
    written = FILE_CHARS * FILES
    assert stored < 2.1 * written, f"{stored} bytes stored for {written} bytes written ({stored / written:.1f}x)"


async def test_r3_14_a_snapshot_finding_the_disk_full_stops_the_runner_and_fails_no_task(runtime, ws, monkeypatch):
    """ENOSPC while keeping a step's snapshot: no step can be journaled, whatever the task, so the runner stops."""

    async def no_space(*args, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(runtime.journal, "prepare", no_space)
    task = await runtime.submit(TaskSpec(goal="Write a file", learn=False, agent=scripted(
        [ToolCall("fs.write", {"path": "a.txt", "content": "a\n"})])))
    with pytest.raises(DiskFull, match="full"):
        await runtime.run_until_idle()
    assert (await runtime.queue.get(task.id)).status is TaskStatus.RUNNING
    assert (await runtime.queue.step(task.id, 0))["status"] == "proposed"
    assert await runtime.queue.release(runtime.runner.identity) == [task.id]
    monkeypatch.undo()
    await runtime.run_until_idle()
    assert (await runtime.queue.get(task.id)).status is TaskStatus.SUCCEEDED
    assert (ws / "a.txt").read_text() == "a\n"
