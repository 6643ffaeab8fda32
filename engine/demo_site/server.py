"""`DemoSite`: the demo web app served on a loopback port from a background thread.

Each request runs on its own thread (ThreadingHTTPServer), so the slow page never
holds up the rest; the state's lock keeps them consistent.
"""

from __future__ import annotations

import ipaddress
import socket
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from typing import Any, Self
from urllib.parse import parse_qs, urlsplit

from engine.demo_site.app import App
from engine.demo_site.dialog import DialogSchedule
from engine.demo_site.exchange import Request, Response, parse_cookies
from engine.demo_site.reset import fresh_seed
from engine.demo_site.routes import dispatch
from engine.demo_site.state import SiteState, Start

MAX_BODY = 1 << 20
POLL_SECONDS = 0.05  # how soon `stop` is noticed


class DemoSite:
    """The demo app: `start()` serves it and returns its base URL, `stop()` ends it; also a context manager.

    `dialog` and `seed` choose when the "What's new" dialog interrupts the contacts list
    (see `dialog.DialogSchedule`; no seed: a random one). `slow_seconds` is how long
    `/reports` takes to answer.
    """

    def __init__(self, *, dialog: str = "sometimes", seed: int | None = None, slow_seconds: float = 1.5) -> None:
        schedule = DialogSchedule(dialog, fresh_seed() if seed is None else seed)
        self._app = App(SiteState(Start(schedule)), slow_seconds)
        self._server: _Server | None = None
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        if self._server is None:
            raise RuntimeError("the demo site is not running")
        host, port = self._server.server_address[:2]
        if not isinstance(host, str):  # an AF_INET(6) socket names its host as text; the stubs also allow bytes
            host = host.decode()
        return f"http://{f'[{host}]' if ':' in host else host}:{port}"

    def start(self, host: str = "127.0.0.1", port: int = 0) -> str:
        """Serve on `host:port` (port 0: any free one) and return the base URL. Loopback hosts only."""
        if self._server is not None:
            raise RuntimeError("the demo site is already running")
        self._server = _Server(host, port, self._app)
        self._thread = threading.Thread(target=self._server.serve_forever, args=(POLL_SECONDS,), name="demo-site",
                                        daemon=True)
        self._thread.start()
        return self.url

    def stop(self) -> None:
        if self._server is None:
            return
        self._server.shutdown()
        self._server.server_close()
        if self._thread is not None:
            self._thread.join()
        self._server = self._thread = None

    def state(self) -> dict[str, Any]:
        """A copy of everything the site holds, as `/api/state` answers it."""
        return self._app.state.snapshot()

    def __enter__(self) -> Self:
        if self._server is None:
            self.start()
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None, tb: TracebackType | None) -> None:
        self.stop()


class _Server(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, host: str, port: int, app: App) -> None:
        address = _loopback(host)
        self.address_family = socket.AF_INET6 if address.version == 6 else socket.AF_INET
        self.app = app
        super().__init__((str(address), port), _Handler)

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A browser dropping a kept-alive connection is routine; anything else is reported as usual."""
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


def _loopback(host: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address:
    """The address to listen on: `localhost` or a loopback IP, never one another machine could reach."""
    try:
        address = ipaddress.ip_address("127.0.0.1" if host == "localhost" else host)
    except ValueError:
        address = None
    if address is None or not address.is_loopback:
        raise ValueError(f"the demo site serves loopback addresses only (127.0.0.1, ::1, localhost), not {host!r}")
    return address


class _Handler(BaseHTTPRequestHandler):
    server: _Server
    protocol_version = "HTTP/1.1"
    timeout = 30
    server_version = "WardenDemo/1"

    def do_GET(self) -> None:
        self._answer()

    def do_POST(self) -> None:
        self._answer()

    def do_DELETE(self) -> None:
        self._answer()

    def do_HEAD(self) -> None:
        self._answer(head=True)

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet: tests and the console own the terminal."""

    def _answer(self, head: bool = False) -> None:
        parts = urlsplit(self.path)
        declared = self.headers.get("Content-Length") or "0"
        if not declared.isdigit() or int(declared) > MAX_BODY:
            self.close_connection = True
            self._send(Response(400, b"Content-Length must be a number of at most 1 MiB."), head)
            return
        body = self.rfile.read(int(declared))
        request = Request("GET" if head else self.command, parts.path or "/", parse_qs(parts.query),
                          body, parse_cookies(self.headers.get("Cookie", "")))
        self._send(dispatch(self.server.app, request), head)

    def _send(self, response: Response, head: bool) -> None:
        self.send_response(response.status)
        for name, value in response.headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(response.body)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        if not head:
            self.wfile.write(response.body)
