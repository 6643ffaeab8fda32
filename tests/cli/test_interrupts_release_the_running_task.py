"""Ctrl-C (SIGINT) on `warden worker`, `warden run` and `warden submit --run` mid-task: one line, exit 130, and
the running task goes back in the queue at once, so another runner takes it up without waiting out the lease."""

from __future__ import annotations

import json
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.cli.test_worker import environment, start_worker, submit

SLEEPER = {"goal": "wait", "learn": False, "plan": [{"tool": "shell.run", "args": {"command": "sleep 30"}}]}
PICKED_UP_WITHIN_S = 2.0  # the bound: far below the 30 s lease, which must not be waited out


def row(home: Path, sql: str, *params: str) -> tuple | None:
    with sqlite3.connect(home / "warden.db", timeout=10) as db:
        return db.execute(sql, params).fetchone()


def wait_for_dispatch(home: Path, process: subprocess.Popen) -> str:
    """The id of the task whose step is in flight, once `process` has started it (skips where no sandbox runs)."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and process.poll() is None:
        if (home / "warden.db").exists():
            try:
                found = row(home, "SELECT task_id FROM steps WHERE idx = 0 AND status = 'dispatching'")
            except sqlite3.OperationalError:
                found = None
            if found:
                return found[0]
        time.sleep(0.01)  # polling the database for the step to start, as the worker tests do
    process.kill()
    pytest.skip(f"the command never started here: {process.communicate()[1][-300:]}")


def interrupted(process: subprocess.Popen) -> tuple[str, str]:
    process.send_signal(signal.SIGINT)
    try:
        return process.communicate(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()


def assert_one_line(process: subprocess.Popen, stderr: str, command: str, task_id: str) -> None:
    assert process.returncode == 130, stderr
    assert "Traceback" not in stderr and "KeyboardInterrupt" not in stderr, stderr
    assert stderr.strip().splitlines() == [f"warden: {command} stopped by SIGINT; {task_id} back in the queue"]


def test_a_sigint_worker_exits_in_one_line_and_another_takes_the_task_up_at_once(tmp_path: Path) -> None:
    home, workspace = tmp_path / "home", tmp_path / "ws"
    [task_id] = submit(tmp_path, home, workspace, [SLEEPER])
    first = start_worker(home, "--workspace", str(workspace))
    second: subprocess.Popen | None = None
    try:
        assert wait_for_dispatch(home, first) == task_id
        second = start_worker(home, "--workspace", str(workspace), "--json")  # another runner, idle: nothing queued
        time.sleep(0.5)
        _, stderr = interrupted(first)
        exited = time.monotonic()
        assert_one_line(first, stderr, "worker", task_id)
        claimer = f"{socket.gethostname()}:{second.pid}:0"
        while time.monotonic() - exited < 30 and row(home, "SELECT 1 FROM tasks WHERE id = ? AND status = 'running'"
                                                     " AND claimed_by = ?", task_id, claimer) is None:
            time.sleep(0.01)
        picked_up = time.monotonic() - exited
        assert row(home, "SELECT claimed_by FROM tasks WHERE id = ?", task_id) == (claimer,), "never taken up"
        assert picked_up < PICKED_UP_WITHIN_S, f"taken up {picked_up:.1f} s after the first worker exited"
    finally:
        for worker in (first, second):
            if worker is not None and worker.poll() is None:
                worker.send_signal(signal.SIGTERM)
                worker.communicate(timeout=30)
    assert second.returncode == 128 + signal.SIGTERM
    assert row(home, "SELECT status FROM tasks WHERE id = ?", task_id) == ("queued",)


@pytest.mark.parametrize("command", ["run", "submit --run"])
def test_sigint_on_a_command_running_tasks_here_releases_its_task_in_one_line(tmp_path: Path, command: str) -> None:
    home, workspace = tmp_path / "home", tmp_path / "ws"
    spec = tmp_path / "task.json"
    spec.write_text(json.dumps(SLEEPER if command == "run" else [SLEEPER]), encoding="utf-8")
    args = ["run", "--spec", str(spec)] if command == "run" else ["submit", str(spec), "--run"]
    process = subprocess.Popen([sys.executable, "-m", "app.cli", *args, "--workspace", str(workspace)],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=environment(home))
    task_id = wait_for_dispatch(home, process)
    _, stderr = interrupted(process)
    assert_one_line(process, stderr, command, task_id)
    assert row(home, "SELECT status FROM tasks WHERE id = ?", task_id) == ("queued",)  # not `running` for a lease
