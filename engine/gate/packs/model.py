"""What a rule and a pack are.

A rule is an id, a level, themes, a tier hint, a reason, a matcher and examples. Shell
rules match a `Command` (one program after launchers are peeled off); call rules match a
whole `ToolCall` of a non-shell tool. Both carry examples the test suite runs. A pack
gathers everything about one family of programs: its rules and, per program, the proof
that a command of it only reads.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Callable

from engine.gate.shell.view import Command
from engine.gate.verdict import Level
from engine.tier import Tier
from engine.tools.call import ToolCall

THEMES = ("exec", "fs", "net", "creds", "obfuscation", "injection", "evasion", "windows")
SAFE, DANGEROUS, CATASTROPHIC = Level.SAFE, Level.DANGEROUS, Level.CATASTROPHIC
LOCAL, COMPENSABLE, IRREVERSIBLE = Tier.LOCAL_REVERSIBLE, Tier.RUNTIME_COMPENSABLE, Tier.EXTERNALLY_IRREVERSIBLE

Found = bool | str | None
"""What a rule's test returns: falsy when the rule does not match; a test may return the text it
found (a path, a setting) instead of True, which a `cite` rule names in the approver's reason."""


@dataclass(frozen=True, slots=True)
class Rule:
    """A shell rule; all given conditions must hold (names, subcommand, flags, args, operands, test).

    A rule with `trigger=True` is raised by the analyser itself (pipes into a shell,
    reverse shells, unparsable input) rather than by matching one command. `first` lists
    the first operands (subcommands) the rule can match at all, and is filled in from
    `sub`; the bank uses it so that `git status` is not tried against `git push` rules.
    A rule with `cite=True` names what it found (its test returns that text) in the
    approver's reason: "writes a tool's configuration: .git/config".
    """

    id: str
    level: Level
    themes: tuple[str, ...]
    reason: str
    tier: Tier = LOCAL
    names: frozenset[str] = frozenset()
    sub: tuple[str, ...] = ()
    first: frozenset[str] = frozenset()
    flags: frozenset[str] = frozenset()
    args: re.Pattern[str] | None = None
    operand: re.Pattern[str] | None = None
    target: re.Pattern[str] | None = None
    test: Callable[[Command], Found] | None = None
    trigger: bool = False
    raw: str = ""
    needles: tuple[str, ...] = ()
    scope: str = ""
    examples: tuple[str, ...] = ()
    counter: tuple[str, ...] = ()
    cite: bool = False

    def scan(self, text: str, lowered: str) -> bool:
        """For raw-text rules: cheap literal pre-check, then the (bounded) pattern."""
        if self.needles:
            for needle in self.needles:
                if needle in lowered:
                    break
            else:
                return False
        return self.args is not None and self.args.search(text) is not None

    def matches(self, cmd: Command) -> Found:
        """Truthy when every condition holds: the test's own result (text to cite) when it has one."""
        if self.trigger or self.raw:
            return False
        if self.first and not (cmd.operands and cmd.operands[0] in self.first):
            return False
        if self.sub and not cmd.sub(*self.sub):
            return False
        if self.flags and not (self.flags & cmd.flags):
            return False
        if self.args is not None and self.args.search(cmd.text) is None:
            return False
        if self.operand is not None and not any(self.operand.fullmatch(op) for op in cmd.operands):
            return False
        if self.target is not None and not any(self.target.fullmatch(t) for t in cmd.out_targets()):
            return False
        return self.test is None or self.test(cmd)


Check = tuple[Rule, Callable[[Command], Found]]


def checks(rules: list[Rule], first: str | None = None) -> list[Check]:
    """Each rule with the cheapest callable that is truthy exactly when `Rule.matches` is.

    `first` is the first operand every command checked against these rules has (the bank
    looked the rules up by it), so conditions on it need no second look. Most rules are a
    program name plus one condition; calling that condition directly skips the walk over
    the ones the rule leaves unset.
    """
    return [(item, _check(item, first)) for item in rules]


def _check(item: Rule, first: str | None) -> Callable[[Command], Found]:
    known_first = first is not None and first in item.first
    sub_known = known_first and len(item.sub) == 1 and item.first == frozenset(item.sub)
    if (item.trigger or item.raw or (item.first and not known_first) or (item.sub and not sub_known)
            or item.operand is not None or item.target is not None):
        return item.matches
    flags, args, test = item.flags, item.args, item.test
    if flags:
        if args is not None or test is not None:
            return item.matches
        return lambda cmd: bool(flags & cmd.flags)
    if args is not None:
        search = args.search
        if test is None:
            return lambda cmd: search(cmd.text) is not None
        return lambda cmd: search(cmd.text) is not None and test(cmd)
    return test or _always


def _always(cmd: Command) -> bool:
    return True


def any_operand(cmd: Command, check: Callable[[str], object]) -> bool:
    """True when `check` holds for one of the command's operands (a plain loop: no generator to build)."""
    for operand in cmd.operands:
        if check(operand):
            return True
    return False


@dataclass(frozen=True)
class CallRule:
    """A rule over a non-shell tool call (files, HTTP, browser, desktop, phone, code); `cite` as for `Rule`.

    A `scoped` rule is about leaving an environment's granted scope: when the environment
    says where a call goes, that answer replaces the rule's own test.
    """

    id: str
    level: Level
    themes: tuple[str, ...]
    reason: str
    tools: tuple[str, ...]
    test: Callable[[ToolCall], Found]
    tier: Tier = LOCAL
    examples: tuple[dict[str, Any], ...] = ()
    counter: tuple[dict[str, Any], ...] = ()
    cite: bool = False
    scoped: bool = False

    def applies(self, call: ToolCall) -> bool:
        return any(call.tool == t or (t.endswith(".*") and call.tool.startswith(t[:-1])) for t in self.tools)


def rule(id: str, level: Level, themes: str, reason: str, *, names: str = "", tier: Tier = LOCAL,
         sub: str = "", first: str = "", flags: str = "", args: str | None = None, operand: str | None = None,
         target: str | None = None, test: Callable[[Command], Found] | None = None, trigger: bool = False,
         raw: str = "", needles: str = "", scope: str = "", cite: bool = False,
         examples: tuple[str, ...] | list[str] = (), counter: tuple[str, ...] | list[str] = ()) -> Rule:
    """Compact constructor used by the rule modules: space-separated names, subcommands, flags and themes."""
    path = tuple(sub.split())
    if path and first and path[0] not in first.split():
        raise ValueError(f"{id}: subcommand {path[0]!r} is not among its first operands")
    return Rule(
        id=id, level=level, themes=tuple(themes.split()), reason=reason, tier=tier,
        names=frozenset(names.split()), sub=path, first=frozenset(first.split() or path[:1]),
        flags=frozenset(flags.split()),
        args=re.compile(args) if args else None, operand=re.compile(operand) if operand else None,
        target=re.compile(target) if target else None, test=test, trigger=trigger, raw=raw,
        needles=tuple(needles.split()), scope=scope or ("redirect" if target else ""),
        examples=tuple(examples), counter=tuple(counter), cite=cite,
    )


@dataclass(slots=True)
class Hit:
    """One rule that fired, and the command text it fired on (for the approver)."""

    rule: Rule | CallRule
    detail: str = ""


@dataclass(slots=True)
class Findings:
    """Everything the analysis of one call found: fired rules and commands nobody vouches for.

    `reasons` says why a command in `unknown` is not proven read-only (the approver reads it).
    `cwd` is where the script has moved to (`cd ~/.ssh`), None while it is where it started:
    relative paths after a `cd` are read against it. `globs` counts the glob words tried
    against secret locations, which the analysis bounds. `code` names the files the call runs as
    code (a script given to a shell or an interpreter, a sourced file, a program named by a path),
    as the script reaches them: an approval pins their contents, so it covers what would run.
    """

    hits: list[Hit] = field(default_factory=list)
    unknown: list[str] = field(default_factory=list)
    reasons: dict[str, str] = field(default_factory=dict)
    cwd: str | None = None
    globs: int = 0
    code: list[str] = field(default_factory=list)


Proof = Callable[[Command], "str | None"]
"""Proves one command of a program read-only: None when it is, else why it is not proven (one line)."""


@dataclass(frozen=True)
class Pack:
    """One program family: its rules (dangerous and catastrophic forms, with examples) and its
    read-only proofs by program name, with `proven` commands the tests hold them to (each must be
    rated safe). A `core` pack cannot be switched off by the policy: its rules are the generic
    ones (redirections, secrets, code that runs code) every other pack relies on.
    """

    id: str
    summary: str
    rules: Sequence[Rule] = ()
    calls: Sequence[CallRule] = ()
    read_only: Mapping[str, Proof] = field(default_factory=dict)
    core: bool = False
    proven: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "rules", tuple(self.rules))
        object.__setattr__(self, "calls", tuple(self.calls))
        object.__setattr__(self, "read_only", MappingProxyType(dict(self.read_only)))
        object.__setattr__(self, "proven", tuple(self.proven))
