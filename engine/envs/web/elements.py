"""The element a target names on a live page: now, or once it appears.

A point target names the control under that pixel (`identity.element_at`). For a check or a
wait, any other target names the best visible match of its locators (`targets.probe`); for an
action it names the one visible element that matches it exactly (`acted_on`), or nothing, with
the reason: an action never falls back to a loose match, nor picks one of several.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass

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


@dataclass(frozen=True)
class Found:
    """What an action's target names: the one element to act on, or None and why (`problem`, one line)."""

    element: Element | None
    problem: str = ""


async def acted_on(page: Page, target: dict, timeout_s: float) -> Found:
    """The element an action on `target` acts on: the control under a point, or the single visible element
    the target matches exactly, waited for up to `timeout_s`. Several exact matches are refused at once,
    saying how many; none, once the time is up, saying how many elements matched only loosely."""
    if targets.is_point(target):
        under = await element_at(page, target["x"], target["y"])
        return Found(under, "" if under is not None else f"there is no element {targets.describe(target)}")
    deadline = time.monotonic() + timeout_s
    while True:
        try:
            matches = await targets.exact(page, target)
        except PlaywrightError as exc:
            if not says_navigating(exc):
                raise
            matches = targets.Matches(0, None)
        if matches.count == 1:
            return Found(matches.first)
        if matches.count > 1:
            return Found(None, f"{matches.count} elements match {targets.describe(target)} exactly, and an action "
                               "takes exactly one: name it more closely (its role and name, its label, or a css "
                               "selector)")
        if time.monotonic() >= deadline:
            return Found(None, await _nothing(page, target, timeout_s))
        await asyncio.sleep(POLL_S)


async def _nothing(page: Page, target: dict, timeout_s: float) -> str:
    missing = f"nothing matches {targets.describe(target)}"
    try:
        loose = await targets.loosely(page, target)
    except PlaywrightError:
        loose = 0
    if not loose:
        return f"{missing} within {timeout_s:g} s"
    some = "1 element contains" if loose == 1 else f"{loose} elements contain"
    return (f"{missing} exactly within {timeout_s:g} s ({some} it loosely: in another case, or within a longer "
            "name or text; an action takes only an exact match)")
