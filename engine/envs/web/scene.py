"""Where a browser call would act on the page now (`engine/envs/scene.py`): the URL, and the element it names.

An element-acting call (click, fill, select, check) names the element its target resolves to
exactly as the action would resolve it (`elements.acted_on`, waiting as long), so an approval
shows the very control that would be pressed; a key or typed text names the focused element;
any other browser call (a navigation, a scroll, a wait) names only the page it starts from. An API
call acts on no page, and has no scene.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from playwright.async_api import Page

from engine.envs.scene import Element, Scene
from engine.envs.web import targets
from engine.envs.web.elements import acted_on
from engine.envs.web.identity import Identity, focused, identify
from engine.tools.call import ToolCall

if TYPE_CHECKING:
    from engine.envs.web.environment import WebEnv

ON_ELEMENT = frozenset({"browser.click", "browser.fill", "browser.select", "browser.check"})
ON_FOCUS = frozenset({"browser.type", "browser.press"})
ON_PAGE = "browser."


async def page_scene(env: "WebEnv", call: ToolCall) -> Scene | None:
    """The scene of `call` on the environment's current page; None for a call that acts on no page."""
    if not call.tool.startswith(ON_PAGE):
        return None

    async def look(page: Page) -> Scene:
        target = call.args.get("target")
        if call.tool in ON_ELEMENT and isinstance(target, dict) and targets.is_target(target):
            found = await acted_on(page, target, env.find_timeout_s)
            if found.element is None:
                return Scene(page.url, None, found.problem)
            return Scene(page.url, _element(await identify(found.element)))
        if call.tool in ON_FOCUS:
            return Scene(page.url, _element(await focused(page)))
        return Scene(page.url)

    return await env.on_page(f"look where {call.tool} would act", look)


def _element(identity: Identity | None) -> Element | None:
    return None if identity is None else Element(identity["role"], identity["name"], identity["selector"])
