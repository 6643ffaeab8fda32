"""The packs and the bank built from them: every rule the gate knows, indexed by program name.

Each module in this folder is one pack (`PACK`): a program family's rules and read-only
proofs together. The policy can switch packs off by id (`[gate] disable_packs`); core
packs stay on.
"""

from __future__ import annotations

import re
from collections import Counter
from functools import lru_cache

from engine.gate.packs import calls, code, creds, disks, evasion, execution, filesystem, injection, network, obfuscation, vcs, windows
from engine.gate.packs import macos, powershell, security
from engine.gate.packs import cloud, infra, packages, reading, system, transfer
from engine.gate.packs.model import THEMES, CallRule, Check, Pack, Proof, Rule, checks
from engine.gate.shell.view import Command

PACKS: tuple[Pack, ...] = tuple(module.PACK for module in (
    filesystem, disks, vcs, execution, code, network, creds, obfuscation, injection, evasion, windows, calls))
PACKS += (security.PACK, macos.PACK)
PACKS += (reading.PACK, system.PACK, infra.PACK, cloud.PACK, packages.PACK, transfer.PACK)
PACKS += (powershell.PACK,)


_ASSIGNMENT = re.compile(r"[A-Za-z_]\w*=.*", re.S)


class PackError(ValueError):
    """A pack id the policy names does not exist, or names a core pack it may not switch off."""


class Bank:
    """All rules; shell rules by program name, generic shell rules, call rules, raw-text rules."""

    def __init__(self, shell: list[Rule], call: list[CallRule], packs: tuple[Pack, ...] = ()) -> None:
        self.shell = shell
        self.calls = call
        self.packs = packs
        self.read_only: dict[str, Proof] = {}
        for pack in packs:
            for name, proof in pack.read_only.items():
                if name in self.read_only:
                    raise ValueError(f"program {name!r} has a read-only proof in two packs")
                self.read_only[name] = proof
        self.by_id: dict[str, Rule | CallRule] = {}
        for item in self.all():
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

    def prove(self, cmd: Command, extra: frozenset[str] = frozenset()) -> str | None:
        """None when `cmd` (launchers removed) is proven read-only, else why not, in a line for the approver.

        The policy's `[shell] read_only` programs (`extra`) are taken on trust, and so are a
        lone `--version` or `--help` and a bare assignment (`FOO=1`: the environment rules
        judge what it sets); any other program needs its pack's proof.
        """
        name = cmd.name
        if not name or name in extra:
            return None
        argv = cmd.argv
        if len(argv) == 2 and argv[1] in ("--version", "--help") and "/" not in argv[0]:
            return None
        if "=" in argv[0] and _ASSIGNMENT.fullmatch(argv[0]):
            return None
        proof = self.read_only.get(name)
        if proof is None:
            return f"{argv[0]} is not a program known to be read-only"
        return proof(cmd)

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


def chosen(disabled: frozenset[str] = frozenset()) -> tuple[Pack, ...]:
    """The packs left on when `disabled` are switched off; an unknown or core id is refused."""
    ids = {pack.id: pack for pack in PACKS}
    for pack_id in sorted(disabled):
        if pack_id not in ids:
            raise PackError(f"no pack {pack_id!r}; packs are {', '.join(ids)}")
        if ids[pack_id].core:
            raise PackError(f"pack {pack_id!r} is a core pack and cannot be switched off")
    return tuple(pack for pack in PACKS if pack.id not in disabled)


@lru_cache(maxsize=8)
def bank(disabled: frozenset[str] = frozenset()) -> Bank:
    """The bank of every pack but the `disabled` ones (built once per choice and process)."""
    packs = chosen(disabled)
    return Bank([r for pack in packs for r in pack.rules], [r for pack in packs for r in pack.calls], packs)


def theme_counts() -> dict[str, Counter[str]]:
    """Per theme, how many rules of each level: the table docs/gate.md shows."""
    table: dict[str, Counter[str]] = {theme: Counter() for theme in THEMES}
    for item in bank().all():
        for theme in item.themes:
            table[theme][item.level.label] += 1
    return table


def markdown() -> str:
    """The packs and themes tables for docs/gate.md, generated so that they cannot drift from the bank."""
    everything = bank()
    rows = ["| pack | core | covers | dangerous | catastrophic | read-only programs |",
            "|---|:-:|---|---:|---:|---:|"]
    for pack in everything.packs:
        items: list[Rule | CallRule] = [*pack.rules, *pack.calls]
        levels = Counter(item.level.label for item in items)
        rows.append(f"| `{pack.id}` | {'yes' if pack.core else ''} | {pack.summary} | {levels['dangerous']} "
                    f"| {levels['catastrophic']} | {len(pack.read_only)} |")
    rows += ["", "Programs each pack proves read-only (any other program is never safe):", ""]
    for pack in everything.packs:
        if pack.read_only:
            rows.append(f"- `{pack.id}`: " + ", ".join(f"`{name}`" for name in sorted(pack.read_only)))
    rows += ["", "| theme | safe | dangerous | catastrophic | total |", "|---|---:|---:|---:|---:|"]
    for theme, counts in theme_counts().items():
        total = sum(counts.values())
        rows.append(f"| {theme} | {counts['safe']} | {counts['dangerous']} | {counts['catastrophic']} | {total} |")
    rows.append(f"\n{len(everything.all())} rules in all ({len(everything.shell)} shell, {len(everything.calls)} tool-call) "
                f"in {len(everything.packs)} packs; a rule may carry several themes.")
    return "\n".join(rows)
