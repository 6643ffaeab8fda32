"""A stand-in for a phone at the uiautomator2 boundary: the `uiautomator2.Device` methods Warden calls.

Each method has the real signature (a test checks them against `uiautomator2.Device`),
records how it was called, and moves between recorded hierarchy dumps the way a phone
would: a tap lands on whatever elements contain the point (a route names the text, id or
description of one of them), typing edits the focused field of the dump (password
fields show bullets), back and home go where routes say, and starting an app shows its
screen. `failing` makes every call raise what uiautomator2 raises when a phone drops off.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from PIL import Image

DUMPS = Path(__file__).with_name("dumps")
SIZE = (1080, 2400)
WIFI = "Wi\u2011Fi"  # Android writes Wi-Fi with a non-breaking hyphen

ACTIVITIES = {
    "settings": ("com.android.settings", ".Settings"),
    "wifi": ("com.android.settings", ".SubSettings"),
    "login": ("com.example.shop", ".LoginActivity"),
    "inbox": ("com.example.mail", ".InboxActivity"),
    "launcher": ("com.google.android.apps.nexuslauncher", ".NexusLauncherActivity"),
}
LAUNCHES = {"com.android.settings": "settings", "com.example.shop": "login", "com.example.mail": "inbox"}
TAPS = {("settings", WIFI): "wifi", ("wifi", "Navigate up"): "settings", ("launcher", "Settings"): "settings",
        ("launcher", "Shop"): "login", ("launcher", "Mail"): "inbox"}
BACK = {"wifi": "settings", "settings": "launcher", "login": "launcher", "inbox": "launcher"}


def dump(name: str) -> str:
    return (DUMPS / f"{name}.xml").read_text(encoding="utf-8")


def _bounds(element: ET.Element) -> tuple[int, int, int, int]:
    left, top, right, bottom = (int(n) for n in element.get("bounds", "[0,0][0,0]")[1:-1]
                                .replace("][", ",").split(","))
    return left, top, right, bottom


@dataclass
class Phone:
    """What the phone shows (`screen`, a dump's name) and every call made to it (`calls`)."""

    screen: str = "settings"
    calls: list[tuple[Any, ...]] = field(default_factory=list)
    failing: Exception | None = None
    _edited: dict[str, str] = field(default_factory=dict)

    def _current(self) -> ET.Element:
        text = self._edited.get(self.screen) or dump(self.screen)
        return ET.fromstring(text.encode("utf-8"))

    def _show(self, screen: str) -> None:
        self.screen = screen
        self._edited.pop(screen, None)

    def _record(self, *call: Any) -> None:
        self.calls.append(call)
        if self.failing is not None:
            raise self.failing

    def dump_hierarchy(self, compressed=False, pretty=False, max_depth: int | None = None,
                       root_in_active: bool | None = None) -> str:
        self._record("dump_hierarchy")
        return self._edited.get(self.screen) or dump(self.screen)

    def click(self, x: float, y: float):
        self._record("click", x, y)
        root = self._current()
        hit = [e for e in root.iter("node")
               if (b := _bounds(e))[0] <= x < b[2] and b[1] <= y < b[3]]
        for element in root.iter("node"):
            element.set("focused", "false")
        if hit:
            hit[-1].set("focused", "true")
            if hit[-1].get("checkable") == "true":
                hit[-1].set("checked", "false" if hit[-1].get("checked") == "true" else "true")
        self._edited[self.screen] = ET.tostring(root, encoding="unicode")
        labels = {e.get(key) for e in hit for key in ("text", "content-desc", "resource-id")}
        for (screen, label), target in TAPS.items():
            if screen == self.screen and label in labels:
                self._show(target)
                return

    def press(self, key: int | str, meta=None):
        self._record("press", key)
        if key == "home":
            self._show("launcher")
        elif key == "back" and self.screen in BACK:
            self._show(BACK[self.screen])

    def send_keys(self, text: str, clear: bool = False):
        self._record("send_keys", text, clear)
        root = self._current()
        for element in root.iter("node"):
            if element.get("focused") == "true":
                before = "" if clear else element.get("text", "")
                typed = before + text
                element.set("text", "\u2022" * len(typed) if element.get("password") == "true" else typed)
        self._edited[self.screen] = ET.tostring(root, encoding="unicode")

    def app_start(self, package_name: str, activity: str | None = None, wait: bool = False, stop: bool = False,
                  use_monkey: bool = False):
        self._record("app_start", package_name, wait)
        if package_name in LAUNCHES:
            self._show(LAUNCHES[package_name])

    def app_stop(self, package_name: str):
        self._record("app_stop", package_name)
        if ACTIVITIES[self.screen][0] == package_name:
            self._show("launcher")

    def app_current(self):
        self._record("app_current")
        package, activity = ACTIVITIES[self.screen]
        return {"package": package, "activity": activity, "pid": 4242}

    def window_size(self):
        self._record("window_size")
        return SIZE

    def screenshot(self, filename: str | None = None, format="pillow", display_id: int | None = None):
        self._record("screenshot")
        return Image.new("RGB", SIZE, (32, 33, 36))
