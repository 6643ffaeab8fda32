"""`warden worker`: headless runners share one database; every queued task runs exactly once, whoever claims it."""

from __future__ import annotations

import json
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

TASKS = 50


def log_task(number: int, **extra) -> dict:
    return {"goal": f"log {number}", "learn": False,
            "plan": [{"tool": "fs.append", "args": {"path": "log.txt", "content": f"task {number}\n"}}], **extra}


def environment(home: Path, **extra: str) -> dict:
    return {**os.environ, "WARDEN_HOME": str(home), **extra}


def warden(home: Path, *args: str, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "app.cli", *args], capture_output=True, text=True,
                          env=environment(home, **env), timeout=120)


def start_worker(home: Path, *args: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "app.cli", "worker", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=environment(home))


def submit(tmp_path: Path, home: Path, workspace: Path, tasks: list[dict]) -> list[str]:
    file = tmp_path / "tasks.json"
    file.write_text(json.dumps(tasks), encoding="utf-8")
    result = warden(home, "submit", str(file), "--workspace", str(workspace), "--json")
    assert result.returncode == 0, result.stderr
    [line] = result.stdout.splitlines()
    return json.loads(line)["task_ids"]


def test_two_workers_run_fifty_tasks_each_exactly_once(tmp_path: Path) -> None:
    home, workspace = tmp_path / "home", tmp_path / "ws"
    ids = submit(tmp_path, home, workspace, [log_task(n) for n in range(TASKS)])
    assert len(set(ids)) == TASKS

    workers = [start_worker(home, "--until-idle", "--lease", "1", "--workspace", str(workspace), "--json")
               for _ in range(2)]
    outputs = [worker.communicate(timeout=300) for worker in workers]
    for worker, (_, stderr) in zip(workers, outputs):
        assert worker.returncode == 0, stderr

    summaries = [json.loads(stdout.splitlines()[-1]) for stdout, _ in outputs]
    assert {task_id for summary in summaries for task_id in summary["ran"]} == set(ids)

    lines = (workspace / "log.txt").read_text(encoding="utf-8").splitlines()
    assert sorted(lines) == sorted(f"task {n}" for n in range(TASKS))
    with sqlite3.connect(home / "warden.db") as db:
        statuses = dict(db.execute("SELECT id, status FROM tasks").fetchall())
        done = dict(db.execute("SELECT task_id, COUNT(*) FROM steps WHERE status = 'done' GROUP BY task_id").fetchall())
        claimers = {row[0] for row in db.execute("SELECT DISTINCT claimed_by FROM tasks")}
    assert statuses == {task_id: "succeeded" for task_id in ids}
    assert done == {task_id: 1 for task_id in ids}
    host = socket.gethostname()
    assert claimers and claimers <= {f"{host}:{worker.pid}:0" for worker in workers}


def test_json_lines_parse_and_the_summary_counts_each_outcome(tmp_path: Path) -> None:
    home, workspace = tmp_path / "home", tmp_path / "ws"
    unmet = {"text": {"path": "log.txt", "contains": "never written"}}
    ids = submit(tmp_path, home, workspace, [log_task(1), log_task(2), log_task(3, evaluator=unmet)])

    result = warden(home, "worker", "--until-idle", "--concurrency", "2", "--workspace", str(workspace), "--json")
    assert result.returncode == 0, result.stderr
    records = [json.loads(line) for line in result.stdout.splitlines()]
    *progress, summary = records
    assert sorted(summary["ran"]) == sorted(ids)
    assert (summary["succeeded"], summary["failed"], summary["paused"]) == (2, 1, 0)
    finished = {r["task_id"]: r["status"] for r in progress if r["event"] == "task_finished"}
    assert finished == {ids[0]: "succeeded", ids[1]: "succeeded", ids[2]: "failed"}
    assert {r["runner"].rsplit(":", 1)[1] for r in progress} <= {"0", "1"}

    idle = warden(home, "worker", "--until-idle", "--json")
    assert idle.returncode == 0, idle.stderr
    assert [json.loads(line) for line in idle.stdout.splitlines()] == [{"ran": [], "succeeded": 0, "failed": 0, "paused": 0}]


def test_submit_json_with_run_prints_only_the_ids_and_statuses(tmp_path: Path) -> None:
    home, workspace = tmp_path / "home", tmp_path / "ws"
    file = tmp_path / "tasks.json"
    file.write_text(json.dumps([log_task(1), log_task(2)]), encoding="utf-8")
    result = warden(home, "submit", str(file), "--workspace", str(workspace), "--run", "--json")
    assert result.returncode == 0, result.stderr
    [line] = result.stdout.splitlines()
    record = json.loads(line)
    assert record["statuses"] == {task_id: "succeeded" for task_id in record["task_ids"]} and len(record["task_ids"]) == 2


def test_the_lease_comes_from_the_environment_and_a_bad_one_is_refused_in_one_line(tmp_path: Path) -> None:
    home = tmp_path / "home"
    for bad in ("soon", "0", "-1", "nan"):
        result = warden(home, "worker", "--until-idle", WARDEN_LEASE_S=bad)
        assert result.returncode == 2 and result.stdout == ""
        assert result.stderr.count("\n") == 1 and result.stderr.startswith("warden: WARDEN_LEASE_S=")

    zero_flag = warden(home, "worker", "--until-idle", "--lease", "0")
    assert zero_flag.returncode == 2 and zero_flag.stderr.count("\n") == 1 and "--lease" in zero_flag.stderr

    ids = submit(tmp_path, home, tmp_path / "ws", [log_task(1)])
    fine = warden(home, "worker", "--until-idle", "--workspace", str(tmp_path / "ws"), "--json", WARDEN_LEASE_S="2.5")
    assert fine.returncode == 0, fine.stderr
    assert json.loads(fine.stdout.splitlines()[-1])["ran"] == ids


def test_without_until_idle_the_worker_serves_until_sigterm_and_stops_cleanly(tmp_path: Path) -> None:
    home, workspace = tmp_path / "home", tmp_path / "ws"
    ids = submit(tmp_path, home, workspace, [log_task(1)])
    worker = start_worker(home, "--workspace", str(workspace), "--json")
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not _succeeded(home, ids[0]):
            time.sleep(0.1)
        assert worker.poll() is None, "a serving worker stays up while there is nothing to do"
    finally:
        worker.send_signal(signal.SIGTERM)
        stdout, stderr = worker.communicate(timeout=60)
    assert worker.returncode == 128 + signal.SIGTERM, stderr  # stopped by a signal: one line, as a shell reports it
    assert stderr.strip().splitlines() == ["warden: worker stopped by SIGTERM"]
    assert json.loads(stdout.splitlines()[-1]) == {"ran": ids, "succeeded": 1, "failed": 0, "paused": 0}


def _succeeded(home: Path, task_id: str) -> bool:
    with sqlite3.connect(home / "warden.db") as db:
        row = db.execute("SELECT status FROM tasks WHERE id = ?", (task_id,)).fetchone()
    return row == ("succeeded",)


def test_a_worker_reclaims_the_task_of_a_killed_one_and_reports_it_resumed(tmp_path: Path) -> None:
    home, workspace = tmp_path / "home", tmp_path / "ws"
    [task_id] = submit(tmp_path, home, workspace, [{
        "goal": "wait, then log", "learn": False,
        "plan": [{"tool": "shell.run", "args": {"command": "sleep 3"}},
                 {"tool": "fs.append", "args": {"path": "log.txt", "content": "done\n"}}]}])
    first = start_worker(home, "--lease", "1", "--workspace", str(workspace))
    try:
        for _ in range(3000):
            with sqlite3.connect(home / "warden.db") as db:
                row = db.execute("SELECT status FROM steps WHERE task_id = ? AND idx = 0", (task_id,)).fetchone()
            if row and row[0] == "dispatching":
                break
            time.sleep(0.01)
        else:
            raise AssertionError("the first worker never started the step")
        first.send_signal(signal.SIGKILL)
        first.wait(timeout=10)
    finally:
        first.kill()
        first.communicate()

    second = warden(home, "worker", "--until-idle", "--lease", "1", "--workspace", str(workspace), "--json")
    assert second.returncode == 0, second.stderr
    records = [json.loads(line) for line in second.stdout.splitlines()]
    assert any(r.get("event") == "task_resumed" and r["task_id"] == task_id for r in records), records
    assert records[-1]["ran"] == [task_id] and records[-1]["succeeded"] == 1, records
    assert (workspace / "log.txt").read_text(encoding="utf-8") == "done\n"
