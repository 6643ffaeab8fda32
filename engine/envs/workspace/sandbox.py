"""Where `shell.run` runs: inside bubblewrap, refused, or (only when the policy opts in) unconfined.

Confined means: an allowlist of the host's trees read-only over an empty root, with whatever
there is not readable by everyone masked (`layout`: no socket, secret or backup outside it is
there to reach), the workspace the only writable path, a private `/tmp`, home directories,
`/run` and Warden's own home hidden (commands may run as root here: file modes alone would not
keep them out), an empty environment (bubblewrap itself is started with none, so even the
sandbox's pid 1 shows nothing in `/proc/1/environ`), no network unless granted, all
capabilities dropped and no new privileges, and the command held to its bounds (`bounds`: time,
memory, processes, bytes written; each tmpfs it may write in is no larger than the write bound),
its whole sandbox stopped past any of them (`Exceeded`). Only a confined run, with no network, is
`local_reversible`.

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
import dataclasses
import functools
import os
import shutil
import signal
import subprocess
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path

from engine.envs.workspace import layout, overlay
from engine.envs.workspace.bounds import MB, Bounds, Exceeded, Running, footprint, inventory, written_since
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


class SandboxTimeout(Exceeded):
    """The command ran past its time; its whole process tree was killed."""

    def __init__(self, timeout: float) -> None:
        super().__init__(f"timed out after {timeout:g}s (shell.timeout_seconds); its processes were killed")


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
    bounds: Bounds = Bounds()

    @classmethod
    def detect(cls, bwrap: str | None = None, allow_unconfined: bool = False, egress: bool = False,
               timeout: float = 60.0, hide: tuple[Path, ...] = (), bounds: Bounds | None = None) -> "Sandbox":
        """Bubblewrap if it starts a sandbox here; else unconfined if the policy allows it; else refused.
        `bounds`, when given, sets the time too (`timeout` is for callers that bound nothing else)."""
        bounds = bounds if bounds is not None else Bounds(timeout=timeout)
        found = cls._detect(bwrap, allow_unconfined, egress, bounds.timeout, hide)
        return dataclasses.replace(found, bounds=bounds)

    @classmethod
    def _detect(cls, bwrap: str | None, allow_unconfined: bool, egress: bool, timeout: float,
                hide: tuple[Path, ...]) -> "Sandbox":
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
        made = _sized(layout.argv(layout.mounts(str(root), self.hide, self.egress)), self.bounds.write_mb * MB)
        return [self.bwrap, *reporting, *made, "--chdir", str(root),
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
        writes land in the layer's upper directory, not in the workspace (`overlay`). A confined run past
        one of its bounds raises `Exceeded` (its sandbox stopped); one past its time, `SandboxTimeout`."""
        if self.confinement is Confinement.REFUSED:
            raise WardenError(self.refusal())
        if layer is not None and self.confinement is not Confinement.BWRAP:
            raise WardenError("shell.run: only a confined command runs on an overlay")
        if self.confinement is Confinement.UNCONFINED:
            env = {"PATH": PATH, "HOME": str(root), "LANG": "C.UTF-8"}
            return await self._spawn(self.argv(root, command), root, env)
        written = await asyncio.to_thread(_measure, root, layer)
        said = ""
        for _ in range(SETUP_ATTEMPTS):
            report, status = os.pipe()
            try:
                argv = await asyncio.to_thread(self.argv, root, command, status)  # scanned afresh each attempt
                if layer is not None:
                    argv = overlay.launch(layer, root, argv)  # the launcher execs bubblewrap: the descriptor passes on
                running = await asyncio.to_thread(Running, self.bounds, written)
                finished = await self._spawn(argv, root, {}, status, running)
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

    async def _spawn(self, argv: list[str], root: Path, env: dict[str, str], status: int | None = None,
                     running: Running | None = None) -> Finished:
        """Run `argv` to its end, passing it the descriptor `status`, within the bounds `running` enforces
        (only the time without it); past one, kill its process group, which ends the sandbox's pid namespace."""
        try:
            process = await asyncio.create_subprocess_exec(
                *argv, cwd=root, env=env, stdin=asyncio.subprocess.DEVNULL, pass_fds=() if status is None else (status,),
                stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT, start_new_session=True,
                preexec_fn=running.preexec if running is not None else None,
            )
            return await self._await(process, running)
        finally:
            if running is not None:
                await asyncio.to_thread(running.close)

    async def _await(self, process: asyncio.subprocess.Process, running: Running | None) -> Finished:
        """The process's end, or the first bound it exceeds (its group killed then)."""
        reading = asyncio.ensure_future(_read(process, self.output_limit))
        watching = asyncio.ensure_future(running.watch(process.pid)) if running is not None else None
        waited = [task for task in (reading, watching) if task is not None]
        try:
            done, _ = await asyncio.wait(waited, timeout=self.timeout, return_when=asyncio.FIRST_COMPLETED)
        except BaseException:
            await _stop(process, waited)
            raise
        if reading not in done:
            await _stop(process, waited)
            raise watching.result() if watching is not None and watching in done else SandboxTimeout(self.timeout)
        await _stop(process, waited)  # it has ended; only the watcher is left to cancel
        output, total = reading.result()
        if running is not None and (found := await asyncio.to_thread(running.ended)) is not None:
            raise found
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


async def _stop(process: asyncio.subprocess.Process, tasks: Sequence[asyncio.Future]) -> None:
    """Kill the process group (if it still runs), wait for it, and cancel the reader and the watcher."""
    if process.returncode is None:
        _kill_group(process.pid)
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    await process.wait()


def _measure(root: Path, layer: Path | None) -> Callable[[], int]:
    """What counts as written (blocking): the upper layer's bytes on an overlay, else those of every file
    new or changed in the workspace."""
    if layer is not None:
        return functools.partial(footprint, layer / "upper")
    before = inventory(root)
    return functools.partial(written_since, root, before)


def _sized(args: list[str], size: int) -> list[str]:
    """The mount arguments with every tmpfs no larger than `size` bytes: a private `/tmp` is memory,
    and a command must not be able to fill it without bound."""
    sized: list[str] = []
    for arg in args:
        sized += ["--size", str(size), arg] if arg == "--tmpfs" else [arg]
    return sized


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
