"""The classifier: a verdict for any tool call, before it runs.

It only rates (level, tier, rules, reason); `gate.py` decides what to do with a rating.
Shell commands go through the tree-sitter analyser, inline code through the payload
reader, every other tool through the call rules. Nothing unknown is ever rated safe.
"""

from __future__ import annotations

import re

from engine.gate.policy import Policy
from engine.gate.rules import Bank, bank
from engine.gate.rules.model import Findings, Hit
from engine.gate.shell.analyse import Analyser
from engine.gate.text import normalise
from engine.gate.verdict import Level, Tier, Verdict
from engine.tools.call import ToolCall

KNOWN_TOOLS: dict[str, frozenset[str]] = {
    "shell": frozenset({"run"}),
    "code": frozenset({"run"}),
    "fs": frozenset({"write", "append", "delete", "move", "mkdir", "read", "list", "stat"}),
    "http": frozenset({"request"}),
    "browser": frozenset({"navigate", "click", "type", "scroll", "screenshot", "back", "forward", "reload", "wait",
                          "select", "hover", "press", "snapshot", "observe"}),
    "desktop": frozenset({"click", "double_click", "right_click", "type", "key", "hotkey", "scroll", "move", "drag",
                          "screenshot", "launch", "open", "wait", "observe"}),
    "android": frozenset({"tap", "click", "long_press", "type", "swipe", "back", "home", "screenshot", "launch", "wait",
                          "uninstall", "clear_data", "factory_reset", "wipe", "send_sms", "send_message", "send_email",
                          "call", "install", "grant", "adb", "observe"}),
}
_TIER_RANK = {tier: rank for rank, tier in enumerate(Tier)}
DEFAULT_RULES = frozenset({"shell.unknown", "tool.unknown", "code.exec"})
_INVISIBLE = re.compile(r"[\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]")


class Classifier:
    """Rates a call safe, dangerous or catastrophic and names the rules behind it."""

    def __init__(self, policy: Policy | None = None, rules: Bank | None = None) -> None:
        self.policy = policy or Policy()
        self.bank = rules or bank()
        self.analyser = Analyser(self.bank, frozenset(self.policy.read_only_commands))

    def classify(self, call: ToolCall, declared_tier: Tier = Tier.LOCAL_REVERSIBLE) -> Verdict:
        findings = Findings()
        prefix, _, action = call.tool.partition(".")
        if action not in KNOWN_TOOLS.get(prefix, frozenset()):
            findings.hits.append(Hit(self.bank["tool.unknown"], call.tool))
        elif prefix == "shell":
            self.shell(str(call.args.get("command", "")), findings)
        else:
            for item in self.bank.calls:
                if item.applies(call) and item.test(call):
                    findings.hits.append(Hit(item, ""))
            if prefix == "code":
                self.analyser.code(normalise(str(call.args.get("code", ""))), findings, 0)
        return self.verdict(call, findings, declared_tier)

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
            names = ", ".join(dict.fromkeys(findings.unknown))
            findings.hits.append(Hit(self.bank["shell.unknown"], names))
        override = self.policy.tool_levels.get(call.tool)
        if not findings.hits and override is None:
            return Verdict(Level.SAFE, declared, (), "read-only: no rule matched")
        hits: dict[str, Hit] = {}
        for hit in findings.hits:
            if override is not None and hit.rule.id in DEFAULT_RULES:
                continue
            hits.setdefault(hit.rule.id, hit)
        ordered = sorted(hits.values(), key=lambda h: -h.rule.level)
        level = max((h.rule.level for h in ordered), default=Level.SAFE)
        if override is not None:
            level = max(level, override)
        tier = max((declared, *(h.rule.tier for h in ordered)), key=_TIER_RANK.__getitem__)
        return Verdict(level, tier, tuple(h.rule.id for h in ordered), self.reason(ordered, level, override))

    @staticmethod
    def reason(hits: list[Hit], level: Level, override: Level | None) -> str:
        top = [h for h in hits if h.rule.level == level]
        if not top:
            return "policy default for this tool" if override is not None else "read-only: no rule matched"
        first = top[0]
        text = first.rule.reason
        if first.rule.id == "shell.unknown" and first.detail:
            text = f"runs {first.detail}, which is not on the read-only list"
        more = len(hits) - 1
        return text + (f" (+{more} more rule{'s' if more > 1 else ''})" if more else "")
