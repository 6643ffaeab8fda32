"""Playwright's errors as Warden's one-line ones.

Playwright's messages carry a call log over many lines and the API name first
(`Locator.click: Timeout 15000ms exceeded.`); a person needs only what went wrong.
"""

from __future__ import annotations

import re

from playwright.async_api import Error as PlaywrightError

_API_PREFIX = re.compile(r"^(?:[A-Z][A-Za-z]*\.[a-z][A-Za-z_]*: )+")
_GONE = ("has been closed", "target closed", "browser closed", "target crashed", "connection closed",
         "page crashed", "browser has disconnected")


def first_line(exc: BaseException) -> str:
    """The message's first line without Playwright's API name, or the exception's type when it has none."""
    lines = [line.strip() for line in str(exc).splitlines() if line.strip()]
    if not lines:
        return type(exc).__name__
    return _API_PREFIX.sub("", lines[0]) or lines[0]


def says_gone(exc: PlaywrightError) -> bool:
    """Whether an error says the page, context or browser it acted on no longer exists."""
    text = str(exc).lower()
    return any(marker in text for marker in _GONE)


def says_navigating(exc: PlaywrightError) -> bool:
    """Whether an error only says the document changed under the call (a navigation), so a retry may see the new one."""
    text = str(exc).lower()
    return "execution context was destroyed" in text or "frame was detached" in text


def net_error(exc: BaseException) -> str | None:
    """The `net::ERR_…` code Chromium gave for a failed navigation, when there is one."""
    found = re.search(r"net::ERR_[A-Z_]+", str(exc))
    return found.group(0) if found else None
