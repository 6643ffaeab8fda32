"""Where `shell.run` runs: inside bubblewrap, refused, or (only when the policy opts in) unconfined.

Confined means: an allowlist of the host's trees read-only over an empty root, with whatever
there is not readable by everyone masked (`layout`: no socket, secret or backup outside it is
there to reach), the workspace the only writable path, a private `/tmp`, home directories,
`/run` and Warden's own home hidden (commands may run as root here: file modes alone would not
keep them out), an empty environment (bubblewrap itself is started with none, so even the
sandbox's pid 1 shows nothing in `/proc/1/environ`), no network unless granted, all
capabilities dropped and no new privileges, and the whole process tree killed when the command
times out. Only a confined run, with no network, is `local_reversible`.

The layout is scanned as each command starts, so an entry it masks can be gone by the time
bubblewrap mounts over it (a socket removed meanwhile): bubblewrap then cannot make the mount
point in the read-only tree and fails before the command starts, with the exit status a command
could have too. Bubblewrap's status (`--json-status-fd`) tells the two apart: it reports an
`exit-code` only for a command it started. A setup failure is scanned afresh and retried
(`SETUP_ATTEMPTS`), then said in one line naming bubblewrap's message (`SandboxSetupError`),
never passed off as the command's exit.
"""

from __future__ import annotations

import asyncio
import functools
import os
import shutil
import signal
import subprocess
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path

from engine.envs.workspace import layout, overlay
from engine.errors import WardenError

PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
_HIDDEN = ("/run", "/root", "/home", "/etc/ssh", "/etc/sudoers.d")
INSTALL_HINT = "install bubblewrap (Debian/Ubuntu: apt-get install bubblewrap) and allow unprivileged user namespaces"
SETUP_ATTEMPTS = 3
_STARTED = b'"exit-code"'


class Confinement(StrEnum):
    BWRAP = "bubblewrap"
    UNCONFINED = "unconfined"
    REFUSED = "refused"


class SandboxTimeout(WardenError):
    """The command ran past its time; its whole process tree was killed."""


class SandboxSetupError(WardenError):
    """Bubblewrap (or the overlay launcher before it) could not set the sandbox up on any attempt, so the command
    never started; `said` is its message."""

    def __init__(self, said: str) -> None:
        super().__init__(f"the sandbox could not be set up ({SETUP_ATTEMPTS} attempts; "
                         f"the command never started): {said}")
        self.said = said


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

    def argv(self, root: Path, command: str, status: int | None = None) -> list[str]:
        """The command line that runs `command` in the workspace `root` (blocking: the layout scans `/etc`);
        confined, bubblewrap reports on the descriptor `status` whether it started the command (`started`)."""
        if self.confinement is Confinement.UNCONFINED:
            return ["/bin/sh", "-c", command]
        if self.bwrap is None:  # refused: there is no bubblewrap here to confine it
            raise WardenError(self.refusal() or "shell.run: this sandbox names no bubblewrap binary")
        reporting = ["--json-status-fd", str(status)] if status is not None else []
        made = layout.mounts(str(root), self.hide, self.egress)
        return [self.bwrap, *reporting, *layout.argv(made), "--chdir", str(root),
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
        if self.confinement is Confinement.UNCONFINED:
            env = {"PATH": PATH, "HOME": str(root), "LANG": "C.UTF-8"}
            return await self._spawn(self.argv(root, command), root, env)
        said = ""
        for _ in range(SETUP_ATTEMPTS):
            report, status = os.pipe()
            try:
                argv = await asyncio.to_thread(self.argv, root, command, status)  # scanned afresh each attempt
                if layer is not None:
                    argv = overlay.launch(layer, root, argv)  # the launcher execs bubblewrap: the descriptor passes on
                finished = await self._spawn(argv, root, {}, status)
                if started(finished.code, _drain(report)):
                    return finished
                said = _last_line(finished.output.decode(errors="replace"))  # all bubblewrap's: nothing else ran
            finally:
                os.close(report)
                os.close(status)
        raise SandboxSetupError(said)

    def run_blocking(self, root: Path, command: str, layer: Path | None = None,
                     timeout: float = 20) -> subprocess.CompletedProcess[str]:
        """A confined `run` for a probe: blocking, with stderr apart, and its setup retried the same way."""
        if self.confinement is not Confinement.BWRAP:
            raise WardenError("shell.run: only a confined command reports whether its sandbox was set up")

        def argv(status: int) -> list[str]:
            made = self.argv(root, command, status)
            return overlay.launch(layer, root, made) if layer is not None else made

        return _run_set_up(argv, timeout)

    async def _spawn(self, argv: list[str], root: Path, env: dict[str, str], status: int | None = None) -> Finished:
        """Run `argv` to its end, passing it the descriptor `status`; past the timeout, kill its process group."""
        process = await asyncio.create_subprocess_exec(
            *argv, cwd=root, env=env, stdin=asyncio.subprocess.DEVNULL, pass_fds=() if status is None else (status,),
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


def started(code: int, status: bytes) -> bool:
    """Whether bubblewrap started the command, from its exit `code` and what it wrote with `--json-status-fd`:
    it reports the command's `exit-code` only once the sandbox was set up and the command executed, so a
    failure without one is bubblewrap's own (its setup, or the overlay launcher before it)."""
    return code == 0 or _STARTED in status


def _drain(fd: int) -> bytes:
    """What is in the pipe `fd` now (read once the writer exited; never waits for a descendant that kept it open)."""
    os.set_blocking(fd, False)
    chunks: list[bytes] = []
    while True:
        try:
            chunk = os.read(fd, 65536)
        except BlockingIOError:
            break
        if not chunk:
            break
        chunks.append(chunk)
    return b"".join(chunks)


def _last_line(text: str) -> str:
    """The last thing said (bubblewrap's error comes last), in one line."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return lines[-1][-300:] if lines else "it said nothing"


def _run_set_up(argv: Callable[[int], list[str]], timeout: float) -> subprocess.CompletedProcess[str]:
    """`subprocess.run` of the bubblewrap command line `argv(status)` makes (afresh each attempt: the layout is
    scanned as it is made), retried while bubblewrap fails to set up its sandbox; `SandboxSetupError` after
    `SETUP_ATTEMPTS`. It runs with an empty environment and no input."""
    said = ""
    for _ in range(SETUP_ATTEMPTS):
        report, status = os.pipe()
        try:
            done = subprocess.run(argv(status), capture_output=True, text=True, timeout=timeout,
                                  stdin=subprocess.DEVNULL, env={}, pass_fds=(status,))
            if started(done.returncode, _drain(report)):
                return done
            said = _last_line(done.stderr)
        finally:
            os.close(report)
            os.close(status)
    raise SandboxSetupError(said)


def _kill_group(pid: int) -> None:
    try:
        os.killpg(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass


@functools.lru_cache(maxsize=8)
def _probe(binary: str) -> str | None:
    """None when bubblewrap starts a sandbox of the allowlisted layout here; else why not, in a few words."""
    with tempfile.TemporaryDirectory(prefix="warden-probe-") as place:
        def argv(status: int) -> list[str]:
            return [binary, "--json-status-fd", str(status), *layout.argv(layout.mounts(place, (), False)),
                    "--unshare-all", "--die-with-parent", "--cap-drop", "ALL", "--", "/bin/true"]

        try:
            done = _run_set_up(argv, timeout=10)
        except SandboxSetupError as exc:
            return f"bubblewrap cannot make a sandbox here ({exc.said})"
        except FileNotFoundError:
            return f"{binary} is not installed"
        except (OSError, subprocess.TimeoutExpired) as exc:
            return f"{binary} did not start: {exc}"
    if done.returncode != 0:  # it set up a sandbox, but `true` failed in it
        return f"bubblewrap cannot make a sandbox here (true: exit {done.returncode})"
    return None
