"""A real Claude Code for the tests: `@anthropic-ai/claude-code` installed once from npm into a cache.

`claude_binary()` installs the pinned version into
`$XDG_CACHE_HOME/warden-tests/claude-code/VERSION` (`~/.cache/...` without the variable) the first
time, under a file lock so parallel test workers install it once, and returns the `claude`
executable. The package ships Claude Code as a native binary in a per-platform package (an
optional dependency) that its postinstall copies over `bin/claude.exe`; when that copy did not
happen the platform package's binary is used directly. Any failure raises `ClaudeInstallError`
with one line: the tests that need Claude Code fail, they do not skip.
"""

from __future__ import annotations

import fcntl
import os
import shutil
import subprocess
from pathlib import Path

PACKAGE = "@anthropic-ai/claude-code"
VERSION = "2.1.332"
NPM_TIMEOUT = 900


class ClaudeInstallError(RuntimeError):
    pass


def cache_root() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "warden-tests" / "claude-code"


def claude_binary(version: str = VERSION) -> Path:
    """The `claude` executable of `version`, installed into the cache on first use."""
    root = cache_root()
    root.mkdir(parents=True, exist_ok=True)
    final = root / version
    with open(root / f"{version}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            if (final / ".installed").exists():
                return _checked(_find_binary(final), version)
            partial = root / f"{version}.partial"
            shutil.rmtree(partial, ignore_errors=True)
            shutil.rmtree(final, ignore_errors=True)
            _npm_install(partial, version)
            binary = _checked(_find_binary(partial), version)
            (partial / ".installed").write_text(f"{PACKAGE}@{version}\n")
            partial.rename(final)
            return final / binary.relative_to(partial)
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def _npm_install(prefix: Path, version: str) -> None:
    npm = shutil.which("npm")
    if npm is None:
        raise ClaudeInstallError("npm is not installed (./setup.sh test installs nodejs and npm)")
    prefix.mkdir(parents=True)
    command = [npm, "install", "--prefix", str(prefix), "--no-audit", "--no-fund", "--no-save",
               f"{PACKAGE}@{version}"]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=NPM_TIMEOUT,
                              stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        raise ClaudeInstallError(f"npm install {PACKAGE}@{version} took more than {NPM_TIMEOUT} s") from None
    if done.returncode != 0:
        output = (done.stderr + "\n" + done.stdout).strip().splitlines()
        lines = [line for line in output if line.startswith("npm error") and "complete log" not in line]
        shutil.rmtree(prefix, ignore_errors=True)
        raise ClaudeInstallError(f"npm install {PACKAGE}@{version} failed ({done.returncode}): "
                                 + " | ".join((lines or output[-1:])[:3]))


def _is_native(path: Path) -> bool:
    try:
        with open(path, "rb") as file:
            head = file.read(4)
    except OSError:
        return False
    return head in (b"\x7fELF", b"\xcf\xfa\xed\xfe", b"MZ\x90\x00") and os.access(path, os.X_OK)


def _find_binary(prefix: Path) -> Path:
    scope = prefix / "node_modules" / "@anthropic-ai"
    wrapper = scope / "claude-code" / "bin" / "claude.exe"
    if _is_native(wrapper):
        return wrapper
    for platform_package in sorted(scope.glob("claude-code-*")):
        for name in ("claude", "claude.exe"):
            if _is_native(platform_package / name):
                return platform_package / name
    raise ClaudeInstallError(f"no Claude Code binary for this platform under {scope}")


def _checked(binary: Path, version: str) -> Path:
    try:
        done = subprocess.run([str(binary), "--version"], capture_output=True, text=True, timeout=60,
                              stdin=subprocess.DEVNULL, env={**os.environ, "DISABLE_AUTOUPDATER": "1"})
    except (OSError, subprocess.TimeoutExpired) as error:
        raise ClaudeInstallError(f"{binary} --version did not run: {error}") from None
    if done.returncode != 0 or version not in done.stdout:
        raise ClaudeInstallError(f"{binary} --version said {(done.stdout + done.stderr).strip()[:200]!r}, "
                                 f"not {version}")
    return binary
