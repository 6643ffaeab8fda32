"""Round three, finding 8: other web channels reached other origins.

WebRTC's UDP reached another origin, and GETs carrying data in their URL (a picture, a fetch, an
EventSource, a prefetch) reached any origin: the guard let every read through. A shared worker's
requests never met the guard at all, and a redirect out of the allowed origins was followed. Now a
page's reads stay within the allowed origins unless the spec says `"subresources": "any"`, each
refusal fails the step that caused it and names the URL, WebRTC is refused on every page, a shared
worker cannot be started, and a redirect out of the allowed origins is stopped.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

import pytest
import pytest_asyncio

from engine.envs.web import WebEnv
from engine.envs.web.spec import parse_spec
from engine.errors import WardenError
from engine.tools.registry import ToolError
from tests.hardening.loopback import Answer, Counted, Site, eventually, serving_site, stays, tcp_listener, \
    udp_listener
from tests.hardening.web_probes import PICTURED, READS, SOCKETS, page, reaches_without_warden
from tests.web.calls import call

pytestmark = pytest.mark.asyncio(loop_scope="module")
READ_CHANNELS = {"image": "/image", "fetch": "/fetch", "events": "/events", "prefetch": "/prefetch"}


@pytest.fixture(scope="module")
def other() -> Iterator[Site]:
    """Another loopback origin, counting every request that reaches it."""
    with serving_site() as served:
        yield served


@pytest.fixture(scope="module")
def udp() -> Iterator[Counted]:
    with udp_listener() as listener:
        yield listener


@pytest.fixture(scope="module")
def tcp() -> Iterator[Counted]:
    with tcp_listener() as listener:
        yield listener


@pytest.fixture(scope="module")
def site(other: Site, udp: Counted, tcp: Counted) -> Iterator[Site]:
    with serving_site() as served:
        served.answers["/reads"] = Answer(page(READS, other=other.origin))
        served.answers["/pictured"] = Answer(page(PICTURED, other=other.origin))
        served.answers["/sockets"] = Answer(page(SOCKETS, ws="ws://127.0.0.1:1/", udp=udp.port, tcp=tcp.port))
        served.answers["/bounce"] = Answer("", 302, headers=(("Location", other.url("/landing?d=secret")),))
        yield served


@pytest.fixture(autouse=True)
def nothing_yet(other: Site, udp: Counted, tcp: Counted) -> None:
    other.requests.clear()
    udp.clear()
    tcp.clear()


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def web() -> AsyncIterator[WebEnv]:
    env = WebEnv()
    yield env
    await env.close()


@pytest.mark.parametrize("channel", READ_CHANNELS)
async def test_a_read_carrying_data_reaches_another_origin_only_when_the_spec_says_any(
        web: WebEnv, site: Site, other: Site, channel: str) -> None:
    path = READ_CHANNELS[channel]
    await web.reset({"start_url": site.url("/reads")})
    with pytest.raises(ToolError) as refused:
        await call(web, "browser.click", target={"css": f"#{channel}"})
        await call(web, "browser.wait", target={"css": "#done"})
    assert str(refused.value).startswith(f"egress to {other.url(path)}?d=secret refused: outside the task's "
                                         f"allowed origins ({site.origin})"), str(refused.value)
    assert '"subresources": "any"' in str(refused.value)
    assert await stays(lambda: not other.requests), other.requests

    await web.reset({"start_url": site.url("/reads"), "subresources": "any"})
    await call(web, "browser.click", target={"css": f"#{channel}"})
    await call(web, "browser.wait", target={"css": "#done"})
    assert await eventually(lambda: any(seen.startswith(path) for _, seen, _ in other.requests))


async def test_a_start_page_reading_from_another_origin_is_refused_with_the_switch_named(
        web: WebEnv, site: Site, other: Site) -> None:
    with pytest.raises(WardenError, match=f'egress to {other.url("/picture.png")}.* "subresources": "any"'):
        await web.reset({"start_url": site.url("/pictured")})
    assert await stays(lambda: not other.requests), other.requests


async def test_a_shared_worker_cannot_send_past_the_guard(web: WebEnv, site: Site, other: Site) -> None:
    assert await reaches_without_warden(site.url("/reads"), "#shared", lambda: bool(other.requests))
    other.requests.clear()
    await web.reset({"start_url": site.url("/reads")})
    assert await web.evaluate("typeof SharedWorker") == "undefined"
    await call(web, "browser.click", target={"css": "#shared"})
    assert await stays(lambda: not other.requests), other.requests


async def test_a_redirect_out_of_the_allowed_origins_is_stopped(web: WebEnv, site: Site, other: Site) -> None:
    await web.reset({"start_url": site.url("/reads")})
    bounced = f"^egress to {other.url('/landing')}.* by a redirect from {site.url('/bounce')}"
    with pytest.raises(ToolError, match=bounced):
        await call(web, "browser.click", target={"role": "link", "name": "Bounce away"})
    assert await stays(lambda: not other.requests), other.requests


async def test_no_webrtc_packet_reaches_another_origin(web: WebEnv, site: Site, udp: Counted, tcp: Counted) -> None:
    assert await reaches_without_warden(site.url("/sockets"), "#rtc", lambda: bool(udp.frames))
    udp.clear()
    tcp.clear()
    await web.reset({"start_url": site.url("/sockets")})
    with pytest.raises(ToolError, match="RTCPeerConnection"):
        await call(web, "browser.click", target={"css": "#rtc"})
        await call(web, "browser.wait", target={"css": "#done"})
    assert await stays(lambda: not udp.reached and not tcp.reached), (udp.frames, tcp.connections)


async def test_subresources_takes_origins_or_any() -> None:
    base = {"start_url": "http://127.0.0.1:8000/"}
    assert parse_spec(base).subresources.value == "origins"
    assert parse_spec({**base, "subresources": "any"}).subresources.value == "any"
    with pytest.raises(WardenError, match='subresources must be "origins" .* or "any"'):
        parse_spec({**base, "subresources": "some"})
