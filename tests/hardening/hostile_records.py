"""Records holding hostile text, written straight into a home's database, as another process (or an older
Warden, or a person with `sqlite3`) could: a task's goal, id, workspace and error, a pending approval's call,
reason and rules, a receipt's summary and path, a program's goal template, descriptions and paths, and the
events a task's timeline and the console's toasts are made of.

Text columns cannot hold a lone surrogate (SQLite stores UTF-8), so there they become `?`; JSON columns
(calls, specs, event payloads) are written with escapes and keep them, as Warden's own writes do.
"""

from __future__ import annotations

import json
import re
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path

from engine.runtime import Runtime, Switches
from engine.tasks.task import TaskSpec

SURROGATE = re.compile("[\ud800-\udfff]")


@dataclass(frozen=True)
class Hostile:
    """The text each kind of record field holds."""

    goal: str
    error: str
    path: str
    summary: str
    reason: str
    description: str
    output: str
    task_id: str = "t-hostile"


@dataclass(frozen=True)
class Seeded:
    """The ids of what `seed` wrote."""

    failed: str
    paused: str
    approval: str
    receipt: str
    program: str


def storable(text: str) -> str:
    """What a text column can hold of `text`."""
    return SURROGATE.sub("?", text)


def goal_of(text: str) -> str:
    """A goal a spec accepts: not blank, no lone surrogate."""
    goal = storable(text)
    return goal if goal.strip() else f"goal {goal!r}"


async def seed(home: Path, workspace: Path, hostile: Hostile) -> Seeded:
    """A home (made by a runtime) holding one failed task with a receipt and a timeline, one paused task
    waiting on an approval, and one program, every text field from `hostile`."""
    runtime = await Runtime.open(home, workspace, Switches())
    await runtime.close()
    now = time.time()
    failed, paused = storable(hostile.task_id), "t-paused"
    call = json.dumps({"tool": "fs.write", "args": {"path": hostile.path, "content": hostile.output}})
    spec = json.dumps(TaskSpec(goal=goal_of(hostile.goal)).to_json())
    with sqlite3.connect(home / "warden.db") as db:
        db.executemany(
            "INSERT INTO tasks (id, goal, spec, status, mode, error, created_at, updated_at, env)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [(failed, goal_of(hostile.goal), spec, "failed", "agent", storable(hostile.error), now - 60, now - 30,
              f"workspace:{workspace}/{storable(hostile.path)}"),
             (paused, goal_of(hostile.goal), spec, "paused", "agent", None, now - 20, now - 10,
              f"workspace:{workspace}")])
        db.execute(
            "INSERT INTO approvals (id, task_id, step_idx, call, call_hash, level, tier, rules, reason, status,"
            " created_at, expires_at) VALUES (?, ?, 0, ?, ?, 'dangerous', 'local_reversible', ?, ?, 'pending', ?, ?)",
            ("a-hostile", paused, call, "0" * 64, json.dumps([hostile.reason, "fs.write"]), storable(hostile.reason),
             now - 10, now + 86400))
        db.execute(
            "INSERT INTO receipts (id, task_id, step_idx, call, tier, snapshot_kind, snapshot_path, reversal, summary,"
            " created_at) VALUES (?, ?, 0, ?, 'local_reversible', 'copy', ?, 'reversible', ?, ?)",
            ("r-hostile", failed, call, str(home / "snapshots" / "r-hostile"), storable(hostile.summary), now - 40))
        events = [("TaskQueued", {"goal": goal_of(hostile.goal)}), ("TaskStarted", {"mode": "agent"}),
                  ("ActionCompleted", {"idx": 0, "call": json.loads(call), "receipt_id": "r-hostile",
                                       "source": "agent", "output": hostile.output}),
                  ("TaskFailed", {"error": hostile.error, "detail": hostile.output})]
        db.executemany("INSERT INTO task_events (task_id, kind, payload, at) VALUES (?, ?, ?, ?)",
                       [(failed, kind, json.dumps(payload), now - 50 + n) for n, (kind, payload) in enumerate(events)])
        body = program(hostile)
        db.execute("INSERT INTO programs (id, signature, body, created_at) VALUES (?, ?, ?, ?)",
                   (body["id"], body["signature"], json.dumps(body), now))
        db.execute("INSERT INTO program_index (program_id, kind, status, description, goal_template)"
                   " VALUES (?, 'workspace', 'unverified', ?, ?)", (body["id"], body["description"], body["goal_template"]))
    return Seeded(failed, paused, "a-hostile", "r-hostile", body["id"])


def program(hostile: Hostile) -> dict:
    """A valid program whose words and paths are hostile (braces left out of its goal template: they
    would declare parameters)."""
    template = storable(hostile.goal).replace("{", "(").replace("}", ")")
    path = storable(hostile.path) or "a.txt"
    return {
        "id": "p-hostile", "signature": f"workspace:{storable(hostile.summary)}",
        "description": storable(hostile.description), "goal_template": template if template.strip() else "Do it",
        "params": {}, "env": {"kind": "workspace"}, "start": "s0",
        "states": [{"id": "s0", "description": storable(hostile.description), "check": {"all": []}},
                   {"id": f"s1 {storable(hostile.reason)}", "description": storable(hostile.error),
                    "check": {"exists": path}}],
        "transitions": [{"from": "s0", "to": f"s1 {storable(hostile.reason)}",
                         "action": {"tool": "fs.write", "args": {"path": path, "content": storable(hostile.output)}}}],
        "terminal": [f"s1 {storable(hostile.reason)}"],
        "verification": {"status": "unverified", "how": storable(hostile.reason)},
    }


def announce(home: Path, hostile: Hostile) -> None:
    """Events the console turns into toasts, written as another process would while the console runs."""
    with sqlite3.connect(home / "warden.db") as db:
        db.executemany("INSERT INTO task_events (task_id, kind, payload, at) VALUES (?, ?, ?, ?)", [
            (None, "ProgramRejected", json.dumps({"signature": hostile.summary, "reason": hostile.reason}), time.time()),
            ("t-paused", "ApprovalRequested", json.dumps({"approval_id": "a-hostile", "reason": hostile.error,
                                                          "call": {"tool": "fs.write", "args": {"path": hostile.path}}}),
             time.time())])
