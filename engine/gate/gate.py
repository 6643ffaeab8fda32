"""The gate's decision: run, ask a person, or block — from a verdict, its containment and the policy."""

from __future__ import annotations

import re
import shlex
from collections.abc import Collection
from dataclasses import dataclass
from enum import StrEnum
from fnmatch import fnmatchcase
from urllib.parse import urlsplit

from engine.gate.classifier import Classifier
from engine.gate.packs.model import Hit
from engine.gate.policy import Policy, PolicyError
from engine.gate.route import SHELL_TOOLS, Route, Routing, contained_why, phrase
from engine.gate.verdict import Level, Verdict
from engine.tier import Tier
from engine.tools.call import ToolCall
from engine.tools.registry import Tool


class Decision(StrEnum):
    ALLOW = "allow"
    ASK = "ask"
    BLOCK = "block"

    @property
    def route(self) -> Route:
        return _ROUTES[self]


_ROUTES = {Decision.ALLOW: Route.RUNS, Decision.ASK: Route.ASKS, Decision.BLOCK: Route.BLOCKED}


@dataclass(frozen=True)
class Ruling:
    """The decision, the verdict it was drawn from, and why, in words a person reads at a glance."""

    decision: Decision
    verdict: Verdict
    why: str = ""

    @property
    def route(self) -> Route:
        return self.decision.route

    @property
    def routing(self) -> Routing:
        return Routing(self.route, self.why)


class Gate:
    """Routes each call by its level, its tier and its containment (`engine/gate/route.py`).

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
        packs = self.classifier.bank.packs
        self._packs = {rule.id: pack.id for pack in packs for rule in pack.rules}
        self._packs.update({rule.id: pack.id for pack in packs for rule in pack.calls})
        strangers = sorted(policy.ask.rules - set(self.classifier.bank.by_id))
        if strangers:
            raise PolicyError(f"policy {policy.source}: ask.rules: no rule {strangers[0]!r}")

    def rule(self, call: ToolCall, declared_tier: Tier, tool: Tool | None = None) -> Ruling:
        """`tool`, when known, says whether the call leaves its environment's scope and arms a compensator."""
        if not self.enabled:
            return Ruling(Decision.ALLOW, Verdict(Level.SAFE, declared_tier, (), "gating is off"), "gating is off")
        self.calls += 1
        scoped = tool is not None and tool.scoped
        egress = tool.egress(call.args) if tool is not None and scoped else ...
        findings = self.classifier.findings(call, egress)
        verdict = self.classifier.verdict(call, findings, declared_tier)
        decision, why = self._route(call, verdict, findings.hits, declared_tier, tool, in_scope=scoped and egress is None)
        return Ruling(decision, verdict, why)

    def _route(self, call: ToolCall, verdict: Verdict, hits: list[Hit], declared: Tier, tool: Tool | None,
               in_scope: bool) -> tuple[Decision, str]:
        if verdict.level is Level.CATASTROPHIC:
            return Decision.BLOCK, verdict.reason
        asked = self._asked(call, verdict)
        if asked:
            return Decision.ASK, asked
        if verdict.tier is Tier.EXTERNALLY_IRREVERSIBLE and not in_scope:
            if not self.policy.allows_irreversible(call):
                return Decision.ASK, self._leaves(call, hits)
            if verdict.level is Level.SAFE:
                return Decision.ALLOW, f"the policy lets {call.tool} reach {_host(call) or 'outside'}"
        if verdict.level is Level.SAFE:
            return Decision.ALLOW, _safe_why(call, verdict, declared, in_scope)
        if verdict.rules and set(verdict.rules) <= self.policy.auto_approve_rules:
            return Decision.ALLOW, f"the policy approves {phrase(verdict.rules)}"
        if self.policy.ask.dangerous:
            return Decision.ASK, verdict.reason
        if declared is Tier.LOCAL_REVERSIBLE and verdict.tier is not Tier.EXTERNALLY_IRREVERSIBLE:
            return Decision.ALLOW, contained_why(call.tool)
        compensator = tool.compensator(call.args) if tool is not None else None
        if verdict.tier is Tier.RUNTIME_COMPENSABLE and compensator is not None:
            return Decision.ALLOW, f"compensable: {compensator.system} can take it back for {compensator.window_s:g} s"
        return Decision.ASK, verdict.reason

    def _asked(self, call: ToolCall, verdict: Verdict) -> str | None:
        """Why the policy's `[ask]` table holds this call for a person, if it does."""
        ask = self.policy.ask
        if call.tool in ask.tools:
            return f"the policy asks for every {call.tool} call"
        for rule in verdict.rules:
            if rule in ask.rules:
                return f"the policy asks for {rule}"
            if self._packs.get(rule) in ask.packs:
                return f"the policy asks for the {self._packs[rule]} pack ({rule})"
        for path in named_paths(call) if ask.paths else ():
            for glob in ask.paths:
                if fnmatchcase(path, glob):
                    return f"the policy asks for paths like {glob} ({path})"
        return None

    def _leaves(self, call: ToolCall, hits: list[Hit]) -> str:
        """Why an externally irreversible call cannot be taken back: the rule that says so, else the tool's reach."""
        for hit in hits:
            if hit.rule.tier is Tier.EXTERNALLY_IRREVERSIBLE:
                cited = hit.rule.cite and hit.detail and hit.rule.id != "shell.unknown"
                host = _host(call) or next(iter(_HOSTS.findall(hit.detail)), "")
                text = f"{hit.rule.reason}: {hit.detail}" if cited else hit.rule.reason
                return f"{text} ({host})" if host and host not in text else text
        if call.tool in SHELL_TOOLS:
            return "the shell is not confined" if self.policy.shell_unconfined else "the shell can reach the network"
        host = _host(call)
        return f"sends data to {host}" if host else f"{call.tool} acts where Warden cannot undo it"


def _safe_why(call: ToolCall, verdict: Verdict, declared: Tier, in_scope: bool) -> str:
    if in_scope:
        return "inside the task's allowed origins"
    if call.tool in SHELL_TOOLS:
        return "read-only" if declared is Tier.LOCAL_REVERSIBLE else verdict.reason
    return contained_why(call.tool) if declared is Tier.LOCAL_REVERSIBLE else verdict.reason


def _host(call: ToolCall) -> str:
    url = call.args.get("url")
    return (urlsplit(str(url)).hostname or "") if url else ""


_HOSTS = re.compile(r"[a-z][a-z0-9+.-]*://(?:[^@/\s]*@)?([^/:\s'\"]+)", re.IGNORECASE)
_PATH_KEYS = ("path", "src", "dst", "source", "destination", "target_path")


def named_paths(call: ToolCall) -> list[str]:
    """The workspace paths a call names, as `[ask] paths` globs are matched against them: the file tools'
    path arguments, and every word of a shell command (and the value of a `name=value` word)."""
    if call.tool in SHELL_TOOLS:
        text = str(call.args.get("command") or call.args.get("code") or "")
        try:
            words = shlex.split(text)
        except ValueError:
            words = text.split()
        words += [word.partition("=")[2] for word in words if "=" in word]
    else:
        words = [str(call.args[key]) for key in _PATH_KEYS if isinstance(call.args.get(key), str)]
    return [word.removeprefix("./") for word in words if word]
