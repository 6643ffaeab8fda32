"""Which Chromium the web environment drives, and launching it.

Discovery never launches a browser, so the runtime can call `find_browser` to decide
whether browser tools are available at all. Order: an explicit executable (the runtime
passes `WARDEN_BROWSER`), Playwright's own Chromium when it is on disk, then a system one.
"""

from __future__ import annotations

import functools
import json
import os
import shutil

from playwright.async_api import Browser, Playwright, async_playwright
from playwright.async_api import Error as PlaywrightError

from engine.envs.web.failures import first_line
from engine.errors import WardenError

SYSTEM_PATHS = ("/usr/bin/chromium",)
SYSTEM_COMMANDS = ("chromium", "chromium-browser", "google-chrome")
INSTALL_HINT = "install one with `playwright install chromium` or `apt-get install chromium`"


class BrowserMissing(WardenError):
    """No Chromium to drive; the message says how to install one."""


def _executable(path: str) -> bool:
    return os.path.isfile(path) and os.access(path, os.X_OK)


@functools.cache
def playwright_chromium() -> str | None:
    """Where `playwright install chromium` put the Chromium this Playwright drives, when that file exists.

    Read from Playwright's own record of its browser revisions and its install folder
    (`PLAYWRIGHT_BROWSERS_PATH`, default `~/.cache/ms-playwright`) rather than by starting
    its driver, which would cost every `warden` command half a second.
    """
    import playwright

    record = os.path.join(os.path.dirname(playwright.__file__), "driver", "package", "browsers.json")
    try:
        with open(record, encoding="utf-8") as file:
            browsers = json.load(file)["browsers"]
        revision = next(b["revision"] for b in browsers if b.get("name") == "chromium")
    except (OSError, ValueError, KeyError, StopIteration, TypeError):
        return None
    root = os.environ.get("PLAYWRIGHT_BROWSERS_PATH") or os.path.join(os.path.expanduser("~"), ".cache", "ms-playwright")
    if root == "0":
        root = os.path.join(os.path.dirname(playwright.__file__), "driver", "package", ".local-browsers")
    for folder in ("chrome-linux64", "chrome-linux"):
        candidate = os.path.join(root, f"chromium-{revision}", folder, "chrome")
        if _executable(candidate):
            return candidate
    return None


def find_browser(explicit: str | None = None) -> str | None:
    """The Chromium executable to launch, or None; an explicit path is the only candidate when given."""
    if explicit:
        resolved = explicit if os.sep in explicit else shutil.which(explicit)
        return resolved if resolved and _executable(resolved) else None
    installed = playwright_chromium()
    if installed:
        return installed
    for path in SYSTEM_PATHS:
        if _executable(path):
            return path
    for command in SYSTEM_COMMANDS:
        if found := shutil.which(command):
            return found
    return None


def browser_problem(explicit: str | None = None) -> str | None:
    """Why no browser can be launched, in one line, or None when one can."""
    if find_browser(explicit) is not None:
        return None
    if explicit:
        return f"the browser {explicit} is not an executable file; name another, or {INSTALL_HINT}"
    return f"no Chromium found; {INSTALL_HINT}"


def require_browser(explicit: str | None = None) -> str:
    """The executable to launch, or `BrowserMissing` with one line saying how to get one."""
    found = find_browser(explicit)
    if found is None:
        raise BrowserMissing(browser_problem(explicit) or f"no Chromium found; {INSTALL_HINT}")
    return found


# WebRTC may send UDP only through a proxy, and no proxy Warden gives a context carries UDP: so none
# is sent, whatever a page does (its TCP goes through the context's proxy, which the egress guard decides).
CONFINING_ARGS = ("--webrtc-ip-handling-policy=disable_non_proxied_udp",)


async def launch(executable: str, headless: bool) -> tuple[Playwright, Browser]:
    """Playwright's driver and a browser on it, launched with `CONFINING_ARGS`; Playwright passes `--no-sandbox`
    itself (Chromium refuses root otherwise)."""
    playwright = await async_playwright().start()
    try:
        browser = await playwright.chromium.launch(executable_path=executable, headless=headless,
                                                   args=list(CONFINING_ARGS))
    except PlaywrightError as exc:
        await playwright.stop()
        raise WardenError(f"cannot launch the browser {executable}: {first_line(exc)}") from None
    return playwright, browser
