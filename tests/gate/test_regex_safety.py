"""No pattern of the gate can backtrack catastrophically: no unbounded repeat nests another.

A structural check over every compiled pattern in `engine/gate` (rule fields and module
constants), so a new rule with `(a+)+` fails here instead of in production.
"""

from __future__ import annotations

import dataclasses
import importlib
import pkgutil
import re
from re import _constants as sre_constants  # type: ignore[attr-defined]
from re import _parser as sre_parse  # type: ignore[attr-defined]

import engine.gate
from engine.gate.packs import bank

UNBOUNDED = sre_constants.MAXREPEAT
GREEDY = (sre_constants.MAX_REPEAT, sre_constants.MIN_REPEAT)


def patterns() -> dict[str, re.Pattern[str]]:
    found: dict[str, re.Pattern[str]] = {}
    for module_info in pkgutil.walk_packages(engine.gate.__path__, "engine.gate."):
        if module_info.name.endswith("__main__"):
            continue
        module = importlib.import_module(module_info.name)
        for name, value in vars(module).items():
            if isinstance(value, re.Pattern):
                found[f"{module_info.name}.{name}"] = value
    for rule in bank().by_id.values():
        for field in dataclasses.fields(rule):
            value = getattr(rule, field.name)
            if isinstance(value, re.Pattern):
                found[f"rule {rule.id}.{field.name}"] = value
    return found


def nested_unbounded(items, inside: bool = False) -> bool:
    """True when an unbounded greedy repeat contains another unbounded greedy repeat."""
    for op, arg in items:
        if op in GREEDY:
            low, high, body = arg
            unbounded = high == UNBOUNDED
            if unbounded and inside:
                return True
            if nested_unbounded(body, inside or unbounded):
                return True
        elif op is sre_constants.SUBPATTERN:
            if nested_unbounded(arg[-1], inside):
                return True
        elif op is sre_constants.BRANCH:
            if any(nested_unbounded(branch, inside) for branch in arg[1]):
                return True
        elif op in (sre_constants.ASSERT, sre_constants.ASSERT_NOT):
            if nested_unbounded(arg[1], inside):
                return True
    return False


def test_the_gate_has_patterns_to_check() -> None:
    assert len(patterns()) > 100


def test_no_pattern_nests_unbounded_repeats() -> None:
    risky = [name for name, pattern in patterns().items() if nested_unbounded(sre_parse.parse(pattern.pattern, pattern.flags))]
    assert risky == []


def test_the_check_catches_a_classic_redos_pattern() -> None:
    assert nested_unbounded(sre_parse.parse(r"^(a+)+$"))
    assert nested_unbounded(sre_parse.parse(r"(?:x|\s*y)*z"))
    assert not nested_unbounded(sre_parse.parse(r"(?:a{1,20})+b"))
