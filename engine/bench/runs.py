"""Running task specs for the replay benchmark inside one `Runtime`, and reading back what each run did.

Each run's figures are `warden run --json`'s own (`engine.tasks.report.task_report`), plus
what the benchmark compares: how many steps the agent proposed and replay dispatched, and
how long replay's actions took, read from the times its events were written.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine import specfile
from engine.runtime import Runtime, Switches
from engine.tasks.report import task_report
from engine.tasks.task import TaskSpec


@dataclass
class Run:
    """One task run: its `warden run` report and the rest the benchmark reads from the home."""

    report: dict[str, Any]
    proposals: int = 0
    replayed: int = 0
    fell_back: bool = False
    replay_s: float | None = None
    check_wait_s: float = 0.0
    steps: list[dict] = field(default_factory=list)
    rejected: str | None = None

    @property
    def succeeded(self) -> bool:
        return self.report["outcome"] == "succeeded"

    def summary(self) -> dict[str, Any]:
        keys = ("outcome", "evaluation", "path", "steps", "model_calls", "wall_s", "reason", "program_id",
                "stored_program_id", "stored_program_status")
        return {**{key: self.report.get(key) for key in keys}, "agent_proposals": self.proposals,
                "replay_steps": self.replayed, "fell_back": self.fell_back,
                "replay_action_s": None if self.replay_s is None else round(self.replay_s, 4),
                "replay_check_wait_s": round(self.check_wait_s, 4), "program_rejected": self.rejected}


def load_spec(path: Path, base_url: str) -> dict[str, Any]:
    """A spec file with `{demo}` resolved to the running demo site."""
    return specfile.with_demo(specfile.read(path), base_url)


class Home:
    """A Warden home opened once for many runs; its browser is launched before anything is timed."""

    def __init__(self, runtime: Runtime) -> None:
        self.runtime = runtime

    @classmethod
    async def open(cls, path: Path, base_url: str, verify_gate: bool = True) -> Home:
        runtime = await Runtime.open(path, switches=Switches(verify_gate=verify_gate))
        await runtime.environments["web"].reset({"start_url": base_url + "/contacts"})  # launch the browser now
        return cls(runtime)

    async def close(self) -> None:
        await self.runtime.close()

    async def run(self, raw: dict[str, Any]) -> Run:
        """Run one spec here until it rests; wall time is from submitting it to its result."""
        began = time.monotonic()
        [task] = await self.runtime.submit_all([TaskSpec.from_json(raw)])
        await self.runtime.run_task(task.id)
        task = await self.runtime.task(task.id)
        report = await task_report(self.runtime, task, time.monotonic() - began)
        steps = await self.runtime.traces(task.id)
        events = await self.runtime.store.fetchall(
            "SELECT kind, payload, at FROM task_events WHERE task_id = ? ORDER BY id", (task.id,))
        return Run(report, proposals=sum(s["source"] == "agent" for s in steps),
                   replayed=sum(s["source"] == "replay" and s["status"] == "done" for s in steps),
                   fell_back=report["path"] == "hybrid", replay_s=_replay_seconds(events),
                check_wait_s=sum(json.loads(row["payload"]).get("waited_s", 0.0)
                                 for row in events if row["kind"] == "StateChecked"),
                   steps=[s for s in steps if s["status"] == "done"], rejected=_rejection(events))


def _replay_seconds(events: list[Any]) -> float | None:
    """From `ReplayStarted` to the last replayed action's `ActionCompleted`: replay's action phase, its checks
    before each action included (None when nothing was replayed)."""
    started = next((row["at"] for row in events if row["kind"] == "ReplayStarted"), None)
    done = [row["at"] for row in events
            if row["kind"] == "ActionCompleted" and json.loads(row["payload"]).get("source") == "replay"]
    return None if started is None or not done else done[-1] - started


def _rejection(events: list[Any]) -> str | None:
    reasons = [json.loads(row["payload"]).get("reason") for row in events if row["kind"] == "ProgramRejected"]
    return reasons[-1] if reasons else None
