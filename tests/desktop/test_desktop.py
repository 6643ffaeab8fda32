"""The desktop environment drives a real Tk window on a real X server (Xvfb) through its tools.

Assertions are on what the window itself recorded (its events file), on `observe()`, and
on the `title` predicate; the failure cases check that each one is a single line.
"""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image

from engine.envs.desktop import (
    NO_DISPLAY,
    DesktopEnv,
    DesktopError,
    desktop_unavailable,
)
from engine.envs.desktop.tools import key_names
from engine.envs.environment import Environment
from engine.errors import WardenError
from engine.tier import Tier
from engine.tools.call import ToolCall
from engine.tools.registry import ToolError, ToolOutput, ToolRegistry
from tests.desktop.conftest import SCREEN, TITLE, TkApp

ROOT = Path(__file__).resolve().parents[2]


async def call(env: DesktopEnv, tool: str, **args: object) -> ToolOutput:
    """A call as the runtime makes it: checked by a registry of the env's tools, then run."""
    registry = ToolRegistry()
    for each in env.tools():
        registry.register(each)
    return await registry.check(ToolCall(tool, dict(args))).run(env, dict(args))


def test_the_tools_are_declared_irreversible_and_readable_and_only_scrolling_is_scoped() -> None:
    tools = {tool.name: tool for tool in DesktopEnv().tools()}
    assert {name: tool.schema for name, tool in tools.items()} == {
        "desktop.click": {"x": int, "y": int},
        "desktop.type": {"text": str},
        "desktop.hotkey": {"keys": str},
        "desktop.scroll": {"dy": int},
    }
    for name, tool in tools.items():
        assert (tool.kind, tool.tier, tool.reverser) == ("desktop", Tier.EXTERNALLY_IRREVERSIBLE, None)
        assert tool.scoped is (name == "desktop.scroll")  # the gate cannot see what a bare click presses
    assert tools["desktop.click"].describe({"x": 10, "y": 20}) == "click at (10, 20)"
    assert tools["desktop.type"].describe({"text": "hello"}) == "type 'hello'"
    assert tools["desktop.hotkey"].describe({"keys": "ctrl+s"}) == "press ctrl+s"
    assert tools["desktop.scroll"].describe({"dy": -3}) == "scroll up 3"


def test_key_combinations_split_on_plus() -> None:
    assert key_names("ctrl+s") == ["ctrl", "s"]
    assert key_names("Ctrl + Shift + T") == ["ctrl", "shift", "T"]
    assert key_names("ctrl++") == ["ctrl", "+"]
    for bad in ("", "ctrl+ +s"):
        with pytest.raises(ToolError, match="not a key combination"):
            key_names(bad)


async def test_tools_drive_a_real_tk_window(display: str, tk_app: TkApp) -> None:
    env = DesktopEnv(display)
    assert isinstance(env, Environment) and env.identity == f"desktop:{display}"
    assert all(tool.unavailable is None for tool in env.tools())
    await env.reset({"kind": "desktop", "wait_for_title": "test notes", "timeout": 10})

    await call(env, "desktop.click", x=tk_app.entry[0], y=tk_app.entry[1])
    typed = await call(env, "desktop.type", text="hello world")
    assert typed.text == "typed 11 characters"
    await call(env, "desktop.click", x=tk_app.button[0], y=tk_app.button[1])
    assert tk_app.events(1) == ["clicked hello world"]
    await call(env, "desktop.hotkey", keys="ctrl+s")
    await call(env, "desktop.scroll", dy=2)
    await call(env, "desktop.scroll", dy=-1)
    assert tk_app.events(5) == ["clicked hello world", "hotkey ctrl+s hello world", "wheel down", "wheel down",
                                "wheel up"]

    seen = await env.observe()
    assert seen.kind == "desktop"
    assert seen.fields["title"] == TITLE
    assert seen.fields["display"] == {"width": SCREEN[0], "height": SCREEN[1]}
    assert TITLE in seen.text and f"{SCREEN[0]}x{SCREEN[1]}" in seen.text
    png = await seen.screenshot()
    assert png is not None and png.startswith(b"\x89PNG\r\n\x1a\n")
    assert Image.open(io.BytesIO(png)).size == SCREEN

    assert await seen.holds({"title": "test notes"})
    assert await seen.holds({"title": {"equals": TITLE}})
    assert await seen.holds({"title": {"contains": "Warden"}})
    assert not await seen.holds({"title": {"equals": "Warden"}})
    assert not await seen.holds({"title": "Calculator"})
    assert await seen.holds({"all": [{"title": "notes"}, {"not": {"title": "Calculator"}}]})


async def test_the_display_is_the_one_given_not_the_process_environment(display: str, tk_app: TkApp,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    env = DesktopEnv(display)
    await call(env, "desktop.click", x=tk_app.entry[0], y=tk_app.entry[1])
    monkeypatch.delenv("DISPLAY")
    seen = await env.observe()
    assert seen.fields["title"] == TITLE
    assert Image.open(io.BytesIO(await seen.screenshot())).size == SCREEN
    await call(env, "desktop.type", text="still here")
    await call(env, "desktop.click", x=tk_app.button[0], y=tk_app.button[1])
    assert tk_app.events(1) == ["clicked still here"]

    other = f"{display}9"
    reason = desktop_unavailable(other)
    assert reason is not None and f"drives display {display}" in reason
    assert {tool.unavailable for tool in DesktopEnv(other).tools()} == {reason}


async def test_arguments_pyautogui_would_ignore_are_refused_in_one_line(display: str, tk_app: TkApp) -> None:
    env = DesktopEnv(display)
    with pytest.raises(ToolError, match=r"^desktop.click: \(1024, 5\) is outside the 1024x768 screen$"):
        await call(env, "desktop.click", x=1024, y=5)
    with pytest.raises(ToolError, match="not true/false"):
        await call(env, "desktop.click", x=True, y=5)
    with pytest.raises(ToolError, match="no key types 'é'"):
        await call(env, "desktop.type", text="café")
    with pytest.raises(ToolError, match="unknown key 'hyper'"):
        await call(env, "desktop.hotkey", keys="ctrl+hyper")
    with pytest.raises(ToolError, match="unknown key 'ctrl\\+'"):
        await call(env, "desktop.hotkey", keys="ctrl+")
    with pytest.raises(ToolError, match="non-zero"):
        await call(env, "desktop.scroll", dy=0)
    assert tk_app.events(1, within=0.5) == []


async def test_reset_waits_for_a_title_and_says_in_one_line_when_it_never_comes(display: str,
                                                                                  tk_app: TkApp) -> None:
    env = DesktopEnv(display)
    with pytest.raises(DesktopError) as raised:
        await env.reset({"kind": "desktop", "wait_for_title": "Calculator", "timeout": 0.5})
    assert str(raised.value) == (f"no window titled 'Calculator' on {display} within 0.5s "
                                 f"(the active window is {TITLE!r})")
    await env.reset({"kind": "desktop", "display": display})


async def test_reset_never_launches_and_checks_its_spec() -> None:
    env = DesktopEnv(":0")
    with pytest.raises(WardenError, match="cannot launch programs"):
        await env.reset({"kind": "desktop", "launch": ["xterm"]})
    with pytest.raises(WardenError, match="not \\['command'\\]"):
        await env.reset({"kind": "desktop", "command": "xterm"})
    with pytest.raises(WardenError, match="timeout must be"):
        await env.reset({"kind": "desktop", "timeout": "soon"})
    with pytest.raises(WardenError, match="drives :0, not ':1'"):
        await env.reset({"kind": "desktop", "display": ":1"})
    with pytest.raises(WardenError, match="wait_for_title must be a string"):
        await env.reset({"kind": "desktop", "wait_for_title": 3})


async def test_with_no_display_every_tool_says_so_in_one_line() -> None:
    env = DesktopEnv(None)
    assert env.identity == "desktop:none"
    assert desktop_unavailable(None) == NO_DISPLAY == "no display: set DISPLAY or run under Xvfb"
    assert {tool.unavailable for tool in env.tools()} == {NO_DISPLAY}
    with pytest.raises(ToolError, match=f"^{NO_DISPLAY}$"):
        await call(env, "desktop.click", x=1, y=1)
    tool = {tool.name: tool for tool in env.tools()}["desktop.type"]
    with pytest.raises(DesktopError, match=f"^{NO_DISPLAY}$"):
        await tool.run(env, {"text": "x"})
    with pytest.raises(DesktopError, match=f"^{NO_DISPLAY}$"):
        await env.observe()
    assert not await env.check("title", "anything")
    with pytest.raises(DesktopError, match=f"^{NO_DISPLAY}$"):
        await env.reset({"kind": "desktop", "timeout": 0.2})
    with pytest.raises(WardenError, match="cannot be forked"):
        await env.fork(Path("unused"))


def test_without_pyautogui_the_tools_are_unavailable_in_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "pyautogui", None)
    assert desktop_unavailable(":0") == "desktop tools need pyautogui: pip install pyautogui"


def test_warden_imports_the_desktop_without_a_display_or_pyautogui() -> None:
    """In a fresh process (this one's pyautogui may be bound already): no import needs X, and a
    display that is not there is named in one line."""
    probe = ("import sys, engine.envs.desktop as desktop; "
             "from engine.programs.predicates import forms; "
             "assert 'title' in forms('desktop'); "
             "print(desktop.desktop_unavailable(':4093')); "
             "assert 'pyautogui' not in sys.modules, 'pyautogui was imported'")
    clean = {key: value for key, value in os.environ.items() if key != "DISPLAY"}
    done = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, env=clean, capture_output=True, text=True,
                          check=False, timeout=60)
    assert done.returncode == 0, done.stderr
    [reason] = done.stdout.splitlines()
    assert reason.startswith("no display: cannot open :4093 (") and reason.endswith("set DISPLAY or run under Xvfb")


def test_the_gate_asks_before_a_blind_click_unless_the_policy_allows_it() -> None:
    from engine.gate.gate import Decision, Gate
    from engine.gate.policy import Policy

    click = {tool.name: tool for tool in DesktopEnv().tools()}["desktop.click"]
    call = ToolCall("desktop.click", {"x": 10, "y": 20})
    asked = Gate(Policy(), tools=["desktop.click"]).rule(call, click.tier_for(call.args), click)
    assert asked.decision is Decision.ASK
    allowed = Policy.from_mapping({"tools": {"desktop.click": {"allow_irreversible": True}}})
    assert Gate(allowed, tools=["desktop.click"]).rule(call, click.tier_for(call.args), click).decision is Decision.ALLOW
