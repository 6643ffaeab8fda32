"""Every rule's own examples: positives must fire it at its level, counter-examples must not."""

from __future__ import annotations

import pytest

from engine.gate.packs import bank
from engine.gate.packs.model import THEMES, CallRule
from engine.tools.call import ToolCall

CASES = [(item, example, True) for item in bank().all() for example in item.examples] + [
    (item, example, False) for item in bank().all() for example in item.counter
]


def _call(item, example) -> ToolCall:
    if isinstance(item, CallRule):
        return ToolCall.from_json(example)
    return ToolCall("shell.run", {"command": example})


@pytest.mark.parametrize(("item", "example", "positive"), CASES, ids=lambda v: v.id if hasattr(v, "id") else None)
def test_rule_example(classifier, item, example, positive) -> None:
    verdict = classifier.classify(_call(item, example))
    if positive:
        assert item.id in verdict.rules, f"{item.id} did not fire on {example!r}: {verdict}"
        assert verdict.level >= item.level
    else:
        assert item.id not in verdict.rules, f"{item.id} fired on counter-example {example!r}: {verdict}"


def test_bank_is_large_and_complete() -> None:
    rules = bank().all()
    assert len(rules) >= 150
    for item in rules:
        assert item.examples and item.counter, f"{item.id} needs positive and negative examples"
        assert item.reason and len(item.reason) < 120
        assert set(item.themes) <= set(THEMES), item.id
