"""The shared action mapping: key names, points, screens, and calls checked against the registry."""

from __future__ import annotations

import pytest

from engine.agents.computer import (
    Actions,
    Calls,
    Display,
    Look,
    Refuse,
    chain,
    desktop_keys,
    playwright_key,
    png_size,
)
from engine.tools.call import ToolCall
from engine.tools.registry import ToolRegistry
from tests.agents.conftest import png, screen_tools


@pytest.mark.parametrize("combo, key", [
    ("ctrl+a", "Control+A"), ("Return", "Enter"), ("KP_Enter", "Enter"), ("shift+Tab", "Shift+Tab"),
    ("ctrl+shift+t", "Control+Shift+T"), ("alt+Left", "Alt+ArrowLeft"), ("Page_Down", "PageDown"),
    ("BackSpace", "Backspace"), ("Escape", "Escape"), ("super+l", "Meta+L"), ("F5", "F5"), ("a", "a"),
    ("Control+A", "Control+A"), ("space", "Space"), ("ctrl+plus", "Control++"), ("Delete", "Delete"),
])
def test_xdotool_names_become_playwright_names(combo, key):
    assert playwright_key(combo) == key


@pytest.mark.parametrize("combo, keys", [
    ("ctrl+s", "ctrl+s"), ("Control+S", "ctrl+s"), ("Return", "enter"), ("alt+F4", "alt+f4"),
    ("super", "win"), ("Page_Up", "pageup"),
])
def test_desktop_hotkeys_are_lower_case_names(combo, keys):
    assert desktop_keys(combo) == keys


def test_the_display_comes_from_the_fields_else_from_the_screenshot():
    shot = png((1, 2, 3), (64, 48))
    assert png_size(shot) == (64, 48) and png_size(b"not a png") is None
    assert Display.of({"display": {"width": 1280, "height": 800}}, shot) == Display(1280, 800)
    assert Display.of({"display": {"width": None, "height": None}}, shot) == Display(64, 48)
    assert Display.of({}, None) is None


def test_normalised_points_land_on_the_screen():
    display = Display(1280, 800)
    assert display.from_normalised(0, 0) == (0, 0)
    assert display.from_normalised(500, 500) == (640, 400)
    assert display.from_normalised(999, 999) == (1278, 799)
    assert display.from_normalised(1000, 1000) == (1279, 799)


def test_calls_are_checked_against_the_registry():
    clicked = Actions("web", screen_tools()).click(3, 4)
    assert clicked == Calls((ToolCall("browser.click", {"target": {"x": 3, "y": 4}}),))
    refused = Actions("web", ToolRegistry()).click(3, 4)
    assert isinstance(refused, Refuse)
    assert refused.error.startswith("this environment cannot run browser.click: unknown tool")


def test_what_an_environment_cannot_do_is_refused():
    desktop = Actions("desktop", screen_tools())
    assert desktop.goto("http://x") == Refuse("navigating to a URL is not available in a desktop environment")
    assert desktop.scroll("left", 100) == Refuse("scrolling sideways is not available in a desktop environment")
    assert Actions("web", screen_tools()).scroll("sideways", 100) == Refuse(
        "scroll direction 'sideways' is not one of up, down, left, right")
    typed = Actions("workspace", screen_tools()).type("x")
    assert typed == Refuse("typing is not available in a workspace environment")


def test_a_chain_is_all_its_calls_or_its_first_refusal():
    web = Actions("web", screen_tools())
    assert chain([web.click(1, 2), Look("x"), web.type("hi")]) == Calls((
        ToolCall("browser.click", {"target": {"x": 1, "y": 2}}), ToolCall("browser.type", {"text": "hi"})))
    assert chain([web.click(1, 2), Refuse("no"), web.type("hi")]) == Refuse("no")


def test_a_desktop_scrolls_by_wheel_clicks():
    desktop = Actions("desktop", screen_tools())
    assert desktop.scroll("down", 300) == Calls((ToolCall("desktop.scroll", {"dy": 3}),))
    assert desktop.scroll("up", 40) == Calls((ToolCall("desktop.scroll", {"dy": -1}),))
