"""The classifier: a verdict for any tool call, before it runs."""

from __future__ import annotations

import re
import shlex

from engine.gate.policy import Policy
from engine.gate.verdict import Level, Tier, Verdict
from engine.tools.call import ToolCall

_CATASTROPHIC = [
    ("fs.rm-root", re.compile(r"\brm\s+(-\w+\s+)*-\w*[rR]\w*\s+(-\w+\s+)*(/|~|\$HOME)(\s|$)"), "recursive delete of a root"),
    ("disk.mkfs", re.compile(r"\bmkfs(\.\w+)?\b"), "formats a disk"),
    ("exec.fork-bomb", re.compile(r":\(\)\s*\{\s*:\|:&\s*\};:"), "fork bomb"),
]
_DANGEROUS = [
    ("fs.rm", re.compile(r"\brm\b"), "deletes files"),
    ("net.curl", re.compile(r"\b(curl|wget)\b"), "network egress"),
    ("exec.sudo", re.compile(r"\bsudo\b"), "runs as root"),
]
_READ_ONLY = {"ls", "cat", "echo", "grep", "head", "tail", "wc", "pwd", "true", "stat", "du"}


class Classifier:
    """Rates a call safe, dangerous or catastrophic and names the rules behind it."""

    def __init__(self, policy: Policy | None = None) -> None:
        self.policy = policy or Policy()

    def classify(self, call: ToolCall, declared_tier: Tier = Tier.LOCAL_REVERSIBLE) -> Verdict:
        if call.tool == "shell.run":
            return self._shell(str(call.args.get("command", "")), declared_tier)
        if call.tool == "fs.delete":
            return Verdict(Level.DANGEROUS, declared_tier, ("fs.delete",), "deletes a file")
        if call.tool.startswith("fs."):
            return Verdict(Level.SAFE, declared_tier, (), "workspace file change")
        return Verdict(Level.DANGEROUS, declared_tier, ("tool.unknown",), f"no rules for {call.tool}")

    def _shell(self, command: str, tier: Tier) -> Verdict:
        for rule_id, pattern, reason in _CATASTROPHIC:
            if pattern.search(command):
                return Verdict(Level.CATASTROPHIC, tier, (rule_id,), reason)
        for rule_id, pattern, reason in _DANGEROUS:
            if pattern.search(command):
                return Verdict(Level.DANGEROUS, tier, (rule_id,), reason)
        try:
            words = shlex.split(command)
        except ValueError:
            return Verdict(Level.DANGEROUS, tier, ("shell.unparsed",), "cannot parse the command")
        if words and words[0] in _READ_ONLY | self.policy.read_only_commands and not re.search(r"[;&|`$<>]", command):
            return Verdict(Level.SAFE, tier, (), "read-only command")
        return Verdict(Level.DANGEROUS, tier, ("shell.unknown",), "not a known read-only command")
