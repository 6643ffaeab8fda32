"""The Android environment: one phone, seen through its UI hierarchy, driven through uiautomator2.

Whatever a tap does on a phone leaves the runtime's reach, so every tool is externally
irreversible, nothing is snapshotted and the phone cannot be forked. Every look (an
observation, a predicate) dumps the hierarchy afresh: the screen is the truth, never a
copy kept from before the last action.
"""

from __future__ import annotations

import asyncio
import io
import time
from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine.envs.android.device import (
    AndroidError,
    Connect,
    Device,
    Link,
    android_unavailable,
    default_connect,
)
from engine.envs.android.hierarchy import Screen, parse, words
from engine.envs.android.targets import SHAPE, is_target, matches
from engine.envs.environment import Observation
from engine.envs.unrestorable import Unrestorable
from engine.errors import WardenError
from engine.programs.predicates import Form, register_forms

if TYPE_CHECKING:
    from engine.tools.registry import Tool

KIND = "android"
DEFAULT_WAIT_SECONDS = 10.0
MAX_WAIT_SECONDS = 120.0
POLL_SECONDS = 0.5
RESET_KEYS = frozenset({"kind", "serial", "wait_for_package", "timeout", "resettable"})


def _text_body(body: Any) -> bool:
    """A string anywhere on screen, or {target, contains|equals} for one element's text."""
    if isinstance(body, str):
        return True
    return (isinstance(body, dict) and set(body) in ({"target", "contains"}, {"target", "equals"})
            and is_target(body["target"]) and isinstance(body.get("contains", body.get("equals")), str))


register_forms(KIND, (
    Form("exists", f"a target {SHAPE}", is_target),
    Form("absent", f"a target {SHAPE}", is_target),
    Form("text", "a string anywhere on screen, or {target, contains|equals: s}", _text_body),
    Form("package", "the foreground app's package name", lambda body: isinstance(body, str) and bool(body)),
))


class AndroidEnv(Unrestorable):
    """One phone: `serial` as adb names it (None: the only one attached), `connect` the way to reach it.

    `connect` is `uiautomator2.connect` unless a test stands in for the device.
    """

    kind = KIND
    can_fork = False
    durable = False

    def __init__(self, serial: str | None = None, connect: Connect | None = None) -> None:
        self.serial = serial or None
        self.link = Link(self.serial, connect or default_connect)
        self._unavailable = android_unavailable() if connect is None else None

    @property
    def identity(self) -> str:
        return f"{KIND}:{self.link.name}"

    def tools(self) -> Sequence[Tool]:
        """The android tools; unavailable (with the reason) when uiautomator2 is missing and no phone was given."""
        from engine.envs.android.tools import ANDROID_TOOLS

        return tuple(replace(tool, unavailable=self._unavailable) for tool in ANDROID_TOOLS)

    async def screen(self) -> Screen:
        """The hierarchy as it is now."""
        return parse(await self.link.call("dump_hierarchy", lambda device: device.dump_hierarchy()))

    async def foreground(self) -> dict[str, Any]:
        """The foreground app (`package`, `activity`) as the device reports it."""
        current = await self.link.call("app_current", lambda device: device.app_current())
        return dict(current) if isinstance(current, Mapping) else {}

    async def reset(self, spec: Mapping[str, Any]) -> None:
        """Wait until the phone answers, and until `wait_for_package` is in front when given.

        `timeout` (seconds, default 10) bounds the wait. Nothing is started or cleared:
        apps are started by the gated `android.app_start`.
        """
        unknown = set(spec) - RESET_KEYS
        if unknown:
            raise WardenError(f"an android task's env takes {sorted(RESET_KEYS)}, not {sorted(unknown)}")
        named = spec.get("serial")
        if named is not None and named != self.serial:
            raise WardenError(f"this android environment drives {self.link.name}, not {named!r}")
        wanted = spec.get("wait_for_package")
        if wanted is not None and (not isinstance(wanted, str) or not wanted):
            raise WardenError("wait_for_package must be a package name")
        timeout = spec.get("timeout", DEFAULT_WAIT_SECONDS)
        if isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or not 0 < timeout <= MAX_WAIT_SECONDS:
            raise WardenError(f"timeout must be a number of seconds above 0 and at most {MAX_WAIT_SECONDS:g}")
        deadline = time.monotonic() + timeout
        while True:
            size = await self.link.call("window_size", lambda device: device.window_size())
            package = (await self.foreground()).get("package") if wanted is not None else None
            if wanted is None or package == wanted:
                return
            if time.monotonic() >= deadline:
                raise AndroidError(f"{wanted} did not come to the front of {self.link.name} within {timeout:g}s "
                                   f"(in front: {package or 'unknown'}; screen {size[0]}x{size[1]})")
            await asyncio.sleep(min(POLL_SECONDS, max(0.0, deadline - time.monotonic())))

    async def observe(self) -> Observation:
        """The meaningful nodes as text, with `package`, `activity`, `nodes` and `display` fields."""
        screen = await self.screen()
        width, height = await self.link.call("window_size", lambda device: device.window_size())
        current = await self._foreground_or(screen)
        package = current.get("package") or screen.package
        head = f"android {self.link.name}: {package or 'unknown app'}, screen {width}x{height}"
        return Observation(
            KIND, f"{head}\n{screen.text()}",
            {"package": package, "activity": current.get("activity"),
             "nodes": [node.as_dict() for node in screen.meaningful()],
             "display": {"width": int(width), "height": int(height)}},
            probe=self._probe, camera=self._camera)

    async def _foreground_or(self, screen: Screen | None = None) -> dict[str, Any]:
        """The device's word on the foreground app, else the package the dump's top element names."""
        try:
            return await self.foreground()
        except AndroidError:
            return {"package": (screen or await self.screen()).package}

    async def _camera(self) -> bytes:
        def png(device: Device) -> bytes:
            image = device.screenshot()
            out = io.BytesIO()
            image.save(out, format="PNG")
            return out.getvalue()

        return await self.link.call("screenshot", png)

    async def _probe(self, predicate: dict) -> bool:
        from engine.programs.predicates import holds

        return await holds(predicate, self)

    async def check(self, form: str, body: Any) -> bool:
        """One leaf predicate on a fresh dump; an unreachable phone or a bad target raises (and so does not hold)."""
        if form == "package":
            return (await self._foreground_or()).get("package") == body
        screen = await self.screen()
        if form in ("exists", "absent"):
            return bool(matches(screen, body)) == (form == "exists")
        if form == "text":
            if isinstance(body, str):
                return any(body in said for said in words(screen.nodes))
            found = matches(screen, body["target"])
            if not found:
                return False
            text = found[0].text
            return text == body["equals"] if "equals" in body else body["contains"] in text
        raise WardenError(f"an android phone cannot check {form!r}")

    async def fork(self, scratch: Path) -> AndroidEnv:
        raise WardenError("an android phone cannot be forked: there is one device")

    async def close(self) -> None:
        return None




