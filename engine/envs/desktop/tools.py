"""Desktop tools: click, type, press a key combination and scroll on the environment's display.

Each is externally irreversible. A click is a bare point and typing goes wherever the focus
is, so the gate cannot see what they press: click, type and hotkey are not scoped, and a
person is asked before each unless the policy allows the tool (`[tools."desktop.click"]
allow_irreversible = true`) for unattended runs. Only scrolling is scoped to the display. Arguments pyautogui would silently ignore (a point off the screen, a
character it has no key for, an unknown key name) are refused in one line instead.
"""

from __future__ import annotations

import re
from types import ModuleType
from typing import Any

from engine.envs.desktop.environment import KIND, DesktopEnv
from engine.tier import Tier
from engine.tools.registry import Tool, ToolError, ToolOutput, acting_in

SHOWN_TEXT = 40
_KEY_SEPARATOR = re.compile(r"\+(?=.)")  # "ctrl++" is ctrl and "+"


async def _click(env: DesktopEnv, args: dict[str, Any]) -> ToolOutput:
    x, y = args["x"], args["y"]
    if isinstance(x, bool) or isinstance(y, bool):
        raise ToolError("desktop.click: x and y are pixel numbers, not true/false")

    def click(gui: ModuleType) -> tuple[int, int]:
        width, height = gui.size()
        if not (0 <= x < width and 0 <= y < height):
            raise ToolError(f"desktop.click: ({x}, {y}) is outside the {width}x{height} screen")
        gui.click(x, y)
        return width, height

    await env.drive(click)
    return ToolOutput(f"clicked at ({x}, {y})", {"x": x, "y": y})


async def _type(env: DesktopEnv, args: dict[str, Any]) -> ToolOutput:
    text = args["text"]

    def type_(gui: ModuleType) -> None:
        missing = sorted({c for c in text if not gui.isValidKey(c)})
        if missing:
            raise ToolError(f"desktop.type: no key types {', '.join(map(repr, missing[:5]))}; "
                            "type those another way (a paste, or the app's own input)")
        gui.write(text)

    await env.drive(type_)
    return ToolOutput(f"typed {len(text)} characters", {"characters": len(text)})


def key_names(keys: str) -> list[str]:
    """The key names of a combination such as "ctrl+s" or "ctrl+shift+t", lower-cased, in order."""
    names = [part.strip().lower() if len(part.strip()) > 1 else part.strip() for part in _KEY_SEPARATOR.split(keys)]
    if any(not name for name in names):
        raise ToolError(f"desktop.hotkey: {keys!r} is not a key combination such as 'ctrl+s'")
    return names


async def _hotkey(env: DesktopEnv, args: dict[str, Any]) -> ToolOutput:
    names = key_names(args["keys"])

    def press(gui: ModuleType) -> None:
        unknown = [name for name in names if not gui.isValidKey(name)]
        if unknown:
            raise ToolError(f"desktop.hotkey: unknown key {unknown[0]!r} (names such as ctrl, alt, shift, enter, "
                            "tab, esc, f5, a)")
        gui.hotkey(*names)

    await env.drive(press)
    return ToolOutput(f"pressed {'+'.join(names)}", {"keys": names})


async def _scroll(env: DesktopEnv, args: dict[str, Any]) -> ToolOutput:
    dy = args["dy"]
    if isinstance(dy, bool) or dy == 0:
        raise ToolError("desktop.scroll: dy is a non-zero number of wheel clicks (positive scrolls down)")
    await env.drive(lambda gui: gui.scroll(-dy))
    return ToolOutput(f"scrolled {_direction(dy)} {abs(dy)}", {"dy": dy})


def _direction(dy: int) -> str:
    return "down" if dy > 0 else "up"


def _shown(text: str) -> str:
    return repr(text if len(text) <= SHOWN_TEXT else text[:SHOWN_TEXT] + "…")


DESKTOP_TOOLS = (
    Tool(
        name="desktop.click",
        kind=KIND,
        schema={"x": int, "y": int},
        run=acting_in(DesktopEnv, _click),
        tier=Tier.EXTERNALLY_IRREVERSIBLE,
        summary=lambda a: f"click at ({a['x']}, {a['y']})",
    ),
    Tool(
        name="desktop.type",
        kind=KIND,
        schema={"text": str},
        run=acting_in(DesktopEnv, _type),
        tier=Tier.EXTERNALLY_IRREVERSIBLE,
        summary=lambda a: f"type {_shown(a['text'])}",
    ),
    Tool(
        name="desktop.hotkey",
        kind=KIND,
        schema={"keys": str},
        run=acting_in(DesktopEnv, _hotkey),
        tier=Tier.EXTERNALLY_IRREVERSIBLE,
        summary=lambda a: f"press {a['keys']}",
    ),
    Tool(
        name="desktop.scroll",
        kind=KIND,
        schema={"dy": int},
        run=acting_in(DesktopEnv, _scroll),
        tier=Tier.EXTERNALLY_IRREVERSIBLE,
        scoped=True,
        summary=lambda a: f"scroll {_direction(a['dy'])} {abs(a['dy'])}",
    ),
)
