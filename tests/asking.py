"""A policy under which every dangerous call asks a person: for tests of the approval mechanism.

The gate routes by reversibility (docs/gate.md, "The risk gate"): a dangerous call the sandbox
contains (a file tool inside the workspace, the confined shell with no network) runs unasked, with
its receipt and undo. The approval mechanism (waiting, approving, denying, expiry, single use,
cancel, timelines, programs with a step that needed approval) is tested on such contained calls,
held for a person by the policy's `[ask] dangerous = true`, the gate as it was before routing.
Routing itself is tested in tests/gate/test_routes.py.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from engine.gate.policy import Policy

ASK_TABLE = "[ask]\ndangerous = true\n"


def asking_policy(**sections: Any) -> Policy:
    """A policy of these sections (as in policy.toml) under which every dangerous call asks."""
    return Policy.from_mapping({**sections, "ask": {"dangerous": True}}, source="tests/asking.py")


ASKING = asking_policy()


def asking(home: Path) -> Path:
    """Write the asking policy as `home`'s policy.toml, before a runtime opens there; the home."""
    home.mkdir(parents=True, exist_ok=True)
    (home / "policy.toml").write_text(ASK_TABLE, encoding="utf-8")
    return home
