"""The desktop environment: one X display, driven by pyautogui, seen as a screenshot and a window title.

What happens on a screen leaves the runtime's reach (a window may send, save or delete
anything), so every desktop tool is externally irreversible, nothing is snapshotted, and
the environment cannot be forked. It never starts programs: a task names a window that
is already open, and reset waits for it.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any, TypeVar

from engine.envs.desktop.display import (
    DesktopError,
    canonical,
    desktop_unavailable,
    pyautogui_for,
)
from engine.envs.desktop.screen import screenshot_png
from engine.envs.desktop.windows import active_title
from engine.envs.environment import Observation
from engine.envs.unrestorable import Unrestorable
from engine.errors import WardenError
from engine.programs.predicates import Form, register_forms

if TYPE_CHECKING:
    from engine.tools.registry import Tool

KIND = "desktop"
DEFAULT_WAIT_SECONDS = 10.0
MAX_WAIT_SECONDS = 120.0
POLL_SECONDS = 0.2
RESET_KEYS = frozenset({"kind", "display", "wait_for_title", "timeout", "resettable"})

T = TypeVar("T")


def _match_body(body: Any) -> bool:
    """A string (contained), or an object with exactly one of `equals`/`contains` naming a string."""
    if isinstance(body, str):
        return True
    return (isinstance(body, dict) and len(body) == 1
            and next(iter(body)) in ("equals", "contains") and isinstance(next(iter(body.values())), str))


def matches(value: str, body: str | dict[str, str]) -> bool:
    """Whether `value` satisfies a string-match body (`_match_body`'s shape)."""
    if isinstance(body, str):
        return body in value
    return value == body["equals"] if "equals" in body else body["contains"] in value


register_forms(KIND, (
    Form("title", "a string the window title contains, or {equals|contains: s}", _match_body),
))


class DesktopEnv(Unrestorable):
    """One X display; `display` None means there is none, and every tool says so in one line.

    pyautogui is process-wide state, so its calls run one at a time on a worker thread.
    """

    kind = KIND
    can_fork = False
    durable = False

    _acting = threading.Lock()

    def __init__(self, display: str | None = None) -> None:
        self.display = display or None

    @property
    def identity(self) -> str:
        return f"{KIND}:{self.display or 'none'}"

    def tools(self) -> Sequence[Tool]:
        """The desktop tools, each marked unavailable (with the reason) when the display cannot be used now."""
        from engine.envs.desktop.tools import DESKTOP_TOOLS

        reason = desktop_unavailable(self.display)
        return tuple(replace(tool, unavailable=reason) for tool in DESKTOP_TOOLS)

    async def drive(self, action: Callable[[ModuleType], T]) -> T:
        """Run `action(pyautogui)` on a worker thread, alone; pyautogui's own failures become one line."""

        def run() -> T:
            with self._acting:
                gui = pyautogui_for(self.display)
                try:
                    return action(gui)
                except gui.FailSafeException:
                    raise DesktopError("pyautogui's fail-safe tripped: the pointer is in a screen corner "
                                       "(a person's emergency stop); move it away to go on") from None
                except gui.PyAutoGUIException as exc:
                    raise DesktopError(f"desktop action failed: {exc}") from None

        return await asyncio.to_thread(run)

    async def size(self) -> tuple[int, int]:
        """The screen's width and height in pixels, the space tool coordinates are in."""
        width, height = await self.drive(lambda gui: tuple(gui.size()))
        return int(width), int(height)

    async def reset(self, spec: Mapping[str, Any]) -> None:
        """Wait for the display, and for a window whose title contains `wait_for_title` when given.

        `timeout` (seconds, default 10) bounds the wait. Starting a program is not offered:
        a task spec is data and must not run commands.
        """
        if "launch" in spec:
            raise WardenError("a desktop task cannot launch programs; start the app first and name its window "
                              "with wait_for_title")
        unknown = set(spec) - RESET_KEYS
        if unknown:
            raise WardenError(f"a desktop task's env takes {sorted(RESET_KEYS)}, not {sorted(unknown)}")
        named = spec.get("display")
        if named is not None and (not isinstance(named, str) or canonical(named) != canonical(self.display or "")):
            raise WardenError(f"this desktop environment drives {self.display or 'no display'}, not {named!r}")
        wanted = spec.get("wait_for_title")
        if wanted is not None and not isinstance(wanted, str):
            raise WardenError("wait_for_title must be a string the window title contains")
        timeout = spec.get("timeout", DEFAULT_WAIT_SECONDS)
        if isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or not 0 < timeout <= MAX_WAIT_SECONDS:
            raise WardenError(f"timeout must be a number of seconds above 0 and at most {MAX_WAIT_SECONDS:g}")
        await asyncio.to_thread(self._wait, wanted, float(timeout))

    def _wait(self, wanted: str | None, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while True:
            problem = desktop_unavailable(self.display)
            title = active_title(self.display) if problem is None and wanted is not None else None
            if problem is None and (wanted is None or (title is not None and wanted in title)):
                return
            if time.monotonic() >= deadline:
                if problem is not None:
                    raise DesktopError(problem)
                seen = f"the active window is {title!r}" if title is not None else "no window title could be read"
                raise DesktopError(f"no window titled {wanted!r} on {self.display} within {timeout:g}s ({seen})")
            time.sleep(min(POLL_SECONDS, max(0.0, deadline - time.monotonic())))

    async def observe(self) -> Observation:
        """The active window's title and the screen size; a screenshot is taken only when asked for."""
        width, height = await self.size()
        title = await asyncio.to_thread(active_title, self.display)
        shown = "unknown" if title is None else (title or "(untitled)")
        text = f"desktop {self.display}: screen {width}x{height}; active window: {shown}"
        return Observation(KIND, text, {"title": title, "display": {"width": width, "height": height}},
                           probe=self._probe, camera=self._camera)

    async def _camera(self) -> bytes:
        return await asyncio.to_thread(screenshot_png, self.display)

    async def _probe(self, predicate: dict) -> bool:
        from engine.programs.predicates import holds

        return await holds(predicate, self)

    async def check(self, form: str, body: Any) -> bool:
        """The `title` form against the live active window; a title that cannot be read does not match."""
        if form != "title":
            raise WardenError(f"a desktop cannot check {form!r}")
        title = await asyncio.to_thread(active_title, self.display)
        return title is not None and matches(title, body)

    async def fork(self, scratch: Path) -> DesktopEnv:
        raise WardenError("a desktop cannot be forked: there is one screen")

    async def close(self) -> None:
        return None




