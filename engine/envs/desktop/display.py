"""Which X display the desktop tools drive, whether it can be used, and pyautogui bound to it.

pyautogui opens its X connection once, when it is imported, from `$DISPLAY`: one process
can drive one display. So it is imported here only, lazily (Warden imports and runs with
no display at all), with `$DISPLAY` set to the display asked for while it loads, and a
later request for another display is refused in one line rather than silently driving
the first one.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import sys
import threading
from types import ModuleType

from engine.errors import one_line
from engine.tools.registry import ToolError

NO_DISPLAY = "no display: set DISPLAY or run under Xvfb"

_binding = threading.Lock()
_bound: str | None = None


class DesktopError(ToolError):
    """The display cannot be used, or a desktop action failed; the message is one line."""


def canonical(display: str) -> str:
    """`:5.0` and `:5` name the same screen; compare displays in this form."""
    return display.removesuffix(".0")


def desktop_unavailable(display: str | None) -> str | None:
    """Why the desktop tools cannot act on `display` now, in one line, or None when they can.

    The runtime sets it as each desktop tool's `unavailable` so the gate never rules on
    a call that could not run. It opens (and closes) one X connection to find out.
    """
    if not display:
        return NO_DISPLAY
    if importlib.util.find_spec("pyautogui") is None:
        return "desktop tools need pyautogui: pip install pyautogui"
    bound = bound_display()
    if bound is not None and canonical(bound) != canonical(display):
        return f"this process drives display {bound}; display {display} needs a Warden process of its own"
    return _connection_problem(display)


def _connection_problem(display: str) -> str | None:
    try:
        from Xlib import error
        from Xlib.display import Display
    except ImportError:
        return "desktop tools need python-xlib (pyautogui's X11 backend): pip install python-xlib"
    failures = (error.DisplayError, error.ConnectionClosedError, error.XauthError, error.XNoAuthError, OSError)
    try:
        Display(display).close()
    except failures as exc:
        return f"no display: cannot open {display} ({one_line(exc)}); set DISPLAY or run under Xvfb"
    return None


def bound_display() -> str | None:
    """The display this process's pyautogui drives, if it has been imported (here or elsewhere)."""
    if _bound is not None:
        return _bound
    backend = sys.modules.get("pyautogui._pyautogui_x11")
    connection = getattr(backend, "_display", None)
    return connection.get_display_name() if connection is not None else None


def pyautogui_for(display: str | None) -> ModuleType:
    """pyautogui driving `display`, imported on first use; a one-line `DesktopError` when it cannot."""
    global _bound
    problem = desktop_unavailable(display)
    if problem is not None:
        raise DesktopError(problem)
    assert display is not None
    with _binding:
        if "pyautogui" not in sys.modules:
            previous = os.environ.get("DISPLAY")
            os.environ["DISPLAY"] = display
            try:
                importlib.import_module("pyautogui")
            except Exception as exc:  # noqa: BLE001 - it connects to X while importing; Xlib raises many kinds
                raise DesktopError(f"pyautogui cannot start on {display}: {one_line(exc)}") from None
            finally:
                if previous is None:
                    del os.environ["DISPLAY"]
                else:
                    os.environ["DISPLAY"] = previous
            _bound = display
        return sys.modules["pyautogui"]
