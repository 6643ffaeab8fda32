"""Where `shell.run` runs: inside bubblewrap, refused, or (only when the policy opts in) unconfined.

Confined means: an allowlist of the host's trees read-only over an empty root, with whatever
there is not readable by everyone masked (`layout`: no socket, secret or backup outside it is
there to reach), the workspace the only writable path, a private `/tmp`, home directories,
`/run` and Warden's own home hidden (commands may run as root here: file modes alone would not
keep them out), an empty environment (bubblewrap itself is started with none, so even the
sandbox's pid 1 shows nothing in `/proc/1/environ`), no network unless granted, all
capabilities dropped and no new privileges, and the whole process tree killed when the command
times out. Only a confined run, with no network, is `local_reversible`.
"""

from __future__ import annotations

import asyncio
import functools
import os
import shutil
import signal
import subprocess
import tempfile
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path

from engine.envs.workspace import layout, overlay
from engine.errors import WardenError

PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
_HIDDEN = ("/run", "/root", "/home", "/etc/ssh", "/etc/sudoers.d")
INSTALL_HINT = "install bubblewrap (Debian/Ubuntu: apt-get install bubblewrap) and allow unprivileged user namespaces"


class Confinement(StrEnum):
    BWRAP = "bubblewrap"
    UNCONFINED = "unconfined"
    REFUSED = "refused"


class SandboxTimeout(WardenError):
    """The command ran past its time; its whole process tree was killed."""


@dataclass(frozen=True)
class Finished:
    code: int
    output: bytes
    total: int


@dataclass(frozen=True)
class Sandbox:
    """How shell commands are contained here; `detect` decides once, from the host and the policy."""

    confinement: Confinement
    reason: str
    bwrap: str | None = None
    egress: bool = False
    timeout: float = 60.0
    hide: tuple[str, ...] = ()
    output_limit: int = 64 * 1024

    @classmethod
    def detect(cls, bwrap: str | None = None, allow_unconfined: bool = False, egress: bool = False,
               timeout: float = 60.0, hide: tuple[Path, ...] = ()) -> "Sandbox":
        """Bubblewrap if it starts a sandbox here; else unconfined if the policy allows it; else refused."""
        named = (str(Path(path).resolve()) for path in hide)
        hidden = tuple(dict.fromkeys([*_HIDDEN, os.path.realpath(Path.home()), *named]))
        binary = bwrap or shutil.which("bwrap")
        problem = _probe(binary) if binary else "bwrap is not installed"
        if problem is None:
            return cls(Confinement.BWRAP, f"bubblewrap ({binary})", binary, egress, timeout, hidden)
        if allow_unconfined:
            reason = f"unconfined: {problem}; the policy allows shell.unconfined"
            return cls(Confinement.UNCONFINED, reason, None, True, timeout, hidden)
        return cls(Confinement.REFUSED, problem, None, egress, timeout, hidden)

    @property
    def contains_effects(self) -> bool:
        """Whether every effect a command can have stays in the workspace (so undo can be honest)."""
        return self.confinement is Confinement.BWRAP and not self.egress

    def refusal(self) -> str | None:
        if self.confinement is not Confinement.REFUSED:
            return None
        return (f"shell.run refused: no sandbox ({self.reason}); {INSTALL_HINT}, "
                'or set shell.unconfined = "allow" in policy.toml to run commands unconfined and unundoable')

    def argv(self, root: Path, command: str) -> list[str]:
        """The command line that runs `command` in the workspace `root` (blocking: the layout scans `/etc`)."""
        if self.confinement is Confinement.UNCONFINED:
            return ["/bin/sh", "-c", command]
        if self.bwrap is None:  # refused: there is no bubblewrap here to confine it
            raise WardenError(self.refusal() or "shell.run: this sandbox names no bubblewrap binary")
        return [self.bwrap, *layout.argv(layout.mounts(str(root), self.hide, self.egress)), "--chdir", str(root),
                "--unshare-all", *(["--share-net"] if self.egress else []),
                "--die-with-parent", "--new-session", "--cap-drop", "ALL", "--clearenv",
                "--setenv", "PATH", PATH, "--setenv", "HOME", "/tmp", "--setenv", "TMPDIR", "/tmp",
                "--setenv", "LANG", "C.UTF-8", "--", "/bin/sh", "-c", command]

    def describe(self) -> str:
        """What a confined command sees, in one line (`warden doctor`)."""
        if self.confinement is not Confinement.BWRAP:
            return self.reason
        network = "network granted" if self.egress else "no network"
        return (f"{self.reason}: {', '.join(layout.shown())} read-only over an empty root (files not everyone may "
                f"read, and sockets, masked); the workspace the only writable path; a private /tmp; homes, /run and "
                f"Warden's home hidden; {network}")

    async def run(self, root: Path, command: str, layer: Path | None = None) -> Finished:
        """Run the command with the workspace as its working directory; output is stdout and stderr.

        With a `layer` (only for a confined run) the command sees an overlay of the workspace and its
        writes land in the layer's upper directory, not in the workspace (`overlay`)."""
        if self.confinement is Confinement.REFUSED:
            raise WardenError(self.refusal())
        if layer is not None and self.confinement is not Confinement.BWRAP:
            raise WardenError("shell.run: only a confined command runs on an overlay")
        env = {"PATH": PATH, "HOME": str(root), "LANG": "C.UTF-8"} if self.confinement is Confinement.UNCONFINED else {}
        argv = await asyncio.to_thread(self.argv, root, command)
        if layer is not None:
            argv = overlay.launch(layer, root, argv)
        process = await asyncio.create_subprocess_exec(
            *argv, cwd=root, env=env, stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT, start_new_session=True,
        )
        try:
            output, total = await asyncio.wait_for(_read(process, self.output_limit), self.timeout)
        except TimeoutError:
            _kill_group(process.pid)
            await process.wait()
            raise SandboxTimeout(f"shell.run: timed out after {self.timeout:g}s; its processes were killed") from None
        except BaseException:
            _kill_group(process.pid)
            await process.wait()
            raise
        return Finished(await process.wait(), output, total)  # it has exited: this is its code


async def _read(process: asyncio.subprocess.Process, limit: int) -> tuple[bytes, int]:
    """All output up to its end, keeping the last `limit` bytes, then the exit."""
    if process.stdout is None:
        raise ValueError("the command's output was not piped")
    kept, total = bytearray(), 0
    while chunk := await process.stdout.read(65536):
        total += len(chunk)
        kept += chunk
        if len(kept) > limit:
            del kept[: len(kept) - limit]
    await process.wait()
    return bytes(kept), total


def _kill_group(pid: int) -> None:
    try:
        os.killpg(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass


@functools.lru_cache(maxsize=8)
def _probe(binary: str) -> str | None:
    """None when bubblewrap starts a sandbox of the allowlisted layout here; else why not, in a few words."""
    with tempfile.TemporaryDirectory(prefix="warden-probe-") as place:
        argv = [binary, *layout.argv(layout.mounts(place, (), False)), "--unshare-all", "--die-with-parent",
                "--cap-drop", "ALL", "--", "/bin/true"]
        try:
            done = subprocess.run(argv, capture_output=True, text=True, timeout=10)
        except FileNotFoundError:
            return f"{binary} is not installed"
        except (OSError, subprocess.TimeoutExpired) as exc:
            return f"{binary} did not start: {exc}"
    if done.returncode != 0:
        detail = (done.stderr.strip().splitlines() or [f"exit {done.returncode}"])[-1]
        return f"bubblewrap cannot make a sandbox here ({detail})"
    return None
