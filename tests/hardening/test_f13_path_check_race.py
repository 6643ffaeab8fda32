"""Finding 13: a race between the path check and the write.

The tools checked a path (resolving symlinks) and then wrote to it by name: swapping a
directory for a symlink to outside between the two, during 500 writes, landed 3 files
outside the workspace. Now every component is opened from the workspace root by
descriptor with O_NOFOLLOW, so whatever the directory is at the moment, nothing is ever
created, changed or removed outside.
"""

from __future__ import annotations

import os
import sys
import threading
from pathlib import Path

import pytest

from engine.envs.workspace import WorkspaceEnv
from engine.envs.workspace.files import FILE_TOOLS
from engine.errors import WardenError

ROUNDS = 500
TOOLS = {tool.name: tool for tool in FILE_TOOLS}


class Swapper(threading.Thread):
    """Keeps swapping ws/d between a real directory and a symlink to `outside`."""

    def __init__(self, ws: Path, outside: Path) -> None:
        super().__init__(daemon=True)
        self.d, self.parked, self.spare = ws / "d", ws / "parked", ws / "spare-link"
        self.ws, self.stop, self.swaps = ws, threading.Event(), 0
        self.d.mkdir()
        self.spare.symlink_to(outside, target_is_directory=True)

    def run(self) -> None:
        while not self.stop.is_set():
            try:
                os.rename(self.d, self.parked)  # the real directory steps aside
                os.rename(self.spare, self.d)  # and a symlink to outside takes its name
                os.rename(self.d, self.spare)  # then the link steps aside
                os.rename(self.parked, self.d)  # and the directory comes back
                self.swaps += 1
            except OSError:
                self.recover()

    def recover(self) -> None:
        """A tool made `d` in a gap: keep the link spare, and keep every directory inside the workspace."""
        try:
            if self.d.is_symlink():
                os.replace(self.d, self.spare)
            if self.parked.exists():
                if os.path.lexists(self.d):
                    os.rename(self.parked, self.ws / f"parked-{self.swaps}-{os.urandom(4).hex()}")
                else:
                    os.rename(self.parked, self.d)
            if not os.path.lexists(self.d):
                self.d.mkdir()
        except OSError:
            pass  # the tools moved something meanwhile: the next round tries again


def everything_under(path: Path) -> list[str]:
    return sorted(str(p.relative_to(path)) for p in path.rglob("*"))


async def test_f13_swapping_a_directory_for_a_symlink_never_lets_a_file_tool_out(tmp_path):
    ws, outside = tmp_path / "ws", tmp_path / "outside"
    outside.mkdir()
    (outside / "victim.txt").write_text("outside\n")
    env = WorkspaceEnv(ws)
    swapper = Swapper(env.root, outside)
    calls = [
        lambda i: ("fs.write", {"path": f"d/w{i}.txt", "content": "w"}),
        lambda i: ("fs.append", {"path": "d/victim.txt", "content": "a"}),
        lambda i: ("fs.mkdir", {"path": f"d/m{i}/n"}),
        lambda i: ("fs.write", {"path": f"d/v{i}.txt", "content": "v"}),
        lambda i: ("fs.move", {"src": f"d/v{i - 1}.txt", "dst": f"d/moved{i}.txt"}),
        lambda i: ("fs.delete", {"path": "d/victim.txt"}),
    ]
    done = refused = 0
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # let the swapper interleave as often as the kernel allows
    swapper.start()
    try:
        for i in range(ROUNDS):
            name, args = calls[i % len(calls)](i)
            try:
                await TOOLS[name].run(env, args)
                done += 1
            except (WardenError, OSError):
                refused += 1
            if i % 25 == 0:  # a snapshot taken and restored while the directory moves (restore writes)
                saved = tmp_path / "snapshots" / str(i)
                try:
                    await env.snapshot([f"d/w{i}.txt", "d/victim.txt"], saved)
                    await env.restore(saved)
                except (WardenError, OSError):
                    refused += 1
    finally:
        swapper.stop.set()
        swapper.join()
        sys.setswitchinterval(interval)
    print(f"{swapper.swaps} swaps, {done} calls acted, {refused} refused")
    assert swapper.swaps > 50, "the race never ran"
    assert done > 10, "no tool ever acted: the test proves nothing"
    assert everything_under(outside) == ["victim.txt"]
    assert (outside / "victim.txt").read_text() == "outside\n"


@pytest.mark.parametrize("path", ["n" * 300 + ".txt", "loop/x.txt"])
async def test_f13_unusable_paths_fail_the_tool_in_one_line(tmp_path, path):
    env = WorkspaceEnv(tmp_path / "ws")
    (env.root / "loop").symlink_to(env.root / "loop")
    for name, args in (("fs.write", {"path": path, "content": "x"}), ("fs.append", {"path": path, "content": "x"}),
                       ("fs.mkdir", {"path": path}), ("fs.delete", {"path": path}),
                       ("fs.move", {"src": "loop", "dst": path})):
        with pytest.raises(WardenError) as refused:
            await TOOLS[name].run(env, args)
        assert "\n" not in str(refused.value) and len(str(refused.value)) < 400
