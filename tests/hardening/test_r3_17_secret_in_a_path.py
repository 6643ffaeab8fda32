"""Round three, finding 17: a secret used in a path was in clear in a snapshot's `manifest.json`,
`after.json` and `inverse.json`.

The database records a call's path with the secret replaced by `[secret:hmac:…]`; the snapshot
store beside it kept the path as it was. Now every string of those files that holds a secret is
written redacted, its whole value sealed in the home's vault, and read back from there when an
undo needs the real path; the copies of a snapshotted directory are named by number, never by
the names they had. So no byte of the snapshot store (contents or names) holds the secret, and
undo still restores the workspace byte for byte.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from engine.envs.workspace import overlay
from engine.envs.workspace.sandbox import Sandbox
from engine.redaction import sealed
from engine.redaction.redactor import Redactor
from engine.runtime import Runtime, Switches
from engine.tasks.task import TaskSpec, TaskStatus, scripted
from engine.tools.call import ToolCall
from tests.workspace_tree import tree

SANDBOX = Sandbox.detect()
TOKEN = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"  # a GitHub token by its shape
ENV_SECRET = "zq7Xw2Lp9Rt4Vb6N"  # the value of a secret-named environment variable


@pytest.fixture(params=["overlay", "whole workspace"])
def route(request, tmp_path: Path, monkeypatch) -> str:
    """The shell route; the secret variable is in the environment Warden starts in."""
    monkeypatch.setenv("DEPLOY_TOKEN", ENV_SECRET)
    if not SANDBOX.contains_effects:
        pytest.skip(f"no confining sandbox here: {SANDBOX.reason}")
    if request.param == "overlay":
        problem = overlay.unavailable(SANDBOX, tmp_path)
        if problem is not None:
            pytest.skip(f"this machine cannot overlay the workspace: {problem}")
    else:
        monkeypatch.setenv(overlay.SWITCH, "off")
    return request.param


def build(ws: Path) -> None:
    (ws / "notes").mkdir(parents=True)
    (ws / "keep").mkdir()
    (ws / "notes" / f"{TOKEN}.txt").write_text("first\n")
    (ws / "keep" / f"{TOKEN}-old.txt").write_text("old\n")
    (ws / f"link-{ENV_SECRET}").symlink_to(f"notes/{TOKEN}.txt")


CALLS = [
    ToolCall("fs.write", {"path": f"vault-{ENV_SECRET}/new.txt", "content": "made\n"}),  # new: an inverse
    ToolCall("fs.append", {"path": f"notes/{TOKEN}.txt", "content": "appended\n"}),  # an inverse
    ToolCall("fs.write", {"path": f"notes/{TOKEN}.txt", "content": "rewritten\n"}),  # a copy
    ToolCall("fs.delete", {"path": f"keep/{TOKEN}-old.txt"}),  # a copy
    ToolCall("fs.move", {"src": f"vault-{ENV_SECRET}/new.txt", "dst": f"moved-{TOKEN}.txt"}),
    ToolCall("shell.run", {"command": f"echo shell >> notes/{TOKEN}.txt && mkdir -p deep-{ENV_SECRET}"
                                      f" && echo x > deep-{ENV_SECRET}/{TOKEN}"}),
    ToolCall("fs.delete", {"path": "notes"}),  # a directory: its children's names are in its snapshot
]


def leaks(store: Path) -> list[str]:
    """Every file or name under `store` whose bytes hold either secret."""
    found = []
    for folder, dirnames, filenames in os.walk(store):
        for name in [*dirnames, *filenames]:
            path = Path(folder, name)
            if TOKEN in name or ENV_SECRET in name:
                found.append(f"name {path.relative_to(store)}")
            if path.is_file() and not path.is_symlink():
                data = path.read_bytes()
                if TOKEN.encode() in data or ENV_SECRET.encode() in data:
                    found.append(f"bytes of {path.relative_to(store)}")
            elif path.is_symlink() and (TOKEN in os.readlink(path) or ENV_SECRET in os.readlink(path)):
                found.append(f"link {path.relative_to(store)}")
    return found


async def test_r3_17_no_byte_of_the_snapshot_store_holds_a_secret_used_in_a_path_and_undo_is_exact(
        tmp_path: Path, route: str, run_approving) -> None:
    ws, home = tmp_path / "ws", tmp_path / "home"
    build(ws)
    before = tree(ws)
    runtime = await Runtime.open(home, ws, Switches())
    try:
        task = await run_approving(runtime, TaskSpec(goal="shuffle files", learn=False, agent=scripted(CALLS)))
        assert task.status is TaskStatus.SUCCEEDED, task.error
        receipts = await runtime.journal.for_task(task.id)
        assert len(receipts) == len(CALLS) and all(r.snapshot_path for r in receipts)
        written = {name for r in receipts for name in os.listdir(r.snapshot_path)}
        assert {"manifest.json", "after.json", "inverse.json"} <= written

        assert leaks(home / "snapshots") == []
        assert leaks(home / "blobs") == []

        undone = await runtime.undo_task(task.id)
        assert undone.ok, undone.stopped_at
    finally:
        await runtime.close()
    assert tree(ws) == before


@pytest.mark.parametrize("text", [
    f"notes/{TOKEN}.txt", f"vault-{ENV_SECRET}", "plain/path.txt", "[secret:hmac:0123456789ab]",
    f"[secret:hmac:0123456789ab]/{TOKEN}", "\x00sealed\x00[secret:hmac:0123456789ab]", "\x00redacted\x00x",
    "caf\udce9-undecodable", "",
])
def test_r3_17_a_sealed_document_reads_back_exactly_and_holds_no_secret(tmp_path: Path, monkeypatch,
                                                                        text: str) -> None:
    """Every string, keys included, comes back as it was, even one that looks like a placeholder or a marker."""
    monkeypatch.setenv("DEPLOY_TOKEN", ENV_SECRET)
    redactor = Redactor(tmp_path / "home")
    (tmp_path / "home").mkdir()
    document = [{"path": text, "node": {"children": [[text, {"target": text}]]}}, {text: ["file", 420, text]}]
    sealed.dump(redactor, tmp_path / "manifest.json", document)
    written = (tmp_path / "manifest.json").read_bytes()
    assert TOKEN.encode() not in written and ENV_SECRET.encode() not in written
    assert sealed.load(Redactor(tmp_path / "home"), tmp_path / "manifest.json") == document
    assert TOKEN not in json.dumps(sealed.load_shown(tmp_path / "manifest.json"))
