"""Counting loopback listeners for the web channel tests: an HTTP site, a WebSocket server, a UDP socket, a TCP port.

Each binds 127.0.0.1 on a free port, so each is an origin of its own, and counts what reached it
from the moment it listens: a test asserts that nothing reached one, after a positive control
showed the same probe does reach a listener it is allowed to. `eventually` and `stays` are the
only waits: on a condition, within a bounded deadline.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import socket
import struct
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

WEBSOCKET_GUID = b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
HEAD_LIMIT = 65536


async def eventually(condition: Callable[[], bool], within_s: float = 5.0) -> bool:
    """Whether `condition` holds before the deadline (checked every 20 ms)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + within_s
    while not condition():
        if loop.time() >= deadline:
            return False
        await asyncio.sleep(0.02)
    return True


async def stays(condition: Callable[[], bool], for_s: float = 1.0) -> bool:
    """Whether `condition` keeps holding for `for_s` seconds (for "nothing arrived", after a positive control)."""
    return not await eventually(lambda: not condition(), for_s)


@dataclass(frozen=True)
class Answer:
    """What the site answers on a path: a status, a body, and headers (a redirect's Location)."""

    body: str
    status: int = 200
    content_type: str = "text/html; charset=utf-8"
    headers: tuple[tuple[str, str], ...] = ()


@dataclass
class Site:
    """A loopback HTTP server: its answers by path, and every request it received as (method, path, body)."""

    server: ThreadingHTTPServer
    answers: dict[str, Answer] = field(default_factory=dict)
    requests: list[tuple[str, str, str]] = field(default_factory=list)

    @property
    def origin(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def url(self, path: str = "/") -> str:
        return self.origin + path


class _SiteHandler(BaseHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass

    def _answer(self) -> None:
        site: Site = self.server.site  # type: ignore[attr-defined]
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0)).decode(errors="replace")
        site.requests.append((self.command, self.path, body))
        answer = site.answers.get(self.path.split("?")[0], Answer("<title>Not found</title>", 404))
        data = answer.body.encode()
        self.send_response(answer.status)
        self.send_header("Content-Type", answer.content_type)
        self.send_header("Content-Length", str(len(data)))
        for name, value in answer.headers:
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(data)

    do_GET = do_POST = do_HEAD = _answer


class _QuietServer(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request: object, client_address: object) -> None:
        pass  # a browser that hangs up mid-answer is no failure of a test


@contextmanager
def serving_site() -> Iterator[Site]:
    server = _QuietServer(("127.0.0.1", 0), _SiteHandler)
    site = Site(server)
    server.site = site  # type: ignore[attr-defined]
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield site
    finally:
        server.shutdown()
        server.server_close()


@dataclass
class Counted:
    """A listener's counts: TCP connections accepted, WebSocket handshakes answered, frames and datagrams received."""

    port: int = 0
    connections: int = 0
    handshakes: int = 0
    frames: list[bytes] = field(default_factory=list)

    @property
    def origin(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def ws(self, path: str = "/") -> str:
        return f"ws://127.0.0.1:{self.port}{path}"

    @property
    def reached(self) -> bool:
        """Whether anything at all arrived."""
        return bool(self.connections or self.handshakes or self.frames)

    def clear(self) -> None:
        """Forget what arrived so far (between the tests sharing a listener)."""
        self.connections = self.handshakes = 0
        self.frames.clear()


def _read_head(conn: socket.socket) -> bytes:
    data = b""
    while b"\r\n\r\n" not in data and len(data) < HEAD_LIMIT:
        chunk = conn.recv(4096)
        if not chunk:
            break
        data += chunk
    return data


def _recv_exactly(conn: socket.socket, size: int) -> bytes:
    data = b""
    while len(data) < size:
        chunk = conn.recv(size - len(data))
        if not chunk:
            raise ConnectionError("closed mid-frame")
        data += chunk
    return data


def _websocket_session(conn: socket.socket, counted: Counted) -> None:
    """Answer one WebSocket handshake, then count every data frame until the peer closes."""
    head = _read_head(conn)
    key = next((line.split(b":", 1)[1].strip() for line in head.split(b"\r\n")
                if line.lower().startswith(b"sec-websocket-key:")), None)
    if key is None:
        return
    accept = base64.b64encode(hashlib.sha1(key + WEBSOCKET_GUID).digest())
    conn.sendall(b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                 b"Sec-WebSocket-Accept: " + accept + b"\r\n\r\n")
    counted.handshakes += 1
    while True:
        first, second = _recv_exactly(conn, 2)
        opcode, length = first & 0x0F, second & 0x7F
        if length == 126:
            length = struct.unpack("!H", _recv_exactly(conn, 2))[0]
        elif length == 127:
            length = struct.unpack("!Q", _recv_exactly(conn, 8))[0]
        mask = _recv_exactly(conn, 4) if second & 0x80 else b"\0\0\0\0"
        payload = bytes(b ^ mask[i % 4] for i, b in enumerate(_recv_exactly(conn, length)))
        if opcode == 0x8:
            conn.sendall(b"\x88\x00")
            return
        if opcode in (0x1, 0x2):
            counted.frames.append(payload)


@contextmanager
def _accepting(session: Callable[[socket.socket, Counted], None]) -> Iterator[Counted]:
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    listener.settimeout(0.1)
    counted = Counted(port=listener.getsockname()[1])
    stop = threading.Event()
    held: list[socket.socket] = []

    def serve(conn: socket.socket) -> None:
        try:
            session(conn, counted)
        except OSError:
            pass
        finally:
            conn.close()

    def accept() -> None:
        while not stop.is_set():
            try:
                conn, _ = listener.accept()
            except OSError:
                continue
            counted.connections += 1
            conn.settimeout(10)
            held.append(conn)
            threading.Thread(target=serve, args=(conn,), daemon=True).start()

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    try:
        yield counted
    finally:
        stop.set()
        thread.join()
        for conn in held:
            conn.close()
        listener.close()


@contextmanager
def websocket_server() -> Iterator[Counted]:
    """A WebSocket server on its own loopback origin, counting connections, handshakes and frames."""
    with _accepting(_websocket_session) as counted:
        yield counted


@contextmanager
def tcp_listener() -> Iterator[Counted]:
    """A TCP port that accepts and counts connections (WebRTC over TCP dials one), reading what they send."""
    def session(conn: socket.socket, counted: Counted) -> None:
        while chunk := conn.recv(4096):
            counted.frames.append(chunk)

    with _accepting(session) as counted:
        yield counted


@contextmanager
def udp_listener() -> Iterator[Counted]:
    """A UDP socket on a loopback port counting the datagrams it receives (a WebRTC connectivity check is one)."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    sock.bind(("127.0.0.1", 0))
    sock.settimeout(0.1)
    counted = Counted(port=sock.getsockname()[1])
    stop = threading.Event()

    def receive() -> None:
        while not stop.is_set():
            try:
                counted.frames.append(sock.recv(65536))
            except OSError:
                continue

    thread = threading.Thread(target=receive, daemon=True)
    thread.start()
    try:
        yield counted
    finally:
        stop.set()
        thread.join()
        sock.close()
