"""The operator's policy: read once at start, frozen while the runtime runs.

Runtime code can only read a `Policy`; loosening it takes an edit of the file and a restart.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from urllib.parse import urlsplit

from engine.errors import WardenError
from engine.gate.verdict import Level
from engine.gate.packs import PACKS, PackError, chosen
from engine.tools.call import ToolCall


PRICES = {  # list prices in US dollars per million tokens (input, output); policy.toml [prices] overrides them.
    # Every agent's default model has one (tests/agents/test_default_prices.py): unpriced, a dollar budget never fires.
    "claude-sonnet-4-6": (3.0, 15.0),
    "claude-sonnet-4-5": (3.0, 15.0),
    "claude-opus-4-5": (5.0, 25.0),
    "claude-haiku-4-5": (1.0, 5.0),
    "gemini-2.5-computer-use-preview-10-2025": (1.25, 10.0),
}


class PolicyError(WardenError, ValueError):
    """The policy file cannot be read or says something Warden does not understand."""


SHELL_BOUNDS = {  # [shell] key: (default, least, most, whole); a confined command is stopped past each.
    # The defaults leave room for an ordinary build (a compiler's gigabytes, a target directory) on a workstation.
    "timeout_seconds": (60.0, 0.001, 7 * 24 * 3600.0, False),
    "memory_mb": (8192, 16, 1024 * 1024, True),
    "processes": (1024, 1, 1_000_000, True),
    "write_mb": (8192, 1, 16 * 1024 * 1024, True),
}


@dataclass(frozen=True)
class Policy:
    """Per-tool defaults, extra read-only commands, allowed hosts, auto-approved rules, the
    price table model usage is costed by (model → US dollars per million input and output tokens),
    and how long stored programs are kept (`warden programs expire`)."""

    tool_levels: Mapping[str, Level] = field(default_factory=dict)
    read_only_commands: frozenset[str] = frozenset()
    allowed_hosts: frozenset[str] = frozenset()
    irreversible_allowed_tools: frozenset[str] = frozenset()
    auto_approve_rules: frozenset[str] = frozenset()
    approval_ttl_seconds: int = 3600
    shell_unconfined: bool = False
    shell_egress: bool = False
    shell_timeout_seconds: float = 60.0
    shell_memory_mb: int = int(SHELL_BOUNDS["memory_mb"][0])  # [shell] bounds (engine/envs/workspace/bounds.py)
    shell_processes: int = int(SHELL_BOUNDS["processes"][0])
    shell_write_mb: int = int(SHELL_BOUNDS["write_mb"][0])
    prices: Mapping[str, tuple[float, float]] = field(default_factory=lambda: dict(PRICES))
    programs_expire_unused_days: int = 30  # [programs] expire_unused_days; 0: never by age
    programs_keep_at_most: int = 1000  # [programs] keep_at_most; 0: no limit
    disabled_packs: frozenset[str] = frozenset()  # [gate] disable_packs: pack ids switched off
    ask: "AskTable" = field(default_factory=lambda: AskTable())  # [ask]: what asks a person whatever its route
    grant_ttl_seconds: int = 8 * 3600  # [approvals] grant_ttl_seconds: how long a pattern grant lasts
    source: str = "built-in defaults"

    def __post_init__(self) -> None:
        object.__setattr__(self, "tool_levels", MappingProxyType(dict(self.tool_levels)))
        object.__setattr__(self, "prices", MappingProxyType(dict(self.prices)))

    @classmethod
    def load(cls, path: Path | None) -> "Policy":
        if path is None or not path.exists():
            return cls()
        try:
            raw = tomllib.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
            raise PolicyError(f"policy {path}: {exc}") from None
        return cls.from_mapping(raw, source=str(path))

    @classmethod
    def from_mapping(cls, raw: dict, source: str = "mapping") -> "Policy":
        known = {"tools", "shell", "hosts", "approvals", "prices", "programs", "gate", "ask"}
        unknown = set(raw) - known
        if unknown:
            raise PolicyError(f"policy {source}: unknown section(s) {sorted(unknown)}")
        try:
            tools = raw.get("tools", {})
            tool_levels = {
                name: Level.parse(entry["level"])
                for name, entry in tools.items()
                if isinstance(entry, dict) and "level" in entry
            }
            irreversible = frozenset(
                name for name, entry in tools.items() if isinstance(entry, dict) and entry.get("allow_irreversible")
            )
            shell = raw.get("shell", {})
            unknown_shell = set(shell) - {"read_only", "unconfined", "egress", *SHELL_BOUNDS}
            if unknown_shell:
                raise PolicyError(f"policy {source}: unknown [shell] key(s) {sorted(unknown_shell)}")
            hosts = raw.get("hosts", {})
            approvals = raw.get("approvals", {})
            prices = dict(PRICES)
            for model, entry in raw.get("prices", {}).items():
                if not isinstance(entry, dict) or set(entry) != {"input_per_mtok", "output_per_mtok"}:
                    raise PolicyError(f"policy {source}: prices.{model} takes input_per_mtok and output_per_mtok")
                prices[model] = (float(entry["input_per_mtok"]), float(entry["output_per_mtok"]))
            programs = raw.get("programs", {})
            if not isinstance(programs, dict):
                raise PolicyError(f"policy {source}: [programs] must be a table, not {type(programs).__name__}")
            unknown_programs = set(programs) - {"expire_unused_days", "keep_at_most"}
            if unknown_programs:
                raise PolicyError(f"policy {source}: unknown [programs] key(s) {sorted(unknown_programs)}")
            return cls(
                disabled_packs=_packs(raw.get("gate", {}), source),
                tool_levels=tool_levels,
                read_only_commands=frozenset(shell.get("read_only", [])),
                allowed_hosts=frozenset(h.lower() for h in hosts.get("allow", [])),
                irreversible_allowed_tools=irreversible,
                auto_approve_rules=frozenset(approvals.get("auto_approve_rules", [])),
                approval_ttl_seconds=int(approvals.get("ttl_seconds", 3600)),
                grant_ttl_seconds=_seconds(approvals, "grant_ttl_seconds", 8 * 3600, source),
                ask=AskTable.from_mapping(raw.get("ask", {}), source),
                shell_unconfined=_switch(shell, "unconfined", source),
                shell_egress=_switch(shell, "egress", source),
                shell_timeout_seconds=float(_bound(shell, "timeout_seconds", source)),
                shell_memory_mb=int(_bound(shell, "memory_mb", source)),
                shell_processes=int(_bound(shell, "processes", source)),
                shell_write_mb=int(_bound(shell, "write_mb", source)),
                prices=prices,
                programs_expire_unused_days=_count(programs, "expire_unused_days", 30, source),
                programs_keep_at_most=_count(programs, "keep_at_most", 1000, source),
                source=source,
            )
        except PolicyError:
            raise
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise PolicyError(f"policy {source}: {exc!r}") from None

    def allows_irreversible(self, call: ToolCall) -> bool:
        """An externally irreversible call runs unasked only if its tool and host are both allowed."""
        if call.tool not in self.irreversible_allowed_tools:
            return False
        url = call.args.get("url")
        if url is None:
            return True
        host = (urlsplit(str(url)).hostname or "").lower()
        return host in self.allowed_hosts


@dataclass(frozen=True)
class AskTable:
    """`[ask]`: calls that ask a person whatever route they would take (catastrophic stays blocked).

    `dangerous = true` asks for every dangerous call, contained or not (the gate before routing);
    `tools`, `packs` and `rules` name what asks by id; `paths` are globs (`*` crosses `/`) matched
    against the workspace paths a call names.
    """

    dangerous: bool = False
    tools: frozenset[str] = frozenset()
    packs: frozenset[str] = frozenset()
    rules: frozenset[str] = frozenset()
    paths: tuple[str, ...] = ()

    @classmethod
    def from_mapping(cls, section: object, source: str) -> "AskTable":
        if not isinstance(section, dict):
            raise PolicyError(f"policy {source}: [ask] must be a table")
        unknown = set(section) - {"dangerous", "tools", "packs", "rules", "paths"}
        if unknown:
            raise PolicyError(f"policy {source}: unknown [ask] key(s) {sorted(unknown)}")
        dangerous = section.get("dangerous", False)
        if not isinstance(dangerous, bool):
            raise PolicyError(f"policy {source}: ask.dangerous must be true or false, not {dangerous!r}")
        lists = {key: _names(section, key, source) for key in ("tools", "packs", "rules", "paths")}
        strangers = sorted(set(lists["packs"]) - {pack.id for pack in PACKS})
        if strangers:
            raise PolicyError(f"policy {source}: ask.packs: no pack {strangers[0]!r}; packs are "
                              f"{', '.join(pack.id for pack in PACKS)}")
        return cls(dangerous, frozenset(lists["tools"]), frozenset(lists["packs"]), frozenset(lists["rules"]),
                   tuple(lists["paths"]))


def _names(section: dict, key: str, source: str) -> list[str]:
    value = section.get(key, [])
    if not isinstance(value, list) or not all(isinstance(item, str) and item.strip() for item in value):
        raise PolicyError(f"policy {source}: ask.{key} must be a list of non-empty strings")
    return value


def _seconds(section: dict, key: str, default: int, source: str) -> int:
    value = section.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int) or not 0 < value <= 366 * 86400:
        raise PolicyError(f"policy {source}: approvals.{key} must be a whole number of seconds from 1 to a year")
    return value


def _switch(section: dict, key: str, source: str) -> bool:
    """`"allow"` or `"deny"` (the default): an opt-in is spelled out, never implied by a truthy value."""
    value = section.get(key, "deny")
    if value not in ("allow", "deny"):
        raise PolicyError(f'policy {source}: shell.{key} must be "allow" or "deny", not {value!r}')
    return value == "allow"




def _bound(section: dict, key: str, source: str) -> float:
    """One `[shell]` bound, a finite number in its range (a whole one where it counts things): a typo is
    refused in one line, never read as no bound."""
    default, least, most, whole = SHELL_BOUNDS[key]
    value = section.get(key, default)
    number = isinstance(value, int) or (isinstance(value, float) and not whole)
    if isinstance(value, bool) or not number or not least <= value <= most:
        kind = "a whole number" if whole else "a number"
        raise PolicyError(f"policy {source}: shell.{key} must be {kind} from {least:g} to {most:g}, not {value!r}")
    return value


def _packs(section: dict, source: str) -> frozenset[str]:
    """`[gate] disable_packs`: ids of packs to switch off, each one that exists and is not core."""
    if not isinstance(section, dict) or set(section) - {"disable_packs"}:
        raise PolicyError(f"policy {source}: [gate] takes only disable_packs")
    ids = section.get("disable_packs", [])
    if not isinstance(ids, list) or not all(isinstance(i, str) for i in ids):
        raise PolicyError(f"policy {source}: gate.disable_packs must be a list of pack ids")
    try:
        chosen(frozenset(ids))
    except PackError as exc:
        raise PolicyError(f"policy {source}: {exc}") from None
    return frozenset(ids)


def _count(section: dict, key: str, default: int, source: str) -> int:
    """A whole number of zero or more (`[programs]` limits): a typo is refused, never read as "no limit"."""
    value = section.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise PolicyError(f"policy {source}: programs.{key} must be a whole number >= 0, not {value!r}")
    return value
