"""A stored program as its detail view shows it: states with checks and ways out, parameters, how it
has served, and its verification record in plain lines."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from engine.programs.corpus import ProgramStats
from engine.programs.describe import describe, target
from engine.programs.program import Program


@dataclass(frozen=True)
class StateLine:
    """One state: its id and role (`start`, `terminal` or ``), description, check in words, and each
    transition out as `→ target: tool what [when guard]`."""

    id: str
    role: str
    description: str
    check: str
    leaving: tuple[str, ...]


@dataclass(frozen=True)
class ProgramDetail:
    program: Program
    stats: ProgramStats


def state_lines(program: Program) -> tuple[StateLine, ...]:
    """Every state in the order the program lists them."""
    terminal = set(program.terminal)
    lines = []
    for state in program.states:
        role = "start" if state.id == program.start else "terminal" if state.id in terminal else ""
        leaving = tuple(
            f"→ {t.target}: {t.action.tool} {target(t.action.args)}".rstrip()
            + (f"  [when {_words(t.guard)}]" if t.guard else "")
            for t in program.leaving(state.id))
        lines.append(StateLine(state.id, role, state.description, _words(state.check), leaving))
    return tuple(lines)


def param_lines(program: Program) -> tuple[str, ...]:
    """Each parameter with what the program says of it (its example, its type)."""
    lines = []
    for name, spec in sorted(program.params.items()):
        said = ", ".join(f"{key} {value!r}" for key, value in sorted(spec.items())) if isinstance(spec, dict) else ""
        lines.append(f"{{{name}}}" + (f"  {said}" if said else ""))
    return tuple(lines)


def record_lines(record: dict[str, Any]) -> tuple[str, ...]:
    """A verification or provenance record, one key a line, sorted; times (`when`, `*_at`, `edited`)
    as UTC dates."""
    lines = []
    for key, value in sorted(record.items()):
        if isinstance(value, (int, float)) and not isinstance(value, bool) and _is_time(key):
            value = time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime(value))
        lines.append(f"{key}: {value}")
    return tuple(lines)


def stats_lines(stats: ProgramStats) -> tuple[str, ...]:
    counts = f"replays {stats.replays} · successes {stats.successes} · fallbacks {stats.fallbacks}"
    lines = [f"{counts} · failures {stats.failures}"]
    if stats.last_used is not None:
        lines.append(f"last used {time.strftime('%Y-%m-%d %H:%M:%S UTC', time.gmtime(stats.last_used))}")
    failure = stats.last_failure
    if failure is not None:
        when = time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime(failure.at))
        lines.append(f"last failure ({when}): {failure.outcome}" + (f": {failure.detail}" if failure.detail else ""))
    else:
        lines.append("no failure recorded")
    return tuple(lines)


def _is_time(key: str) -> bool:
    return key in ("when", "edited") or key.endswith("_at")


def _words(predicate: Any) -> str:
    try:
        return describe(predicate)
    except (ValueError, TypeError, AttributeError, KeyError):
        return str(predicate)
