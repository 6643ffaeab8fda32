"""The web environment: one Chromium driven by Playwright, a fresh browser context for every task.

The browser is launched on the first `reset` and kept; each reset opens an isolated context
(no shared cookies or storage, downloads refused, service workers blocked so every request
meets the egress guard) and closes the previous one. A browser that closed or crashed is
replaced by the next reset. What a page did to its site cannot be captured, so snapshots
are empty and every browser tool is externally irreversible (an API action may be compensable).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from playwright.async_api import Browser, BrowserContext, Page, Playwright
from playwright.async_api import Error as PlaywrightError
from playwright.async_api import TimeoutError as PlaywrightTimeoutError

from engine.envs.environment import Observation
from engine.envs.scene import Scene
from engine.envs.unrestorable import Unrestorable
from engine.envs.web import checks
from engine.envs.web.browser import browser_problem, launch, require_browser
from engine.envs.web.elements import wait_element
from engine.envs.web.failures import first_line, net_error, says_gone, says_navigating
from engine.envs.web.forms import KIND
from engine.envs.web.guard import EgressGuard
from engine.envs.web.observe import page_text
from engine.envs.web.origins import origin_of
from engine.envs.web.scene import page_scene
from engine.envs.web.secret_fields import password_values
from engine.envs.web.spec import DEFAULT_TIMEOUT_S, WebSpec, parse_spec
from engine.envs.web.targets import describe
from engine.errors import WardenError
from engine.tools.compensator import Compensator
from engine.tools.registry import ToolError

if TYPE_CHECKING:
    from engine.tools.call import ToolCall
    from engine.tools.registry import Tool

FIND_TIMEOUT_S = 5.0
SETTLE_S = 3.0
NAVIGATION_START_S = 0.3  # how long after an action a navigation it started is looked for
CLOSE_TIMEOUT_S = 5.0


class BrowserGone(ToolError):
    """The browser closed or crashed under a call; the next `reset` launches another."""


class WebEnv(Unrestorable):
    """A browser the runtime owns; `executable` is the Chromium to launch (default: `find_browser`'s choice)."""

    kind = KIND
    identity = KIND
    can_fork = False
    can_rehearse = True  # a reset with "read_only" refuses every write: the verify gate may replay there
    durable = False

    def __init__(self, executable: str | None = None, headless: bool = True) -> None:
        self._executable = executable
        self._headless = headless
        self._playwright: Playwright | None = None
        self._browser: Browser | None = None
        self._context: BrowserContext | None = None
        self._spec: WebSpec | None = None
        self._broken = False
        self._navigations = 0  # main-frame navigation requests and documents loaded, counted per page
        self._loads = 0
        self.guard = EgressGuard()
        self._tools: tuple[Tool, ...] | None = None

    def tools(self) -> Sequence[Tool]:
        """The browser tools; with no browser to launch, each is marked unavailable with the line saying how to get one.
        The API tools need no browser."""
        if self._tools is None:
            from engine.envs.web.api_tools import api_tools
            from engine.envs.web.tools import web_tools

            problem = browser_problem(self._executable)
            self._tools = (*(replace(tool, unavailable=problem) for tool in web_tools(self)), *api_tools(self))
        return self._tools

    def compensator_for(self, tool: str, args: Mapping[str, Any]) -> Compensator | None:
        """The compensator the loaded spec declares for this call, or None."""
        declared = self._spec.compensators if self._spec else ()
        return next((compensator for compensator in declared if compensator.covers(tool, args)), None)

    @property
    def timeout_s(self) -> float:
        """How long a navigation or an action may take."""
        return self._spec.timeout_s if self._spec else DEFAULT_TIMEOUT_S

    @property
    def find_timeout_s(self) -> float:
        """How long an action waits for its target to appear."""
        return min(FIND_TIMEOUT_S, self.timeout_s)

    @property
    def writes_refused(self) -> int:
        """Requests that would have changed a site, refused on this read-only page since its reset."""
        return self.guard.writes_refused

    @property
    def check_wait_s(self) -> float:
        """How long a replay waits for the page to settle into a state it expects (a slow page, a late render)."""
        return self.timeout_s

    @property
    def ready(self) -> bool:
        """Whether a page is open in a live browser (a resumed task needs no reset then)."""
        return self._context is not None and self._alive() and bool(self._context.pages)

    def _alive(self) -> bool:
        return not self._broken and self._browser is not None and self._browser.is_connected()

    async def secret_values(self, call: "ToolCall") -> list[str]:
        """Text the call would type into a password field, for the redactor to mark before it is recorded."""
        return await password_values(self, call)

    async def scene(self, call: "ToolCall") -> Scene | None:
        """Where the call would act on the page now, for an approval to be given on (`engine/envs/scene.py`)."""
        return await page_scene(self, call)

    @contextmanager
    def holding_still(self) -> Iterator[None]:
        """While the block runs the page may only read: every other request is refused, and the action that
        made it fails. A page re-established on a site that kept what the task did must not do it twice."""
        guard = self.guard
        was, guard.read_only = guard.read_only, True
        try:
            yield
        finally:
            guard.read_only = was

    def page(self) -> Page:
        """The page actions go to: the newest open one of the task's context (a popup, once it opens)."""
        if self._context is None:
            raise ToolError("no page is open: the web environment needs a reset with a start_url first")
        if not self._alive():
            raise BrowserGone("the browser closed or crashed; the next reset launches a new one")
        pages = self._context.pages
        if not pages:
            raise ToolError("every page of this task was closed; the web environment needs a reset")
        return pages[-1]

    def egress(self, args: dict[str, Any]) -> str | None:
        """For a `browser.goto`, the URL when it leaves the task's allowed origins, else None."""
        url = args.get("url")
        if not isinstance(url, str) or url == "about:blank" or origin_of(url) in self.guard.allowed:
            return None
        return url

    def failure(self, action: str, exc: PlaywrightError) -> ToolError:
        """A Playwright error in one line; one that says the browser is gone marks it for replacement."""
        if not self._alive() or says_gone(exc):
            self._broken = True
            return BrowserGone(f"the browser closed or crashed: {first_line(exc)}")
        if isinstance(exc, PlaywrightTimeoutError):
            return ToolError(f"{action}: timed out after {self.timeout_s:g} s")
        return ToolError(f"{action}: {first_line(exc)}")

    async def on_page(self, action: str, body: Callable[[Page], Awaitable[Any]]) -> Any:
        """Runs `body` on the current page, its Playwright errors as one-line `ToolError`s."""
        page = self.page()
        try:
            return await body(page)
        except PlaywrightError as exc:
            raise self.failure(action, exc) from None

    async def act(self, action: str, body: Callable[[Page], Awaitable[Any]]) -> Any:
        """`on_page` for an action: a request the guard refused while it ran fails it with that line."""
        self.guard.take_refusal()
        try:
            result = await self.on_page(action, body)
        except ToolError:
            refused = self.guard.take_refusal()
            if refused:
                raise ToolError(refused) from None
            raise
        refused = self.guard.take_refusal()
        if refused:
            raise ToolError(refused)
        return result

    def mark(self) -> tuple[int, int]:
        """Navigations asked for and documents loaded so far: taken before an action, given to `settle` after."""
        return self._navigations, self._loads

    def _watch(self, page: Page) -> None:
        """Count the page's own navigations and loads (a click's navigation starts after the click returns)."""
        def requested(request) -> None:
            if request.is_navigation_request() and request.frame == page.main_frame:
                self._navigations += 1

        def loaded(_page) -> None:
            self._loads += 1

        page.on("request", requested)
        page.on("load", loaded)

    async def settle(self, page: Page, mark: tuple[int, int] | None = None) -> None:
        """Wait for a navigation the action started to load; a page that keeps loading is left to it.

        With a `mark`, a navigation asked for within a moment of the action is waited for until its
        new document has loaded (before that, the old document would pass for the loaded page).
        """
        limit = min(SETTLE_S, self.timeout_s)
        if mark is not None:
            deadline = asyncio.get_running_loop().time() + NAVIGATION_START_S
            while self._navigations == mark[0] and asyncio.get_running_loop().time() < deadline:
                await asyncio.sleep(0.02)
            if self._navigations == mark[0]:
                return
            deadline = asyncio.get_running_loop().time() + limit
            while self._loads == mark[1] and asyncio.get_running_loop().time() < deadline and not page.is_closed():
                await asyncio.sleep(0.02)
        try:
            await page.wait_for_load_state("load", timeout=limit * 1000)
        except PlaywrightError:
            pass  # still loading (or closed by the action itself): the action is done either way

    @staticmethod
    def check_spec(spec: Mapping[str, Any]) -> None:
        """Refuse, in one line, a spec `reset` would refuse (a start URL that is not http(s)), before it is queued."""
        parse_spec(spec)

    async def reset(self, spec: Mapping[str, Any]) -> None:
        """A fresh context on the spec's start URL, its setup steps run; one-line `WardenError`s otherwise."""
        parsed = parse_spec(spec)
        await self._close_context()
        browser = await self._ensure_browser()
        guard = EgressGuard(parsed.allowed_origins, parsed.subresources)
        try:
            context = await guard.open_context(
                browser, viewport={"width": parsed.viewport[0], "height": parsed.viewport[1]},
                accept_downloads=False, service_workers="block")
            context.set_default_timeout(parsed.timeout_s * 1000)
            context.set_default_navigation_timeout(parsed.timeout_s * 1000)
            self._context, self._spec, self.guard = context, parsed, guard
            context.on("page", self._watch)
            page = await context.new_page()
        except PlaywrightError as exc:
            self._broken = True
            raise WardenError(f"the browser failed while opening a page: {first_line(exc)}") from None
        await self._open(page, parsed)
        for number, step in enumerate(parsed.setup, 1):
            await self._setup_step(number, step)
        guard.read_only = parsed.read_only

    async def _ensure_browser(self) -> Browser:
        if self._browser is not None and self._alive():
            return self._browser
        await self._close_browser()
        executable = require_browser(self._executable)
        self._playwright, self._browser = await launch(executable, self._headless)
        self._broken = False
        return self._browser

    async def _open(self, page: Page, spec: WebSpec) -> None:
        url = spec.start_url
        try:
            await page.goto(url, wait_until="load")
        except PlaywrightTimeoutError:
            raise WardenError(f"start URL {url} did not load within {spec.timeout_s:g} s") from None
        except PlaywrightError as exc:
            if says_gone(exc) or not self._alive():
                self._broken = True
                raise WardenError(f"the browser closed or crashed opening {url}: {first_line(exc)}") from None
            refused = self.guard.take_refusal()
            cause = refused or self.guard.unreachable(url) or net_error(exc) or first_line(exc)
            raise WardenError(f"start URL {url} cannot be reached: {cause}") from None
        refused = self.guard.take_refusal()
        if refused:
            raise WardenError(f"start URL {url}: {refused}")

    async def _setup_step(self, number: int, step: dict) -> None:
        try:
            if "js" in step:
                await self.act(f"setup step {number} (js)", lambda page: self._run_script(page, step["js"]))
                return
            found = await self.act(f"setup step {number} (wait_for)",
                                   lambda page: wait_element(page, step["wait_for"], self.timeout_s))
        except ToolError as exc:
            raise WardenError(f"web setup: {exc}") from None
        if found is None:
            raise WardenError(f"web setup step {number}: nothing matches {describe(step['wait_for'])} "
                              f"within {self.timeout_s:g} s")

    async def _run_script(self, page: Page, source: str) -> None:
        """A setup script; one that reloads or leaves the page ends its own evaluation, which is no failure."""
        mark = self.mark()
        try:
            await page.evaluate(source)
        except PlaywrightError as exc:
            if not says_navigating(exc):
                raise
        await self.settle(page, mark)

    async def evaluate(self, js: str) -> Any:
        """A script's value in the current page (a promise awaited), for JS evaluators; one-line errors."""
        return await self.act("page script", lambda page: page.evaluate(js))

    async def observe(self) -> Observation:
        async def look(page: Page) -> tuple[str, str, str]:
            try:
                return page.url, await page.title(), await page.locator("body").aria_snapshot()
            except PlaywrightError as exc:
                if says_gone(exc):
                    raise
                await self.settle(page)  # a navigation replaced the document mid-look: look at the new one
                return page.url, await page.title(), await page.locator("body").aria_snapshot()

        url, title, aria = await self.on_page("observe", look)
        viewport: Mapping[str, object] = self.page().viewport_size or {}
        fields = {"url": url, "title": title, "aria": aria,
                  "display": {"width": viewport.get("width"), "height": viewport.get("height")}}
        return Observation(KIND, page_text(url, title, aria), fields, probe=self._probe, camera=self._screenshot)

    async def _screenshot(self) -> bytes:
        return await self.on_page("screenshot", lambda page: page.screenshot(type="png"))

    async def _probe(self, predicate: dict) -> bool:
        from engine.programs.predicates import holds

        return await holds(predicate, self)

    async def check(self, form: str, body: Any) -> bool:
        """One leaf of a web form; a target that names nothing does not hold."""
        return await self.on_page(f"check {form}", lambda page: checks.check(page, form, body))

    async def saw(self, form: str, body: Any) -> str:
        """What the page shows for one leaf of a check that failed: its URL, its title, a field's value or a text."""
        return await self.on_page(f"look at {form}", lambda page: checks.seen(page, form, body))

    async def fork(self, scratch: Path) -> WebEnv:
        raise WardenError("a web environment cannot fork: its pages' effects live on their sites")

    async def close(self) -> None:
        """Closes the context, the browser and Playwright's driver; a browser already gone is no error."""
        await self._close_context()
        await self._close_browser()

    async def _close_context(self) -> None:
        context, self._context, self._spec = self._context, None, None
        self.guard = EgressGuard()
        if context is not None and self._alive():
            await _quietly(context.close())

    async def _close_browser(self) -> None:
        browser, playwright = self._browser, self._playwright
        self._browser = self._playwright = None
        if browser is not None:
            await _quietly(browser.close())
        if playwright is not None:
            await _quietly(playwright.stop())


async def _quietly(closing: Awaitable[Any]) -> None:
    """Closing something that may already be dead: bounded in time, and its failure is no news."""
    try:
        await asyncio.wait_for(closing, CLOSE_TIMEOUT_S)
    except (TimeoutError, PlaywrightError):
        pass
