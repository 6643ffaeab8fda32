"""Acceptance: `warden bench replay --quick --json` on one family, in a real Chromium, through the CLI.

Only what does not depend on timing is asserted: the report's shape, that the warm task is
served by replay with no model call and no agent proposal, that the verify gate keeps a lossy
program out (and that without it the next task fails), that verified replay never acts in a
wrong state on a perturbed page, and that blind replay by recorded selectors walks into the
replaced button's trap.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from engine.envs.web.browser import find_browser

REPO = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.skipif(find_browser(os.environ.get("WARDEN_BROWSER") or None) is None,
                                reason="no Chromium on this machine")


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> dict:
    home = tmp_path_factory.mktemp("home")
    done = subprocess.run([sys.executable, "-m", "app.cli", "bench", "replay", "--quick", "--json",
                           "--families", "add-contact"],
                          check=False, capture_output=True, text=True, env={**os.environ, "WARDEN_HOME": str(home)},
                          timeout=600, cwd=REPO)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout)


def test_the_report_has_every_part(report: dict) -> None:
    assert set(report) >= {"families", "repeat", "browser", "cold_warm", "overhead", "gate_ablation", "perturbations"}
    assert report["families"] == ["add-contact"] and report["repeat"] == 1
    [row] = report["cold_warm"]
    for run in (row["cold"], row["warm"]):
        assert set(run) >= {"outcome", "evaluation", "path", "steps", "model_calls", "agent_proposals", "wall_s",
                            "stored_program_status"}
    [overhead] = report["overhead"]
    assert set(overhead) >= {"replay_action_s_median", "blind_action_s_median", "ratio", "actions"}
    assert {row["perturbation"] for row in report["perturbations"]} == {"dialog", "replace"}


def test_the_cold_run_is_the_agent_and_stores_a_verified_program(report: dict) -> None:
    cold = report["cold_warm"][0]["cold"]
    assert cold["outcome"] == "succeeded" and cold["path"] == "agent" and cold["agent_proposals"] >= 2
    assert cold["stored_program_status"] == "verified", cold


def test_the_warm_run_replays_with_no_model_call_and_no_agent_proposal(report: dict) -> None:
    row = report["cold_warm"][0]
    warm = row["warm"]
    assert warm["model_calls"] == 0
    assert warm["path"] == "replay", warm
    assert warm["outcome"] == "succeeded" and warm["agent_proposals"] == 0 and warm["replay_steps"] >= 2
    assert warm["program_id"] == row["cold"]["stored_program_id"]
    overhead = report["overhead"][0]
    assert overhead["replay_runs"] == 1 and overhead["blind_runs"] == 1 and overhead["blind_succeeded"] == 1


def test_the_verify_gate_keeps_the_lossy_program_out_and_without_it_the_task_fails(report: dict) -> None:
    [row] = report["gate_ablation"]
    assert row["lossy_program"] is not None, row["note"]
    on, off = row["arms"]["on"], row["arms"]["off"]
    assert on["stored"] is False and on["warm_succeeded"] is True and on["warm"]["path"] != "replay"
    assert off["stored"] is True and off["warm_succeeded"] is False
    assert off["warm"]["path"] == "replay" and off["warm"]["program_id"] == row["lossy_program"]["id"]


def test_verified_replay_takes_no_action_in_a_wrong_state(report: dict) -> None:
    for row in report["perturbations"]:
        assert row["verified"]["wrong_state_actions"] == 0, row


def test_blind_replay_presses_the_replaced_button_and_verified_replay_does_not(report: dict) -> None:
    replace = next(row for row in report["perturbations"] if row["perturbation"] == "replace")
    assert replace["blind"]["wrong_state"]["replaced_clicks"] >= 1 and replace["blind"]["contacts_left"] == 0
    assert replace["blind"]["succeeded"] is False
    assert replace["verified"]["wrong_state"]["replaced_clicks"] == 0 and replace["verified"]["contacts_left"] > 0
    assert replace["verified"]["fell_back"] is True
