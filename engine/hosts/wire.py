"""The hook daemon's wire, and its client: what `warden hook` runs first, before importing anything heavy.

A hook call pays Python's start-up; it must not also pay for importing and opening the runtime. So `warden hook`
first asks the home's daemon (`engine/hosts/daemon.py`, `warden serve`) over `$WARDEN_HOME/hook.sock`: one line
of JSON `{"host", "event", "wait"}` out, one line `{"answer": …}` (or `{"error": …}`) back. This module imports
only `os`, `socket` and `json` (and `subprocess` when it starts a daemon), so the warm path stays light.

Fail closed: `NoDaemon` (nothing listens: no socket, a stale one, or a daemon retiring) lets the caller decide
in-process, which itself denies whatever it cannot decide; `Broken` (the daemon failed after taking the
request: it died, timed out, answered garbage or an error) is a deny, never an allow.
"""

from __future__ import annotations

import json
import os
import socket

SOCKET = "hook.sock"
LOCK = "hook.lock"
LOG = "hook.log"
MAX_PATH = 100  # AF_UNIX paths are limited to 108 bytes; a longer home has no daemon (every call is cold)


class NoDaemon(Exception):
    """No daemon took the request: deciding in-process is safe."""


class Broken(Exception):
    """The daemon took the request and did not answer it: the call must be denied."""


def home() -> str:
    """`$WARDEN_HOME`, or the platform's user data directory (as `engine.home.warden_home`)."""
    given = os.environ.get("WARDEN_HOME")
    if given:
        return os.path.abspath(given)
    import platformdirs

    return platformdirs.user_data_dir("warden")


def socket_path(where: str) -> str:
    return os.path.join(where, SOCKET)


def usable(where: str) -> bool:
    """Whether a daemon can listen in this home (the socket's path fits AF_UNIX)."""
    return len(os.fsencode(socket_path(where))) <= MAX_PATH


def ask(where: str, request: dict[str, object], timeout: float) -> dict | None:
    """The daemon's answer to one request (None: nothing to say to the host).

    Raises `NoDaemon` when no daemon accepted the connection or it is retiring, `Broken` for anything that went
    wrong once it had the request."""
    reply = exchange(where, request, timeout)
    if "retired" in reply:
        raise NoDaemon(str(reply["retired"]))
    if "error" in reply:
        raise Broken(str(reply["error"]).splitlines()[0] if reply["error"] else "the hook daemon failed")
    answer = reply.get("answer")
    if "answer" not in reply or not (answer is None or isinstance(answer, dict)):
        raise Broken("the hook daemon's answer has no decision")
    return answer


def exchange(where: str, request: dict[str, object], timeout: float) -> dict[str, object]:
    """One request to the home's daemon and its whole reply (an object), with `ask`'s `NoDaemon` and `Broken`."""
    if not usable(where):
        raise NoDaemon("the home's path is too long for a Unix socket")
    conn = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        conn.settimeout(2.0)
        try:
            conn.connect(socket_path(where))
        except OSError as exc:  # no socket, a stale one (refused), an unreadable home: decide in-process
            raise NoDaemon(str(exc)) from None
        conn.settimeout(timeout)
        try:
            conn.sendall(json.dumps(request).encode() + b"\n")
            chunks = []
            while True:
                chunk = conn.recv(65536)
                if not chunk:
                    break
                chunks.append(chunk)
                if chunk.endswith(b"\n"):
                    break
        except OSError as exc:
            raise Broken(f"the hook daemon failed mid-request ({exc})") from None
    finally:
        conn.close()
    data = b"".join(chunks)
    if not data.endswith(b"\n"):
        raise Broken("the hook daemon closed the connection without answering")
    try:
        reply = json.loads(data)
    except ValueError:
        raise Broken("the hook daemon's answer is not JSON") from None
    if not isinstance(reply, dict):
        raise Broken("the hook daemon's answer is not an object")
    return reply


def start(where: str) -> None:
    """Start the home's daemon, detached from this process (its output goes to `hook.log` in the home); a second
    daemon on the same home exits at once, so starting one that is already running is harmless."""
    import subprocess
    import sys

    if not usable(where):
        return
    package_root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    try:
        with open(os.path.join(where, LOG), "ab") as log:
            subprocess.Popen([sys.executable, "-m", "app.cli", "serve"], cwd=package_root,
                             env={**os.environ, "WARDEN_HOME": where}, stdin=subprocess.DEVNULL, stdout=log,
                             stderr=log, start_new_session=True, close_fds=True)
    except OSError:
        pass  # no daemon: the next call is cold again
