"""Loopback sites for the web tests, and one real Chromium (a `WebEnv`) shared by them all.

The web tests share one event loop for the session (set below) so one browser serves every
test, so an async fixture here needs `@pytest_asyncio.fixture(loop_scope="session")`; a
test that must break its browser opens its own `WebEnv`.
"""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
import pytest_asyncio
from pytest_asyncio import is_async_test

from engine.envs.web import WebEnv
from tests.web.pages import PAGES

HERE = Path(__file__).parent


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    shared_loop = pytest.mark.asyncio(loop_scope="session")
    for item in items:
        if is_async_test(item) and HERE in Path(item.path).parents:
            item.add_marker(shared_loop, append=False)


@dataclass
class Site:
    """A loopback HTTP server: its pages, the paths it was asked for, and every POST it received (path, body)."""

    server: ThreadingHTTPServer
    pages: dict[str, str] = field(default_factory=dict)
    gets: list[str] = field(default_factory=list)
    posts: list[tuple[str, str]] = field(default_factory=list)

    @property
    def origin(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def url(self, path: str = "/") -> str:
        return self.origin + path


class _Handler(BaseHTTPRequestHandler):
    site: Site

    def log_message(self, format: str, *args: object) -> None:
        pass

    def _send(self, status: int, body: str, headers: dict[str, str] | None = None) -> None:
        data = body.encode()
        self.send_response(status)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self) -> None:
        site = self.server.site  # type: ignore[attr-defined]
        site.gets.append(self.path)
        if self.path == "/bounce":
            self._send(302, "", {"Location": site.pages["bounce_to"]})
        elif self.path in site.pages:
            self._send(200, site.pages[self.path])
        else:
            self._send(404, "<title>Not found</title><p>not found</p>")

    def do_POST(self) -> None:
        site = self.server.site  # type: ignore[attr-defined]
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0)).decode()
        site.posts.append((self.path, body))
        self._send(200, f"<title>Posted</title><p>Posted: {body}</p>")


class _Server(ThreadingHTTPServer):
    def handle_error(self, request: object, client_address: object) -> None:
        pass  # a browser context closed mid-request hangs up on us; that is no failure of the test


@contextmanager
def serving() -> Iterator[Site]:
    server = _Server(("127.0.0.1", 0), _Handler)
    site = Site(server)
    server.site = site  # type: ignore[attr-defined]
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield site
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture(scope="session")
def other() -> Iterator[Site]:
    """A second loopback origin, outside the main site's allowed origins."""
    with serving() as served:
        served.pages["/"] = "<title>Other site</title><p>elsewhere</p>"
        yield served


@pytest.fixture(scope="session")
def site(other: Site) -> Iterator[Site]:
    """The task's site: the fixture pages, `{other}` in them naming the second origin; /bounce redirects there."""
    with serving() as served:
        served.pages.update({path: page.replace("{other}", other.origin) for path, page in PAGES.items()})
        served.pages["bounce_to"] = other.url("/")
        yield served


@pytest.fixture
def silent() -> Iterator[str]:
    """A URL whose server accepts connections and never answers."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    held: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        listener.settimeout(0.2)
        while not stop.is_set():
            try:
                held.append(listener.accept()[0])
            except OSError:
                continue

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{listener.getsockname()[1]}/"
    stop.set()
    thread.join()
    for connection in held:
        connection.close()
    listener.close()


@pytest.fixture
def closed_port() -> int:
    """A loopback port nothing listens on (bound, then released)."""
    probe = socket.socket()
    probe.bind(("127.0.0.1", 0))
    port = probe.getsockname()[1]
    probe.close()
    return port


@pytest_asyncio.fixture(scope="session", loop_scope="session")
async def browser_env() -> WebEnv:
    env = WebEnv()
    yield env
    await env.close()


@pytest_asyncio.fixture(loop_scope="session")
async def web(browser_env: WebEnv, site: Site, other: Site) -> WebEnv:
    """The shared browser, reset onto the fixture home page with a short timeout."""
    for served in (site, other):
        served.gets.clear()
        served.posts.clear()
    await browser_env.reset({"kind": "web", "start_url": site.url("/"), "timeout_s": 5})
    return browser_env
