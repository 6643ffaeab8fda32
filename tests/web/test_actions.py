"""Each tool on a real page, by each kind of target, and what it reports about the element it acted on."""

from __future__ import annotations

import pytest

from engine.envs.web import WebEnv
from engine.tier import Tier
from engine.tools.registry import ToolError
from tests.web.calls import call, registry_of


async def status(env: WebEnv) -> str:
    return await env.evaluate("document.getElementById('status').textContent")


async def test_click_by_role_reports_the_element(web: WebEnv, site) -> None:
    output = await call(web, "browser.click", target={"role": "button", "name": "Save"})
    assert await status(web) == "Saved!"
    assert output.data == {"target": {"role": "button", "name": "Save", "selector": "#save"}, "url": site.url("/")}
    assert output.text == f'clicked button "Save" (#save); page {site.url("/")}'


@pytest.mark.parametrize("target", [{"text": "Save"}, {"css": "#save"}, {"xpath": "//button[@id='save']"}])
async def test_click_by_text_css_and_xpath(web: WebEnv, target: dict) -> None:
    output = await call(web, "browser.click", target=target)
    assert await status(web) == "Saved!"
    assert output.data["target"]["selector"] == "#save"


async def test_a_coordinate_click_reports_the_control_under_the_point(web: WebEnv) -> None:
    output = await call(web, "browser.click", target={"x": 160, "y": 320})
    assert await status(web) == "Pixel pressed"
    assert output.data["target"] == {"role": "button", "name": "Press here", "selector": "#pixel"}


async def test_a_click_that_navigates_waits_for_the_new_page(web: WebEnv, site) -> None:
    output = await call(web, "browser.click", target={"role": "link", "name": "Second page"})
    assert output.data["url"] == site.url("/second")
    assert output.data["target"]["role"] == "link"
    assert (await web.observe()).fields["title"] == "Second page"


async def test_fill_by_label_placeholder_and_css(web: WebEnv) -> None:
    by_label = await call(web, "browser.fill", target={"label": "Email"}, text="ada@example.org")
    assert by_label.data["target"] == {"role": "textbox", "name": "Email", "selector": "#email"}
    by_placeholder = await call(web, "browser.fill", target={"placeholder": "Search terms"}, text="engines")
    assert by_placeholder.data["target"] == {"role": "textbox", "name": "Search terms",
                                             "selector": 'input[name="query"]'}
    by_css = await call(web, "browser.fill", target={"css": "textarea"}, text="a note")
    assert by_css.data["target"]["selector"] == '[data-testid="notes"]'
    values = await web.evaluate("[...document.querySelectorAll('input, textarea')].map(e => e.value)")
    assert values[:2] == ["ada@example.org", "engines"] and values[-1] == "a note"


async def test_fill_at_a_point_fills_the_field_there(web: WebEnv) -> None:
    box = await web.evaluate("(() => { const r = document.getElementById('email').getBoundingClientRect();"
                             " return [Math.round(r.x + 5), Math.round(r.y + 5)]; })()")
    output = await call(web, "browser.fill", target={"x": box[0], "y": box[1]}, text="at a point")
    assert output.data["target"]["selector"] == "#email"
    assert await web.check("value", {"target": {"label": "Email"}, "equals": "at a point"})


async def test_select_by_value_and_by_label(web: WebEnv) -> None:
    output = await call(web, "browser.select", target={"label": "Colour"}, value="g")
    assert output.data["target"]["role"] == "combobox" and output.data["target"]["name"] == "Colour"
    assert await web.evaluate("document.querySelector('select').value") == "g"
    await call(web, "browser.select", target={"role": "combobox", "name": "Colour"}, value="Red")
    assert await web.evaluate("document.querySelector('select').value") == "r"


@pytest.mark.parametrize("target", [{"label": "I agree"}, {"role": "checkbox", "name": "I agree"}, {"css": "#agree"}])
async def test_check_by_label_role_and_css(web: WebEnv, target: dict) -> None:
    output = await call(web, "browser.check", target=target)
    assert output.data["target"] == {"role": "checkbox", "name": "I agree", "selector": "#agree"}
    assert await web.evaluate("document.getElementById('agree').checked") is True
    await call(web, "browser.check", target=target)  # already checked: still checked, no error
    assert await web.evaluate("document.getElementById('agree').checked") is True


async def test_type_and_press_act_on_the_focused_element(web: WebEnv, site) -> None:
    await call(web, "browser.click", target={"label": "Email"})
    typed = await call(web, "browser.type", text="me@example.org")
    assert typed.data["target"]["selector"] == "#email"
    assert typed.text.startswith('typed 14 characters into textbox "Email"')
    pressed = await call(web, "browser.press", key="Enter")  # submits the form to /echo
    assert pressed.data["target"]["selector"] == "#email"
    assert pressed.data["url"] == site.url("/echo")
    assert ("/echo", "email=me%40example.org&query=&colour=r&notes=") in site.posts


async def test_scroll_moves_the_page(web: WebEnv, site) -> None:
    await call(web, "browser.goto", url=site.url("/tall"))
    output = await call(web, "browser.scroll", dx=0, dy=600)
    assert output.text.startswith("scrolled by (0, 600); the page is scrolled to (0, ")
    assert await web.evaluate("window.scrollY") > 0


async def test_wait_until_an_element_appears(web: WebEnv, site) -> None:
    await call(web, "browser.goto", url=site.url("/late"))
    output = await call(web, "browser.wait", target={"role": "button", "name": "Ready"})
    assert output.data["target"]["name"] == "Ready"


async def test_the_visible_and_exactly_named_element_is_preferred(web: WebEnv, site) -> None:
    await call(web, "browser.goto", url=site.url("/twins"))
    await call(web, "browser.click", target={"role": "button", "name": "Go"})
    assert await web.evaluate("document.title") == "visible clicked"
    output = await call(web, "browser.click", target={"text": "b"})
    assert output.data["target"]["selector"] == "body > div:nth-of-type(2) > span:nth-of-type(2)"


async def test_nothing_matching_fails_in_one_line(browser_env: WebEnv, site) -> None:
    await browser_env.reset({"start_url": site.url("/"), "timeout_s": 0.5})
    with pytest.raises(ToolError) as failed:
        await call(browser_env, "browser.click", target={"role": "button", "name": "Missing"})
    assert str(failed.value) == 'browser.click: nothing matches button "Missing" within 0.5 s'
    with pytest.raises(ToolError, match=r"^browser.click: there is no element at \(5000, 5000\)$"):
        await call(browser_env, "browser.click", target={"x": 5000, "y": 5000})
    with pytest.raises(ToolError, match=r"^browser.fill: not a target: \{'role': 'button', 'text': 'x'\}; a target is"):
        await call(browser_env, "browser.fill", target={"role": "button", "text": "x"}, text="y")
    with pytest.raises(ToolError) as bad_key:
        await call(browser_env, "browser.press", key="NoSuchKey")
    assert "\n" not in str(bad_key.value) and "NoSuchKey" in str(bad_key.value)


async def test_declarations_say_tier_scope_needs_effects_and_summaries(web: WebEnv) -> None:
    registry = registry_of(web)
    tools = {name: registry.get(name) for name in registry.names()}
    api = {name: tools.pop(name) for name in ("api.post", "api.delete")}
    assert set(tools) == {"browser.goto", "browser.click", "browser.fill", "browser.type", "browser.press",
                          "browser.select", "browser.check", "browser.scroll", "browser.wait"}
    assert all(t.kind == "web" and t.tier is Tier.EXTERNALLY_IRREVERSIBLE and t.scoped for t in tools.values())
    post = {"url": "http://127.0.0.1:1/api/contacts", "json": {}}
    assert api["api.post"].tier_for(post) is Tier.EXTERNALLY_IRREVERSIBLE, "compensable only where a spec says how"
    assert api["api.delete"].tier_for({"url": post["url"]}) is Tier.EXTERNALLY_IRREVERSIBLE
    assert {name for name, t in tools.items() if t.idempotent} == {"browser.goto", "browser.fill",
                                                                   "browser.select", "browser.check"}
    save = {"target": {"role": "button", "name": "Save"}}
    assert tools["browser.click"].describe(save) == 'browser.click button "Save"'
    assert tools["browser.click"].describe({"target": {"x": 120, "y": 340}}) == "browser.click at (120, 340)"
    assert tools["browser.click"].needs(save) == {"exists": save["target"]}
    assert tools["browser.click"].needs({"target": {"x": 1, "y": 2}}) is None
    fill = {"target": {"label": "Email"}, "text": "a@b.c"}
    assert tools["browser.fill"].effect(fill) == {"value": {"target": {"label": "Email"}, "equals": "a@b.c"}}
    assert tools["browser.fill"].describe(fill) == 'browser.fill label "Email" with "a@b.c"'
