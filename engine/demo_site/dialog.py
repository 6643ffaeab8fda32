"""When the "What's new" dialog interrupts a visit to the contacts list.

`always` and `never` let tests and task setups force it; `sometimes` shows it on about
half of the visits, decided by the seed and the visit's number alone, so a given seed
replays the same sequence of interruptions and a different seed gives another one.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

MODES = ("always", "never", "sometimes")


@dataclass(frozen=True)
class DialogSchedule:
    mode: str
    seed: int

    def __post_init__(self) -> None:
        if self.mode not in MODES:
            raise ValueError(f"dialog must be one of {', '.join(MODES)}")

    def shows_on(self, visit: int) -> bool:
        """Whether the `visit`-th visit (counting from 1) to the contacts list shows the dialog."""
        if self.mode != "sometimes":
            return self.mode == "always"
        return random.Random(f"{self.seed}/{visit}").random() < 0.5
