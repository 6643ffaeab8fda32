"""Round three, finding 13: `api.post` followed a 302/303 to another origin and said the allowed URL "answered 200".

A redirect is followed only while each hop stays within the allowed origins (the called URL's own
origin when no spec is loaded); one that leaves them is refused, naming where it pointed, and
nothing is sent there. A redirect that stays is followed, and the outcome names the final URL.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

import pytest
import pytest_asyncio

from engine.envs.web import WebEnv
from engine.tools.registry import ToolError
from tests.hardening.loopback import Answer, Site, serving_site
from tests.web.calls import call

pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest.fixture(scope="module")
def other() -> Iterator[Site]:
    with serving_site() as served:
        served.answers["/landing"] = Answer('{"landed": true}', content_type="application/json")
        yield served


@pytest.fixture(scope="module")
def site(other: Site) -> Iterator[Site]:
    with serving_site() as served:
        served.answers["/"] = Answer("<title>API site</title>")
        served.answers["/made"] = Answer('{"id": 7}', content_type="application/json")
        served.answers["/within"] = Answer("", 303, headers=(("Location", "/made"),))
        served.answers["/hops"] = Answer("", 302, headers=(("Location", "/within"),))
        for code in (302, 303):
            served.answers[f"/away-{code}"] = Answer("", code, headers=(("Location", other.url("/landing")),))
        served.answers["/away-later"] = Answer("", 302, headers=(("Location", "/away-303"),))
        yield served


@pytest.fixture(autouse=True)
def nothing_yet(site: Site, other: Site) -> None:
    site.requests.clear()
    other.requests.clear()


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def web(site: Site) -> AsyncIterator[WebEnv]:
    env = WebEnv()
    await env.reset({"start_url": site.url("/")})
    yield env
    await env.close()


@pytest.mark.parametrize("path", ["/away-302", "/away-303", "/away-later"])
async def test_a_redirect_to_another_origin_is_refused(web: WebEnv, site: Site, other: Site, path: str) -> None:
    with pytest.raises(ToolError) as refused:
        await call(web, "api.post", url=site.url(path), json={"name": "Ada"})
    message = str(refused.value)
    assert message.startswith(f"api.post: POST {site.url(path)} was redirected to {other.url('/landing')}"), message
    assert "outside the task's allowed origins" in message and "answered 200" not in message
    assert other.requests == []


async def test_a_redirect_within_the_allowed_origins_is_followed_and_named(web: WebEnv, site: Site) -> None:
    output = await call(web, "api.post", url=site.url("/hops"), json={"name": "Ada"})
    assert output.data["final_url"] == site.url("/made")
    assert output.data["url"] == site.url("/hops")
    assert output.data["response"] == {"id": 7}
    assert output.text == f"POST {site.url('/hops')} was redirected to {site.url('/made')}, which answered 200"
    assert [(method, path) for method, path, _ in site.requests] == [("POST", "/hops"), ("GET", "/within"),
                                                                     ("GET", "/made")]


async def test_without_a_spec_a_redirect_stays_on_the_called_origin(site: Site, other: Site) -> None:
    bare = WebEnv()
    with pytest.raises(ToolError, match="outside the called URL's origin"):
        await call(bare, "api.post", url=site.url("/away-303"), json={"name": "Ada"})
    assert other.requests == []
    output = await call(bare, "api.post", url=site.url("/within"), json={"name": "Ada"})
    assert output.data["final_url"] == site.url("/made")
