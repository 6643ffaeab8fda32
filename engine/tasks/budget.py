"""A task's budget: how many agent steps, seconds, model tokens and dollars it may spend.

Crossing a limit pauses the task (it does not fail: a person may raise the limit and
resume it). Limits left out are unlimited.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from typing import Any

from engine.agents.agent import Usage

LIMITS = ("steps", "wall_s", "tokens", "cost_usd")
HIGHEST = {"steps": 1_000_000, "wall_s": 366 * 86400.0, "tokens": 10**12, "cost_usd": 1_000_000.0}
"""The largest value each limit takes: beyond it a limit is no limit, and a number past what the database
stores would break the task later. Doubling a budget stops here."""
WHOLE = frozenset({"steps", "tokens"})
"""Limits that count things, so take whole numbers."""


@dataclass(frozen=True)
class Spent:
    """What a task has used so far: agent steps proposed, seconds spent running, and model usage."""

    steps: int = 0
    wall_s: float = 0.0
    usage: Usage = Usage()

    def as_json(self) -> dict[str, Any]:
        return {"steps": self.steps, "wall_s": round(self.wall_s, 3), **self.usage.as_json()}

    @classmethod
    def from_json(cls, raw: Mapping[str, Any] | None) -> "Spent":
        raw = raw or {}
        return cls(int(raw.get("steps", 0)), float(raw.get("wall_s", 0.0)), Usage.from_json(raw))

    def measure(self, limit: str) -> float:
        return {"steps": self.steps, "wall_s": self.wall_s, "tokens": self.usage.tokens,
                "cost_usd": self.usage.cost_usd}[limit]


@dataclass(frozen=True)
class Budget:
    steps: int | None = None
    wall_s: float | None = None
    tokens: int | None = None
    cost_usd: float | None = None

    @classmethod
    def from_json(cls, raw: Any, where: str = "budget") -> "Budget":
        """A budget object; unknown limits and values that are not positive numbers are one-line errors."""
        if raw is None:
            return cls()
        if not isinstance(raw, Mapping):
            raise ValueError(f'{where} is an object of limits {list(LIMITS)}, e.g. {{"tokens": 200000}}')
        unknown = set(raw) - set(LIMITS)
        if unknown:
            raise ValueError(f"{where}: unknown limit(s) {sorted(unknown)}; limits are {list(LIMITS)}")
        for name, value in raw.items():
            if value is not None:
                check_limit(f"{where}.{name}", value, HIGHEST[name], whole=name in WHOLE)
        return cls(**{name: raw.get(name) for name in LIMITS})

    def as_json(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self) if getattr(self, f.name) is not None}

    def said(self) -> str:
        """The limits in words, for a person: "4 steps, 90 s of running, 200,000 tokens, $0.50"."""
        parts = []
        if self.steps is not None:
            parts.append(f"{self.steps:,} step{'' if self.steps == 1 else 's'}")
        if self.wall_s is not None:
            parts.append(f"{self.wall_s:g} s of running")
        if self.tokens is not None:
            parts.append(f"{self.tokens:,} token{'' if self.tokens == 1 else 's'}")
        if self.cost_usd is not None:
            parts.append(f"${self.cost_usd:,.2f}")
        return ", ".join(parts) or "no limits"

    def doubled(self) -> "Budget":
        """Every limit twice as high: what one key in the console grants a task that ran out."""
        return Budget(**{name: min(value * 2, HIGHEST[name]) for name, value in self.as_json().items()})

    def over(self, other: "Budget") -> "Budget":
        """This budget with every limit `other` sets replaced by `other`'s."""
        return replace(self, **other.as_json())

    def exceeded(self, spent: Spent) -> tuple[str, float, float] | None:
        """The first limit `spent` has reached: (limit, used, allowed); None while within every limit."""
        for name in LIMITS:
            allowed = getattr(self, name)
            if allowed is not None and spent.measure(name) >= allowed:
                return name, spent.measure(name), allowed
        return None


def check_limit(field: str, value: Any, highest: float, whole: bool = False) -> None:
    """Refuse, in one line naming `field`, a limit that is not a finite number in (0, `highest`] (a whole
    one when `whole`). A NaN limit is never reached, since every comparison with it is false; an infinite
    one is no limit; a boolean is not a number."""
    kind = "whole number" if whole else "number"
    if isinstance(value, bool) or not isinstance(value, (int, float)) or (whole and not isinstance(value, int)):
        raise ValueError(f"{field} must be a positive {kind}, got {value!r:.40}")
    if not math.isfinite(value) or not 0 < value <= highest:
        raise ValueError(f"{field} must be a finite positive {kind}, at most {highest:,.0f}; got {value!r:.40}")
