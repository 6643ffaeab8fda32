"""Why the gate held a call: each rule it fires, the exact words each one fired on, and where egress goes.

The console's approval view re-rates the stored call under the running policy with the same
classifier the gate uses (it is pure), so what it highlights is what the rules actually saw.
A call rule that names no text of its own is probed argument by argument: the words are the
arguments without which it would not fire (or the tool's name, for a rule about the tool alone).
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from engine.envs.web.origins import origin_of
from engine.gate.approvals import Approval
from engine.gate.classifier import Classifier
from engine.gate.packs.model import CallRule, Hit
from engine.gate.verdict import Verdict
from engine.journal.diff import FileDiff
from engine.tier import Tier
from engine.tools.call import ToolCall

_URL_KEYS = ("url", "href", "endpoint")
_URL = re.compile(r"https?://[^\s'\"<>|;&)]+", re.IGNORECASE)


@dataclass(frozen=True)
class Match:
    """One rule the call fires: its level and tier hint, its reason, and the words it fired on."""

    rule: str
    level: str
    tier: str
    reason: str
    words: tuple[str, ...]


@dataclass(frozen=True)
class Egress:
    """Where a call sends something off this machine or out of its task's origins, and how much
    (`method` and `body_bytes` are None where a command line does not tell)."""

    destination: str
    method: str | None
    body_bytes: int | None
    allowed: tuple[str, ...] = ()

    @property
    def leaves_allowed(self) -> bool:
        """Whether the destination is outside the origins the task allows (always, when it allows none)."""
        return origin_of(self.destination) not in self.allowed


@dataclass(frozen=True)
class Explanation:
    """The call rated again now: the verdict, every rule with its words, and any egress."""

    verdict: Verdict
    matches: tuple[Match, ...]
    egress: tuple[Egress, ...]

    def words(self) -> dict[str, tuple[str, ...]]:
        """Each rule's words by rule id (what the approval view highlights)."""
        return {match.rule: match.words for match in self.matches}


@dataclass(frozen=True)
class ApprovalDetail:
    """An approval with everything a person needs to decide it: the task's goal, the call rated again
    with each rule's words, what it would change in the files now, and its step's status."""

    approval: Approval
    task_goal: str | None
    explanation: Explanation
    changes: tuple[FileDiff, ...]
    step_status: str | None

    @property
    def ran(self) -> str:
        """Whether the step may already have run, in a line."""
        return has_run(self.step_status, "resume.interrupted" in self.approval.rules)


def has_run(step_status: str | None, interrupted: bool = False) -> str:
    """What a step's status says about whether its call ran: it is written `dispatching` ahead of the
    side effect, so a step left there (a crash came between) may have."""
    if step_status == "dispatching" or interrupted:
        return "maybe: it was written ahead of running and no receipt followed (interrupted mid-dispatch)"
    if step_status == "done":
        return "yes: it ran"
    if step_status == "failed":
        return "it ran and failed (a failing call may still have changed something)"
    if step_status in ("denied", "blocked"):
        return f"no: it was {step_status}"
    if step_status in ("waiting", "proposed"):
        return "no: it waits for this decision"
    return "unknown: no step is on record"


def explain(call: ToolCall, classifier: Classifier, declared_tier: Tier = Tier.LOCAL_REVERSIBLE,
            allowed_origins: Collection[str] = ()) -> Explanation:
    """Rate `call` and name what each rule matched; `allowed_origins` are the task's (for a page visit)."""
    findings = classifier.findings(call)
    verdict = classifier.verdict(call, findings, declared_tier)
    kept = set(verdict.rules)
    matches: dict[str, Match] = {}
    for hit in findings.hits:
        if hit.rule.id in kept and hit.rule.id not in matches:
            matches[hit.rule.id] = Match(hit.rule.id, hit.rule.level.label, hit.rule.tier.value, hit.rule.reason,
                                         _words(call, hit))
    ordered = tuple(matches[rule] for rule in verdict.rules if rule in matches)
    egress = list(egress_of(call, allowed_origins))
    if not egress:
        egress = _commanded(ordered, {hit.rule.id for hit in findings.hits if "net" in hit.rule.themes}, allowed_origins)
    return Explanation(verdict, ordered, tuple(egress))


def _commanded(matches: Iterable[Match], network: set[str], allowed_origins: Collection[str]) -> list[Egress]:
    """The URLs a command line's network rules fired on (how much it sends is not told by the line)."""
    allowed = tuple(sorted(filter(None, (origin_of(origin) for origin in allowed_origins))))
    urls = (url for match in matches if match.rule in network for word in match.words for url in _URL.findall(word))
    return [Egress(url, None, None, allowed) for url in dict.fromkeys(urls) if origin_of(url) is not None]


def _words(call: ToolCall, hit: Hit) -> tuple[str, ...]:
    if hit.detail:
        return (hit.detail,)
    if not isinstance(hit.rule, CallRule):
        return ()
    essential = tuple(value for key, value in _strings(call.args) if not _fires_without(hit.rule, call, key))
    return essential or (call.tool,)


def _strings(args: Mapping[str, Any], within: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...], str]]:
    """Every non-empty string argument with its key path (one level into a `target` object)."""
    for key, value in args.items():
        if isinstance(value, str) and value:
            yield (*within, key), value
        elif isinstance(value, dict) and not within:
            yield from _strings(value, (key,))


def _fires_without(rule: CallRule, call: ToolCall, key: tuple[str, ...]) -> bool:
    """Whether the rule still fires with the argument at `key` emptied."""
    args = dict(call.args)
    if len(key) == 1:
        args[key[0]] = ""
    else:
        args[key[0]] = {**args[key[0]], key[1]: ""}
    try:
        return bool(rule.test(ToolCall(call.tool, args)))
    except (TypeError, ValueError, KeyError, AttributeError, IndexError):  # an emptied argument may not parse
        return True


def egress_of(call: ToolCall, allowed_origins: Collection[str] = ()) -> Iterator[Egress]:
    """The destinations of a call that sends or goes somewhere: an HTTP request or a page visit."""
    allowed = tuple(sorted(filter(None, (origin_of(origin) for origin in allowed_origins))))
    for key in _URL_KEYS:
        url = call.args.get(key)
        if isinstance(url, str) and origin_of(url) is not None:
            method = str(call.args.get("method") or "GET").upper()
            yield Egress(url, method, body_size(call.args.get("body")), allowed)


def body_size(body: Any) -> int:
    """The bytes a request body would send (text as UTF-8, anything else as its JSON-ish text)."""
    if body is None:
        return 0
    return len(body.encode("utf-8", "surrogatepass") if isinstance(body, str) else repr(body).encode())


def spans(text: str, words: Iterable[str]) -> list[tuple[int, int]]:
    """Where each word occurs in `text`, as sorted, merged (start, end) spans; a word not found adds none."""
    found: list[tuple[int, int]] = []
    for word in words:
        if not word:
            continue
        start = text.find(word)
        while start != -1:
            found.append((start, start + len(word)))
            start = text.find(word, start + len(word))
    merged: list[tuple[int, int]] = []
    for start, end in sorted(found):
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
        else:
            merged.append((start, end))
    return merged
