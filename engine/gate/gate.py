"""The gate's decision: run, ask a person, or block — from a verdict and the policy."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from enum import StrEnum

from engine.gate.classifier import Classifier
from engine.gate.policy import Policy
from engine.gate.verdict import Level, Verdict
from engine.tier import Tier
from engine.tools.call import ToolCall
from engine.tools.registry import Tool


class Decision(StrEnum):
    ALLOW = "allow"
    ASK = "ask"
    BLOCK = "block"


@dataclass(frozen=True)
class Ruling:
    decision: Decision
    verdict: Verdict


class Gate:
    """Catastrophic is blocked; dangerous or irreversible asks unless the policy says otherwise.

    A call of a `scoped` tool that stays inside its environment's granted scope (a page of
    the task's allowed origins) does not ask for being irreversible alone; one that leaves it
    is rated egress. With gating off (an ablation) the classifier is never called and every
    call is allowed.
    """

    def __init__(self, policy: Policy, enabled: bool = True, tools: Collection[str] | None = None) -> None:
        self.policy = policy
        self.enabled = enabled
        self.classifier = Classifier(policy, tools=tools)
        self.calls = 0

    def rule(self, call: ToolCall, declared_tier: Tier, tool: Tool | None = None) -> Ruling:
        """`tool`, when known, says whether the call leaves its environment's scope."""
        if not self.enabled:
            return Ruling(Decision.ALLOW, Verdict(Level.SAFE, declared_tier, (), "gating is off"))
        self.calls += 1
        if tool is None or not tool.scoped:
            verdict = self.classifier.classify(call, declared_tier)
            return Ruling(self._decide(call, verdict), verdict)
        egress = tool.egress(call.args)
        verdict = self.classifier.classify(call, declared_tier, egress=egress)
        return Ruling(self._decide(call, verdict, contained=egress is None), verdict)

    def _decide(self, call: ToolCall, verdict: Verdict, contained: bool = False) -> Decision:
        if verdict.level is Level.CATASTROPHIC:
            return Decision.BLOCK
        if verdict.level is Level.DANGEROUS:
            auto = verdict.rules and set(verdict.rules) <= self.policy.auto_approve_rules
            if not auto:
                return Decision.ASK
        if verdict.tier is Tier.EXTERNALLY_IRREVERSIBLE and not contained and not self.policy.allows_irreversible(call):
            return Decision.ASK
        return Decision.ALLOW
