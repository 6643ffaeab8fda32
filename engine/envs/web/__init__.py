"""The web environment: a real Chromium driven by Playwright, confined to a task's allowed origins.

Importing this package registers the web predicate forms (kind "web").
"""

from engine.envs.web.browser import BrowserMissing, browser_problem, find_browser
from engine.envs.web.environment import BrowserGone, WebEnv
from engine.envs.web.forms import KIND

__all__ = ["KIND", "BrowserGone", "BrowserMissing", "WebEnv", "browser_problem", "find_browser"]
