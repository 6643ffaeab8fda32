"""What the hook-protocol tests share: a throwaway project and HOME, and `warden` run as the host runs it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def warden(env: dict[str, str], *args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "app.cli", *args], capture_output=True, text=True, timeout=120,
                          env=env, cwd=ROOT, input=stdin)


def project_env(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    """A project holding `notes.txt`, a HOME holding `precious.txt`, and the environment a host gives its hooks:
    nothing of the person's, a short wait for a person, and a hook daemon that idles out in seconds."""
    home, project = tmp_path / "home", tmp_path / "project"
    home.mkdir()
    project.mkdir()
    (home / "precious.txt").write_text("the person's own file\n")
    (project / "notes.txt").write_text("keep me\n")
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(home), "WARDEN_HOME": str(tmp_path / "warden"),
           "WARDEN_HOOK_WAIT": "2", "CODEX_HOME": str(home / ".codex"), "XDG_CONFIG_HOME": str(home / ".config"),
           "XDG_CACHE_HOME": str(home / ".cache"),
           "WARDEN_SERVE_IDLE_MINUTES": os.environ.get("WARDEN_SERVE_IDLE_MINUTES", "0.2")}
    return project, env
