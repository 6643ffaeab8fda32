"""`warden bench hook`: how long a host waits for Warden's answer to a safe call, cold and warm.

In a throwaway home and project, it runs `warden hook claude-code` as a host does (a subprocess, the event on
stdin) on a PreToolUse `Bash` `ls` event, which the gate clears and records as a step:

- cold: no daemon is running, so the call opens the runtime itself (and then starts the daemon); the daemon is
  stopped before each sample;
- warm: the home's daemon answers; Python's start-up and the light client are all the call pays besides it.

It also reports the daemon's own decision time (the `ms` of its replies, asked over the socket directly) and
the floor: `python -c pass` with the same interpreter.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from engine.errors import WardenError
from engine.hosts import daemon, wire

Progress = Callable[[str, int, int], None]


@dataclass
class Report:
    cold_ms: list[float] = field(default_factory=list)
    warm_ms: list[float] = field(default_factory=list)
    round_trip_ms: list[float] = field(default_factory=list)
    decision_ms: list[float] = field(default_factory=list)
    python_ms: list[float] = field(default_factory=list)

    def rows(self) -> dict[str, list[float]]:
        return {"cold hook call": self.cold_ms, "warm hook call": self.warm_ms,
                "socket round trip (in-process client)": self.round_trip_ms,
                "decision in the daemon": self.decision_ms, "python -c pass": self.python_ms}

    def as_json(self) -> dict:
        keys = {"cold hook call": "cold", "warm hook call": "warm",
                "socket round trip (in-process client)": "round_trip", "decision in the daemon": "decision",
                "python -c pass": "python_start"}
        return {keys[name]: summary(samples) for name, samples in self.rows().items()} | {
            "meets_warm_p99_target": self.meets_target, "target_warm_p99_ms": 50}

    @property
    def meets_target(self) -> bool:
        return bool(self.warm_ms) and percentile(self.warm_ms, 99) < 50


def percentile(samples: list[float], pct: float) -> float:
    """Nearest-rank percentile."""
    ordered = sorted(samples)
    rank = max(1, -(-len(ordered) * pct // 100))
    return ordered[int(rank) - 1]


def summary(samples: list[float]) -> dict:
    if not samples:
        return {"n": 0}
    return {"n": len(samples), "p50_ms": round(statistics.median(samples), 2),
            "p99_ms": round(percentile(samples, 99), 2), "max_ms": round(max(samples), 2)}


class Bench:
    def __init__(self, root: Path) -> None:
        self.home = root / "home"
        self.project = root / "project"
        self.project.mkdir()
        (self.project / "notes.txt").write_text("a file to list\n")
        self.env = {**os.environ, "WARDEN_HOME": str(self.home), "WARDEN_HOOK_WAIT": "5"}
        self.env.pop("WARDEN_HOOK_DAEMON", None)
        self.event = json.dumps({"hook_event_name": "PreToolUse", "session_id": "bench-hook",
                                 "cwd": str(self.project), "tool_name": "Bash", "tool_input": {"command": "ls"}})

    def call(self, **env: str) -> float:
        """One `warden hook claude-code` call's wall time in ms; it must allow the listing."""
        started = time.perf_counter()
        done = subprocess.run([sys.executable, "-m", "app.cli", "hook", "claude-code"], input=self.event,
                              capture_output=True, text=True, cwd=self.project, env={**self.env, **env}, timeout=120)
        took = (time.perf_counter() - started) * 1000
        try:
            decision = json.loads(done.stdout)["hookSpecificOutput"]["permissionDecision"]
        except (ValueError, KeyError, TypeError):
            decision = None
        if decision != "allow":
            raise WardenError(f"the hook did not allow `ls`: {(done.stdout or done.stderr).strip()[:300]}")
        return took

    def serving(self, timeout: float = 60.0) -> int:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            pid = daemon.holder(self.home)
            if pid is not None:
                try:
                    with socket.socket(socket.AF_UNIX) as probe:
                        probe.connect(str(self.home / wire.SOCKET))
                    return pid
                except OSError:
                    pass
            time.sleep(0.02)
        raise WardenError(f"the hook daemon did not start; see {self.home / wire.LOG}")

    def stop(self) -> None:
        pid = daemon.holder(self.home)
        if pid is None:
            return
        os.kill(pid, signal.SIGTERM)
        deadline = time.monotonic() + 30
        while daemon.holder(self.home) is not None and time.monotonic() < deadline:
            time.sleep(0.02)
        with_pid = Path(f"/proc/{pid}")
        while with_pid.exists() and time.monotonic() < deadline:
            time.sleep(0.02)

    def round_trip(self) -> tuple[float, float]:
        request = {"host": "claude-code", "event": json.loads(self.event), "wait": 5}
        started = time.perf_counter()
        reply = wire.exchange(str(self.home), request, 30)
        took = (time.perf_counter() - started) * 1000
        decided = reply.get("ms")
        if "answer" not in reply or not isinstance(decided, (int, float)):
            raise WardenError(f"the hook daemon did not decide: {reply}")
        return took, float(decided)


def run(calls: int = 100, cold: int = 10, progress: Progress | None = None) -> Report:
    """Time `cold` calls with no daemon running and `calls` calls answered by the daemon."""
    if calls < 1 or cold < 1:
        raise WardenError("bench hook needs at least one cold and one warm call")
    say = progress or (lambda phase, done, total: None)
    report = Report()
    root = Path(tempfile.mkdtemp(prefix="warden-bench-hook-"))
    bench = Bench(root)
    if not wire.usable(str(bench.home)):
        shutil.rmtree(root, ignore_errors=True)
        raise WardenError(f"the temporary directory {root} is too deep for a Unix socket; set TMPDIR shorter")
    try:
        for index in range(5):
            started = time.perf_counter()
            subprocess.run([sys.executable, "-c", "pass"], check=True)
            report.python_ms.append((time.perf_counter() - started) * 1000)
        bench.call(WARDEN_HOOK_DAEMON="off")  # makes the home: a first call ever also creates the database
        for index in range(cold):
            bench.stop()
            report.cold_ms.append(bench.call())
            bench.serving()  # the call started the daemon after answering
            say("cold", index + 1, cold)
        bench.serving()
        for index in range(calls):
            report.warm_ms.append(bench.call())
            say("warm", index + 1, calls)
        for index in range(calls):
            trip, decided = bench.round_trip()
            report.round_trip_ms.append(trip)
            report.decision_ms.append(decided)
    finally:
        bench.stop()
        shutil.rmtree(root, ignore_errors=True)
    return report
