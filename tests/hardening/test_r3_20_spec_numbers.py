"""Round 3, finding 20: submit accepted `budget.wall_s: NaN` (and Infinity) and `max_steps: 10**30`.

A NaN limit is never reached (every comparison with it is false), an infinite one is no limit, and a
number past what the database stores breaks the task later. Every number of a spec is finite, positive
and within sane bounds; a bad one is one line naming the task and the field, and nothing is queued.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from app.cli import main
from engine.tasks.budget import Budget
from engine.tasks.task import TaskSpec
from tests.cli.test_submit import warden

BAD = [
    ({"budget": {"wall_s": float("nan")}}, "budget.wall_s"),
    ({"budget": {"wall_s": float("inf")}}, "budget.wall_s"),
    ({"budget": {"wall_s": float("-inf")}}, "budget.wall_s"),
    ({"budget": {"wall_s": -5}}, "budget.wall_s"),
    ({"budget": {"cost_usd": float("nan")}}, "budget.cost_usd"),
    ({"budget": {"tokens": 10**30}}, "budget.tokens"),
    ({"budget": {"steps": 10**30}}, "budget.steps"),
    ({"budget": {"steps": 2.5}}, "budget.steps"),
    ({"budget": {"wall_s": 1e300}}, "budget.wall_s"),
    ({"max_steps": 10**30}, "max_steps"),
    ({"max_steps": float("nan")}, "max_steps"),
    ({"max_steps": True}, "max_steps"),
    ({"max_steps": 0}, "max_steps"),
]


def tasks_in(home: Path) -> list[tuple]:
    if not (home / "warden.db").exists():
        return []
    with sqlite3.connect(home / "warden.db") as db:
        return db.execute("SELECT goal FROM tasks").fetchall()


@pytest.mark.parametrize(("extra", "field"), BAD, ids=[f"{field}={json.dumps(list(extra.values())[0])}"
                                                       for extra, field in BAD])
def test_r3_20_submit_refuses_a_number_that_is_not_a_sane_limit(tmp_path: Path, monkeypatch, capsys,
                                                                 extra: dict, field: str) -> None:
    monkeypatch.setenv("WARDEN_HOME", str(tmp_path / "home"))
    tasks = tmp_path / "tasks.json"
    tasks.write_text(json.dumps([{"goal": "Write a.txt"}, {"goal": "Write b.txt", **extra}]), encoding="utf-8")
    assert main(["submit", str(tasks)]) != 0
    out, err = capsys.readouterr()
    [line] = err.splitlines()
    assert "task 2" in line and field in line, line
    assert out == ""
    assert tasks_in(tmp_path / "home") == []


def test_r3_20_the_command_line_says_it_in_one_line(tmp_path: Path) -> None:
    tasks = tmp_path / "tasks.json"
    tasks.write_text('{"goal": "Write a.txt", "budget": {"wall_s": NaN}}', encoding="utf-8")
    result = warden(tmp_path / "home", "submit", str(tasks))
    assert result.returncode != 0 and "Traceback" not in result.stderr
    [line] = result.stderr.splitlines()
    assert "task 1" in line and "budget.wall_s" in line and "nan" in line.lower(), line
    assert tasks_in(tmp_path / "home") == []


def test_r3_20_sane_limits_are_kept_and_doubling_stays_within_bounds() -> None:
    spec = TaskSpec.from_json({"goal": "g", "max_steps": 500,
                               "budget": {"steps": 40, "wall_s": 90.5, "tokens": 200_000, "cost_usd": 2.5}})
    assert spec.max_steps == 500
    assert spec.budget == Budget(steps=40, wall_s=90.5, tokens=200_000, cost_usd=2.5)
    budget = spec.budget
    for _ in range(200):
        budget = budget.doubled()
    assert Budget.from_json(budget.as_json()) == budget, "a budget doubled again and again is still a valid one"


@pytest.mark.parametrize(("name", "text"), [
    ("tasks.json", '{"goal": "Write a.txt", "max_steps": ' + "9" * 5000 + "}"),
    ("task.toml", 'goal = "Write a.txt"\nmax_steps = ' + "9" * 5000 + "\n"),
])
def test_r3_20_a_number_too_long_to_read_is_one_line(tmp_path: Path, monkeypatch, capsys, name: str, text: str) -> None:
    """Python refuses to read an integer of more than 4,300 digits; the file is refused, not the reader."""
    monkeypatch.setenv("WARDEN_HOME", str(tmp_path / "home"))
    spec = tmp_path / name
    spec.write_text(text, encoding="utf-8")
    command = ["submit", str(spec)] if name.endswith(".json") else ["run", "--spec", str(spec)]
    assert main(command) != 0
    [line] = capsys.readouterr().err.splitlines()
    assert str(spec) in line and "digits" in line, line
    assert tasks_in(tmp_path / "home") == []
