"""The web task families in docs/examples/web are well-formed specs that use only the browser tools, as documented."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.gate.classifier import Classifier
from engine.gate.verdict import Level
from engine.tier import Tier
from engine.tools.call import ToolCall

ROOT = Path(__file__).resolve().parents[2]
SPECS = sorted((ROOT / "docs" / "examples" / "web").glob("*.json"))

TOOLS = {
    "browser.goto": {"url"},
    "browser.click": {"target"},
    "browser.fill": {"target", "text"},
    "browser.type": {"text"},
    "browser.press": {"key"},
    "browser.select": {"target", "value"},
    "browser.check": {"target"},
    "browser.scroll": {"dx", "dy"},
    "browser.wait": {"target"},
}
TARGETS = [{"role", "name"}, {"text"}, {"label"}, {"placeholder"}, {"css"}, {"xpath"}, {"x", "y"}]


def test_there_are_at_least_six_families() -> None:
    assert len(SPECS) >= 6


@pytest.mark.parametrize("path", SPECS, ids=[p.name for p in SPECS])
def test_spec_is_well_formed(path: Path) -> None:
    spec = json.loads(path.read_text(encoding="utf-8"))
    assert {"goal", "env", "evaluate", "agent"} <= set(spec)
    assert isinstance(spec["goal"], str) and spec["goal"].strip()
    env = spec["env"]
    assert env["kind"] == "web" and env["start_url"].startswith("{demo}/")
    assert env["allowed_origins"] == ["{demo}"]
    for step in env.get("setup", []):
        assert set(step) in ({"js"}, {"wait_for"})
        if "wait_for" in step:
            assert set(step["wait_for"]) in TARGETS
    assert set(spec["evaluate"]) == {"js"} and spec["evaluate"]["js"].strip()
    assert spec["agent"]["kind"] == "scripted" and spec["agent"]["steps"]
    for step in spec["agent"]["steps"]:
        assert set(step) == {"tool", "args"}
        assert step["tool"] in TOOLS, step
        assert set(step["args"]) == TOOLS[step["tool"]], step
        if "target" in step["args"]:
            assert set(step["args"]["target"]) in TARGETS, step


@pytest.mark.parametrize("path", SPECS, ids=[p.name for p in SPECS])
def test_spec_runs_unattended(path: Path) -> None:
    """The gate rates every step safe (no Delete, Send, Post...), so the family runs without a person."""
    spec = json.loads(path.read_text(encoding="utf-8"))
    classifier = Classifier()
    for step in spec["agent"]["steps"]:
        verdict = classifier.classify(ToolCall(step["tool"], step["args"]), Tier.EXTERNALLY_IRREVERSIBLE, egress=None)
        assert verdict.level is Level.SAFE, (step, verdict.reason)


def test_the_gate_would_ask_before_the_confirmed_delete() -> None:
    """The app's delete flow is for the console demo: its confirm button is one the gate holds for a person."""
    call = ToolCall("browser.click", {"target": {"role": "button", "name": "Yes, delete"}})
    assert Classifier().classify(call, Tier.EXTERNALLY_IRREVERSIBLE, egress=None).level is not Level.SAFE


@pytest.mark.parametrize("path", SPECS, ids=[p.name for p in SPECS])
def test_goal_names_the_values_typed(path: Path) -> None:
    """Values typed or chosen appear in the goal, so a compiler can lift them into parameters."""
    spec = json.loads(path.read_text(encoding="utf-8"))
    typed = [step["args"].get("text") or step["args"].get("value") for step in spec["agent"]["steps"]
             if step["tool"] in ("browser.fill", "browser.select")]
    for value in typed:
        assert value.lower() in spec["goal"].lower(), value
