"""Origins as one canonical string (`scheme://host[:port]`, default port left out), so two spellings compare equal."""

from __future__ import annotations

from enum import Enum
from urllib.parse import urlsplit

from engine.errors import WardenError

DEFAULT_PORTS = {"http": 80, "https": 443}
INNOCUOUS_SCHEMES = frozenset({"about", "data", "blob"})
SOCKET_SCHEMES = {"ws": "http", "wss": "https"}  # a WebSocket URL belongs to the origin of its HTTP twin


class Subresources(Enum):
    """Where a page's reads (pictures, scripts, styles, fetches and other GETs it makes) may go.

    `ORIGINS`, the default, keeps them to the allowed origins: a GET carries data in its URL, so a
    read elsewhere is a way out. `ANY` lets them reach any origin, for sites that load from others.
    """

    ORIGINS = "origins"
    ANY = "any"


def origin_of(url: str) -> str | None:
    """The origin of an http(s) URL, or None for any other URL (about:, data:, a malformed one)."""
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        return None
    scheme = parts.scheme.lower()
    if scheme not in DEFAULT_PORTS or not parts.hostname:
        return None
    host = f"[{parts.hostname}]" if ":" in parts.hostname else parts.hostname
    if port is None or port == DEFAULT_PORTS[scheme]:
        return f"{scheme}://{host}"
    return f"{scheme}://{host}:{port}"


def socket_origin(url: str) -> str | None:
    """The origin a WebSocket URL belongs to (ws: as http:, wss: as https:); any other URL as `origin_of` says."""
    scheme, colon, rest = url.partition(":")
    twin = SOCKET_SCHEMES.get(scheme.lower())
    return origin_of(f"{twin}:{rest}" if colon and twin else url)


def endpoint_origin(scheme: str, host: str, port: int) -> str:
    """The canonical origin of a host and port reached by `scheme` (a proxy sees only these of a tunnel)."""
    bracketed = f"[{host}]" if ":" in host else host
    return origin_of(f"{scheme}://{bracketed}:{port}") or f"{scheme}://{bracketed}:{port}"


def parse_origin(text: str) -> str:
    """An origin a task spec names, canonical; anything with a path, query or credentials is refused."""
    origin = origin_of(text)
    parts = urlsplit(text)
    if origin is None or parts.path not in ("", "/") or parts.query or parts.fragment or parts.username:
        raise WardenError(f"web allowed_origins: {text!r:.100} is not an origin like http://127.0.0.1:8000")
    return origin


def innocuous(url: str) -> bool:
    """A URL that stays inside the page (about:blank, data:, blob:), never a request to anyone."""
    return urlsplit(url).scheme.lower() in INNOCUOUS_SCHEMES
