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
    """The gate's answer for one call: level, tier, the rules that matched and why.

    `code` names the files the call runs as code (paths as its command reaches them from where it
    starts): what a person approves is their contents as well as the call (`engine/tools/pins.py`).
    """

    level: Level
    tier: Tier
    rules: tuple[str, ...] = ()
    reason: str = ""
    code: tuple[str, ...] = ()

    def as_json(self) -> dict:
        return {
            "level": self.level.label,
            "tier": self.tier.value,
            "rules": list(self.rules),
            "reason": self.reason,
        }
