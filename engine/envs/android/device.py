"""The device boundary: the few `uiautomator2.Device` methods Warden calls, and how their failures read.

`Device` is that subset, with the real signatures (uiautomator2 3.x), so a test can stand
in for a phone at exactly this boundary and be checked against the real class. `Link`
connects on first use (constructing an environment touches no phone), runs one call at a
time on a worker thread, and turns whatever the device, adb or the connection raised
into one line.
"""

from __future__ import annotations

import asyncio
import http.client
import importlib.util
import threading
from collections.abc import Callable
from typing import Any, Protocol, TypeVar

from engine.errors import one_line
from engine.tools.registry import ToolError

T = TypeVar("T")


class Device(Protocol):
    """What Warden uses of a `uiautomator2.Device` (the real one is what `uiautomator2.connect` returns)."""

    def dump_hierarchy(self, compressed: bool = False, pretty: bool = False, max_depth: int | None = None,
                       root_in_active: bool | None = None) -> str: ...

    def click(self, x: float, y: float) -> None: ...

    def press(self, key: int | str, meta: Any = None) -> Any: ...

    def send_keys(self, text: str, clear: bool = False) -> None: ...

    def app_start(self, package_name: str, activity: str | None = None, wait: bool = False, stop: bool = False,
                  use_monkey: bool = False) -> None: ...

    def app_stop(self, package_name: str) -> None: ...

    def app_current(self) -> dict[str, Any]: ...

    def window_size(self) -> tuple[int, int]: ...

    def screenshot(self, filename: str | None = None, format: str = "pillow",
                   display_id: int | None = None) -> Any: ...


Connect = Callable[[str | None], Device]


class AndroidError(ToolError):
    """The phone could not be reached, or refused a call; the message is one line."""


def failures() -> tuple[type[BaseException], ...]:
    """What a device call raises when the phone, adb or the link fails (as opposed to a bug here)."""
    kinds: list[type[BaseException]] = [OSError, http.client.HTTPException]
    try:
        from uiautomator2.exceptions import BaseException as UiautomatorError
    except ImportError:
        pass
    else:
        kinds.append(UiautomatorError)
    try:
        from adbutils import AdbError
    except ImportError:
        pass
    else:
        kinds.append(AdbError)
    return tuple(kinds)


NO_UIAUTOMATOR2 = "android tools need uiautomator2: pip install uiautomator2"


def android_unavailable() -> str | None:
    """Why phones cannot be driven from this process, in one line (uiautomator2 missing), or None."""
    return NO_UIAUTOMATOR2 if importlib.util.find_spec("uiautomator2") is None else None


def default_connect(serial: str | None) -> Device:
    """`uiautomator2.connect`, imported only when a phone is first used."""
    try:
        import uiautomator2
    except ImportError:
        raise AndroidError(NO_UIAUTOMATOR2) from None
    return uiautomator2.connect(serial)


class Link:
    """One phone, connected on first use; calls run one at a time off the event loop."""

    def __init__(self, serial: str | None, connect: Connect) -> None:
        self.serial = serial
        self.name = serial or "default"
        self._connect = connect
        self._device: Device | None = None
        self._lock = threading.Lock()

    async def call(self, what: str, action: Callable[[Device], T]) -> T:
        """`action(device)` on a worker thread; `what` names it in the one-line error if it fails."""
        return await asyncio.to_thread(self._call_now, what, action)

    def _call_now(self, what: str, action: Callable[[Device], T]) -> T:
        with self._lock:
            device = self._device_now()
            try:
                return action(device)
            except failures() as exc:
                raise AndroidError(f"android device {self.name}: {what} failed: {one_line(exc)}") from None

    def _device_now(self) -> Device:
        if self._device is None:
            try:
                self._device = self._connect(self.serial)
            except failures() as exc:
                raise AndroidError(f"android device {self.name} is unreachable: {one_line(exc)}") from None
        return self._device
