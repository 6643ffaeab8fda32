"""The title of the window that gets the keyboard on a display, read with xdotool.

Under a window manager that is the active window (`_NET_ACTIVE_WINDOW`). A bare X server
(Xvfb with no window manager) has no active window: keys go to the window an app gave the
input focus to, or, while the focus is X's default "pointer root", to the top-level window
under the pointer, so those are read in that order instead. None means it cannot be told
(no xdotool, no window, no display).
"""

from __future__ import annotations

import os
import shutil
import subprocess

TIMEOUT_SECONDS = 5.0


def active_title(display: str | None) -> str | None:
    """The title of the window that would receive typed keys, or None when it cannot be told."""
    xdotool = shutil.which("xdotool")
    if not display or xdotool is None:
        return None
    for command in (("getactivewindow", "getwindowname"), ("getwindowfocus", "getwindowname")):
        title = _xdotool(xdotool, display, *command)
        if title is not None:
            return title
    location = _xdotool(xdotool, display, "getmouselocation", "--shell")
    window = dict(line.split("=", 1) for line in (location or "").splitlines() if "=" in line).get("WINDOW")
    if not window or not window.isdigit():
        return None
    return _xdotool(xdotool, display, "getwindowname", window)


def _xdotool(xdotool: str, display: str, *args: str) -> str | None:
    """xdotool's output for one command on `display` (one line, newline removed), or None if it failed."""
    try:
        done = subprocess.run([xdotool, *args], env={**os.environ, "DISPLAY": display}, capture_output=True,
                              timeout=TIMEOUT_SECONDS, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return None
    if done.returncode != 0:
        return None
    return done.stdout.decode("utf-8", errors="replace").rstrip("\n")
