"""The egress guard: a page goes, and sends data, only to the task's allowed origins."""

from __future__ import annotations

import pytest

from engine.envs.web import WebEnv
from engine.errors import WardenError
from engine.tools.registry import ToolError
from tests.web.calls import call, registry_of


@pytest.fixture
def refusal(site, other):
    def line(path: str) -> str:
        return f"egress to {other.url(path)} refused: outside the task's allowed origins ({site.origin})"

    return line


async def test_a_goto_outside_the_allowed_origins_is_named_for_the_gate(web: WebEnv, site, other) -> None:
    goto = registry_of(web).get("browser.goto")
    assert goto.scoped and goto.egress is not None
    assert goto.egress({"url": other.url("/x")}) == other.url("/x")
    assert goto.egress({"url": "https://evil.example/"}) == "https://evil.example/"
    assert goto.egress({"url": "file:///etc/passwd"}) == "file:///etc/passwd"
    assert goto.egress({"url": site.url("/second")}) is None
    assert goto.egress({"url": site.origin.replace("127.0.0.1", "127.0.0.1:80")}) is not None
    assert goto.egress({"url": "about:blank"}) is None


async def test_a_form_posting_to_another_origin_is_refused(web: WebEnv, site, other, refusal) -> None:
    await call(web, "browser.goto", url=site.url("/outbound"))
    with pytest.raises(ToolError) as failed:
        await call(web, "browser.click", target={"role": "button", "name": "Post it elsewhere"})
    assert str(failed.value) == refusal("/collect")
    assert other.posts == []
    assert (await web.observe()).fields["url"] == site.url("/outbound")


async def test_a_script_posting_to_another_origin_is_refused(web: WebEnv, site, other, refusal) -> None:
    await call(web, "browser.goto", url=site.url("/outbound"))
    with pytest.raises(ToolError) as failed:
        await call(web, "browser.click", target={"css": "#beacon"})
        await call(web, "browser.wait", target={"css": "body"})  # the fetch may land just after the click
    assert str(failed.value) == refusal("/collect")
    assert other.posts == []


async def test_a_link_to_another_origin_is_refused(web: WebEnv, site, other, refusal) -> None:
    await call(web, "browser.goto", url=site.url("/outbound"))
    with pytest.raises(ToolError) as failed:
        await call(web, "browser.click", target={"role": "link", "name": "Leave by link"})
    assert str(failed.value) == refusal("/")
    assert (await web.observe()).fields["url"] == site.url("/outbound")
    assert other.gets == []


async def test_pictures_from_another_origin_load_only_when_the_spec_says_any(browser_env: WebEnv, site, other,
                                                                             refusal) -> None:
    other.gets.clear()
    with pytest.raises(WardenError) as failed:
        await browser_env.reset({"start_url": site.url("/pictured")})
    assert refusal("/pixel.png") in str(failed.value)
    assert other.gets == []
    await browser_env.reset({"start_url": site.url("/pictured"), "subresources": "any"})
    assert other.gets == ["/pixel.png"]


async def test_a_redirect_out_of_the_allowed_origins_is_reported(web: WebEnv, site, other) -> None:
    await call(web, "browser.goto", url=site.url("/outbound"))
    with pytest.raises(ToolError) as failed:
        await call(web, "browser.click", target={"role": "link", "name": "Bounce away"})
    assert str(failed.value).startswith(f"egress to {other.url('/')} by a redirect from {site.url('/bounce')}")


async def test_a_goto_the_gate_let_through_reaches_that_origin_only(web: WebEnv, site, other, refusal) -> None:
    output = await call(web, "browser.goto", url=other.url("/"))
    assert output.data["url"] == other.url("/")
    assert (await web.observe()).fields["title"] == "Other site"
    await call(web, "browser.goto", url=site.url("/outbound"))
    with pytest.raises(ToolError, match="^egress to .* refused"):
        await call(web, "browser.click", target={"role": "link", "name": "Leave by link"})


async def test_a_goto_to_a_file_is_refused(web: WebEnv) -> None:
    with pytest.raises(ToolError, match=r"^browser.goto: only http\(s\) URLs and about:blank can be opened"):
        await call(web, "browser.goto", url="file:///etc/passwd")


async def test_allowed_origins_can_name_several_sites(browser_env: WebEnv, site, other) -> None:
    await browser_env.reset({"start_url": site.url("/outbound"), "allowed_origins": [site.origin, other.origin]})
    assert browser_env.egress({"url": other.url("/")}) is None
    await call(browser_env, "browser.click", target={"role": "button", "name": "Post it elsewhere"})
    assert other.posts == [("/collect", "secret=s3cret")]
