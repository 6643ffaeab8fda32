"""A real X server (Xvfb) for the whole session, and a real Tk window on it for each test.

pyautogui binds to one display per process, so there is one Xvfb per test session; it
picks its own free display number (`-displayfd`). A missing Xvfb fails the tests loudly:
CI installs it, and a skipped desktop test would prove nothing.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

SCREEN = (1024, 768)
TITLE = "Warden test notes"
APP = Path(__file__).with_name("tk_app.py")
START_SECONDS = 15.0


@pytest.fixture(scope="session")
def xvfb(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The display name (":N") of an Xvfb of SCREEN size, killed when the session ends."""
    binary = shutil.which("Xvfb")
    if binary is None:
        pytest.fail("Xvfb is not installed: the desktop tests need a real X server (apt-get install xvfb)")
    home = tmp_path_factory.mktemp("xvfb")
    authority = home / "Xauthority"
    authority.touch()  # python-xlib refuses to connect when no authority file exists at all
    read, write = os.pipe()
    server = subprocess.Popen([binary, "-displayfd", str(write), "-screen", "0", f"{SCREEN[0]}x{SCREEN[1]}x24",
                               "-nolisten", "tcp"], pass_fds=(write,), stdout=subprocess.DEVNULL,
                              stderr=(home / "xvfb.log").open("wb"))
    os.close(write)
    try:
        with os.fdopen(read) as announced:
            number = announced.readline().strip()
        if not number.isdigit():
            pytest.fail(f"Xvfb did not start: {(home / 'xvfb.log').read_text()[-500:]}")
        with pytest.MonkeyPatch.context() as patch:
            patch.setenv("XAUTHORITY", str(authority))
            yield f":{number}"
    finally:
        server.kill()
        server.wait()


@pytest.fixture
def display(xvfb: str, monkeypatch: pytest.MonkeyPatch) -> str:
    """The session's display, also as $DISPLAY (pyautogui reads it when first imported)."""
    monkeypatch.setenv("DISPLAY", xvfb)
    return xvfb


@dataclass(frozen=True)
class TkApp:
    """The running test window: where its widgets are and what it has received."""

    entry: tuple[int, int]
    button: tuple[int, int]
    events_file: Path

    def events(self, count: int, within: float = 5.0) -> list[str]:
        """The lines the app wrote, once there are at least `count` (or whatever is there at the deadline)."""
        deadline = time.monotonic() + within
        while True:
            lines = self.events_file.read_text().splitlines() if self.events_file.exists() else []
            if len(lines) >= count or time.monotonic() > deadline:
                return lines
            time.sleep(0.05)


@pytest.fixture
def tk_app(display: str, tmp_path: Path) -> Iterator[TkApp]:
    out = tmp_path / "app"
    out.mkdir()
    log = (tmp_path / "app.log").open("wb")
    process = subprocess.Popen([sys.executable, str(APP), str(out), TITLE], env={**os.environ, "DISPLAY": display},
                               stdout=log, stderr=log)
    try:
        geometry = out / "geometry.json"
        deadline = time.monotonic() + START_SECONDS
        while not geometry.exists():
            if process.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"the Tk test window did not start: {(tmp_path / 'app.log').read_text()[-500:]}")
            time.sleep(0.05)
        placed = json.loads(geometry.read_text())
        yield TkApp((placed["entry"]["x"], placed["entry"]["y"]), (placed["button"]["x"], placed["button"]["y"]),
                    out / "events.txt")
    finally:
        process.kill()
        process.wait()
        log.close()
