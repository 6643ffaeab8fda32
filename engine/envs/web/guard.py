"""The egress guard: a task's pages reach only its allowed origins, on every channel a page can open.

It confines one browser context (`open_context`), in layers, each catching what the one above
cannot see:

- every request of the context's pages and dedicated workers meets `_route`: a navigation, or
  anything but a read (GET, HEAD, OPTIONS), bound for another origin is refused, and so is a read
  unless the spec says `"subresources": "any"` (a GET carries data in its URL);
- every WebSocket a page or frame opens meets `_route_socket`: refused outside the allowed origins;
- WebRTC's peer connection is taken from every page, and shared workers with it (`page_apis`);
- every TCP connection of the context, whatever opened it (a worker's WebSocket, WebRTC over TCP,
  a redirect Chromium follows by itself, the browser's own services), goes through the context's
  `EgressProxy` and is admitted by `_admit` on the same rules, as far as a proxy can tell;
- the browser sends no WebRTC UDP at all (`browser.py`).

On a read-only page (`"read_only": true` in the spec, or the verify gate rehearsing a program) no
request but a read goes anywhere, the allowed origins included, and no socket opens.

A refusal is remembered, so the action that caused it fails with one line instead of silently
doing nothing: a navigation is answered "204 No Content" (the page stays where it was, not on an
error page), a request is aborted, a socket closed, a peer connection thrown back at the page.
What the layers cannot tell apart is said in docs/specs.md ("What the egress guard cannot stop").
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Any

from playwright.async_api import Browser, BrowserContext, Request, Route, WebSocketRoute
from playwright.async_api import Error as PlaywrightError

from engine.envs.web import page_apis
from engine.envs.web.egress_proxy import Attempt, Channel, EgressProxy
from engine.envs.web.origins import Subresources, innocuous, origin_of, socket_origin

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
EVERY_URL = re.compile(".*")
POLICY_VIOLATION = 1008  # the WebSocket close code a refused socket is closed with
READS_ANYWHERE = '"subresources": "any" in the spec lets reads reach any origin'


class EgressGuard:
    """The allowed origins of one task, where its reads may go, and the refusals no action has reported yet."""

    def __init__(self, allowed: Iterable[str] = (), subresources: Subresources = Subresources.ORIGINS) -> None:
        self.allowed = tuple(allowed)
        self.subresources = subresources
        self.read_only = False  # set after a reset's setup when the spec asks for it: every write is refused
        self.writes_refused = 0
        self._admitted: set[str] = set()
        self._refusals: list[str] = []
        self._proxy: EgressProxy | None = None

    def inside(self, url: str) -> bool:
        """Whether a URL stays within the allowed origins (about:, data: and blob: stay within the page)."""
        return innocuous(url) or origin_of(url) in self.allowed

    def refusal(self, url: str, method: str = "GET", read: bool = False) -> str:
        """The line for a refused request; a `read` (not a navigation) says how a spec lets reads out."""
        if self.read_only and method.upper() not in SAFE_METHODS:
            return f"{method.upper()} {url:.200} refused: this page is read-only (nothing may change the site)"
        line = f"egress to {url:.200} refused: outside the task's allowed origins ({self._origins()})"
        return f"{line}; {READS_ANYWHERE}" if read else line

    async def open_context(self, browser: Browser, **options: Any) -> BrowserContext:
        """A new context of `browser` (with Playwright's `options`) confined by this guard, before any page opens.

        Its proxy lives as long as the context: it is closed when the context closes, or its browser does.
        """
        proxy = EgressProxy(self._admit)
        server = await proxy.start()
        try:
            context = await browser.new_context(proxy={"server": server, "bypass": "<-loopback>"}, **options)
        except BaseException:
            await proxy.close()
            raise

        async def closed(_context: BrowserContext) -> None:
            await proxy.close()

        context.on("close", closed)
        self._proxy = proxy
        await context.expose_binding(page_apis.BINDING, self._page_refused)
        await context.add_init_script(page_apis.SCRIPT)
        await context.route("**/*", self._route)
        await context.route_web_socket(EVERY_URL, self._route_socket)
        context.on("request", self._watch_redirect)
        return context

    @contextmanager
    def admitting(self, url: str) -> Iterator[None]:
        """Lets navigations to this URL's origin, and its reads, through while the block runs (a goto a person
        allowed)."""
        origin = origin_of(url)
        if origin is None or origin in self.allowed:
            yield
            return
        self._admitted.add(origin)
        try:
            yield
        finally:
            self._admitted.discard(origin)

    def take_refusal(self) -> str | None:
        """The first refusal not yet taken, or None; all pending ones are cleared.

        Nothing refused was sent, so one the page made on its own between actions is
        cleared unreported when the next action starts.
        """
        pending, self._refusals = self._refusals, []
        return pending[0] if pending else None

    def unreachable(self, url: str) -> str | None:
        """Why the last connection to the URL's origin failed (`net::ERR_…`), or None: the browser, whose
        connections go through the guard's proxy, sees only that the proxy hung up."""
        origin = origin_of(url)
        return self._proxy.unreachable(origin) if self._proxy is not None and origin is not None else None

    def _origins(self) -> str:
        return ", ".join(self.allowed) or "none"

    def _reachable(self, origin: str | None) -> bool:
        return origin is not None and (origin in self.allowed or origin in self._admitted)

    def _passes(self, request: Request) -> bool:
        method = request.method.upper()
        if self.read_only and method not in SAFE_METHODS:
            return False
        if self.inside(request.url):
            return True
        admitted = origin_of(request.url) in self._admitted
        if request.is_navigation_request():
            return admitted
        return method in SAFE_METHODS and (admitted or self.subresources is Subresources.ANY)

    async def _route(self, route: Route) -> None:
        request = route.request
        try:
            if self._passes(request):
                await route.continue_()
                return
            method = request.method.upper()
            if self.read_only and method not in SAFE_METHODS:
                self.writes_refused += 1
            navigation = request.is_navigation_request()
            self._refusals.append(self.refusal(request.url, method, read=not navigation and method in SAFE_METHODS))
            if navigation:
                await route.fulfill(status=204)  # "no content": the page stays where it was, not on an error page
            else:
                await route.abort("blockedbyclient")
        except PlaywrightError:
            pass  # the page went away while its request waited; nothing is left to let through or stop

    def _socket_refusal(self, what: str, origin: str | None) -> str | None:
        """Why a socket (`what`, e.g. "WebSocket to URL") may not open, or None when it may."""
        if self.read_only:
            self.writes_refused += 1
            return f"{what} refused: this page is read-only (a socket can send anything)"
        if self._reachable(origin):
            return None
        return f"{what} refused: outside the task's allowed origins ({self._origins()})"

    async def _route_socket(self, socket: WebSocketRoute) -> None:
        refused = self._socket_refusal(f"WebSocket to {socket.url:.200}", socket_origin(socket.url))
        if refused is None:
            socket.connect_to_server()
            return
        self._refusals.append(refused)
        try:
            await socket.close(code=POLICY_VIOLATION, reason="refused by the egress guard")
        except PlaywrightError:
            pass  # the page went away meanwhile

    def _admit(self, attempt: Attempt) -> str | None:
        """The proxy's question: None lets the connection through, a line refuses it.

        Only a refused socket is reported to the step: a page's requests and https connections met
        `_route` first (a redirect, `_watch_redirect`), so one refused only here is the browser's own
        (autofill, safe browsing), which no step caused and which is refused all the same.
        """
        if attempt.channel is Channel.SOCKET:
            what = f"WebSocket to {attempt.url:.200}" if attempt.url else (
                f"WebSocket to wss://{attempt.address}" if attempt.secure
                else f"a socket to {attempt.address} (a WebSocket, or WebRTC over TCP)")
            refused = self._socket_refusal(what, attempt.origin)
            if refused is not None:
                self._refusals.append(refused)
            return refused
        read = attempt.method in SAFE_METHODS or attempt.channel is Channel.HTTPS
        if self.read_only and not read:
            return self.refusal(attempt.url, attempt.method)
        if self._reachable(attempt.origin) or (read and self.subresources is Subresources.ANY):
            return None
        return f"a connection to {attempt.origin} refused: outside the task's allowed origins ({self._origins()})"

    def _page_refused(self, source: Any, name: Any) -> None:
        """A page tried an API `page_apis` refuses (through its binding; anything else a page sends is ignored)."""
        refused = page_apis.refusal(name) if isinstance(name, str) else None
        if refused is None:
            return
        if self.read_only:
            self.writes_refused += 1
        self._refusals.append(refused)

    def _watch_redirect(self, request: Request) -> None:
        previous = request.redirected_from
        if previous is not None and not self._passes(request):
            # first: it says why the refusal the proxy adds for the same request happened
            self._refusals.insert(0, f"egress to {request.url:.200} by a redirect from {previous.url:.200} refused: "
                                     f"outside the task's allowed origins ({self._origins()}); nothing was sent there")
