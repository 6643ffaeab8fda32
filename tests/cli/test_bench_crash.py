"""`warden bench crash`: plans killed at boundaries and mid-step end exactly as their crash-free run, with no
effect applied twice and every gated effect approved; and the effect log's counters catch what they claim to."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from engine.bench.crash import effects, plans, stalls
from engine.bench.crash.bench import approval_violations, crash_points
from engine.bench.crash.operators import GATED, OPERATORS

TASKS = 5


def test_a_small_run_resumes_every_task_exactly_and_reports_json(tmp_path: Path) -> None:
    runs = tmp_path / "runs"
    result = subprocess.run(
        [sys.executable, "-m", "app.cli", "bench", "crash", "--tasks", str(TASKS), "--seed", "7", "--workers", "2",
         "--home", str(runs), "--json"],
        check=False, capture_output=True, text=True, env={**os.environ, "WARDEN_HOME": str(tmp_path / "unused")},
        timeout=300)
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]
    report = json.loads(result.stdout)

    assert report["benchmark"] == "crash" and report["tasks"] == TASKS
    assert report["resume_correctness"] == 1.0
    assert report["duplicate_side_effects"] == 0
    assert report["missing_effects"] == 0
    assert report["approval_violations"] == 0
    assert report["statuses"] == {"succeeded": TASKS}
    kills = report["kills"]
    assert kills["total"] >= TASKS and kills["tasks_killed"] == TASKS
    assert kills["boundary"] >= 1 and kills["mid"] >= 1
    assert report["approvals"]["granted"] >= 1
    assert report["reclaim_s"]["n"] == kills["total"] and report["unreclaimed_kills"] == 0
    assert report["ok"] is True

    lines = effects.read(runs / "crash" / "control")
    reference = effects.read(runs / "reference" / "control")
    assert {line["key"] for line in lines} == {line["key"] for line in reference}
    assert len(lines) >= len(reference)  # a step killed after its effect ran again, from the same start


def test_the_duplicate_counter_flags_a_step_applied_on_top_of_its_own_effect() -> None:
    retried = [{"key": "p0000s03", "op": "append", "before": "aa", "after": "bb"},
               {"key": "p0000s03", "op": "append", "before": "aa", "after": "bb"}]
    doubled = [{"key": "p0000s04", "op": "append", "before": "bb", "after": "cc"},
               {"key": "p0000s04", "op": "append", "before": "cc", "after": "dd"}]

    assert effects.duplicates(retried) == 0
    assert effects.duplicates(retried + doubled) == 1
    assert effects.missing(retried + doubled, retried) == ["p0000s04"]


def test_a_gated_effect_needs_its_own_used_approval_by_the_bench() -> None:
    tasks = {"p0000": "t-1"}
    gated = sorted(GATED)[0].removeprefix("crash.")
    line = {"key": "p0000s02", "op": gated, "before": "aa", "after": "bb"}
    used = {"task_id": "t-1", "key": "p0000s02", "status": "used", "decided_by": "bench"}

    assert approval_violations([line], [used], tasks) == []
    assert approval_violations([line], [], tasks) != []
    assert approval_violations([line], [{**used, "decided_by": "someone"}], tasks) != []
    assert approval_violations([line, {**line, "pid": 2}], [used], tasks) != []  # one approval, two effects


def test_plans_are_seeded_long_enough_and_use_at_least_thirty_operators() -> None:
    made = plans.plans(40, 11)

    assert made == plans.plans(40, 11)
    assert all(plans.MIN_STEPS <= len(steps) <= plans.MAX_STEPS for steps in made)
    assert len(OPERATORS) >= 30
    assert len({step["tool"] for steps in made for step in steps}) >= 30
    assert any(step["tool"] in GATED for steps in made for step in steps)
    points = crash_points(made, 11)
    assert {key[:5] for key in points} == {plans.key(n, 0)[:5] for n in range(40)}
    assert {stalls.BOUNDARY} < set(points.values())
