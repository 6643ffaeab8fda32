"""Every agent's default model is in the built-in price table.

A model the table does not name is costed at $0 a call, so a task's dollar budget would never fire for
it. The agents are the runtime's own registry, each built from a spec that names nothing but its kind,
so a new agent, or a new default model, is checked without this file changing.
"""

from __future__ import annotations

import pytest

from engine.agents.agent import Price, Usage
from engine.gate.policy import Policy
from engine.runtime import AGENTS
from tests.agents.conftest import context


@pytest.fixture
def default_models(monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """Each registered agent that talks to a model, by kind, and the model it uses when the spec names none.

    Keys are set (never used: building an agent sends nothing) so that every model agent can be built; one
    that still cannot be fails the test, which then says what it needs.
    """
    monkeypatch.setenv("ANTHROPIC_API_KEY", "unused")
    monkeypatch.setenv("GEMINI_API_KEY", "unused")
    models = {}
    for kind, factory in AGENTS.items():
        agent = factory({"kind": kind}, context(env_kind="web"))
        model = getattr(agent, "model", None)
        if model is not None:
            models[kind] = model
    return models


def test_every_default_model_has_a_price(default_models: dict[str, str]) -> None:
    assert default_models, "the registry builds no model agent: nothing would be checked"
    prices = Policy().prices
    unpriced = {kind: model for kind, model in default_models.items() if model not in prices}
    assert not unpriced, f"add these to engine/gate/policy.py PRICES: {unpriced}"
    for model in default_models.values():
        assert Usage.priced(1_000_000, 1_000_000, Price(*prices[model])).cost_usd > 0, model


def test_the_default_claude_and_gemini_models_cost_their_list_prices(default_models: dict[str, str]) -> None:
    prices = Policy().prices
    assert prices[default_models["anthropic"]] == (3.0, 15.0)
    assert prices[default_models["gemini"]] == (1.25, 10.0)
