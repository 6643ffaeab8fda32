"""Navigating and looking: URL, title and the accessibility tree, the viewport, a screenshot."""

from __future__ import annotations

from engine.envs.environment import Environment
from engine.envs.web import WebEnv
from engine.envs.web.observe import ARIA_LIMIT, page_text
from tests.web.calls import call


async def test_goto_then_observe_shows_url_title_and_the_accessibility_tree(web: WebEnv, site) -> None:
    assert isinstance(web, Environment)
    output = await call(web, "browser.goto", url=site.url("/second"))
    assert output.data == {"target": None, "url": site.url("/second")}
    seen = await web.observe()
    assert seen.kind == "web"
    assert seen.text.startswith(f"URL: {site.url('/second')}\nTitle: Second page\n")
    assert '- heading "The second page" [level=2]' in seen.text
    assert '- link "Home"' in seen.text
    assert seen.fields["url"] == site.url("/second") and seen.fields["title"] == "Second page"
    assert seen.fields["display"] == {"width": 1280, "height": 800}


async def test_the_observation_probes_predicates_and_takes_a_screenshot(web: WebEnv) -> None:
    seen = await web.observe()
    assert await seen.holds({"title": "Fixture Home"})
    assert not await seen.holds({"title": "Nowhere"})
    png = await seen.screenshot()
    assert png is not None and png.startswith(b"\x89PNG\r\n\x1a\n")


async def test_a_long_tree_is_cut_at_a_line_with_a_note() -> None:
    aria = "\n".join(f'- button "Button {number}"' for number in range(2000))
    text = page_text("http://127.0.0.1/", "Many", aria)
    assert len(text) < ARIA_LIMIT + 200
    assert text.splitlines()[-2].startswith('- button "Button ')
    assert text.endswith(f"of {len(aria)} characters shown)")
