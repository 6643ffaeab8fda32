"""The element a target names on a live page: now, or once it appears.

A point target names the control under that pixel (`identity.element_at`); every other
target the best visible match of its locators (`targets.probe`).
"""

from __future__ import annotations

import asyncio
import time

from playwright.async_api import ElementHandle, Locator, Page
from playwright.async_api import Error as PlaywrightError

from engine.envs.web import targets
from engine.envs.web.failures import says_navigating
from engine.envs.web.identity import element_at

POLL_S = 0.1

Element = Locator | ElementHandle


async def element(page: Page, target: dict, exact: bool = False) -> Element | None:
    """The element a target names right now, without waiting, or None (`exact`: whole names only)."""
    if targets.is_point(target):
        return await element_at(page, target["x"], target["y"])
    return await targets.probe(page, target, exact)


async def wait_element(page: Page, target: dict, timeout_s: float) -> Element | None:
    """`element`, retried until one appears or `timeout_s` passes (then None); a navigation meanwhile is waited out."""
    deadline = time.monotonic() + timeout_s
    while True:
        try:
            found = await element(page, target)
        except PlaywrightError as exc:
            if not says_navigating(exc):
                raise
            found = None
        if found is not None or time.monotonic() >= deadline:
            return found
        await asyncio.sleep(POLL_S)
