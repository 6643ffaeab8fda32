"""Android tools: tap an element, type into one, press back or home, start or stop an app.

Each is externally irreversible (a tap may send, pay or delete) and scoped to the phone
the environment drives. A target is resolved on a fresh dump just before acting, and
the tool reports which element it acted on; typed text is never echoed back (it may be
a password).
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from typing import Any

from engine.envs.android.environment import KIND, AndroidEnv
from engine.envs.android.hierarchy import Node
from engine.envs.android.targets import describe, resolve
from engine.tier import Tier
from engine.tools.registry import Tool, ToolError, ToolOutput, acting_in

# Java package names: the device runs them through a shell command line, so nothing else passes.
_PACKAGE = re.compile(r"[A-Za-z][A-Za-z0-9_]*(?:\.[A-Za-z][A-Za-z0-9_]*)+")


def _acted_on(node: Node, count: int, x: int, y: int) -> dict[str, Any]:
    return {"text": node.text, "resource_id": node.resource_id, "class": node.cls, "description": node.description,
            "x": x, "y": y, "matches": count}


def _which(node: Node, count: int) -> str:
    """The element acted on, in words: `Switch 'Use Wi-Fi'`, and whether it was one of several."""
    name = node.text or node.description or node.resource_id
    shown = f"{node.short_class} {name!r}" if name else node.short_class
    return shown + (f" (first of {count} matches)" if count > 1 else "")


async def _click(env: AndroidEnv, args: dict[str, Any]) -> ToolOutput:
    node, count = resolve(await env.screen(), args["target"])
    x, y = node.centre
    await env.link.call("click", lambda device: device.click(x, y))
    return ToolOutput(f"tapped {_which(node, count)} at ({x}, {y})", _acted_on(node, count, x, y))


async def _set_text(env: AndroidEnv, args: dict[str, Any]) -> ToolOutput:
    node, count = resolve(await env.screen(), args["target"])
    x, y = node.centre
    text = args["text"]

    def type_into(device: Any) -> None:
        device.click(x, y)
        device.send_keys(text, clear=True)

    await env.link.call("set_text", type_into)
    return ToolOutput(f"typed {len(text)} characters into {_which(node, count)}",
                      {**_acted_on(node, count, x, y), "characters": len(text)})


Act = Callable[[AndroidEnv, dict[str, Any]], Awaitable[ToolOutput]]


def _press(key: str) -> Act:
    async def run(env: AndroidEnv, args: dict[str, Any]) -> ToolOutput:
        await env.link.call(f"press {key}", lambda device: device.press(key))
        return ToolOutput(f"pressed {key}", {"key": key})

    return run


def _package(tool: str, args: dict[str, Any]) -> str:
    package = args["package"]
    if not _PACKAGE.fullmatch(package):
        raise ToolError(f"{tool}: {package!r:.80} is not a package name such as com.android.settings")
    return package


async def _app_start(env: AndroidEnv, args: dict[str, Any]) -> ToolOutput:
    package = _package("android.app_start", args)
    await env.link.call(f"app_start {package}", lambda device: device.app_start(package, wait=True))
    return ToolOutput(f"started {package}", {"package": package})


async def _app_stop(env: AndroidEnv, args: dict[str, Any]) -> ToolOutput:
    package = _package("android.app_stop", args)
    await env.link.call(f"app_stop {package}", lambda device: device.app_stop(package))
    return ToolOutput(f"stopped {package}", {"package": package})


ANDROID_TOOLS = (
    Tool(
        name="android.click",
        kind=KIND,
        schema={"target": dict},
        run=acting_in(AndroidEnv, _click),
        tier=Tier.EXTERNALLY_IRREVERSIBLE,
        scoped=True,
        needs=lambda a: {"exists": a["target"]},
        summary=lambda a: f"tap {describe(a['target'])}",
    ),
    Tool(
        name="android.set_text",
        kind=KIND,
        schema={"target": dict, "text": str},
        run=acting_in(AndroidEnv, _set_text),
        tier=Tier.EXTERNALLY_IRREVERSIBLE,
        scoped=True,
        needs=lambda a: {"exists": a["target"]},
        summary=lambda a: f"type {len(a['text'])} characters into {describe(a['target'])}",
    ),
    Tool(
        name="android.back",
        kind=KIND,
        schema={},
        run=acting_in(AndroidEnv, _press("back")),
        tier=Tier.EXTERNALLY_IRREVERSIBLE,
        scoped=True,
        summary=lambda a: "press back",
    ),
    Tool(
        name="android.home",
        kind=KIND,
        schema={},
        run=acting_in(AndroidEnv, _press("home")),
        tier=Tier.EXTERNALLY_IRREVERSIBLE,
        scoped=True,
        summary=lambda a: "press home",
    ),
    Tool(
        name="android.app_start",
        kind=KIND,
        schema={"package": str},
        run=acting_in(AndroidEnv, _app_start),
        tier=Tier.EXTERNALLY_IRREVERSIBLE,
        scoped=True,
        summary=lambda a: f"start {a['package']}",
    ),
    Tool(
        name="android.app_stop",
        kind=KIND,
        schema={"package": str},
        run=acting_in(AndroidEnv, _app_stop),
        tier=Tier.EXTERNALLY_IRREVERSIBLE,
        scoped=True,
        summary=lambda a: f"stop {a['package']}",
    ),
)
