"""The egress guard: a page navigates, and sends anything but a read, only to the task's allowed origins.

On a read-only page (`"read_only": true` in the spec, or the verify gate rehearsing a program) no
request but a read goes anywhere, the allowed origins included.

Every request of a browser context passes through it. A navigation, or any request that is
not GET, HEAD or OPTIONS, bound for another origin is refused and remembered, so the action
that caused it fails with one line instead of silently doing nothing: a navigation is
answered "204 No Content" (the page stays where it was, not on an error page), anything
else is aborted. Chromium follows redirects without asking the route, so a redirect that
leaves the allowed origins cannot be stopped; the guard reports it the same way, after the fact.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager

from playwright.async_api import BrowserContext, Request, Route
from playwright.async_api import Error as PlaywrightError

from engine.envs.web.origins import innocuous, origin_of

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


class EgressGuard:
    """The allowed origins of one task, and the refusals no action has reported yet."""

    def __init__(self, allowed: Iterable[str] = ()) -> None:
        self.allowed = tuple(allowed)
        self.read_only = False  # set after a reset's setup when the spec asks for it: every write is refused
        self.writes_refused = 0
        self._admitted: set[str] = set()
        self._refusals: list[str] = []

    def inside(self, url: str) -> bool:
        """Whether a URL stays within the allowed origins (about:, data: and blob: stay within the page)."""
        return innocuous(url) or origin_of(url) in self.allowed

    def refusal(self, url: str, method: str = "GET") -> str:
        if self.read_only and method.upper() not in SAFE_METHODS:
            return f"{method.upper()} {url:.200} refused: this page is read-only (nothing may change the site)"
        return f"egress to {url:.200} refused: outside the task's allowed origins ({', '.join(self.allowed) or 'none'})"

    async def install(self, context: BrowserContext) -> None:
        await context.route("**/*", self._route)
        context.on("request", self._watch_redirect)

    @contextmanager
    def admitting(self, url: str) -> Iterator[None]:
        """Lets navigations to this URL's origin through while the block runs (a goto a person allowed)."""
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

    def _passes(self, request: Request) -> bool:
        if self.read_only and request.method.upper() not in SAFE_METHODS:
            return False
        if self.inside(request.url):
            return True
        if request.is_navigation_request():
            return origin_of(request.url) in self._admitted
        return request.method.upper() in SAFE_METHODS

    async def _route(self, route: Route) -> None:
        request = route.request
        try:
            if self._passes(request):
                await route.continue_()
                return
            if self.read_only and request.method.upper() not in SAFE_METHODS:
                self.writes_refused += 1
            if request.is_navigation_request():
                self._refusals.append(self.refusal(request.url, request.method))
                await route.fulfill(status=204)  # "no content": the page stays where it was, not on an error page
            else:
                self._refusals.append(self.refusal(request.url, request.method))
                await route.abort("blockedbyclient")
        except PlaywrightError:
            pass  # the page went away while its request waited; nothing is left to let through or stop

    def _watch_redirect(self, request: Request) -> None:
        previous = request.redirected_from
        if previous is not None and not self._passes(request):
            self._refusals.append(f"egress to {request.url:.200} by a redirect from {previous.url:.200}: outside the "
                                  f"task's allowed origins ({', '.join(self.allowed) or 'none'}); a redirect cannot "
                                  "be stopped, only reported")
