"""Round 3, finding 3 (and acceptance 3): the sandbox without network reached host unix sockets.

`--unshare-all` isolates IP and abstract sockets, but `/` was bound whole, read-only, and
`connect()` on a read-only filesystem still reaches a listening socket: `psql -h DIR` and an
approved `python3 x.py` reached listeners outside the workspace, and the second got a
`local_reversible` receipt. The test opens its own listeners outside the workspace, in places
the old sandbox showed (`/var/lib`, `/opt`, `/etc`), counts every connection they take (a
connection is in the listener's backlog once `connect()` returns), and removes them after. Those
are in the host's real trees, seen by the suite's other workers too: `host_places` says how that
stays harmless to them.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from engine.envs.workspace.sandbox import Sandbox
from tests.cli.test_submit import warden
from tests.hardening import host_places

pytestmark = pytest.mark.skipif(not Sandbox.detect().contains_effects, reason="no confining sandbox here")

PROBE = """\
import socket, sys
with open("result.txt", "w") as out:
    for path in sys.argv[1:]:
        client = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            client.connect(path)
            out.write("reached\\n")
        except OSError as exc:
            out.write(f"refused: {exc.strerror}\\n")
        finally:
            client.close()
"""


class Listener:
    """A unix stream socket that counts the connections made to it, without waiting for any."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.socket = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.socket.bind(str(path))
        os.chmod(path, 0o777)
        self.socket.listen(16)
        self.socket.setblocking(False)

    def connections(self) -> int:
        """How many connections arrived since the last call (each is accepted and closed)."""
        count = 0
        while True:
            try:
                client, _ = self.socket.accept()
            except BlockingIOError:
                return count
            client.close()
            count += 1


@pytest.fixture
def listeners() -> Iterator[list[Listener]]:
    opened: list[Listener] = []
    with host_places.made("/var/lib", "/opt", "/etc") as places:
        try:
            opened += [Listener(place / "listener.sock") for place in places]
            if not opened:
                pytest.skip("no place outside /tmp to open a listener in")
            yield opened
        finally:
            for listener in opened:
                listener.socket.close()


def spec(tmp_path: Path, command: str) -> Path:
    path = tmp_path / "spec.json"
    path.write_text(json.dumps({"goal": "Probe the sockets", "learn": False, "agent": {"kind": "scripted", "steps": [
        {"tool": "shell.run", "args": {"command": command}}]}}))
    return path


def test_r3_03_a_confined_command_cannot_connect_to_a_unix_socket_outside_the_workspace(
        tmp_path: Path, listeners: list[Listener], monkeypatch) -> None:
    workspace = tmp_path / "ws"
    workspace.mkdir()
    (workspace / "probe.py").write_text(PROBE)
    targets = [str(listener.path) for listener in listeners]

    host = subprocess.run([sys.executable, "probe.py", *targets], cwd=workspace, timeout=30)
    assert host.returncode == 0
    assert [listener.connections() for listener in listeners] == [1] * len(listeners), "the listeners count"

    monkeypatch.setenv("WARDEN_GATING", "off")  # only the sandbox stands in the way
    done = warden(tmp_path / "home", "run", "--spec", str(spec(tmp_path, "python3 probe.py " + " ".join(targets))),
                  "--workspace", str(workspace), "--json")
    assert done.returncode == 0, done.stderr
    assert [listener.connections() for listener in listeners] == [0] * len(listeners)
    results = (workspace / "result.txt").read_text().splitlines()
    assert len(results) == len(targets) and all(line.startswith("refused") for line in results), results


async def test_r3_03_a_socket_inside_the_workspace_is_still_reachable(tmp_path: Path) -> None:
    """The allowlist hides what is outside; the workspace itself stays whole, sockets and all."""
    workspace = tmp_path / "ws"
    workspace.mkdir()
    (workspace / "probe.py").write_text(PROBE)
    inside = Listener(workspace / "inside.sock")
    try:
        finished = await Sandbox.detect().run(workspace, "python3 probe.py inside.sock")
        assert finished.code == 0, finished.output
        assert inside.connections() == 1
    finally:
        inside.socket.close()


def test_r3_03_a_confined_command_does_not_see_warden_s_home(tmp_path: Path, monkeypatch) -> None:
    """The default workspace lives inside the home: the sandbox shows it and nothing else of the home.
    A workspace that holds the home is refused before anything runs (finding 2)."""
    home = tmp_path / "home"
    monkeypatch.setenv("WARDEN_GATING", "off")
    done = warden(home, "run", "--spec", str(spec(tmp_path, f'ls -A .. "{home}" > seen.txt 2>&1; true')), "--json")
    assert done.returncode == 0, done.stderr
    assert (home / "warden.db").exists()
    seen = (home / "workspace" / "seen.txt").read_text()
    assert "warden.db" not in seen and "snapshots" not in seen and "policy" not in seen, seen

    workspace = tmp_path / "ws"
    inside = workspace / ".warden"
    done = warden(inside, "run", "--spec", str(spec(tmp_path, "ls -A .warden > seen.txt")),
                  "--workspace", str(workspace), "--json")
    assert done.returncode != 0 and "Warden's home" in done.stderr, done.stderr
    assert not (workspace / "seen.txt").exists()
