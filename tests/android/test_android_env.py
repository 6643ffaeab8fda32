"""The Android environment against a phone stand-in at the uiautomator2 boundary.

Assertions are on the calls the phone received (exact coordinates, keys, packages) and on
what the environment observes afterwards; the stand-in's methods are checked against the
real `uiautomator2.Device`, so it cannot drift from the library.
"""

from __future__ import annotations

import inspect
import io
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image

from engine.envs.android import (
    AndroidEnv,
    AndroidError,
    Device,
    TargetError,
    android_unavailable,
)
from engine.envs.environment import Environment
from engine.errors import WardenError
from engine.programs.predicates import PredicateError, holds, validate
from engine.tier import Tier
from engine.tools.call import ToolCall
from engine.tools.registry import ToolError, ToolOutput, ToolRegistry
from tests.android.conftest import SERIAL
from tests.android.phone import SIZE, WIFI, Phone

ROOT = Path(__file__).resolve().parents[2]


async def call(env: AndroidEnv, tool: str, **args: object) -> ToolOutput:
    """A call as the runtime makes it: checked by a registry of the env's tools, then run."""
    registry = ToolRegistry()
    for each in env.tools():
        registry.register(each)
    return await registry.check(ToolCall(tool, dict(args))).run(env, dict(args))


def acted(phone: Phone) -> list[tuple]:
    """The calls that change the phone (looking at it is left out)."""
    return [c for c in phone.calls if c[0] not in ("dump_hierarchy", "window_size", "app_current", "screenshot")]


def test_the_tools_are_declared_irreversible_scoped_and_readable(env: AndroidEnv) -> None:
    tools = {tool.name: tool for tool in env.tools()}
    assert {name: tool.schema for name, tool in tools.items()} == {
        "android.click": {"target": dict},
        "android.set_text": {"target": dict, "text": str},
        "android.back": {},
        "android.home": {},
        "android.app_start": {"package": str},
        "android.app_stop": {"package": str},
    }
    for tool in tools.values():
        assert (tool.kind, tool.tier, tool.scoped, tool.reverser) == ("android", Tier.EXTERNALLY_IRREVERSIBLE,
                                                                      True, None)
    target = {"text": "Sign in"}
    assert tools["android.click"].describe({"target": target}) == "tap text 'Sign in'"
    assert tools["android.click"].needs({"target": target}) == {"exists": target}
    assert tools["android.set_text"].describe({"target": {"resource_id": "password"}, "text": "hunter2"}) == \
        "type 7 characters into resource-id 'password'"
    assert tools["android.app_start"].describe({"package": "com.example.shop"}) == "start com.example.shop"


async def test_observe_reads_the_dump_the_foreground_app_and_the_screen(env: AndroidEnv, phone: Phone,
                                                                         connects: list) -> None:
    assert isinstance(env, Environment) and env.identity == f"android:{SERIAL}"
    assert connects == [], "constructing the environment touches no phone"
    seen = await env.observe()
    assert connects == [SERIAL]
    lines = seen.text.splitlines()
    assert lines[0] == f"android {SERIAL}: com.android.settings, screen 1080x2400"
    assert f'TextView "{WIFI}" id=android:id/title [189,699][500,758]' in lines
    assert seen.fields["package"] == "com.android.settings" and seen.fields["activity"] == ".Settings"
    assert seen.fields["display"] == {"width": 1080, "height": 2400}
    [wifi] = [node for node in seen.fields["nodes"] if node["text"] == WIFI]
    assert (wifi["resource_id"], wifi["class"], wifi["bounds"]) == ("android:id/title", "android.widget.TextView",
                                                                      [189, 699, 500, 758])
    assert "screenshot" not in [c[0] for c in phone.calls], "a screenshot is taken only when asked for"
    png = await seen.screenshot()
    assert png is not None and Image.open(io.BytesIO(png)).size == SIZE
    assert phone.calls[-1] == ("screenshot",)


async def test_a_tap_lands_on_the_centre_of_the_element_and_the_next_look_sees_the_new_screen(
        env: AndroidEnv, phone: Phone) -> None:
    tapped = await call(env, "android.click", target={"text": WIFI})
    assert acted(phone) == [("click", 344, 728)]
    assert tapped.text == f"tapped TextView '{WIFI}' at (344, 728)"
    assert tapped.data == {"text": WIFI, "resource_id": "android:id/title", "class": "android.widget.TextView",
                           "description": "", "x": 344, "y": 728, "matches": 1}
    seen = await env.observe()
    assert f'TextView "Use {WIFI}"' in seen.text
    assert await seen.holds({"exists": {"resource_id": "android:id/switch_widget"}})
    assert await seen.holds({"absent": {"text": "Bluetooth"}})

    await call(env, "android.back")
    assert acted(phone)[-1] == ("press", "back") and phone.screen == "settings"
    await call(env, "android.home")
    assert acted(phone)[-1] == ("press", "home")
    assert await env.check("package", "com.google.android.apps.nexuslauncher")


async def test_set_text_taps_the_field_then_types_replacing_what_was_there(env: AndroidEnv, phone: Phone) -> None:
    phone.screen = "launcher"
    started = await call(env, "android.app_start", package="com.example.shop")
    assert started.text == "started com.example.shop"
    assert acted(phone) == [("app_start", "com.example.shop", True)]
    assert await env.check("package", "com.example.shop")

    await call(env, "android.set_text", target={"resource_id": "email"}, text="ada@example.com")
    typed = await call(env, "android.set_text", target={"resource_id": "com.example.shop:id/password"},
                       text="hunter2")
    assert acted(phone)[1:] == [("click", 540, 690), ("send_keys", "ada@example.com", True),
                                ("click", 540, 870), ("send_keys", "hunter2", True)]
    assert "hunter2" not in typed.text and "hunter2" not in str(typed.data)
    assert typed.text == "typed 7 characters into EditText 'com.example.shop:id/password'"

    seen = await env.observe()
    assert 'EditText "ada@example.com" id=com.example.shop:id/email hint="Email"' in seen.text
    assert await seen.holds({"text": {"target": {"resource_id": "email"}, "equals": "ada@example.com"}})
    assert await seen.holds({"text": {"target": {"resource_id": "password"}, "equals": "\u2022" * 7}})
    await call(env, "android.click", target={"text": "Remember me"})
    assert 'CheckBox "Remember me" id=com.example.shop:id/remember clickable focused checked' in \
        (await env.observe()).text

    stopped = await call(env, "android.app_stop", package="com.example.shop")
    assert (stopped.text, acted(phone)[-1]) == ("stopped com.example.shop", ("app_stop", "com.example.shop"))
    assert not await env.check("package", "com.example.shop")


async def test_the_first_of_several_matches_is_used_and_said(env: AndroidEnv, phone: Phone) -> None:
    phone.screen = "inbox"
    tapped = await call(env, "android.click", target={"text": "Ada Lovelace"})
    assert tapped.text == "tapped TextView 'Ada Lovelace' (first of 2 matches) at (502, 361)"
    assert tapped.data["matches"] == 2
    by_xpath = await call(env, "android.click", target={"xpath": "//node[@content-desc='Compose']"})
    assert by_xpath.data["resource_id"] == "com.example.mail:id/compose"
    assert acted(phone) == [("click", 502, 361), ("click", 954, 2234)]


async def test_refused_calls_are_one_line_and_never_reach_the_phone(env: AndroidEnv, phone: Phone) -> None:
    with pytest.raises(TargetError, match=r"^no element matches text 'Sign out' on this screen$"):
        await call(env, "android.click", target={"text": "Sign out"})
    with pytest.raises(TargetError, match=r"^a target is"):
        await call(env, "android.set_text", target={"name": "Email"}, text="x")
    with pytest.raises(ToolError, match=r"^android.app_start: 'com.x; reboot' is not a package name"):
        await call(env, "android.app_start", package="com.x; reboot")
    with pytest.raises(ToolError, match=r"^android.app_stop: 'settings' is not a package name"):
        await call(env, "android.app_stop", package="settings")
    assert acted(phone) == []


async def test_every_predicate_form_holds_and_fails_on_recorded_screens(env: AndroidEnv, phone: Phone) -> None:
    phone.screen = "login"
    cases = [
        ({"exists": {"text": "Sign in"}}, True),
        ({"exists": {"text": "Sign out"}}, False),
        ({"exists": {"resource_id": "password"}}, True),
        ({"exists": {"xpath": "//node[@password='true']"}}, True),
        ({"exists": {"xpath": "//node[@checked='true']"}}, False),
        ({"absent": {"text": "Sign out"}}, True),
        ({"absent": {"description": "Compose"}}, True),
        ({"absent": {"text": "Sign in"}}, False),
        ({"text": "Welcome"}, True),
        ({"text": "Goodbye"}, False),
        ({"text": {"target": {"resource_id": "sign_in"}, "equals": "Sign in"}}, True),
        ({"text": {"target": {"resource_id": "sign_in"}, "equals": "Sign"}}, False),
        ({"text": {"target": {"resource_id": "sign_in"}, "contains": "Sign"}}, True),
        ({"text": {"target": {"resource_id": "missing"}, "contains": ""}}, False),
        ({"package": "com.example.shop"}, True),
        ({"package": "com.example"}, False),
        ({"all": [{"package": "com.example.shop"}, {"not": {"exists": {"text": "Inbox"}}}]}, True),
        ({"any": [{"text": "Inbox"}, {"exists": {"xpath": "//node[@text="}}]}, False),
    ]
    for predicate, expected in cases:
        validate(predicate, "android")
        assert await (await env.observe()).holds(predicate) is expected, predicate
    phone.screen = "inbox"
    assert await env.check("text", "Avatar of Grace Hopper"), "a content description is on screen too"
    assert await env.check("exists", {"description": "Compose"})


@pytest.mark.parametrize("predicate", [
    {"exists": {"text": "a", "resource_id": "b"}},
    {"exists": "Sign in"},
    {"text": {"target": {"text": "a"}}},
    {"text": {"target": {"text": "a"}, "contains": "x", "equals": "y"}},
    {"package": ""},
    {"title": "Settings"},
])
def test_malformed_predicates_are_refused_when_a_program_is_checked(predicate: dict) -> None:
    with pytest.raises(PredicateError):
        validate(predicate, "android")


async def test_an_unreachable_phone_is_one_line_everywhere() -> None:
    from uiautomator2.exceptions import ConnectError

    def connect(serial: str | None) -> Phone:
        raise ConnectError("no devices/emulators found")

    env = AndroidEnv(connect=connect)
    assert env.identity == "android:default"
    message = "^android device default is unreachable: ConnectError: no devices/emulators found$"
    with pytest.raises(AndroidError, match=message):
        await call(env, "android.back")
    with pytest.raises(AndroidError, match=message):
        await env.observe()
    assert not await holds({"exists": {"text": "anything"}}, env)
    assert not await holds({"package": "com.android.settings"}, env)


async def test_a_phone_that_drops_off_mid_task_is_one_line(env: AndroidEnv, phone: Phone) -> None:
    from adbutils import AdbError

    await env.observe()
    phone.failing = AdbError("device 'emulator-5554' not found")
    with pytest.raises(AndroidError, match=f"^android device {SERIAL}: dump_hierarchy failed: AdbError: "
                                           "device 'emulator-5554' not found$"):
        await call(env, "android.click", target={"text": WIFI})
    with pytest.raises(AndroidError, match=f"^android device {SERIAL}: press home failed"):
        await call(env, "android.home")


async def test_reset_waits_for_the_phone_and_a_package_and_refuses_what_it_does_not_know(
        env: AndroidEnv, phone: Phone) -> None:
    await env.reset({"kind": "android", "serial": SERIAL, "wait_for_package": "com.android.settings"})
    with pytest.raises(AndroidError, match=r"^com.example.mail did not come to the front of emulator-5554 within "
                                           r"0.1s \(in front: com.android.settings; screen 1080x2400\)$"):
        await env.reset({"kind": "android", "wait_for_package": "com.example.mail", "timeout": 0.1})
    with pytest.raises(WardenError, match="not \\['launch'\\]"):
        await env.reset({"kind": "android", "launch": "com.example.mail"})
    with pytest.raises(WardenError, match="drives emulator-5554, not 'other'"):
        await env.reset({"kind": "android", "serial": "other"})
    with pytest.raises(WardenError, match="cannot be forked"):
        await env.fork(Path("unused"))
    assert acted(phone) == []


def test_without_uiautomator2_the_tools_are_unavailable_in_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "uiautomator2", None)
    assert android_unavailable() == "android tools need uiautomator2: pip install uiautomator2"
    assert {tool.unavailable for tool in AndroidEnv().tools()} == {android_unavailable()}
    assert {tool.unavailable for tool in AndroidEnv(connect=lambda serial: Phone()).tools()} == {None}


def _parameters(function) -> list[tuple[str, object, object]]:
    return [(p.name, p.kind, p.default) for p in inspect.signature(function).parameters.values()]


@pytest.mark.parametrize("stand_in", [Phone, Device], ids=["test stand-in", "engine's Device protocol"])
def test_the_device_boundary_matches_the_real_uiautomator2_device(stand_in: type) -> None:
    import uiautomator2

    methods = [name for name, member in vars(stand_in).items() if callable(member) and not name.startswith("_")]
    assert {"dump_hierarchy", "click", "press", "send_keys", "app_start", "app_stop", "app_current", "window_size",
            "screenshot"} <= set(methods)
    for name in methods:
        real = getattr(uiautomator2.Device, name, None)
        assert real is not None, f"uiautomator2.Device has no {name}"
        assert _parameters(getattr(stand_in, name)) == _parameters(real), name


def test_warden_imports_the_android_env_without_uiautomator2() -> None:
    probe = ("import sys, engine.envs.android; "
             "from engine.programs.predicates import forms; "
             "assert set(forms('android')) == {'exists', 'absent', 'text', 'package'}; "
             "assert 'uiautomator2' not in sys.modules, 'uiautomator2 was imported'")
    done = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=False,
                          timeout=60)
    assert done.returncode == 0, done.stderr
