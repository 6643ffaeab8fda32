"""The compensation example through the commands a user types: `warden run` makes a contact on the demo site,
`warden journal undo` deletes it again within its window, and refuses it `irrecoverable` after."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from engine.demo_site import DemoSite

EXAMPLE = Path(__file__).resolve().parents[2] / "docs" / "examples" / "compensation" / "add-contact-api.json"


@pytest.fixture
def site() -> Iterator[DemoSite]:
    with DemoSite(dialog="never", seed=1) as running:
        yield running


def warden(home: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "app.cli", *args], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "WARDEN_HOME": str(home)})


def made(tmp_path: Path, home: Path, site: DemoSite, window_s: float) -> dict:
    """Run the example against `site` with the given window; the receipt of its api.post."""
    spec = json.loads(EXAMPLE.read_text(encoding="utf-8").replace("{demo}", site.url))
    spec["env"]["compensators"][0]["window_s"] = window_s
    path = tmp_path / "spec.json"
    path.write_text(json.dumps(spec), encoding="utf-8")
    ran = warden(home, "run", "--spec", str(path), "--json")
    assert ran.returncode == 0, ran.stderr
    assert json.loads(ran.stdout)["outcome"] == "succeeded", ran.stdout
    [receipt] = json.loads(warden(home, "journal", "list", "--json").stdout)
    return receipt


def contacts(site: DemoSite) -> list[str]:
    return [contact["name"] for contact in site.state()["contacts"]]


def test_undo_within_the_window_deletes_the_contact_and_says_so(tmp_path: Path, site: DemoSite) -> None:
    home = tmp_path / "home"
    receipt = made(tmp_path, home, site, 3600)
    assert receipt["tier"] == "runtime_compensable" and receipt["reversal"] == "compensable" and receipt["undoable"]
    assert receipt["compensation"]["system"] == "demo contacts"
    assert "Ada Lovelace" in contacts(site)

    undone = warden(home, "journal", "undo", receipt["id"], "--json")

    assert undone.returncode == 0, undone.stderr
    assert json.loads(undone.stdout)["reversal"] == "reversed"
    assert "Ada Lovelace" not in contacts(site)
    again = warden(home, "journal", "undo", receipt["id"])
    assert again.returncode == 1 and "already undone" in again.stderr and again.stderr.count("\n") == 1
    own = [r for r in json.loads(warden(home, "journal", "list", "--json").stdout) if r["undoes"] == receipt["id"]]
    assert len(own) == 1 and own[0]["tool"] == "journal.undo"


def test_undo_past_the_window_is_refused_irrecoverable_and_the_contact_stays(tmp_path: Path, site: DemoSite) -> None:
    home = tmp_path / "home"
    receipt = made(tmp_path, home, site, 0.5)
    deadline = receipt["compensation"]["deadline"]
    while time.time() <= deadline:
        time.sleep(0.1)

    refused = warden(home, "journal", "undo", receipt["id"])

    assert refused.returncode == 1 and refused.stderr.count("\n") == 1
    assert "irrecoverable" in refused.stderr and "in demo contacts remains" in refused.stderr
    assert "Ada Lovelace" in contacts(site)
    shown = json.loads(warden(home, "journal", "show", receipt["id"], "--json").stdout)
    assert shown["reversal"] == "irrecoverable" and not shown["undoable"]
