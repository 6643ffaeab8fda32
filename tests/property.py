"""How many examples the slow property tests draw: few in the everyday suite, many when asked.

The suite must finish in minutes on two cores, and a property that runs a sandboxed task or a
whole console per example costs seconds each. `WARDEN_PROPERTY=thorough` draws the full number
(run it before a change to undo, snapshots or rendering lands: `WARDEN_PROPERTY=thorough
.venv/bin/pytest tests/engine/test_undo_property.py tests/hardening/test_r3_a2_*`).
"""

from __future__ import annotations

import os

THOROUGH = os.environ.get("WARDEN_PROPERTY") == "thorough"


def examples(everyday: int, thorough: int) -> int:
    """The number of examples for this run's profile."""
    return thorough if THOROUGH else everyday
