"""Round 3, finding 15: secrets outside the sandbox's fixed hidden list were readable by safe commands.

A root-only `wg0.conf` and `/var/backups/shadow.bak` were read by a confined `cat`: the sandbox
hid a fixed list of files, and commands may run as root. What the sandbox shows of the host is an
allowlist; in it, whatever is not readable by everyone (and every socket, pipe or device) is hidden.
The test makes its own files in places the sandbox shows or used to show, and removes them after;
they are in the host's real trees, seen by the suite's other workers too (`host_places` says how
that stays harmless to them).
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from engine.envs.workspace.sandbox import Sandbox
from tests.hardening import host_places

SANDBOX = Sandbox.detect()
pytestmark = pytest.mark.skipif(not SANDBOX.contains_effects, reason="no confining sandbox here")


@pytest.fixture
def planted() -> Iterator[dict[str, Path]]:
    """Root-only secrets beside world-readable files, under /etc, /opt and /var/lib."""
    files: dict[str, Path] = {}
    with host_places.made("/etc", "/opt", "/var/lib") as places:
        for place in places:
            parent = str(place.parent)
            secret, public = place / "wg0.conf", place / "public.conf"
            secret.write_text("PrivateKey = hunter2\n")
            os.chmod(secret, 0o600)
            public.write_text("everyone may read this\n")
            os.chmod(public, 0o644)
            locked = place / "private"
            locked.mkdir(mode=0o700)
            (locked / "key.pem").write_text("hunter2 key\n")
            os.chmod(locked / "key.pem", 0o644)
            files[f"{parent}:secret"], files[f"{parent}:public"] = secret, public
            files[f"{parent}:locked"] = locked / "key.pem"
            files[f"{parent}:backup"] = place / "shadow.bak"
            files[f"{parent}:backup"].write_text("root:$6$hunter2:19000::::::\n")
            os.chmod(files[f"{parent}:backup"], 0o640)
        if not places:
            pytest.skip("no place outside /tmp to plant a file in")
        yield files


async def test_r3_15_files_readable_only_by_their_owner_or_group_are_hidden(tmp_path: Path, planted) -> None:
    workspace = tmp_path / "ws"
    workspace.mkdir()
    names = sorted(planted)
    command = "; ".join(f"cat {planted[name]} > out-{index}.txt 2>/dev/null" for index, name in enumerate(names))
    finished = await SANDBOX.run(workspace, command + "; true")
    assert finished.code == 0, finished.output
    seen = {name: (workspace / f"out-{index}.txt").read_text() for index, name in enumerate(names)}
    leaked = {name: text for name, text in seen.items() if "hunter2" in text}
    assert leaked == {}, f"the sandbox showed root-only secrets: {leaked}"
    assert seen["/etc:public"] == "everyone may read this\n", "what everyone may read stays readable"
    assert all(not text for name, text in seen.items() if name.startswith("/var/lib:")), "/var is not shown at all"


async def test_r3_15_ordinary_programs_still_run(tmp_path: Path) -> None:
    """The allowlist keeps what ordinary commands need: an interpreter, git, make, a compiler, certificates."""
    workspace = tmp_path / "ws"
    workspace.mkdir()
    (workspace / "hello.c").write_text("int main(void) { return 0; }\n")
    (workspace / "Makefile").write_text("all:\n\techo made > made.txt\n")
    tools = ["python3 -c 'import ssl, sqlite3, json; print(1)' > py.txt", "git init -q repo", "make -s",
             "id -u > id.txt", "ls /etc/ssl/certs > certs.txt"]
    if shutil.which("cc"):
        tools.append("cc hello.c -o hello && ./hello")
    finished = await SANDBOX.run(workspace, " && ".join(tools))
    assert finished.code == 0, finished.output.decode(errors="replace")
    assert (workspace / "py.txt").read_text() == "1\n" and (workspace / "made.txt").read_text() == "made\n"
    assert (workspace / "repo" / ".git").is_dir()
