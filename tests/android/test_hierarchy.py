"""Recorded hierarchy dumps to what a model reads and what targets select."""

from __future__ import annotations

import sys

import pytest

from engine.envs.android.hierarchy import HierarchyError, parse
from engine.envs.android.targets import TargetError, matches, resolve
from tests.android.phone import WIFI, dump

LOGIN_TEXT = """\
FrameLayout id=android:id/content [0,132][1080,2400]
LinearLayout id=com.example.shop:id/login_root [0,132][1080,2400]
TextView "Welcome back" id=com.example.shop:id/heading [96,420][984,540]
EditText id=com.example.shop:id/email hint="Email" clickable long-clickable [96,620][984,760]
EditText id=com.example.shop:id/password hint="Password" clickable long-clickable password [96,800][984,940]
CheckBox "Remember me" id=com.example.shop:id/remember clickable unchecked [96,980][520,1080]
Button "Sign in" id=com.example.shop:id/sign_in clickable [96,1140][984,1272]
TextView "Forgot password?" id=com.example.shop:id/forgot clickable [336,1320][744,1390]
Button "Continue with Google" id=com.example.shop:id/google disabled [96,1500][984,1632]"""


def test_a_login_form_reads_as_one_line_per_element_that_matters() -> None:
    screen = parse(dump("login"))
    assert screen.text() == LOGIN_TEXT
    assert screen.package == "com.example.shop"
    assert len(screen.nodes) == 11 and len(screen.meaningful()) == 9
    password = screen.meaningful()[4].as_dict()
    assert password == {
        "index": 6, "class": "android.widget.EditText", "text": "", "resource_id": "com.example.shop:id/password",
        "description": "", "hint": "Password", "package": "com.example.shop", "clickable": True,
        "long_clickable": True, "checkable": False, "checked": False, "enabled": True, "focused": False,
        "selected": False, "scrollable": False, "password": True, "bounds": [96, 800, 984, 940],
    }


def test_settings_and_wifi_screens_show_switches_descriptions_and_scrolling_lists() -> None:
    settings = parse(dump("settings")).text()
    assert f'TextView "{WIFI}" id=android:id/title' in settings
    assert 'TextView "HomeNet" id=android:id/summary' in settings
    assert "RecyclerView id=com.android.settings:id/recycler_view scrollable [0,648][1080,2400]" in settings
    wifi = parse(dump("wifi")).text()
    assert 'ImageButton desc="Navigate up" clickable [0,132][147,286]' in wifi
    assert "Switch id=android:id/switch_widget clickable checked [870,370][996,454]" in wifi
    assert 'ImageView id=com.android.settings:id/friction_icon desc="Secured network"' in wifi


def test_a_long_list_is_cut_with_a_count_of_what_was_left_out() -> None:
    screen = parse(dump("inbox"))
    lines = screen.text(limit=3).splitlines()
    assert len(lines) == 4
    assert lines[-1] == f"… and {len(screen.meaningful()) - 3} more elements"


@pytest.mark.parametrize("hostile", [
    ('<?xml version="1.0"?><!DOCTYPE h [<!ENTITY a "aaaa"><!ENTITY b "&a;&a;&a;&a;">]>'
     '<hierarchy><node text="&b;"/></hierarchy>'),
    ('<?xml version="1.0"?><!DOCTYPE h [<!ENTITY x SYSTEM "file:///etc/passwd">]>'
     '<hierarchy><node text="&x;"/></hierarchy>'),
    '<!doctype hierarchy><hierarchy/>',
])
def test_a_dump_with_a_document_type_is_refused_before_parsing(hostile: str) -> None:
    with pytest.raises(HierarchyError, match="^the device's hierarchy dump declares a document type; refusing"):
        parse(hostile)


def test_a_dump_that_is_not_xml_is_one_line() -> None:
    with pytest.raises(HierarchyError) as raised:
        parse("<hierarchy><node></hierarchy>")
    assert str(raised.value).startswith("the device's hierarchy dump is not XML:") and "\n" not in str(raised.value)


def test_targets_match_exactly_by_text_id_description_and_xpath() -> None:
    screen = parse(dump("inbox"))
    assert [n.text for n in matches(screen, {"text": "Ada Lovelace"})] == ["Ada Lovelace", "Ada Lovelace"]
    assert matches(screen, {"text": "Ada"}) == []
    assert [n.short_class for n in matches(screen, {"description": "Compose"})] == ["FloatingActionButton"]
    assert len(matches(screen, {"resource_id": "com.example.mail:id/subject"})) == 4
    assert len(matches(screen, {"resource_id": "subject"})) == 4
    assert matches(screen, {"resource_id": "mail:id/subject"}) == []
    beside = "//node[@text='Alan Turing']/../node[@resource-id='com.example.mail:id/subject']"
    [subject] = matches(screen, {"xpath": beside})
    assert subject.text == "Re: Tea"
    second, count = resolve(screen, {"xpath": "(//node[@resource-id='com.example.mail:id/sender'])[2]"})
    assert (second.text, count) == ("Grace Hopper", 1)
    first, count = resolve(screen, {"text": "Ada Lovelace"})
    assert (first.centre, count) == ((502, 361), 2)


@pytest.mark.parametrize(("target", "message"), [
    ({"text": "Ada", "description": "x"}, "a target is {xpath|text|resource_id|description: s}"),
    ({"label": "Inbox"}, "a target is"),
    ({"text": ""}, "a target is"),
    ({"xpath": "//node[@text="}, "not a usable xpath"),
    ({"xpath": "count(//node)"}, "must select elements, not compute a value"),
    ({"xpath": "//node/@text"}, "must select node elements"),
    ({"xpath": "/hierarchy"}, "must select node elements"),
])
def test_malformed_targets_are_one_line(target: dict, message: str) -> None:
    with pytest.raises(TargetError, match=message.replace("|", r"\|").replace("{", r"\{")):
        matches(parse(dump("inbox")), target)


def test_a_target_with_no_area_or_no_match_cannot_be_acted_on() -> None:
    screen = parse(dump("inbox"))
    with pytest.raises(TargetError, match=r"^the element matching text 'Undo' has no area on screen"):
        resolve(screen, {"text": "Undo"})
    with pytest.raises(TargetError, match=r"^no element matches description 'Archive' on this screen$"):
        resolve(screen, {"description": "Archive"})


def test_without_lxml_elementtree_parses_and_answers_simple_paths(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "lxml", None)
    screen = parse(dump("login"))
    assert not hasattr(screen.root, "xpath")
    assert screen.text() == LOGIN_TEXT
    [button] = matches(screen, {"xpath": "//node[@text='Sign in']"})
    assert button.resource_id == "com.example.shop:id/sign_in"
    with pytest.raises(HierarchyError, match="document type"):
        parse('<!DOCTYPE h [<!ENTITY a "b">]><hierarchy/>')
