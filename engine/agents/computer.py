"""How a model's computer-use actions become Warden tool calls.

Both model agents speak in screen actions (click here, type this, press that key); Warden
runs registered tools that the gate can rate and the journal can record. This module is the
one place that knows which tool, with which arguments, does each action in each kind of
environment. A mapped action is a `Calls` (run through the runner, one call per proposal),
a `Look` (nothing to run: the model is answered at once with the screen) or a `Refuse`
(no mapping, or the registry would refuse the call: the model is told why and may adapt).
"""

from __future__ import annotations

import struct
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.tools.call import ToolCall
from engine.tools.registry import ToolError, ToolRegistry

PIXELS_PER_WHEEL_CLICK = 100
"""How far one wheel click scrolls, as Chromium scrolls a page by default."""

_PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


@dataclass(frozen=True)
class Display:
    """The screen the model sees, in pixels; its coordinates are pixels of this screen."""

    width: int
    height: int

    @classmethod
    def of(cls, fields: Mapping[str, Any], png: bytes | None) -> "Display | None":
        """The observation's `fields["display"]`, else the screenshot's own size, else None."""
        display = fields.get("display")
        if isinstance(display, Mapping):
            width, height = display.get("width"), display.get("height")
            if isinstance(width, int) and isinstance(height, int) and width > 0 and height > 0:
                return cls(width, height)
        size = png_size(png) if png else None
        return cls(*size) if size else None

    def holds(self, x: int, y: int) -> bool:
        return 0 <= x < self.width and 0 <= y < self.height

    def from_normalised(self, x: float, y: float, scale: int = 1000) -> tuple[int, int]:
        """Pixels for a point given on a 0..scale-1 grid (Gemini's 0..999), kept on the screen."""
        px = min(self.width - 1, max(0, int(x * self.width / scale)))
        py = min(self.height - 1, max(0, int(y * self.height / scale)))
        return px, py


def png_size(png: bytes) -> tuple[int, int] | None:
    """Width and height from a PNG's header (its IHDR chunk), without decoding the image."""
    if len(png) < 24 or not png.startswith(_PNG_SIGNATURE) or png[12:16] != b"IHDR":
        return None
    width, height = struct.unpack(">II", png[16:24])
    return (width, height) if width and height else None


@dataclass(frozen=True)
class Calls:
    """Run these calls in order, each through the runner and the gate, before answering the model."""

    calls: tuple[ToolCall, ...]


@dataclass(frozen=True)
class Look:
    """Nothing to run: answer the model at once with `note` and the screen as it is now.

    `wait` seconds pass first (a model asking to wait for the page)."""

    note: str
    wait: float = 0.0


@dataclass(frozen=True)
class Refuse:
    """The action cannot be done here: the model is told `error` and may choose another."""

    error: str


Move = Calls | Look | Refuse

_PLAYWRIGHT_KEYS = {
    "ctrl": "Control", "control": "Control", "alt": "Alt", "option": "Alt", "shift": "Shift",
    "super": "Meta", "meta": "Meta", "cmd": "Meta", "command": "Meta", "win": "Meta",
    "return": "Enter", "enter": "Enter", "kp_enter": "Enter", "tab": "Tab", "escape": "Escape", "esc": "Escape",
    "backspace": "Backspace", "delete": "Delete", "del": "Delete", "insert": "Insert", "space": "Space",
    "up": "ArrowUp", "down": "ArrowDown", "left": "ArrowLeft", "right": "ArrowRight",
    "arrowup": "ArrowUp", "arrowdown": "ArrowDown", "arrowleft": "ArrowLeft", "arrowright": "ArrowRight",
    "page_up": "PageUp", "pageup": "PageUp", "prior": "PageUp", "page_down": "PageDown", "pagedown": "PageDown",
    "next": "PageDown", "home": "Home", "end": "End", "plus": "+", "minus": "-",
}
_PLAYWRIGHT_MODIFIERS = {"Control", "Alt", "Shift", "Meta"}

_DESKTOP_KEYS = {
    "control": "ctrl", "return": "enter", "kp_enter": "enter", "escape": "esc", "super": "win", "meta": "win",
    "cmd": "command", "page_up": "pageup", "prior": "pageup", "page_down": "pagedown", "next": "pagedown",
    "arrowup": "up", "arrowdown": "down", "arrowleft": "left", "arrowright": "right", "del": "delete",
}


def playwright_key(combo: str) -> str:
    """An xdotool-style combination (`ctrl+a`, `Return`, `shift+Tab`) in Playwright's names
    (`Control+A`, `Enter`, `Shift+Tab`); a lone letter with modifiers is upper-cased."""
    parts = [part for part in combo.strip().split("+") if part] or ["+"]
    names = [_PLAYWRIGHT_KEYS.get(part.lower(), _function_key(part) or part) for part in parts]
    if len(names) > 1 and len(names[-1]) == 1 and all(name in _PLAYWRIGHT_MODIFIERS for name in names[:-1]):
        names[-1] = names[-1].upper()
    return "+".join(names)


def desktop_keys(combo: str) -> str:
    """A combination in the lower-case names a desktop hotkey takes (`ctrl+s`, `enter`)."""
    parts = [part.lower() for part in combo.strip().split("+") if part] or ["+"]
    return "+".join(_DESKTOP_KEYS.get(part, part) for part in parts)


def _function_key(part: str) -> str | None:
    tail = part[1:]
    return f"F{tail}" if part[:1] in "fF" and tail.isdigit() and 1 <= int(tail) <= 24 else None


class Actions:
    """Tool calls for the actions a model may take in one kind of environment.

    Every call is checked against the registry before it is proposed, so a call the runner
    would refuse (a tool this deployment lacks, arguments of the wrong shape) is told to the
    model as an error it can adapt to, not spent as a failed step.
    """

    def __init__(self, env_kind: str, tools: ToolRegistry) -> None:
        self.env_kind = env_kind
        self._tools = tools

    @property
    def web(self) -> bool:
        return self.env_kind == "web"

    @property
    def desktop(self) -> bool:
        return self.env_kind == "desktop"

    def click(self, x: int, y: int) -> Move:
        if self.web:
            return self._calls(ToolCall("browser.click", {"target": {"x": x, "y": y}}))
        if self.desktop:
            return self._calls(ToolCall("desktop.click", {"x": x, "y": y}))
        return self._unavailable("clicking")

    def type(self, text: str) -> Move:
        if self.web:
            return self._calls(ToolCall("browser.type", {"text": text}))
        if self.desktop:
            return self._calls(ToolCall("desktop.type", {"text": text}))
        return self._unavailable("typing")

    def keys(self, combos: Iterable[str]) -> Move:
        """Each combination pressed in turn (`ctrl+a`, then `Delete`)."""
        combos = [combo for combo in combos if combo.strip()]
        if not combos:
            return Refuse("no key was named")
        if self.web:
            return self._calls(*(ToolCall("browser.press", {"key": playwright_key(combo)}) for combo in combos))
        if self.desktop:
            return self._calls(*(ToolCall("desktop.hotkey", {"keys": desktop_keys(combo)}) for combo in combos))
        return self._unavailable("pressing keys")

    def scroll(self, direction: str, pixels: int) -> Move:
        """A scroll of about `pixels`; a desktop scrolls by wheel clicks, and only up or down."""
        steps = {"down": (0, 1), "up": (0, -1), "right": (1, 0), "left": (-1, 0)}.get(str(direction).lower())
        if steps is None:
            return Refuse(f"scroll direction {direction!r} is not one of up, down, left, right")
        if self.web:
            return self._calls(ToolCall("browser.scroll", {"dx": steps[0] * pixels, "dy": steps[1] * pixels}))
        if self.desktop and steps[1]:
            clicks = max(1, round(pixels / PIXELS_PER_WHEEL_CLICK))
            return self._calls(ToolCall("desktop.scroll", {"dy": steps[1] * clicks}))
        return self._unavailable("scrolling" if steps[1] else "scrolling sideways")

    def goto(self, url: str) -> Move:
        if not isinstance(url, str) or not url.strip():
            return Refuse("navigate needs a url")
        if not self.web:
            return self._unavailable("navigating to a URL")
        return self._calls(ToolCall("browser.goto", {"url": url.strip()}))

    def _calls(self, *calls: ToolCall) -> Move:
        for call in calls:
            try:
                self._tools.validate(call)
            except ToolError as exc:
                return Refuse(f"this environment cannot run {call.tool}: {exc}")
        return Calls(tuple(calls))

    def _unavailable(self, what: str) -> Refuse:
        return Refuse(f"{what} is not available in a {self.env_kind} environment")


def chain(moves: Sequence[Move]) -> Move:
    """Several moves as one action (Gemini's type-at: a click, a clear, the text, Enter):
    the first refusal refuses the whole, looks add nothing to run."""
    calls: list[ToolCall] = []
    for move in moves:
        if isinstance(move, Refuse):
            return move
        if isinstance(move, Calls):
            calls.extend(move.calls)
    return Calls(tuple(calls)) if calls else Look("nothing to do")
