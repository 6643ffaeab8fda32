"""One request and its answer as plain values, so pages are functions that never touch a socket.

A flash message (what the last action did) rides in a cookie from the redirect that
follows an action to the page after it, which shows it once and clears it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from http import HTTPStatus
from http.cookies import CookieError, SimpleCookie
from typing import Any
from urllib.parse import parse_qs, quote, unquote

from engine.demo_site.validate import Invalid

FLASH = "flash"


class NotFound(LookupError):
    """No page here: answered with 404."""


@dataclass(frozen=True)
class Request:
    method: str
    path: str
    query: dict[str, list[str]] = field(default_factory=dict)
    body: bytes = b""
    cookies: dict[str, str] = field(default_factory=dict)
    params: dict[str, str] = field(default_factory=dict)

    def arg(self, name: str) -> str:
        """A query argument's first value, or "" when absent."""
        return self.query.get(name, [""])[0]

    def form(self) -> dict[str, list[str]]:
        """The url-encoded form in the body; Invalid when it is not one."""
        try:
            return parse_qs(self.body.decode("utf-8"), keep_blank_values=True, strict_parsing=bool(self.body),
                            errors="strict")
        except (UnicodeDecodeError, ValueError) as exc:
            raise Invalid(f"The form could not be read: {exc}") from None

    def flash(self) -> str:
        return unquote(self.cookies.get(FLASH, ""))

    def id(self) -> int:
        """The record id in the path; NotFound when it is not a number."""
        raw = self.params.get("id", "")
        if not raw.isdigit():
            raise NotFound(self.path)
        return int(raw)


@dataclass(frozen=True)
class Response:
    status: int = HTTPStatus.OK
    body: bytes = b""
    headers: tuple[tuple[str, str], ...] = ()


def html(page: str, status: int = HTTPStatus.OK, *, clear_flash: bool = False) -> Response:
    headers = [("Content-Type", "text/html; charset=utf-8")]
    if clear_flash:
        headers.append(("Set-Cookie", f"{FLASH}=; Path=/; Max-Age=0; SameSite=Lax"))
    return Response(status, page.encode("utf-8"), tuple(headers))


def json_response(value: Any, status: int = HTTPStatus.OK) -> Response:
    return Response(status, json.dumps(value).encode("utf-8"), (("Content-Type", "application/json"),))


def redirect(location: str, flash: str = "") -> Response:
    """See Other: the browser GETs `location` next, carrying `flash` to show there once."""
    headers = [("Location", location)]
    if flash:
        headers.append(("Set-Cookie", f"{FLASH}={quote(flash)}; Path=/; SameSite=Lax; HttpOnly"))
    return Response(HTTPStatus.SEE_OTHER, b"", tuple(headers))


def parse_cookies(header: str) -> dict[str, str]:
    cookie = SimpleCookie()
    try:
        cookie.load(header)
    except CookieError:
        return {}
    return {name: morsel.value for name, morsel in cookie.items()}
