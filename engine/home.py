"""Where Warden's home is (`$WARDEN_HOME`), and the shell sandbox this host and a policy allow there.

Apart from the runtime so that a command needing only these (`warden classify`, `warden doctor`) starts
without importing every environment, agent and store the runtime wires; `engine.runtime` re-exports both.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

import platformdirs

if TYPE_CHECKING:
    from engine.envs.workspace.sandbox import Sandbox
    from engine.gate.policy import Policy


def warden_home() -> Path:
    """`$WARDEN_HOME`, or the platform's user data directory."""
    return Path(os.environ.get("WARDEN_HOME") or platformdirs.user_data_dir("warden"))


def sandbox_for(policy: Policy, home: Path) -> Sandbox:
    """The shell sandbox this host and policy allow; `$WARDEN_BWRAP` names another bubblewrap binary.

    The sandbox module is imported here, by the one caller that probes the host, not by every user of the home.
    """
    from engine.envs.workspace.bounds import Bounds
    from engine.envs.workspace.sandbox import Sandbox

    bounds = Bounds(policy.shell_timeout_seconds, policy.shell_memory_mb, policy.shell_processes, policy.shell_write_mb)
    return Sandbox.detect(os.environ.get("WARDEN_BWRAP") or None, policy.shell_unconfined, policy.shell_egress,
                          hide=(home,), bounds=bounds)
