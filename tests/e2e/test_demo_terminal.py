"""`warden demo` in a real terminal (tmux), as the README tells it: `2` then `a` approves the delete, `3` then
`u` offers to undo that delete (the journal opens on its newest receipt), and once confirmed the file is back. Keys that name panes (`2`, `3`) work at any terminal size, and what the
test waits for is never where a toast (bottom right) may cover it."""

from __future__ import annotations

import subprocess
import sys
import time
import uuid
from pathlib import Path

from engine.demo import SCRATCH_BYTES


def tmux(*args: str) -> str:
    return subprocess.run(["tmux", *args], check=True, capture_output=True, text=True).stdout


def wait_for(condition, what: str, screen, seconds: float = 30.0) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}; the terminal showed:\n{screen()}")


def test_demo_in_tmux(tmp_path: Path) -> None:
    home = tmp_path / "demo"
    session = f"warden-e2e-{uuid.uuid4().hex[:12]}"
    warden = Path(sys.executable).with_name("warden")
    command = f"{warden if warden.exists() else 'warden'} demo --pace 0 --home {home}"
    tmux("new-session", "-d", "-s", session, "-x", "160", "-y", "48", command)
    screen = lambda: tmux("capture-pane", "-p", "-t", session)  # noqa: E731
    keys = lambda *typed: tmux("send-keys", "-t", session, *typed)  # noqa: E731
    scratch = home / "workspace" / "scratch.txt"
    try:
        wait_for(lambda: "Approvals (1 waiting)" in screen(), "the pending approval", screen)
        assert scratch.read_bytes() == SCRATCH_BYTES
        keys("2")
        wait_for(lambda: "fs.delete" in screen(), "the approvals pane", screen)
        keys("a")
        wait_for(lambda: not scratch.exists(), "the approved delete", screen)
        wait_for(lambda: "Approvals (1 waiting)" not in screen(), "nothing left waiting", screen)

        keys("3")
        wait_for(lambda: "Journal — u undo" in screen() and "delete scratch.txt" in screen(), "the journal", screen)
        keys("u")
        wait_for(lambda: "Undo delete scratch.txt?" in screen(), "the undo confirmation", screen)
        assert not scratch.exists(), "nothing is undone before the person confirms"
        keys("y")
        wait_for(scratch.exists, "undo to restore scratch.txt", screen)
        assert scratch.read_bytes() == SCRATCH_BYTES
        wait_for(lambda: "reversed" in screen(), "the journal to show the receipt reversed", screen)
        keys("q")
        gone = lambda: subprocess.run(["tmux", "has-session", "-t", session], capture_output=True).returncode != 0  # noqa: E731
        wait_for(lambda: gone() or "Quit while" in screen(), "the console to quit or ask first", screen, 10)
        if not gone():  # a demo web task still running: `q` names it and asks first
            keys("y")
        wait_for(gone, "the console to quit", screen, 10)
    finally:
        subprocess.run(["tmux", "kill-session", "-t", session], capture_output=True)
