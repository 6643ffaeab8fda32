"""Round 3, finding 19: a goal holding a lone surrogate gave a 40-line traceback at `warden submit`.

A lone surrogate (`"\\ud800"` in JSON) is not a character: no file, database or terminal can hold it.
Submitting such a goal is refused in one line naming the task, with a non-zero exit, and nothing is queued.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from engine.tasks.task import TaskSpec
from tests.cli.test_submit import warden


def queued(home: Path) -> list[tuple]:
    if not (home / "warden.db").exists():
        return []
    with sqlite3.connect(home / "warden.db") as db:
        return db.execute("SELECT goal FROM tasks").fetchall()


def test_r3_19_submit_refuses_a_goal_with_a_lone_surrogate_in_one_line(tmp_path: Path) -> None:
    home, tasks = tmp_path / "home", tmp_path / "tasks.json"
    tasks.write_text('[{"goal": "Write a.txt", "plan": []}, {"goal": "Archive \\ud800 now", "plan": []}]',
                     encoding="utf-8")
    result = warden(home, "submit", str(tasks))
    assert result.returncode != 0
    assert "Traceback" not in result.stderr
    [line] = result.stderr.splitlines()
    assert "task 2" in line and "surrogate" in line and "\\ud800" in line, line
    assert queued(home) == [], "a refused file queues none of its tasks"


@pytest.mark.parametrize("goal", ["\ud800", "a\udfffb", "\udc80 trailing"])
def test_r3_19_a_spec_refuses_a_goal_that_is_not_text(goal: str) -> None:
    with pytest.raises(ValueError, match="surrogate"):
        TaskSpec.from_json(json.loads(json.dumps({"goal": goal})))


def test_r3_19_a_goal_of_real_characters_beyond_the_basic_plane_is_kept() -> None:
    assert TaskSpec.from_json({"goal": "Send 🎉 to 𝔘𝔫𝔦𝔠𝔬𝔡𝔢"}).goal == "Send 🎉 to 𝔘𝔫𝔦𝔠𝔬𝔡𝔢"
