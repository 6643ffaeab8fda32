"""`warden demo` in a real terminal (tmux): approve with `a`, undo with `u`, check the file's bytes."""

from __future__ import annotations

import subprocess
import sys
import time
import uuid
from pathlib import Path

from engine.demo import SCRATCH_BYTES


def tmux(*args: str) -> str:
    return subprocess.run(["tmux", *args], check=True, capture_output=True, text=True).stdout


def wait_for(condition, what: str, seconds: float = 30.0) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")


def test_demo_in_tmux(tmp_path: Path) -> None:
    home = tmp_path / "demo"
    session = f"warden-e2e-{uuid.uuid4().hex[:12]}"
    warden = Path(sys.executable).with_name("warden")
    command = f"{warden if warden.exists() else 'warden'} demo --pace 0 --home {home}"
    tmux("new-session", "-d", "-s", session, "-x", "160", "-y", "48", command)
    screen = lambda: tmux("capture-pane", "-p", "-t", session)  # noqa: E731
    scratch = home / "workspace" / "scratch.txt"
    try:
        wait_for(lambda: "fs.delete" in screen() and "nothing waiting" not in screen(), "the pending approval")
        for pane in ("Tasks", "Approvals", "Journal", "Programs"):
            assert pane in screen()
        assert scratch.read_bytes() == SCRATCH_BYTES
        tmux("send-keys", "-t", session, "a")
        wait_for(lambda: not scratch.exists(), "the approved delete")
        wait_for(lambda: "nothing waiting" in screen(), "the approvals pane to empty")
        tmux("send-keys", "-t", session, "Tab", "Tab")
        time.sleep(0.3)
        tmux("send-keys", "-t", session, *["Up"] * 12, "u")
        wait_for(scratch.exists, "undo to restore scratch.txt")
        assert scratch.read_bytes() == SCRATCH_BYTES
        wait_for(lambda: "reversed" in screen(), "the journal to show the receipt reversed")
        tmux("send-keys", "-t", session, "q")
        gone = lambda: subprocess.run(["tmux", "has-session", "-t", session], capture_output=True).returncode != 0  # noqa: E731
        wait_for(gone, "the console to quit", 10)
    finally:
        subprocess.run(["tmux", "kill-session", "-t", session], capture_output=True)
