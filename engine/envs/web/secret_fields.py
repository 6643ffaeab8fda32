"""Text a browser call types into a password field: the web environment tells the redactor before it is recorded.

A field is a password field when the page says so (`type="password"`, or an `autocomplete` of
`current-password`, `new-password` or `one-time-code`), or, when the page cannot be asked, when
the call's target names one ("Password" in its label, placeholder, name or selector).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from playwright.async_api import Error as PlaywrightError

from engine.envs.web import targets
from engine.envs.web.elements import element
from engine.errors import WardenError
from engine.tools.call import ToolCall

if TYPE_CHECKING:
    from engine.envs.web.environment import WebEnv

_IS_SECRET = ("(e) => !!e && ((e.type || '').toLowerCase() === 'password'"
              " || /(current-password|new-password|one-time-code)/.test((e.getAttribute('autocomplete') || '')))")
_NAMED_SECRET = re.compile(r"(?i)pass(word|phrase|code)?|secret|pin\b|token|api.?key")


async def password_values(env: "WebEnv", call: ToolCall) -> list[str]:
    text = call.args.get("text")
    if call.tool not in ("browser.fill", "browser.type") or not isinstance(text, str) or not text:
        return []
    target = call.args.get("target")
    if isinstance(target, dict) and any(isinstance(v, str) and _NAMED_SECRET.search(v) for v in target.values()):
        return [text]
    try:
        page = env.page()
        if call.tool == "browser.type":
            secret = await page.evaluate(f"() => ({_IS_SECRET})(document.activeElement)")
        else:
            if not isinstance(target, dict) or targets.target_problem(target):
                return []
            found = await element(page, target)
            secret = found is not None and await found.evaluate(_IS_SECRET)
    except (PlaywrightError, WardenError):
        return []
    return [text] if secret else []
