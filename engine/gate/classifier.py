"""The classifier: a verdict for any tool call, before it runs.

It only rates (level, tier, rules, reason); `gate.py` decides what to do with a rating.
Shell commands go through the tree-sitter analyser, inline code through the payload
reader, every other tool through the call rules. Nothing unknown is ever rated safe.
"""

from __future__ import annotations

import re
from operator import attrgetter
from collections.abc import Collection, Iterable

from engine.gate.policy import Policy
from engine.gate.packs import Bank, bank
from engine.gate.packs.calls import VOCABULARY
from engine.gate.packs.model import Findings, Hit
from engine.gate.shell.analyse import Analyser
from engine.gate.text import normalise
from engine.gate.verdict import Level, Verdict
from engine.tier import Tier
from engine.tools.call import ToolCall

_TIER_ORDER = tuple(Tier)
_LEVEL = attrgetter("rule.level")  # sorted(reverse=True) stays stable: equal levels keep finding order
_TIER = attrgetter("rule.tier")
_ID = attrgetter("rule.id")
DEFAULT_RULES = frozenset({"shell.unknown", "tool.unknown", "code.exec"})
_NO_RULE = "read-only: no rule matched"
_SAFE = {tier: Verdict(Level.SAFE, tier, (), _NO_RULE) for tier in Tier}  # verdicts are frozen: build these once
_INVISIBLE = re.compile(r"[\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]")


def _strictest(declared: Tier, tiers: Iterable[Tier]) -> Tier:
    """The strictest tier (the earliest on ties); ranks come from positions, as hashing enum members is slow."""
    best, rank = declared, _TIER_ORDER.index(declared)
    for tier in tiers:
        if tier is not best and _TIER_ORDER.index(tier) > rank:
            best, rank = tier, _TIER_ORDER.index(tier)
    return best


class Classifier:
    """Rates a call safe, dangerous or catastrophic and names the rules behind it."""

    def __init__(self, policy: Policy | None = None, rules: Bank | None = None,
                 tools: Collection[str] | None = None) -> None:
        """`tools` are the registry's names: any other tool is unknown. Without them (rating calls
        outside a runtime), the tool names the call rules are written against stand in."""
        self.policy = policy or Policy()
        self.tools = frozenset(tools) if tools is not None else None
        self.bank = rules or bank(self.policy.disabled_packs)
        self.analyser = Analyser(self.bank, frozenset(self.policy.read_only_commands))

    def classify(self, call: ToolCall, declared_tier: Tier = Tier.LOCAL_REVERSIBLE, egress: str | None | object = ...) -> Verdict:
        """`egress`, when the environment knows its scope, is where the call would leave it (None: it stays
        inside); rules marked `scoped` then follow it instead of their own guess from the call alone."""
        return self.verdict(call, self.findings(call, egress), declared_tier)

    def findings(self, call: ToolCall, egress: str | None | object = ...) -> Findings:
        """Every rule the call fires and the text each fired on, before a verdict is drawn (`explain` shows them)."""
        findings = Findings()
        prefix, _, action = call.tool.partition(".")
        known = call.tool in self.tools if self.tools is not None else action in VOCABULARY.get(prefix, ())
        if not known:
            findings.hits.append(Hit(self.bank["tool.unknown"], call.tool))
        elif prefix == "shell":
            self.shell(str(call.args.get("command", "")), findings)
        else:
            for item in self.bank.calls:
                if not item.applies(call):
                    continue
                if item.scoped and egress is not ...:
                    if egress is not None:
                        findings.hits.append(Hit(item, str(egress)))
                elif found := item.test(call):
                    findings.hits.append(Hit(item, found if isinstance(found, str) else ""))
            if prefix == "code":
                self.analyser.code(normalise(str(call.args.get("code", ""))), findings, 0)
        return findings

    def shell(self, command: str, findings: Findings) -> None:
        """Analyses one shell command line (or script) into `findings`."""
        if not command.isascii() and _INVISIBLE.search(command):
            findings.hits.append(Hit(self.bank["obfuscation.unicode-escape"], ""))
        text = normalise(command)
        if not text.strip():
            return
        self.analyser.script(text, findings)

    def verdict(self, call: ToolCall, findings: Findings, declared: Tier) -> Verdict:
        if findings.unknown:
            reasons = "; ".join(dict.fromkeys(findings.reasons.get(name) or f"{name}: not proven read-only"
                                              for name in findings.unknown))
            findings.hits.append(Hit(self.bank["shell.unknown"], reasons[:300]))
        override = self.policy.tool_levels.get(call.tool)
        if not findings.hits and override is None:
            return _SAFE.get(declared) or Verdict(Level.SAFE, declared, (), _NO_RULE)
        hits: dict[str, Hit] = {}
        for hit in findings.hits:
            if override is None or hit.rule.id not in DEFAULT_RULES:
                hits.setdefault(hit.rule.id, hit)
        ordered = sorted(hits.values(), key=_LEVEL, reverse=True)
        level = ordered[0].rule.level if ordered else Level.SAFE
        if override is not None:
            level = max(level, override)
        tier = _strictest(declared, map(_TIER, ordered))
        return Verdict(level, tier, tuple(map(_ID, ordered)), self.reason(ordered, level, override), tuple(findings.code))

    @staticmethod
    def reason(hits: list[Hit], level: Level, override: Level | None) -> str:
        """Why: the first of the most severe hits (`hits` is sorted most severe first)."""
        if not hits or hits[0].rule.level != level:
            return "policy default for this tool" if override is not None else _NO_RULE
        first = hits[0]
        text = first.rule.reason
        if first.rule.id == "shell.unknown" and first.detail:
            text = first.detail
        elif first.rule.cite and first.detail:
            text = f"{text}: {first.detail}"
        more = len(hits) - 1
        return text + (f" (+{more} more rule{'s' if more > 1 else ''})" if more else "")
