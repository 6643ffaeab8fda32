"""What an action reports about its element names it again: the role and name find it, and so does the selector."""

from __future__ import annotations

import pytest

from engine.envs.web import WebEnv
from engine.envs.web.identity import element_at, identify

CONTROLS = """<!doctype html><html><head><title>Controls</title></head><body>
<main>
<a href="/x" class="c">A link</a>
<button class="c" title="ignored">Button text</button>
<input class="c" type="submit" value="Submit it">
<input class="c" type="checkbox" aria-label="Labelled by aria">
<span id="caption">Caption words</span><input class="c" aria-labelledby="caption">
<label>Wrapped <input class="c" type="radio" name="r"></label>
<label for="pw">Password</label><input class="c" type="password" id="pw">
<input class="c" type="search" placeholder="Find">
<input class="c" type="number" title="Count">
<textarea class="c" placeholder="Notes"></textarea>
<label>Size <select class="c"><option>Small</option></select></label>
<img class="c" alt="A picture" src="data:image/gif;base64,R0lGODlhAQABAAAAACw=">
<h3 class="c">A heading</h3>
<div class="c" role="button" tabindex="0">Custom button</div>
<ul><li class="c">First item</li><li>Second item</li></ul>
</main>
</body></html>"""

NAMED_BY_AUTHOR_ONLY = {"listitem"}


@pytest.fixture
def controls_page(site) -> str:
    site.pages["/controls"] = CONTROLS
    return site.url("/controls")


async def test_role_name_and_selector_find_the_same_element(browser_env: WebEnv, controls_page: str) -> None:
    await browser_env.reset({"start_url": controls_page})
    page = browser_env.page()
    elements = page.locator(".c")
    seen = []
    for index in range(await elements.count()):
        element = elements.nth(index)
        identity = await identify(element)
        seen.append((identity["role"], identity["name"]))
        if identity["role"] in NAMED_BY_AUTHOR_ONLY:  # the name reported is its text, which finds it as text
            again = page.get_by_text(identity["name"], exact=True)
        else:
            again = page.get_by_role(identity["role"], name=identity["name"], exact=True)  # type: ignore[arg-type]
        assert await again.count() == 1, identity
        assert await again.evaluate("(found, expected) => found === expected", await element.element_handle())
        assert await page.locator(identity["selector"]).count() == 1, identity
    assert seen == [
        ("link", "A link"), ("button", "Button text"), ("button", "Submit it"),
        ("checkbox", "Labelled by aria"), ("textbox", "Caption words"), ("radio", "Wrapped"),
        ("textbox", "Password"), ("searchbox", "Find"), ("spinbutton", "Count"), ("textbox", "Notes"),
        ("combobox", "Size"), ("img", "A picture"), ("heading", "A heading"), ("button", "Custom button"),
        ("listitem", "First item"),
    ]


async def test_a_point_names_the_control_a_person_meant(web: WebEnv) -> None:
    page = web.page()
    inside_the_button = await element_at(page, 110, 310)  # on the button's <span>
    assert inside_the_button is not None
    assert await identify(inside_the_button) == {"role": "button", "name": "Press here", "selector": "#pixel"}
    label_box = await page.get_by_text("I agree").bounding_box()
    assert label_box is not None
    on_the_label = await element_at(page, int(label_box["x"] + label_box["width"] - 2), int(label_box["y"] + 4))
    assert on_the_label is not None
    assert await identify(on_the_label) == {"role": "checkbox", "name": "I agree", "selector": "#agree"}
    assert await element_at(page, 5000, 5000) is None
