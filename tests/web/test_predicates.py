"""Every web predicate form, true and false, on a live page; shapes checked by the predicate language."""

from __future__ import annotations

import pytest
import pytest_asyncio

from engine.envs.web import WebEnv
from engine.programs.predicates import PredicateError, holds, validate
from tests.web.calls import call

HOLDING = [
    {"exists": {"role": "button", "name": "Save"}},
    {"exists": {"text": "Welcome to the fixture"}},
    {"exists": {"label": "Email"}},
    {"exists": {"placeholder": "Search terms"}},
    {"exists": {"css": "#save"}},
    {"exists": {"xpath": "//h1"}},
    {"exists": {"x": 160, "y": 320}},
    {"absent": {"role": "button", "name": "Delete"}},
    {"absent": {"css": ".no-such-thing"}},
    {"text": "Nothing saved yet"},
    {"text": {"contains": "Welcome to"}},
    {"text": {"target": {"css": "#status"}, "equals": "Nothing saved yet"}},
    {"text": {"target": {"role": "heading"}, "contains": "fixture"}},
    {"value": {"target": {"label": "Email"}, "equals": "ada@example.org"}},
    {"value": {"target": {"label": "Colour"}, "equals": "g"}},
    {"value": {"target": {"label": "Colour"}, "equals": "Green"}},
    {"value": {"target": {"css": "textarea"}, "contains": "note"}},
    {"url": "127.0.0.1"},
    {"url": {"contains": "/"}},
    {"title": "Home"},
    {"title": {"equals": "Fixture Home"}},
]

FAILING = [
    {"exists": {"role": "button", "name": "Delete"}},
    {"exists": {"text": "Goodbye"}},
    {"exists": {"label": "Password"}},
    {"exists": {"placeholder": "Nope"}},
    {"exists": {"css": "#missing"}},
    {"exists": {"xpath": "//h6"}},
    {"exists": {"x": 5000, "y": 5000}},
    {"absent": {"role": "button", "name": "Save"}},
    {"absent": {"text": "Welcome to the fixture"}},
    {"text": "Saved!"},
    {"text": {"equals": "Welcome"}},
    {"text": {"target": {"css": "#status"}, "contains": "Saved"}},
    {"text": {"target": {"css": "#missing"}, "contains": ""}},
    {"value": {"target": {"label": "Email"}, "equals": "ada"}},
    {"value": {"target": {"label": "Colour"}, "equals": "Red"}},
    {"value": {"target": {"css": "#save"}, "equals": ""}},
    {"value": {"target": {"css": "#missing"}, "contains": ""}},
    {"url": "example.com"},
    {"url": {"equals": "http://127.0.0.1/"}},
    {"title": "Second"},
    {"title": {"equals": "Fixture"}},
]


@pytest_asyncio.fixture(loop_scope="session")
async def filled(web: WebEnv) -> WebEnv:
    await call(web, "browser.fill", target={"label": "Email"}, text="ada@example.org")
    await call(web, "browser.select", target={"label": "Colour"}, value="g")
    await call(web, "browser.fill", target={"css": "textarea"}, text="a note")
    return web


async def test_each_form_holds_where_it_should(filled: WebEnv) -> None:
    for predicate in HOLDING:
        validate(predicate, "web")
        assert await holds(predicate, filled), predicate


async def test_each_form_fails_where_it_should(filled: WebEnv) -> None:
    for predicate in FAILING:
        validate(predicate, "web")
        assert not await holds(predicate, filled), predicate


async def test_combinators_and_params_work_on_web_forms(filled: WebEnv) -> None:
    predicate = {"all": [{"title": "{page}"}, {"not": {"text": "Saved!"}}, {"any": [{"url": "nowhere"},
                                                                                     {"exists": {"text": "{word}"}}]}]}
    assert await holds(predicate, filled, {"page": "Fixture Home", "word": "Save"})
    assert not await holds(predicate, filled, {"page": "Other", "word": "Save"})


async def test_a_check_follows_the_page_as_it_changes(web: WebEnv) -> None:
    assert not await web.check("text", "Saved!")
    await call(web, "browser.click", target={"role": "button", "name": "Save"})
    assert await web.check("text", "Saved!")


COVERED = """<title>Covered</title><button>Save</button>
<dialog id="ask" aria-label="Unsaved changes"><p>Discard your edits?</p><button>Keep editing</button></dialog>
<script>document.getElementById("ask").showModal()</script>"""


async def test_a_check_behind_an_open_dialog_says_so(web: WebEnv, site) -> None:
    site.pages["/covered"] = COVERED
    await web.reset({"kind": "web", "start_url": site.url("/covered"), "timeout_s": 5})
    save = {"role": "button", "name": "Save"}
    assert not await web.check("exists", save)
    saw = await web.saw("exists", save)
    assert saw.startswith("behind an open dialog") and "Unsaved changes" in saw, saw


async def test_an_invalid_selector_does_not_hold(web: WebEnv) -> None:
    assert not await holds({"exists": {"css": "[[["}}, web)


@pytest.mark.parametrize("predicate", [
    {"exists": {"role": "button", "label": "x"}},
    {"exists": {"x": 1}},
    {"exists": {"x": -1, "y": 2}},
    {"exists": "Save"},
    {"absent": {"x": 1, "y": 2}},
    {"text": {"contains": "a", "equals": "b"}},
    {"text": {"target": {"nope": 1}, "contains": "a"}},
    {"text": ""},
    {"value": {"contains": "a"}},
    {"value": {"target": {"css": "#a"}}},
    {"url": {"matches": "x"}},
    {"title": 3},
    {"screen": "x"},
])
def test_malformed_predicates_are_refused(predicate: dict) -> None:
    with pytest.raises(PredicateError):
        validate(predicate, "web")
