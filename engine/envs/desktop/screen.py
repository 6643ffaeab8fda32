"""Pixels of a display: a PNG of the whole screen, taken from the named display itself.

Pillow's X grab is given the display by name, so it never depends on `$DISPLAY` (pyscreeze,
which pyautogui would use, reads `$DISPLAY` and on Linux wants gnome-screenshot or scrot).
"""

from __future__ import annotations

import io

from engine.envs.desktop.display import NO_DISPLAY, DesktopError
from engine.errors import one_line


def screenshot_png(display: str | None) -> bytes:
    """The screen of `display` now, as PNG bytes; a one-line `DesktopError` when it cannot be grabbed."""
    if not display:
        raise DesktopError(NO_DISPLAY)
    from PIL import ImageGrab

    try:
        image = ImageGrab.grab(xdisplay=display)
    except OSError as exc:  # no such display, or a Pillow built without XCB
        raise DesktopError(f"cannot take a screenshot of {display}: {one_line(exc)}") from None
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()
