"""Programs on a real Chromium, through `warden run --spec` as a user runs it: every demo family learns a
verified program cold and serves another value of the family by replay with no model call; a lossy
program never displaces the good one; a program that changes a site with no declared reset is never
re-run to verify it, and waits for a person."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples" / "web"
FAMILIES = sorted(path.stem for path in EXAMPLES.glob("*.json"))


def warden(home: Path, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "WARDEN_HOME": str(home)}
    return subprocess.run([sys.executable, "-m", "app.cli", *args], capture_output=True, text=True, env=env, timeout=300)


def run_spec(home: Path, spec: Path) -> dict:
    done = warden(home, "run", "--spec", str(spec), "--json")
    assert done.returncode == 0, done.stderr + done.stdout
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("family", FAMILIES)
def test_a_family_learns_cold_and_replays_another_value_with_no_model_call(tmp_path: Path, family: str) -> None:
    home = tmp_path / "home"
    cold = run_spec(home, EXAMPLES / f"{family}.json")
    assert (cold["outcome"], cold["path"], cold["evaluation"]) == ("succeeded", "agent", True), cold
    assert cold["steps"] >= 2 and cold["model_calls"] == 0
    assert cold["stored_program_status"] == "verified", cold
    warm = run_spec(home, EXAMPLES / "again" / f"{family}.json")
    assert warm["goal"] != cold["goal"], "the second spec asks for other values"
    assert (warm["outcome"], warm["path"], warm["model_calls"], warm["evaluation"]) == ("succeeded", "replay", 0, True), warm
    assert warm["program_id"] == cold["stored_program_id"]
    stats = json.loads(warden(home, "programs", "show", warm["program_id"], "--json").stdout)["stats"]
    assert (stats["replays"], stats["successes"]) == (1, 1)


def test_a_lossy_program_is_refused_and_the_good_version_keeps_serving(tmp_path: Path) -> None:
    home = tmp_path / "home"
    cold = run_spec(home, EXAMPLES / "add-contact.json")
    good = json.loads(warden(home, "programs", "export", cold["stored_program_id"]).stdout)
    lossy = json.loads(json.dumps(good))
    lossy["description"] = "fills the form, then leaves without saving"
    [save] = [t for t in lossy["transitions"] if t["action"]["args"].get("target", {}).get("name") == "Save contact"]
    save["action"] = {"tool": "browser.click", "args": {"target": {"role": "link", "name": "Contacts"}}}
    lossy["states"] = [s for s in lossy["states"] if s["id"] != save["to"]] + [
        {"id": save["to"], "description": "back on the list", "check": {"url": {"contains": "/contacts"}}}]
    [wait] = [t for t in lossy["transitions"] if t["from"] == save["to"]]
    lossy["transitions"].remove(wait)
    lossy["terminal"] = [save["to"]]
    lossy["states"] = [s for s in lossy["states"] if s["id"] != wait["to"]]
    path = tmp_path / "lossy.json"
    path.write_text(json.dumps(lossy), encoding="utf-8")

    offered = warden(home, "programs", "import", str(path), "--spec", str(EXAMPLES / "again" / "add-contact.json"))
    assert offered.returncode == 2 and "refused: replay completed but the task's evaluator failed" in offered.stdout
    kept = json.loads(warden(home, "programs", "export", good["id"]).stdout)
    assert kept == good, "the corpus keeps the good version, byte for byte"
    warm = run_spec(home, EXAMPLES / "again" / "add-contact.json")
    assert (warm["path"], warm["evaluation"]) == ("replay", True)


def test_a_program_that_changes_a_site_without_a_declared_reset_is_not_rerun_and_waits_for_a_person(
        tmp_path: Path) -> None:
    raw = json.loads((EXAMPLES / "add-contact.json").read_text(encoding="utf-8"))
    del raw["env"]["resettable"]
    raw["evaluate"] = {"js": "(async () => (await (await fetch('/api/state')).json()).contacts"
                             ".filter(c => c.name === 'Ada Lovelace').length === 1)()"}
    spec = tmp_path / "add-contact.json"
    spec.write_text(json.dumps(raw), encoding="utf-8")
    home = tmp_path / "home"
    cold = run_spec(home, spec)
    assert (cold["outcome"], cold["stored_program_status"]) == ("succeeded", "unverified"), cold
    held = json.loads(warden(home, "programs", "show", cold["stored_program_id"], "--json").stdout)
    assert "changes the site" in held["verification"]["how"] and "read-only" in held["verification"]["how"]
    assert cold["evaluation"] is True, "Ada was added once: verification re-ran nothing that changes the site"

    again = json.loads((EXAMPLES / "again" / "add-contact.json").read_text(encoding="utf-8"))
    del again["env"]["resettable"]
    (tmp_path / "again.json").write_text(json.dumps(again), encoding="utf-8")
    assert run_spec(home, tmp_path / "again.json")["path"] == "agent", "an unverified program is not served"

    accepted = warden(home, "programs", "accept", cold["stored_program_id"])
    assert accepted.returncode == 0, accepted.stderr
    assert run_spec(home, tmp_path / "again.json")["path"] == "replay"


def test_an_unexpected_dialog_halts_replay_before_acting_and_the_agents_way_round_becomes_a_branch(
        tmp_path: Path) -> None:
    home = tmp_path / "home"
    assert run_spec(home, EXAMPLES / "add-contact.json")["stored_program_status"] == "verified"
    perturbed = json.loads((EXAMPLES / "perturbed" / "dialog.json").read_text(encoding="utf-8"))
    perturbed["learn"] = True
    (tmp_path / "dialog.json").write_text(json.dumps(perturbed), encoding="utf-8")

    hybrid = run_spec(home, tmp_path / "dialog.json")
    assert (hybrid["outcome"], hybrid["path"], hybrid["evaluation"]) == ("succeeded", "hybrid", True), hybrid
    shown = json.loads(warden(home, "programs", "show", hybrid["program_id"], "--json").stdout)
    assert shown["revision"] == 2, "the fallback's continuation was spliced in and verified"
    [branch] = [t for t in shown["transitions"] if "guard" in t]
    assert branch["action"]["args"]["target"] == {"role": "button", "name": "Stay signed in"}
    assert branch["from"] == branch["to"] == shown["start"], "closing the dialog rejoins the program where it was"

    again = json.loads(json.dumps(perturbed).replace("Grace Kim", "Hedy Lamarr").replace("grace.kim", "hedy"))
    (tmp_path / "again.json").write_text(json.dumps(again), encoding="utf-8")
    served = run_spec(home, tmp_path / "again.json")
    assert (served["path"], served["model_calls"], served["evaluation"]) == ("replay", 0, True), served
