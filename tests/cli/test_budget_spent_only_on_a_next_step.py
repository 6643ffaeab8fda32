"""A budget is spent only when there is another step to take: a plan whose steps are all done finishes at
"4 of 4" instead of pausing with nothing left to do; and a raise is said in a sentence, not a dict."""

from __future__ import annotations

import json
from pathlib import Path

from engine.tasks.budget import Budget
from tests.cli.test_worker import warden


def four_files(budget: dict) -> dict:
    return {"goal": "Write four files", "learn": False, "budget": budget,
            "agent": {"kind": "scripted", "steps": [
                {"tool": "fs.write", "args": {"path": f"{n}.txt", "content": str(n)}} for n in range(4)]}}


def status(home: Path, task_id: str) -> dict:
    return json.loads(warden(home, "tasks", "show", task_id, "--json").stdout)


def test_a_four_step_plan_with_its_budget_raised_to_four_finishes(tmp_path: Path) -> None:
    home, ws = tmp_path / "home", tmp_path / "ws"
    file = tmp_path / "task.json"
    file.write_text(json.dumps(four_files({"steps": 2})), encoding="utf-8")
    submitted = warden(home, "submit", str(file), "--run", "--workspace", str(ws), "--json")
    [task_id] = json.loads(submitted.stdout)["task_ids"]
    assert status(home, task_id)["status"] == "paused"  # 2 of 2 used, two steps still to take

    assert warden(home, "tasks", "budget", task_id, "--steps", "4").returncode == 0
    ran = warden(home, "worker", "--until-idle", "--workspace", str(ws), "--json")
    assert ran.returncode == 0, ran.stderr
    shown = status(home, task_id)
    assert shown["status"] == "succeeded", shown  # 4 of 4 used, and nothing left to do: it does not pause
    assert shown["spent"]["steps"] == 4
    assert sorted(p.name for p in ws.iterdir()) == ["0.txt", "1.txt", "2.txt", "3.txt"]


def test_a_plan_that_needs_one_more_step_than_its_budget_still_pauses(tmp_path: Path) -> None:
    home, ws = tmp_path / "home", tmp_path / "ws"
    file = tmp_path / "task.json"
    file.write_text(json.dumps(four_files({"steps": 3})), encoding="utf-8")
    submitted = warden(home, "submit", str(file), "--run", "--workspace", str(ws), "--json")
    [task_id] = json.loads(submitted.stdout)["task_ids"]
    shown = status(home, task_id)
    assert shown["status"] == "paused" and shown["spent"]["steps"] == 3
    assert not (ws / "3.txt").exists()


def test_a_raised_budget_is_said_in_a_sentence() -> None:
    said = Budget(steps=4, tokens=200_000, wall_s=90.0, cost_usd=0.5).said()
    assert said == "4 steps, 90 s of running, 200,000 tokens, $0.50"
    assert "{" not in said and "'" not in said
    assert Budget(steps=1).said() == "1 step"
