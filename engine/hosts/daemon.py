"""The hook daemon (`warden serve`): one open runtime per home, answering host hook calls over a Unix socket.

`serve(home)` takes `hook.lock` in the home (a second daemon on the same home exits at once), opens the runtime,
replaces a stale `hook.sock` (the lock is free, so no daemon owns it) and listens there, the socket readable by
its owner alone. Each connection carries one request line `{"host": "claude-code", "event": {...}, "wait": S}`
and gets one line back: `{"answer": {...} | null, "ms": decision time}` or `{"error": "..."}` (the client denies).
Requests are served concurrently: a call waiting for a person does not hold up the others.

It retires (stops listening, removes its socket, frees the lock, lets calls in flight finish) after `idle`
seconds without a call, on SIGTERM or SIGINT, when the home's `policy.toml` changed (the next call starts a
daemon that reads it), when its database file was replaced, removed or no longer reads as SQLite (checked on
every call: a connection in WAL mode would go on serving its own view of an overwritten file), and after an
unexpected failure, which it answers as an error. A request that reaches a retiring daemon gets
`{"retired": why}`: the client decides in-process, as with no daemon, and so denies what it cannot open.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import json
import os
import signal
import socket
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

from engine.hosts.protocols import HOSTS, protocol
from engine.hosts.wire import LOCK, SOCKET, ask  # noqa: F401  (ask: the client, re-exported)
from engine.store.database import SQLITE_HEADER

if TYPE_CHECKING:
    from engine.runtime import Runtime

IDLE_MINUTES = float(os.environ.get("WARDEN_SERVE_IDLE_MINUTES", "30"))
LINE_LIMIT = 64 * 1024 * 1024  # one event (a Write's content) may be large


class AlreadyServing(Exception):
    """Another daemon holds this home's lock."""


def lock(home: Path) -> int:
    """Hold the home's daemon lock (the descriptor); `AlreadyServing` when another daemon holds it."""
    fd = os.open(home / LOCK, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        holder = os.read(fd, 32).decode(errors="replace").strip()
        os.close(fd)
        raise AlreadyServing(f"a hook daemon already serves {home}" + (f" (pid {holder})" if holder else "")) from None
    os.ftruncate(fd, 0)
    os.write(fd, str(os.getpid()).encode())
    return fd


def holder(home: Path) -> int | None:
    """The pid of the daemon serving `home`, if one holds its lock."""
    try:
        fd = os.open(home / LOCK, os.O_RDONLY)
    except OSError:
        return None
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except OSError:
        text = os.read(fd, 32).decode(errors="replace").strip()
        return int(text) if text.isdigit() else None
    finally:
        os.close(fd)
    return None


def _policy_stamp(home: Path) -> tuple[int, int, int] | None:
    try:
        stat = (home / "policy.toml").stat()
    except OSError:
        return None
    return (stat.st_ino, stat.st_size, stat.st_mtime_ns)


class Database:
    """Whether the database file is still the one the runtime opened and still reads as SQLite (overwritten in
    place, a connection in WAL mode would go on serving its own view of it).

    It reads through one descriptor held open for the daemon's life: closing a descriptor of the file would drop
    this process's SQLite locks on it, and another process would take itself for the last user and delete the
    WAL under the runtime (see `Store.open_readonly`)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.fd = os.open(path, os.O_RDONLY)
        stat = os.fstat(self.fd)
        self.identity = (stat.st_dev, stat.st_ino)

    def sound(self) -> bool:
        try:
            stat = os.stat(self.path)
            header = os.pread(self.fd, len(SQLITE_HEADER), 0)
            return (stat.st_dev, stat.st_ino) == self.identity and header == SQLITE_HEADER
        except OSError:
            return False

    def close(self) -> None:
        """Only once the runtime's connection is closed."""
        os.close(self.fd)


class Daemon:
    def __init__(self, home: Path, idle: float) -> None:
        self.home = home
        self.idle = idle
        self.path = home / SOCKET
        self.inflight = 0
        self.last = time.monotonic()
        self.retiring: str | None = None
        self.stop = asyncio.Event()
        self.policy = _policy_stamp(home)
        self.database: Database | None = None
        self.runtime: Runtime | None = None
        self.lock_fd: int | None = None
        self.server: asyncio.AbstractServer | None = None
        self.socket_ino: int | None = None
        self.tasks: set[asyncio.Task] = set()

    async def run(self) -> None:
        from engine.runtime import Runtime

        self.lock_fd = lock(self.home)
        try:
            self.runtime = runtime = await Runtime.open(self.home)
            try:
                self.database = Database(self.home / "warden.db")
                listener = self._bind()
                self.server = await asyncio.start_unix_server(self._connection, sock=listener, limit=LINE_LIMIT)
                loop = asyncio.get_running_loop()
                for sig in (signal.SIGTERM, signal.SIGINT):
                    loop.add_signal_handler(sig, self.retire, f"signal {sig.name}")
                print(f"warden serve: pid {os.getpid()} serving {self.path}", flush=True)
                watcher = asyncio.create_task(self._watch())
                await self.stop.wait()
                watcher.cancel()
                self._unlisten()
                if (self.retiring or "").startswith("signal"):  # stopped: calls in flight are denied
                    for task in list(self.tasks):
                        task.cancel()
                await asyncio.gather(*self.tasks, return_exceptions=True)  # else they finish first
            finally:
                await runtime.close()
                if self.database is not None:
                    self.database.close()
        finally:
            self._unlisten()
            if self.lock_fd is not None:
                os.close(self.lock_fd)
                self.lock_fd = None
        print(f"warden serve: stopped ({self.retiring})", flush=True)

    def _bind(self) -> socket.socket:
        """Listen on the home's socket, replacing a stale one (this daemon holds the lock, so none owns it)."""
        with contextlib.suppress(FileNotFoundError):
            self.path.unlink()
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        mask = os.umask(0o177)
        try:
            listener.bind(str(self.path))
        finally:
            os.umask(mask)
        os.chmod(self.path, 0o600)
        self.socket_ino = self.path.stat().st_ino
        listener.listen(128)
        listener.setblocking(False)
        return listener

    def _unlisten(self) -> None:
        """Stop taking calls and remove this daemon's socket (not one a later daemon made), then free the lock."""
        if self.server is not None:
            self.server.close()
            self.server = None
        with contextlib.suppress(OSError):
            if self.socket_ino is not None and self.path.stat().st_ino == self.socket_ino:
                self.path.unlink()
        self.socket_ino = None
        if self.lock_fd is not None:
            os.close(self.lock_fd)
            self.lock_fd = None

    def retire(self, why: str) -> None:
        if self.retiring is None:
            self.retiring = why
            self._unlisten()  # a call arriving now finds no daemon and starts a fresh one
            self.stop.set()

    async def _watch(self) -> None:
        """Retire when idle, or when its socket is gone or replaced (the home was removed)."""
        period = max(0.05, min(self.idle / 10, 1.0))
        while True:
            await asyncio.sleep(period)
            if self.inflight == 0 and time.monotonic() - self.last >= self.idle:
                self.retire(f"idle for {self.idle:g} s")
            try:
                ours = self.path.stat().st_ino == self.socket_ino
            except OSError:
                ours = False
            if not ours:
                self.retire("its socket was removed")

    async def _connection(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        if task is not None:
            self.tasks.add(task)
        self.inflight += 1
        try:
            reply = await self._reply(await reader.readline())
            writer.write(json.dumps(reply).encode() + b"\n")
            await writer.drain()
        except (ConnectionError, asyncio.IncompleteReadError, ValueError):
            pass  # the client went away (or sent a line past the limit): it has nothing to read
        finally:
            self.inflight -= 1
            self.last = time.monotonic()
            if task is not None:
                self.tasks.discard(task)
            writer.close()
            with contextlib.suppress(Exception):
                await writer.wait_closed()

    async def _reply(self, line: bytes) -> dict:
        if self.retiring is not None:
            return {"retired": self.retiring}
        if _policy_stamp(self.home) != self.policy:
            self.retire("policy.toml changed")
            return {"retired": "policy.toml changed"}
        if self.database is None or not self.database.sound():
            self.retire("the database changed under the daemon")  # the caller opens it afresh and judges it
            return {"retired": "the database changed"}
        try:
            request = json.loads(line)
            if not isinstance(request, dict) or request.get("host") not in HOSTS:
                return {"error": "the request names no host this daemon serves"}
            host = protocol(request["host"])
            wait = float(request.get("wait", 0))
        except (ValueError, TypeError):
            return {"error": "the request is not one line of JSON with a host, an event and a wait"}
        try:
            event = host.Event.from_json(request.get("event"))
        except (ValueError, TypeError, AttributeError) as exc:
            return {"answer": host.deny(f"the hook event could not be read ({exc}); nothing ran"), "ms": 0.0}
        from engine.hosts.answer import answer

        assert self.runtime is not None
        started = time.perf_counter()
        try:
            decided = await answer(self.runtime, event, wait, host)
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # the client denies; a fresh runtime meets the next call
            message = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            print(f"warden serve: failed on a call ({message}); retiring", file=sys.stderr, flush=True)
            self.retire(f"failure: {message}")
            return {"error": message}
        return {"answer": decided, "ms": round((time.perf_counter() - started) * 1000, 3)}


async def serve(home: Path, idle: float = IDLE_MINUTES * 60) -> str:
    """Serve `home` until idle for `idle` seconds or stopped; why it stopped. `AlreadyServing` at once when
    another daemon serves the home."""
    home.mkdir(parents=True, exist_ok=True)
    daemon = Daemon(home, idle)
    await daemon.run()
    return daemon.retiring or "stopped"
