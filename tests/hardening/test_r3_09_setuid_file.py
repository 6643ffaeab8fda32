"""Round 3, finding 9: a confined command left a root-owned setuid binary in the workspace.

`install -m 4755 /usr/bin/id ./id-suid`, asked as "copies files", left it there. What a confined
command leaves is stripped of setuid and setgid bits (on the overlay route before the layer is
applied, on the whole-workspace route after the command), a file tool's write never carries them
onto new content, and the gate rates setting them as dangerous, saying so.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from engine.envs.workspace.environment import WorkspaceEnv
from engine.envs.workspace.sandbox import Sandbox
from engine.gate.classifier import Classifier
from engine.gate.verdict import Level
from engine.runtime import Runtime, Switches
from engine.tasks.task import TaskSpec, TaskStatus, scripted
from engine.tools.call import ToolCall

CLASSIFIER = Classifier()
PRIVILEGE = stat.S_ISUID | stat.S_ISGID
SETUID_REASON = "sets the setuid/setgid bit"

needs_sandbox = pytest.mark.skipif(not Sandbox.detect().contains_effects, reason="no confining sandbox here")


@pytest.mark.parametrize("command", [
    "install -m 4755 /usr/bin/id ./id-suid", "install --mode=2755 /usr/bin/id ./id-sgid", "install -m4755 a b",
    "install -m u+s a b", "chmod u+s x", "chmod g+s x", "chmod +s x", "chmod 4755 x", "chmod 2755 x", "chmod 04755 x",
    "chmod 6711 x", "chmod 3755 x", "chmod 5755 x", "chmod u=rwxs x", "chmod a+rs,go-w x",
])
def test_r3_09_setting_setuid_or_setgid_is_dangerous_and_says_so(command: str) -> None:
    verdict = CLASSIFIER.classify(ToolCall("shell.run", {"command": command}))
    assert verdict.level >= Level.DANGEROUS, verdict
    assert verdict.reason.startswith(SETUID_REASON), f"{command!r}: {verdict.reason}"


@pytest.mark.parametrize("command", ["chmod -R 2775 dir", "install -m 4755 a /usr/local/bin/x", "sudo chmod u+s x"])
def test_r3_09_setting_them_among_other_reasons_is_still_named(command: str) -> None:
    verdict = CLASSIFIER.classify(ToolCall("shell.run", {"command": command}))
    assert verdict.level >= Level.DANGEROUS and "evasion.setuid" in verdict.rules, verdict


@pytest.mark.parametrize("command", [
    "chmod 755 x", "chmod u-s x", "chmod -s x", "chmod 1777 shared", "chmod +t shared", "chmod 0644 x",
    "install -m 755 a b", "install -m 0644 a b", "chmod o+s x",
])
def test_r3_09_other_modes_keep_their_own_reason(command: str) -> None:
    verdict = CLASSIFIER.classify(ToolCall("shell.run", {"command": command}))
    assert SETUID_REASON not in verdict.reason, f"{command!r}: {verdict.reason}"


def privileged(root: Path) -> list[str]:
    return sorted(str(p.relative_to(root)) for p in root.rglob("*")
                  if not p.is_symlink() and p.is_file() and p.stat().st_mode & PRIVILEGE)


@needs_sandbox
@pytest.mark.parametrize("overlay", ["on", "off"])
async def test_r3_09_a_confined_command_leaves_no_setuid_file(tmp_path: Path, run, overlay: str, monkeypatch) -> None:
    monkeypatch.setenv("WARDEN_SHELL_OVERLAY", overlay)
    workspace = tmp_path / "ws"
    (workspace / "bin").mkdir(parents=True)
    (workspace / "bin" / "tool").write_bytes(b"#!/bin/sh\n")
    os.chmod(workspace / "bin" / "tool", 0o755)
    runtime = await Runtime.open(tmp_path / "home", workspace, Switches(gating=False))
    try:
        task = await run(runtime, TaskSpec(goal="Copy id", learn=False, agent=scripted([ToolCall("shell.run", {
            "command": "install -m 4755 /usr/bin/id ./id-suid && cp /usr/bin/id id-sgid && chmod 2755 id-sgid"
                       " && chmod u+s,g+s bin/tool && mkdir -m 2775 shared"})])))
        assert task.status is TaskStatus.SUCCEEDED, task.error
        assert privileged(workspace) == []
        assert (workspace / "id-suid").stat().st_mode & 0o777 == 0o755, "only the privilege bits go"
        assert (workspace / "bin" / "tool").stat().st_mode & 0o777 == 0o755
        [receipt] = await runtime.journal.for_task(task.id)
        await runtime.undo(receipt.id)
        assert not (workspace / "id-suid").exists()
        assert (workspace / "bin" / "tool").stat().st_mode & 0o7777 == 0o755
    finally:
        await runtime.close()


async def test_r3_09_a_file_tool_write_never_keeps_a_setuid_bit(tmp_path: Path) -> None:
    env = WorkspaceEnv(tmp_path / "ws", Sandbox.detect())
    target = env.root / "tool"
    target.write_bytes(b"old")
    os.chmod(target, 0o4755)
    [write] = [t for t in env.tools() if t.name == "fs.write"]
    await write.run(env, {"path": "tool", "content": "new"})
    assert target.read_text() == "new"
    assert stat.S_IMODE(target.stat().st_mode) == 0o755
