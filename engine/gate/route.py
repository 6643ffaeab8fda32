"""Where a rated call goes: it runs, a person is asked, or it is blocked, and why in words.

The level says how bad an effect could be; the tier and the call's containment say whether it
can be taken back. What can be undone runs with its receipt; what cannot needs a person:

- catastrophic is blocked, always, whatever the policy says;
- a call the policy's `[ask]` table names (a tool, a pack, a rule or a path glob) asks;
- externally irreversible (egress, a send, a push, a read of a secret location, anything the
  sandbox does not confine) asks, unless the policy allows that tool and host;
- dangerous but local-reversible and contained (the confined shell with no network, the file
  tools inside the workspace) runs, with its snapshot, receipt and undo;
- dangerous and runtime-compensable with a compensator armed for the call runs, and its receipt
  keeps the window in which the compensator can still take it back;
- anything else dangerous asks, unless every rule it fired is in `approvals.auto_approve_rules`.

`[ask] dangerous = true` restores the rule before routing: every dangerous call asks.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum

from engine.gate.policy import Policy
from engine.tier import Tier

SHELL_TOOLS = frozenset({"shell.run", "code.run"})


class Route(StrEnum):
    RUNS = "runs"
    ASKS = "asks"
    BLOCKED = "blocked"


@dataclass(frozen=True)
class Routing:
    """A route and the reason a person reads at a glance ("runs: confined, undoable")."""

    route: Route
    why: str

    def __str__(self) -> str:
        return f"{self.route.value}: {self.why}"


def declared_tier(policy: Policy, tool: str) -> Tier:
    """The tier a tool declares under `policy` when no runtime is open to say (`warden classify`, benches):
    the shell and inline code as the confined shell would run them, the file tools as the workspace keeps
    them, and everything else (the web, a desktop, a phone, HTTP) as leaving the machine."""
    if tool in SHELL_TOOLS:
        return shell_tier(policy)
    if tool.startswith("fs."):
        return Tier.LOCAL_REVERSIBLE
    return Tier.EXTERNALLY_IRREVERSIBLE


def shell_tier(policy: Policy) -> Tier:
    """Local-reversible only while the policy keeps the shell confined and off the network."""
    if policy.shell_unconfined or policy.shell_egress:
        return Tier.EXTERNALLY_IRREVERSIBLE
    return Tier.LOCAL_REVERSIBLE


def contained_why(tool: str) -> str:
    """Why a dangerous but contained call of `tool` runs, in words."""
    if tool in SHELL_TOOLS:
        return "confined, undoable"
    if tool.startswith("fs."):
        return "inside the workspace, undoable"
    return "undoable"


def phrase(items: Iterable[str]) -> str:
    return ", ".join(dict.fromkeys(items))
