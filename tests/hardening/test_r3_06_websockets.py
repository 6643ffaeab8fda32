"""Round three, finding 6 (and acceptance 4): WebSockets and WebRTC went past the web egress guard.

The guard routed every HTTP request of a task's browser context, but a WebSocket never meets a
route: a page, also a `read_only` one (the verify gate rehearses programs there), opened one to
another origin, a frame arrived, and the step succeeded with nothing reported. WebRTC, too,
sent its packets wherever a page pointed it. Now a WebSocket reaches only the allowed origins,
none at all from a read-only page, whether a page or a worker opens it; WebRTC is refused on
every page; and each refusal fails the step that caused it, naming what was refused.

Every listener is on its own loopback port, so each is an origin of its own, and counts what
reached it; the positive controls show that the same probes do reach them where nothing stops them.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

import pytest
import pytest_asyncio

from engine.envs.web import WebEnv
from engine.tools.registry import ToolError
from tests.hardening.loopback import Answer, Counted, Site, eventually, serving_site, stays, tcp_listener, \
    udp_listener, websocket_server
from tests.hardening.web_probes import SOCKETS, page, reaches_without_warden
from tests.web.calls import call

pytestmark = pytest.mark.asyncio(loop_scope="module")
SOCKET_BUTTONS = ["#socket", "#worker-socket"]
WEBRTC_BUTTONS = ["#rtc", "#rtc-frame"]


@pytest.fixture(scope="module")
def sockets() -> Iterator[Counted]:
    with websocket_server() as server:
        yield server


@pytest.fixture(scope="module")
def udp() -> Iterator[Counted]:
    with udp_listener() as listener:
        yield listener


@pytest.fixture(scope="module")
def tcp() -> Iterator[Counted]:
    with tcp_listener() as listener:
        yield listener


@pytest.fixture(scope="module")
def site(sockets: Counted, udp: Counted, tcp: Counted) -> Iterator[Site]:
    with serving_site() as served:
        served.answers["/sockets"] = Answer(page(SOCKETS, ws=sockets.ws("/leak"), udp=udp.port, tcp=tcp.port))
        yield served


@pytest.fixture(autouse=True)
def nothing_yet(sockets: Counted, udp: Counted, tcp: Counted) -> None:
    for listener in (sockets, udp, tcp):
        listener.clear()


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def web() -> AsyncIterator[WebEnv]:
    env = WebEnv()
    yield env
    await env.close()


async def _refused(web: WebEnv, button: str) -> str:
    """Click `button`, then wait for the page to say its channel answered or failed: the refusal that fails a step."""
    with pytest.raises(ToolError) as refused:
        await call(web, "browser.click", target={"css": button})
        await call(web, "browser.wait", target={"css": "#done"})  # a worker's socket may fail just after the click
    return str(refused.value)


async def test_a_websocket_frame_reaches_an_origin_the_task_allows(web: WebEnv, site: Site, sockets: Counted) -> None:
    """The positive control: where the task may send, the probe's frame arrives."""
    await web.reset({"start_url": site.url("/sockets"), "allowed_origins": [site.origin, sockets.origin]})
    await call(web, "browser.click", target={"css": "#socket"})
    assert await eventually(lambda: sockets.frames == [b"leak"])


@pytest.mark.parametrize("button", SOCKET_BUTTONS)
async def test_no_websocket_frame_leaves_a_read_only_page_for_another_origin(web: WebEnv, site: Site,
                                                                            sockets: Counted, button: str) -> None:
    await web.reset({"start_url": site.url("/sockets"), "read_only": True})
    refusal = await _refused(web, button)
    assert "refused" in refusal and f"127.0.0.1:{sockets.port}" in refusal, refusal
    assert await stays(lambda: not sockets.reached), (sockets.connections, sockets.frames)
    assert web.writes_refused >= 1


@pytest.mark.parametrize("button", SOCKET_BUTTONS)
async def test_a_read_only_page_opens_no_websocket_even_to_an_allowed_origin(web: WebEnv, site: Site,
                                                                            sockets: Counted, button: str) -> None:
    await web.reset({"start_url": site.url("/sockets"), "allowed_origins": [site.origin, sockets.origin],
                     "read_only": True})
    refusal = await _refused(web, button)
    assert "read-only" in refusal and f"127.0.0.1:{sockets.port}" in refusal, refusal
    assert await stays(lambda: not sockets.reached), (sockets.connections, sockets.frames)
    assert web.writes_refused >= 1


@pytest.mark.parametrize("button", SOCKET_BUTTONS)
async def test_a_websocket_to_another_origin_is_refused_and_reported(web: WebEnv, site: Site, sockets: Counted,
                                                                     button: str) -> None:
    await web.reset({"start_url": site.url("/sockets")})
    refusal = await _refused(web, button)
    assert "outside the task's allowed origins" in refusal and f"127.0.0.1:{sockets.port}" in refusal, refusal
    assert await stays(lambda: not sockets.reached), (sockets.connections, sockets.frames)


async def test_no_webrtc_packet_leaves_a_read_only_page(web: WebEnv, site: Site, udp: Counted, tcp: Counted) -> None:
    assert await reaches_without_warden(site.url("/sockets"), "#rtc", lambda: bool(udp.frames and tcp.connections))
    udp.clear()
    tcp.clear()
    await web.reset({"start_url": site.url("/sockets"), "read_only": True})
    for button in WEBRTC_BUTTONS:
        assert "RTCPeerConnection" in await _refused(web, button)
        await web.evaluate("document.getElementById('done').remove()")
    assert await stays(lambda: not udp.reached and not tcp.reached), (udp.frames, tcp.connections)
    assert web.writes_refused >= 1
