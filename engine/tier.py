"""Reversibility tiers: what undoing an effect can mean, decided before a call runs.

Tools declare a tier and the gate rates one, so the vocabulary lives below both.
"""

from __future__ import annotations

from enum import StrEnum


class Tier(StrEnum):
    LOCAL_REVERSIBLE = "local_reversible"
    RUNTIME_COMPENSABLE = "runtime_compensable"
    EXTERNALLY_IRREVERSIBLE = "externally_irreversible"

    @property
    def rank(self) -> int:
        return list(Tier).index(self)

    @staticmethod
    def strictest(*tiers: "Tier") -> "Tier":
        return max(tiers, key=lambda tier: tier.rank)
