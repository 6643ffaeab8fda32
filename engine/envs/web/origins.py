"""Origins as one canonical string (`scheme://host[:port]`, default port left out), so two spellings compare equal."""

from __future__ import annotations

from urllib.parse import urlsplit

from engine.errors import WardenError

DEFAULT_PORTS = {"http": 80, "https": 443}
INNOCUOUS_SCHEMES = frozenset({"about", "data", "blob"})


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
