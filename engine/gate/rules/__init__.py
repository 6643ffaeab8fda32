"""The rule bank: every rule the gate knows, indexed by program name for fast lookup."""

from __future__ import annotations

import re
from collections import Counter
from functools import lru_cache

from engine.gate.rules import calls, code, creds, evasion, execution, filesystem, injection, network, obfuscation, vcs, windows
from engine.gate.rules.model import THEMES, CallRule, Check, Rule, checks

_MODULES = (filesystem, vcs, execution, code, network, creds, obfuscation, injection, evasion, windows)


class Bank:
    """All rules; shell rules by program name, generic shell rules, call rules, raw-text rules."""

    def __init__(self, shell: list[Rule], call: list[CallRule]) -> None:
        self.shell = shell
        self.calls = call
        self.by_id: dict[str, Rule | CallRule] = {}
        for item in [*shell, *call]:
            if item.id in self.by_id:
                raise ValueError(f"duplicate rule id {item.id}")
            self.by_id[item.id] = item
        self.by_name: dict[str, list[Rule]] = {}
        self.generic: list[Rule] = []
        self.raw_always = [r for r in shell if r.raw == "always"]
        self.raw_fallback = [r for r in shell if r.raw == "fallback"]
        self.scoped: dict[str, list[Rule]] = {}
        literals = sorted({n for r in self.raw_always for n in r.needles}, key=len, reverse=True)
        self.raw_needles = re.compile("|".join(map(re.escape, literals))) if literals else None
        for item in shell:
            if item.trigger or item.raw:
                continue
            if not item.names and item.scope:
                self.scoped.setdefault(item.scope, []).append(item)
            elif not item.names:
                self.generic.append(item)
            for name in item.names:
                self.by_name.setdefault(name, []).append(item)
        self.generic_checks = checks(self.generic)
        self.scoped_checks = {scope: checks(rules) for scope, rules in self.scoped.items()}
        self.name_checks = {name: checks(rules) for name, rules in self.by_name.items()}
        self.first_checks: dict[str, dict[str, list[Check]]] = {}
        self.unrestricted_checks: dict[str, list[Check]] = {}
        for name, rules in self.by_name.items():
            firsts = {first for item in rules for first in item.first}
            if firsts:
                self.unrestricted_checks[name] = checks([item for item in rules if not item.first])
                self.first_checks[name] = {
                    first: checks([item for item in rules if not item.first or first in item.first], first)
                    for first in firsts}

    def rules_for(self, name: str) -> list[Rule]:
        return self.by_name.get(name, [])

    def candidates(self, name: str, first: str | None) -> list[Check]:
        """Checks for the rules of program `name` that can match when its first operand is `first`, in bank order."""
        table = self.first_checks.get(name)
        if table is None:
            return self.name_checks.get(name, [])
        found = table.get(first) if first is not None else None
        return found if found is not None else self.unrestricted_checks[name]

    def __getitem__(self, rule_id: str) -> Rule | CallRule:
        return self.by_id[rule_id]

    def all(self) -> list[Rule | CallRule]:
        return [*self.shell, *self.calls]


@lru_cache(maxsize=1)
def bank() -> Bank:
    """The built-in bank (built once per process)."""
    shell = [r for module in _MODULES for r in module.RULES]
    return Bank(shell, list(calls.RULES))


def theme_counts() -> dict[str, Counter[str]]:
    """Per theme, how many rules of each level: the table docs/gate.md shows."""
    table: dict[str, Counter[str]] = {theme: Counter() for theme in THEMES}
    for item in bank().all():
        for theme in item.themes:
            table[theme][item.level.label] += 1
    return table


def markdown() -> str:
    """The themes table for docs/gate.md, generated so that it cannot drift from the bank."""
    rows = ["| theme | safe | dangerous | catastrophic | total |", "|---|---:|---:|---:|---:|"]
    for theme, counts in theme_counts().items():
        total = sum(counts.values())
        rows.append(f"| {theme} | {counts['safe']} | {counts['dangerous']} | {counts['catastrophic']} | {total} |")
    rows.append(f"\n{len(bank().all())} rules in all ({len(bank().shell)} shell, {len(bank().calls)} tool-call); "
                "a rule may carry several themes.")
    return "\n".join(rows)
