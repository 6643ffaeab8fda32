"""A loopback HTTP proxy that carries every connection of one browser context, each admitted by the egress guard.

Playwright's routes see the requests of pages and dedicated workers, but not a WebSocket, WebRTC
over TCP, a shared worker's requests, nor a redirect Chromium follows by itself. Chromium sends all
of them through its context's proxy (Playwright proxies loopback too), so this proxy is where the
guard's decision binds for everything that opens a TCP connection.

What it sees of a connection: a plain-HTTP request whole (its method and URL), and of a CONNECT
tunnel only the host, the port and the first bytes the browser sends. Those tell an https
connection (a TLS handshake offering HTTP/2, as Chromium's always does) from a socket: a wss
WebSocket (a TLS handshake offering only HTTP/1.1), a ws:// one, WebRTC over TCP, anything else
(`Channel`, `client_hello`). `decide(Attempt)` returns None to let a connection through, or the line
saying why not: a refused request is answered 403 with that line, a refused tunnel is closed before
a byte of it reaches its destination.

A plain-HTTP request goes upstream with `Connection: close`, and its answer comes back with
`Connection: close`, so Chromium never sends a second request, perhaps for another origin, on a
connection admitted for one.
"""

from __future__ import annotations

import asyncio
import socket
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from http import HTTPStatus
from urllib.parse import urlsplit

from engine.envs.web.client_hello import offered_protocols, record_length
from engine.envs.web.origins import endpoint_origin

HEAD_LIMIT = 64 * 1024
HEAD_TIMEOUT_S = 30.0
CONNECT_TIMEOUT_S = 15.0
CLOSE_TIMEOUT_S = 2.0
CHUNK = 64 * 1024
HTTP2 = b"h2"
HOP_BY_HOP = frozenset({b"connection", b"proxy-connection", b"keep-alive", b"proxy-authorization"})


class Channel(Enum):
    """What a connection carries, as far as the proxy can tell."""

    REQUEST = "request"  # a plain-HTTP request, its method and URL in the clear
    HTTPS = "https"  # a tunnel opened by a TLS handshake offering HTTP/2: requests Chromium sends over TLS
    SOCKET = "socket"  # any other tunnel: a WebSocket (ws or wss), WebRTC over TCP


@dataclass(frozen=True)
class Attempt:
    """One connection the browser asks the proxy for; `method` and `url` are known only for a request
    (and `url` for a ws:// tunnel, from its handshake). `secure`: it opens with a TLS handshake."""

    channel: Channel
    host: str
    port: int
    method: str = "CONNECT"
    url: str = ""
    secure: bool = False

    @property
    def origin(self) -> str:
        """The origin it reaches: https over TLS, http otherwise (a WebSocket's origin is its HTTP twin's)."""
        return endpoint_origin("https" if self.secure else "http", self.host, self.port)

    @property
    def address(self) -> str:
        return f"[{self.host}]:{self.port}" if ":" in self.host else f"{self.host}:{self.port}"


Decide = Callable[[Attempt], "str | None"]


class EgressProxy:
    """The proxy of one browser context: `start` it, give its URL to the context, `close` it with the context."""

    def __init__(self, decide: Decide) -> None:
        self._decide = decide
        self._server: asyncio.Server | None = None
        self._open: set[asyncio.StreamWriter] = set()
        self._unreachable: dict[str, str] = {}

    async def start(self) -> str:
        """Listen on a free loopback port; the proxy's URL, for the browser context."""
        self._server = await asyncio.start_server(self._serve, "127.0.0.1", 0, limit=HEAD_LIMIT)
        return f"http://127.0.0.1:{self._server.sockets[0].getsockname()[1]}"

    async def close(self) -> None:
        """Stop listening and hang up every connection still open; closing twice is no error."""
        server, self._server = self._server, None
        if server is None:
            return
        server.close()
        for writer in list(self._open):
            writer.close()
        try:
            await asyncio.wait_for(server.wait_closed(), CLOSE_TIMEOUT_S)
        except TimeoutError:
            pass  # a handler still unwinding; its connections are closed already

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self._open.add(writer)
        try:
            head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), HEAD_TIMEOUT_S)
            line, _, headers = head.partition(b"\r\n")
            parts = line.decode("latin-1").split(" ")
            if len(parts) != 3:
                await _answer(writer, 400, "the proxy cannot read this request line")
            elif parts[0].upper() == "CONNECT":
                await self._tunnel(reader, writer, parts[1])
            else:
                await self._forward(reader, writer, parts[0].upper(), parts[1], headers)
        except (asyncio.IncompleteReadError, asyncio.LimitOverrunError, TimeoutError, OSError, ValueError):
            pass  # the browser hung up, or sent what no browser sends: nothing to pass on
        finally:
            self._open.discard(writer)
            writer.close()

    async def _tunnel(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, target: str) -> None:
        """A CONNECT: decided once the browser's first bytes say what the tunnel carries."""
        parts = urlsplit(f"//{target}")
        if not parts.hostname or parts.port is None:
            await _answer(writer, 400, f"CONNECT needs a host and a port, not {target!r:.100}")
            return
        writer.write(b"HTTP/1.1 200 Connection established\r\n\r\n")
        await writer.drain()
        first = await asyncio.wait_for(_first_bytes(reader), HEAD_TIMEOUT_S)
        if not first:
            return
        offered = offered_protocols(first)
        channel = Channel.HTTPS if offered is not None and HTTP2 in offered else Channel.SOCKET
        attempt = Attempt(channel, parts.hostname, parts.port, url=_socket_url(first, target),
                          secure=offered is not None)
        if self._decide(attempt) is not None:
            return
        upstream = await self._connect(attempt)
        if upstream is None:
            return
        up_reader, up_writer = upstream
        try:
            up_writer.write(first)
            await asyncio.gather(_pump(reader, up_writer), _pump(up_reader, writer))
        finally:
            self._open.discard(up_writer)
            up_writer.close()

    async def _forward(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, method: str, target: str,
                       headers: bytes) -> None:
        """A plain-HTTP request, sent on as the only one of its upstream connection."""
        parts = urlsplit(target)
        if parts.scheme.lower() != "http" or not parts.hostname:
            await _answer(writer, 400, f"the proxy forwards only http:// requests, not {target!r:.100}")
            return
        attempt = Attempt(Channel.REQUEST, parts.hostname, parts.port or 80, method, target)
        refused = self._decide(attempt)
        if refused is not None:
            await _answer(writer, 403, refused)
            return
        upstream = await self._connect(attempt)
        if upstream is None:
            return  # hung up unanswered: the browser fails the request, as it would have without a proxy
        up_reader, up_writer = upstream
        path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
        up_writer.write(f"{method} {path} HTTP/1.1\r\n".encode("latin-1") + _closing(headers))
        sending = asyncio.ensure_future(_pump(reader, up_writer))  # a body goes on while the answer is awaited
        try:
            answer = await asyncio.wait_for(up_reader.readuntil(b"\r\n\r\n"), HEAD_TIMEOUT_S)
            status, _, answer_headers = answer.partition(b"\r\n")
            writer.write(status + b"\r\n" + _closing(answer_headers))
            await _pump(up_reader, writer)
        finally:
            sending.cancel()
            self._open.discard(up_writer)
            up_writer.close()

    async def _connect(self, attempt: Attempt) -> tuple[asyncio.StreamReader, asyncio.StreamWriter] | None:
        try:
            up_reader, up_writer = await asyncio.wait_for(asyncio.open_connection(attempt.host, attempt.port),
                                                          CONNECT_TIMEOUT_S)
        except (OSError, TimeoutError) as exc:
            self._unreachable[attempt.origin] = _net_error(exc)
            return None
        self._unreachable.pop(attempt.origin, None)
        self._open.add(up_writer)
        return up_reader, up_writer

    def unreachable(self, origin: str) -> str | None:
        """Why the last connection to `origin` failed, in Chromium's words (the browser, behind the proxy,
        sees only that the proxy hung up), or None when it did not."""
        return self._unreachable.get(origin)


def _net_error(exc: BaseException) -> str:
    if isinstance(exc, ConnectionRefusedError):
        return "net::ERR_CONNECTION_REFUSED"
    if isinstance(exc, socket.gaierror):
        return "net::ERR_NAME_NOT_RESOLVED"
    if isinstance(exc, TimeoutError):
        return "net::ERR_CONNECTION_TIMED_OUT"
    return "net::ERR_CONNECTION_FAILED"


async def _first_bytes(reader: asyncio.StreamReader) -> bytes:
    """What the browser sends first through a tunnel: a whole TLS record when it starts one, else what came."""
    first = await reader.read(CHUNK)
    length = record_length(first)
    while length is not None and len(first) < length:
        more = await reader.read(length - len(first))
        if not more:
            break
        first += more
    return first


def _socket_url(first: bytes, target: str) -> str:
    """A ws:// URL read from a WebSocket handshake's request line, for the refusal to name; else ''."""
    if not first.startswith(b"GET "):
        return ""
    path = first.split(b"\r\n", 1)[0].split(b" ")
    return f"ws://{target}{path[1].decode('latin-1')}" if len(path) == 3 else ""


def _closing(headers: bytes) -> bytes:
    """A header block (ending in its blank line) without hop-by-hop headers, saying `Connection: close`."""
    kept = [line for line in headers.split(b"\r\n")
            if line and line.split(b":", 1)[0].strip().lower() not in HOP_BY_HOP]
    return b"".join(line + b"\r\n" for line in kept) + b"Connection: close\r\n\r\n"


async def _answer(writer: asyncio.StreamWriter, status: int, text: str) -> None:
    body = text.encode()
    writer.write(f"HTTP/1.1 {status} {HTTPStatus(status).phrase}\r\n".encode()
                 + b"Content-Type: text/plain; charset=utf-8\r\nCache-Control: no-store\r\nConnection: close\r\n"
                 + f"Content-Length: {len(body)}\r\n\r\n".encode() + body)
    await writer.drain()


async def _pump(source: asyncio.StreamReader, sink: asyncio.StreamWriter) -> None:
    """Copy until `source` ends, then pass its end on; a side that hung up ends it."""
    try:
        while chunk := await source.read(CHUNK):
            sink.write(chunk)
            await sink.drain()
        if sink.can_write_eof():
            sink.write_eof()
    except OSError:
        pass

