"""The browser tools: navigate, click, fill, type, press, select, check, scroll and wait.

Each acts on the current page of the web environment it is run in and reports which element
it acted on (`identity`), so a run driven by pixels still compiles into a program that names
elements. All are externally irreversible (the site's state is beyond any snapshot: receipts
are audit only) and scoped: they stay inside the task's allowed origins, and a `browser.goto`
that would leave them is named by `WebEnv.egress` for the gate to rate.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from playwright.async_api import Page

from engine.envs.web import targets
from engine.envs.web.elements import Element, acted_on, wait_element
from engine.envs.web.environment import WebEnv
from engine.envs.web.forms import KIND
from engine.envs.web.identity import Identity, focused, identify
from engine.envs.web.origins import origin_of
from engine.tier import Tier
from engine.tools.registry import Tool, ToolError, ToolOutput, acting_in

Use = Callable[[Page, dict, Element, dict[str, Any]], Awaitable[None]]
Run = Callable[[WebEnv, dict[str, Any]], Awaitable[ToolOutput]]

_AFTER_TWO_FRAMES = "() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))"
_SCROLLED_TO = "() => [Math.round(window.scrollX), Math.round(window.scrollY)]"


def _target(tool: str, args: dict[str, Any]) -> dict:
    problem = targets.target_problem(args["target"])
    if problem:
        raise ToolError(f"{tool}: {problem}")
    return args["target"]


async def _located(env: WebEnv, page: Page, tool: str, target: dict) -> Element:
    """The one element an action acts on (an exact match, waited for briefly), or a one-line refusal saying why."""
    found = await acted_on(page, target, env.find_timeout_s)
    if found.element is None:
        raise ToolError(f"{tool}: {found.problem}")
    return found.element


def _output(env: WebEnv, done: str, acted_on: Identity | None) -> ToolOutput:
    """`done` and the element acted on for a reader; the element and the page's URL after as data."""
    url = env.page().url
    on = f' {acted_on["role"]} "{acted_on["name"]}" ({acted_on["selector"]})' if acted_on else ""
    return ToolOutput(f"{done}{on}; page {url}", {"target": acted_on, "url": url})


def _on_element(tool: str, verb: str, use: Use, settles: bool = False) -> Run:
    """A tool that finds its target, identifies it, then acts on it with `use(page, target, element, args)`.

    It is identified before acting: a click may take the element (and its page) away.
    """

    async def run(env: WebEnv, args: dict[str, Any]) -> ToolOutput:
        target = _target(tool, args)

        async def body(page: Page) -> Identity:
            found = await _located(env, page, tool, target)
            acted_on = await identify(found)
            mark = env.mark()
            await use(page, target, found, args)
            if settles:
                await env.settle(page, mark)
            return acted_on

        return _output(env, verb, await env.act(tool, body))

    return run


async def _click(page: Page, target: dict, found: Element, args: dict[str, Any]) -> None:
    if targets.is_point(target):
        await page.mouse.click(target["x"], target["y"])  # the pixel, as the agent meant it
    else:
        await found.click()


async def _fill(page: Page, target: dict, found: Element, args: dict[str, Any]) -> None:
    await found.fill(args["text"])


async def _select(page: Page, target: dict, found: Element, args: dict[str, Any]) -> None:
    await found.select_option(args["value"])  # a string matches an option's value or its label


async def _check(page: Page, target: dict, found: Element, args: dict[str, Any]) -> None:
    await found.check()


async def _goto(env: WebEnv, args: dict[str, Any]) -> ToolOutput:
    url = args["url"]
    if url != "about:blank" and origin_of(url) is None:
        raise ToolError(f"browser.goto: only http(s) URLs and about:blank can be opened, not {url!r:.100}")

    async def body(page: Page) -> str:
        with env.guard.admitting(url):  # the gate rated a goto outside the allowed origins before it got here
            await page.goto(url, wait_until="load")
        return page.url

    arrived = await env.act("browser.goto", body)
    return ToolOutput(f"opened {arrived}", {"target": None, "url": arrived})


async def _type(env: WebEnv, args: dict[str, Any]) -> ToolOutput:
    async def body(page: Page) -> Identity | None:
        await page.keyboard.type(args["text"])
        return await focused(page)

    acted_on = await env.act("browser.type", body)
    return _output(env, f"typed {len(args['text'])} characters" + (" into" if acted_on else ""), acted_on)


async def _press(env: WebEnv, args: dict[str, Any]) -> ToolOutput:
    async def body(page: Page) -> Identity | None:
        acted_on = await focused(page)  # before the key: Enter may submit the form and leave the page
        focus = page.locator(":focus")
        mark = env.mark()
        if await focus.count():
            await focus.first.press(args["key"])  # through a locator Playwright waits for a navigation it starts
        else:
            await page.keyboard.press(args["key"])
        await env.settle(page, mark)
        return acted_on

    acted_on = await env.act("browser.press", body)
    return _output(env, f"pressed {args['key']}" + (" on" if acted_on else ""), acted_on)


async def _scroll(env: WebEnv, args: dict[str, Any]) -> ToolOutput:
    async def body(page: Page) -> tuple[str, list[int]]:
        await page.mouse.wheel(args["dx"], args["dy"])  # under the mouse, as a person's wheel scrolls
        await page.evaluate(_AFTER_TWO_FRAMES)
        return page.url, await page.evaluate(_SCROLLED_TO)

    url, (x, y) = await env.act("browser.scroll", body)
    return ToolOutput(f"scrolled by ({args['dx']}, {args['dy']}); the page is scrolled to ({x}, {y})",
                      {"target": None, "url": url})


async def _wait(env: WebEnv, args: dict[str, Any]) -> ToolOutput:
    target = _target("browser.wait", args)

    async def body(page: Page) -> Identity:
        found = await wait_element(page, target, env.timeout_s)
        if found is None:
            raise ToolError(f"browser.wait: nothing matches {targets.describe(target)} within {env.timeout_s:g} s")
        return await identify(found)

    return _output(env, "found", await env.act("browser.wait", body))


def _needs_element(args: dict[str, Any]) -> dict | None:
    target = args.get("target")
    return {"exists": target} if targets.is_target(target) and not targets.is_point(target) else None


def _named(args: dict[str, Any]) -> str:
    return targets.describe(args.get("target"))


def _short(text: str) -> str:
    return f'"{text[:40]}…"' if len(text) > 40 else f'"{text}"'


def web_tools(env: WebEnv) -> tuple[Tool, ...]:
    """The browser tools; `env` answers where a `browser.goto` would leave the task's allowed origins."""
    common: dict[str, Any] = {"kind": KIND, "tier": Tier.EXTERNALLY_IRREVERSIBLE, "scoped": True}
    return (
        Tool(name="browser.goto", schema={"url": str}, run=acting_in(WebEnv, _goto), idempotent=True,
             egress=env.egress, summary=lambda a: f"browser.goto {a['url']}", **common),
        Tool(name="browser.click", schema={"target": dict},
             run=acting_in(WebEnv, _on_element("browser.click", "clicked", _click, True)),
             needs=_needs_element, summary=lambda a: f"browser.click {_named(a)}", **common),
        Tool(name="browser.fill", schema={"target": dict, "text": str},
             run=acting_in(WebEnv, _on_element("browser.fill", "filled", _fill)), idempotent=True,
             needs=_needs_element, effect=lambda a: {"value": {"target": a["target"], "equals": a["text"]}},
             summary=lambda a: f"browser.fill {_named(a)} with {_short(a['text'])}", **common),
        Tool(name="browser.type", schema={"text": str}, run=acting_in(WebEnv, _type),
             summary=lambda a: f"browser.type {_short(a['text'])}", **common),
        Tool(name="browser.press", schema={"key": str}, run=acting_in(WebEnv, _press),
             summary=lambda a: f"browser.press {a['key']}", **common),
        Tool(name="browser.select", schema={"target": dict, "value": str},
             run=acting_in(WebEnv, _on_element("browser.select", "selected in", _select)), idempotent=True,
             needs=_needs_element, summary=lambda a: f"browser.select {_short(a['value'])} in {_named(a)}", **common),
        Tool(name="browser.check", schema={"target": dict},
             run=acting_in(WebEnv, _on_element("browser.check", "checked", _check)), idempotent=True,
             needs=_needs_element, summary=lambda a: f"browser.check {_named(a)}", **common),
        Tool(name="browser.scroll", schema={"dx": int, "dy": int}, run=acting_in(WebEnv, _scroll),
             summary=lambda a: f"browser.scroll by ({a['dx']}, {a['dy']})", **common),
        Tool(name="browser.wait", schema={"target": dict}, run=acting_in(WebEnv, _wait),
             summary=lambda a: f"browser.wait for {_named(a)}", **common),
    )
