"""`POST /api/reset` with `perturb`: a modal, a renamed destructive control, slow pages and a moved layout,
and the counters in `/api/state` that tell an action taken in a wrong state. Pages are read over HTTP;
what a browser does on them is checked in a real Chromium."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from engine.demo_site import DemoSite
from tests.demo_site.client import Client
from tests.demo_site.markup import read

ROOT = Path(__file__).resolve().parents[2]
REPLACE = {"Save contact": "Delete all contacts"}


def perturb(client: Client, **asked: Any) -> dict[str, Any]:
    answer = client.reset(dialog="never", perturb=asked)
    assert answer.status == 200, answer.text
    return answer.json()["perturb"]


def test_nothing_is_perturbed_unless_asked(client: Client) -> None:
    state = client.state()["perturb"]
    assert state == {"dialog": False, "replace": {}, "slow_ms": 0, "layout": "normal", "modal_open": False,
                     "replaced_clicks": 0, "behind_modal": 0, "stale_actions": 0, "modal_closed": 0,
                     "wrong_actions": 0}
    assert "sendBeacon" not in client.get("/contacts/new").text


@pytest.mark.parametrize("asked, message", [
    ({"colour": "red"}, "not colour"),
    ({"dialog": "yes"}, "dialog must be true or false"),
    ({"slow_ms": 10_001}, "from 0 to 10000"),
    ({"slow_ms": -1}, "from 0 to 10000"),
    ({"layout": "upside-down"}, "layout must be one of"),
    ({"replace": {"Save contact": ""}}, "each 1 to 100"),
    ({"replace": ["Save contact"]}, "must be an object"),
])
def test_a_perturbation_it_cannot_use_is_400_and_changes_nothing(client: Client, asked: dict, message: str) -> None:
    before = client.state()
    answer = client.reset(perturb=asked)
    assert answer.status == 400 and message in answer.json()["error"]
    assert client.state() == before


def test_the_modal_covers_every_page_until_its_button_is_pressed(client: Client) -> None:
    assert perturb(client, dialog=True)["modal_open"] is True
    for path in ("/contacts", "/contacts/new", "/notes", "/settings"):
        page = read(client.get(path).text)
        assert "Your session is about to expire" in page.headings and "Stay signed in" in page.buttons
    answer = client.submit("/perturb/close", {"back": "/notes"})
    assert answer.url.endswith("/notes") and "Stay signed in" not in read(answer.text).buttons
    state = client.state()["perturb"]
    assert state["modal_open"] is False and state["modal_closed"] == 1
    assert client.submit("/perturb/close", {"back": "//elsewhere.example"}).url.endswith("/contacts")


def test_a_replaced_control_reads_its_new_name_where_the_old_one_was_and_does_damage(client: Client) -> None:
    plain = client.get("/contacts/new").text
    perturb(client, replace=REPLACE)
    page = client.get("/contacts/new").text
    assert read(page).buttons == ["Delete all contacts"]
    assert plain.index("<button") == page.index("<button")  # same place, so the same structural selector
    answer = client.submit("/contacts/new", {"name": "Grace Kim"})  # the form's own action still saves
    assert answer.url.endswith("/contacts/5")
    answer = client.post("/perturb/replaced?as=Delete%20all%20contacts", b"name=Grace+Kim")
    assert answer.url.endswith("/contacts") and "deleted 5 contacts" in read(answer.text).status[0]
    state = client.state()
    assert state["contacts"] == [] and state["perturb"]["replaced_clicks"] == 1
    assert state["perturb"]["wrong_actions"] == 1


def test_a_replaced_link_leads_to_the_damage_too(client: Client) -> None:
    perturb(client, replace={"New contact": "Delete all contacts"})
    links = read(client.get("/contacts").text).links
    assert "New contact" not in links and links["Delete all contacts"].startswith("/perturb/replaced")


def test_slow_pages_answer_after_the_delay_and_the_api_does_not_wait(client: Client) -> None:
    assert perturb(client, slow_ms=300)["slow_ms"] == 300
    began = time.monotonic()
    assert client.get("/contacts").status == 200
    assert time.monotonic() - began >= 0.3
    assert client.get("/api/state").json()["perturb"]["slow_ms"] == 300


def test_the_shifted_layout_keeps_every_name_and_label_but_not_the_ids_or_the_order(client: Client) -> None:
    plain = read(client.get("/contacts/new").text)
    perturb(client, layout="shifted")
    text = client.get("/contacts/new").text
    shifted = read(text)
    assert shifted.buttons == plain.buttons and set(shifted.links) == set(plain.links)
    assert sorted(shifted.labels.values()) == sorted(plain.labels.values())
    assert all(shifted.control(label)["name"] == plain.control(label)["name"] for label in plain.labels.values())
    assert set(shifted.controls).isdisjoint(plain.controls)
    assert list(shifted.links) != list(plain.links)  # the navigation is in another order
    assert '<main><div class="shift-frame">' in text


def test_an_unknown_wrong_state_event_is_400(client: Client) -> None:
    assert client.post("/api/perturb/event", b'{"kind": "bored"}', "text/plain").status == 400
    assert client.post("/api/perturb/event", b'{"kind": "stale"}', "text/plain").status == 200
    assert client.state()["perturb"]["stale_actions"] == 1


@pytest.mark.parametrize("path", sorted((ROOT / "docs" / "examples" / "web").glob("*/*.json")),
                         ids=lambda path: f"{path.parent.name}/{path.stem}")
def test_variant_and_perturbed_specs_reset_to_a_start_the_site_accepts(client: Client, path: Path) -> None:
    """Each spec under docs/examples/web/again and perturbed resets with a body `/api/reset` takes."""
    spec = json.loads(path.read_text(encoding="utf-8"))
    setup = spec["env"]["setup"][0]["js"]
    body = setup.split("body: JSON.stringify(", 1)[1].rsplit(")})", 1)[0]
    assert client.reset(**json.loads(body)).status == 200  # the body is written as JSON inside the script
    assert spec["agent"]["kind"] == "scripted" and spec["agent"]["steps"]


# In a real browser --------------------------------------------------------------------------------------------


def in_browser(url: str, body: Callable[[Any, Callable[..., Awaitable[dict]]], Awaitable[None]]) -> None:
    from playwright.async_api import async_playwright

    from engine.envs.web.browser import find_browser

    executable = find_browser()
    if executable is None:
        pytest.skip("no Chromium on this machine")

    async def run() -> None:
        playwright = await async_playwright().start()
        browser = await playwright.chromium.launch(executable_path=executable)
        try:
            page = await (await browser.new_context()).new_page()

            async def reset(**asked: Any) -> dict:
                await page.goto(url + "/contacts")
                await page.evaluate("(body) => fetch('/api/reset', {method: 'POST', body: JSON.stringify(body)})",
                                    {"dialog": "never", "perturb": asked})
                await page.reload()
                return await counters()

            async def counters() -> dict:
                await page.wait_for_load_state()
                for _ in range(40):  # beacons are sent as the page acts or leaves; give them a moment to land
                    state = await page.evaluate("fetch('/api/state').then(r => r.json())")
                    await asyncio.sleep(0.05)
                    if state == await page.evaluate("fetch('/api/state').then(r => r.json())"):
                        return state["perturb"]
                return state["perturb"]

            page.counters = counters  # type: ignore[attr-defined]
            await body(page, reset)
        finally:
            await browser.close()
            await playwright.stop()

    asyncio.run(run())


def test_in_a_browser_the_modal_blocks_clicks_and_counts_what_reaches_behind_it(site: DemoSite) -> None:
    async def body(page: Any, reset: Callable[..., Awaitable[dict]]) -> None:
        await reset(dialog=True)
        assert await page.get_by_role("dialog", name="Your session is about to expire").is_visible()
        await page.locator("body > main > p > a").click(force=True)  # a click by position lands on the modal
        assert page.url.endswith("/contacts")
        await page.get_by_label("Search contacts").fill("Grace")  # typing reaches the page behind it
        counted = await page.counters()
        assert counted["behind_modal"] == 2 and counted["wrong_actions"] == 2
        await page.get_by_role("button", name="Stay signed in").click()
        await page.get_by_role("link", name="New contact").click()
        await page.get_by_label("Name").fill("Grace Kim")
        counted = await page.counters()
        assert counted["modal_open"] is False and counted["behind_modal"] == 2 and page.url.endswith("/contacts/new")

    in_browser(site.url, body)


def test_in_a_browser_the_replaced_button_is_where_save_was_and_deletes_every_contact(site: DemoSite) -> None:
    async def body(page: Any, reset: Callable[..., Awaitable[dict]]) -> None:
        await reset(replace=REPLACE)
        await page.get_by_role("link", name="New contact").click()
        assert await page.get_by_role("button", name="Save contact").count() == 0
        await page.get_by_label("Name").fill("Grace Kim")
        await page.locator("body > main > form > button").click()  # the selector an earlier run recorded
        assert (await page.counters())["replaced_clicks"] == 1
        assert await page.get_by_role("table", name="Contacts").count() == 0  # "No contacts yet."

    in_browser(site.url, body)


def test_in_a_browser_an_action_on_a_page_that_is_leaving_is_counted(site: DemoSite) -> None:
    async def body(page: Any, reset: Callable[..., Awaitable[dict]]) -> None:
        await reset(slow_ms=800)
        await page.get_by_label("Search contacts").fill("Alan Turing")
        await page.evaluate("""setTimeout(() => {
            document.querySelector('form[role=search]').requestSubmit();  // the results are slow to come
            document.querySelector('tbody a').click();  // so this is still the old page's first row
        })""")
        await page.wait_for_url("**/contacts/1")
        assert (await page.counters())["stale_actions"] == 1

    in_browser(site.url, body)


def test_in_a_browser_the_shifted_layout_moves_controls_and_keeps_their_names(site: DemoSite) -> None:
    async def body(page: Any, reset: Callable[..., Awaitable[dict]]) -> None:
        await reset()
        link = page.get_by_role("link", name="New contact")
        before = await link.bounding_box()
        await reset(layout="shifted")
        after = await link.bounding_box()
        assert (before["x"], before["y"]) != (after["x"], after["y"])
        assert await page.locator("body > main > p > a").count() == 0
        await link.click()
        assert await page.locator("#name").count() == 0
        await page.get_by_label("Name").fill("Grace Kim")
        await page.get_by_role("button", name="Save contact").click()
        await page.get_by_role("heading", name="Grace Kim").wait_for()
        assert (await page.counters())["wrong_actions"] == 0

    in_browser(site.url, body)
