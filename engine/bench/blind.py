"""Blind baselines for `warden bench replay`: the same actions in plain Playwright, with nothing of Warden.

- `locators`: each action on the same target Warden's replay used, through a plain Playwright
  locator (which waits for its element, as any Playwright script does); no state checks, no
  gate, no journal, no trace. Replay's overhead is measured against this.
- `recorded`: each action of an earlier run on the CSS selector its trace recorded, done in the
  page as soon as that selector matches, with no check of what the page is: how linear
  record-and-replay tools act, and what the demo site's perturbations trap.

Both run in a fresh context of one Chromium launched once (its launch is never timed), after
the spec's own start URL and setup, so they start where Warden's run started.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass

from playwright.async_api import Browser, Locator, Page, Playwright, async_playwright
from playwright.async_api import Error as PlaywrightError

STEP_TIMEOUT_S = 5.0

# Find the recorded selector and act on it at once; a click is left to a task of its own so an action
# that navigates never ends the evaluation that dispatched it.
_DOM_ACT = """
([selector, action, value]) => {
  const element = document.querySelector(selector);
  if (!element) return false;
  const changed = () => {
    element.dispatchEvent(new Event('input', {bubbles: true}));
    element.dispatchEvent(new Event('change', {bubbles: true}));
  };
  if (action === 'fill') { element.focus(); element.value = value; changed(); }
  else if (action === 'select') { element.value = value; changed(); }
  else if (action === 'focus') element.focus();
  else if (action === 'check') { if (!element.checked) setTimeout(() => element.click()); }
  else if (action === 'click') setTimeout(() => element.click());
  return true;
}
"""


@dataclass
class BlindRun:
    """What one blind run did: actions dispatched, seconds they took, why it stopped early (if it did),
    and the spec's evaluator once the page settled."""

    actions: int
    action_s: float
    error: str | None = None
    evaluation: bool | None = None


class BlindBrowser:
    def __init__(self, executable: str) -> None:
        self._executable = executable
        self._playwright: Playwright | None = None
        self._browser: Browser | None = None

    async def start(self) -> None:
        self._playwright = await async_playwright().start()
        self._browser = await self._playwright.chromium.launch(executable_path=self._executable)

    async def close(self) -> None:
        if self._browser is not None:
            await self._browser.close()
        if self._playwright is not None:
            await self._playwright.stop()
        self._browser = self._playwright = None

    async def run(self, env: dict, steps: list[dict], mode: str, evaluator: dict | None = None) -> BlindRun:
        """Start as the spec starts, then do `steps` (`{"tool", "args"}`; `recorded` ones carry `selector`)."""
        assert self._browser is not None, "start() first"
        width, height = (env.get("viewport") or {}).get("width", 1280), (env.get("viewport") or {}).get("height", 800)
        context = await self._browser.new_context(viewport={"width": width, "height": height})
        context.set_default_timeout(STEP_TIMEOUT_S * 1000)
        try:
            page = await context.new_page()
            await _start(page, env)
            act = _locator_step if mode == "locators" else _recorded_step
            done, error, began = 0, None, time.perf_counter()
            for step in steps:
                try:
                    await act(page, step)
                except (PlaywrightError, TimeoutError) as exc:
                    error = f"step {done + 1} {step['tool']}: {str(exc).splitlines()[0]}"
                    break
                done += 1
            elapsed = time.perf_counter() - began
            return BlindRun(done, elapsed, error, await _settled_evaluation(page, evaluator))
        finally:
            await context.close()


async def _start(page: Page, env: dict) -> None:
    """The spec's start URL and setup, as the web environment runs them: a script that reloads the page
    (a reset does) is done when the page it led to has loaded."""
    seen = {"navigations": 0, "loads": 0}
    page.on("request", lambda request: seen.update(navigations=seen["navigations"] + 1)
            if request.is_navigation_request() and request.frame == page.main_frame else None)
    page.on("load", lambda _: seen.update(loads=seen["loads"] + 1))
    await page.goto(env["start_url"], wait_until="load")
    for step in env.get("setup", []):
        if "js" in step:
            before = dict(seen)
            try:
                await page.evaluate(step["js"])
            except PlaywrightError:
                pass  # a setup that reloads the page ends its own evaluation
            await asyncio.sleep(0.1)
            deadline = time.monotonic() + 15
            while seen["navigations"] > before["navigations"] and seen["loads"] == before["loads"] \
                    and time.monotonic() < deadline:
                await asyncio.sleep(0.05)
        else:
            await locate(page, step["wait_for"]).wait_for(state="visible", timeout=15_000)


def locate(page: Page, target: dict) -> Locator:
    """A plain Playwright locator for a Warden target (the first match)."""
    if "role" in target:
        named = {"name": target["name"], "exact": True} if "name" in target else {}
        return page.get_by_role(target["role"], **named).first
    (kind, value), = target.items()
    if kind == "css":
        return page.locator(value).first
    if kind == "xpath":
        return page.locator(f"xpath={value}").first
    by = {"text": page.get_by_text, "label": page.get_by_label, "placeholder": page.get_by_placeholder}[kind]
    return by(value, exact=True).first


_LOCATED = frozenset({"browser.click", "browser.fill", "browser.select", "browser.check", "browser.wait"})


async def _locator_step(page: Page, step: dict) -> None:
    tool, args = step["tool"], step["args"]
    target: dict | None = args.get("target")
    if target is not None and "x" in target:
        await page.mouse.click(target["x"], target["y"])
    elif tool in _LOCATED:
        if target is None:
            raise PlaywrightError(f"{tool} names no target")
        found = locate(page, target)
        if tool == "browser.click":
            await found.click()
        elif tool == "browser.fill":
            await found.fill(args["text"])
        elif tool == "browser.select":
            await found.select_option(args["value"])
        elif tool == "browser.check":
            await found.check()
        else:
            await found.wait_for(state="visible")
    elif tool == "browser.press":
        await page.keyboard.press(args["key"])
    elif tool == "browser.type":
        await page.keyboard.type(args["text"])
    elif tool == "browser.goto":
        await page.goto(args["url"])
    elif tool == "browser.scroll":
        await page.mouse.wheel(args.get("dx", 0), args.get("dy", 0))
    else:
        raise PlaywrightError(f"no blind form of {tool}")


async def _recorded_step(page: Page, step: dict) -> None:
    """The step on its recorded selector, as soon as that selector matches whatever page is showing."""
    tool, args, selector = step["tool"], step["args"], step.get("selector")
    action = {"browser.click": "click", "browser.fill": "fill", "browser.select": "select", "browser.check": "check",
              "browser.press": "focus", "browser.type": "focus", "browser.wait": "wait"}.get(tool)
    if selector and action:
        value = args.get("text", args.get("value", ""))
        await _when_matched(page, selector, action, value)
    elif tool not in ("browser.press", "browser.type"):
        await _locator_step(page, step)  # nothing recorded to act on (a goto, a scroll): as written
    if tool == "browser.press":
        await page.keyboard.press(args["key"])
    elif tool == "browser.type":
        await page.keyboard.type(args["text"])


async def _when_matched(page: Page, selector: str, action: str, value: str) -> None:
    deadline = time.monotonic() + STEP_TIMEOUT_S
    while True:
        try:
            if action == "wait":
                if await page.evaluate("(s) => !!document.querySelector(s)", selector):
                    return
            elif await page.evaluate(_DOM_ACT, [selector, action, value]):
                return
        except PlaywrightError:
            pass  # the page was between documents; look again
        if time.monotonic() > deadline:
            raise TimeoutError(f"nothing matches the recorded selector {selector!r} within {STEP_TIMEOUT_S:g} s")
        await asyncio.sleep(0.05)


async def _settled_evaluation(page: Page, evaluator: dict | None) -> bool | None:
    """The spec's JS evaluator once the page has stopped moving (None for a non-JS evaluator)."""
    await _settle(page)
    if not evaluator or "js" not in evaluator:
        return None
    for _ in range(3):
        try:
            return bool(await page.evaluate(evaluator["js"]))
        except PlaywrightError:
            await _settle(page)
    return False


async def _settle(page: Page) -> None:
    await asyncio.sleep(0.2)
    try:
        await page.wait_for_load_state("load", timeout=15_000)
    except PlaywrightError:
        pass
