"""The vocabulary of the gate: risk levels and verdicts (tiers live in `engine.tier`)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

from engine.tier import Tier


class Level(IntEnum):
    """How risky a call is; ordered so that `max` picks the stricter one."""

    SAFE = 0
    DANGEROUS = 1
    CATASTROPHIC = 2

    @property
    def label(self) -> str:
        return self.name.lower()

    @classmethod
    def parse(cls, text: str) -> "Level":
        return cls[text.strip().upper()]


@dataclass(frozen=True)
class Verdict:
    """The gate's answer for one call: level, tier, the rules that matched and why."""

    level: Level
    tier: Tier
    rules: tuple[str, ...] = ()
    reason: str = ""

    def as_json(self) -> dict:
        return {
            "level": self.level.label,
            "tier": self.tier.value,
            "rules": list(self.rules),
            "reason": self.reason,
        }
