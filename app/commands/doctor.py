"""`warden doctor`: what this machine gives Warden: the sandbox, the home and its database, optional parts."""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sqlite3
import subprocess
from pathlib import Path

from rich.console import Console
from rich.table import Table

from engine.envs.workspace.sandbox import INSTALL_HINT, Confinement, Sandbox
from engine.gate.policy import Policy
from engine.home import sandbox_for, warden_home
from engine.store.migrations import MIGRATIONS



def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("doctor", help="report the sandbox, the home, the database and optional parts",
                                   description="Checks what Warden can use here without changing anything.")
    parser.add_argument("--json", action="store_true", help="one JSON object instead of a table")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    report = diagnose(warden_home())
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        table = Table(title="warden doctor", title_justify="left", show_header=False)
        table.add_column(style="bold")
        table.add_column()
        for name, entry in report.items():
            mark = "[green]✔[/]" if entry["ok"] else "[yellow]![/]"
            table.add_row(name, f"{mark} {entry['detail']}")
        Console(highlight=False).print(table)
    return 0 if report["sandbox"]["ok"] and report["database"]["ok"] else 1


def diagnose(home: Path) -> dict[str, dict]:
    """Each part: whether it is usable, and one line saying what it is (or how to get it)."""
    policy_file = home / "policy.toml"
    try:
        policy = Policy.load(policy_file)
        policy_entry = {"ok": True, "detail": str(policy_file) if policy_file.exists() else "built-in defaults"}
    except Exception as exc:  # a broken policy is reported, not raised: doctor is where people look
        policy, policy_entry = Policy(), {"ok": False, "detail": str(exc)}
    sandbox = sandbox_for(policy, home)
    sandbox_entry = {
        "ok": sandbox.confinement is not Confinement.REFUSED,
        "detail": sandbox.describe() if sandbox.confinement is not Confinement.REFUSED else f"{sandbox.reason}; {INSTALL_HINT}",
        "confinement": sandbox.confinement.value,
    }
    return {
        "home": _home(home),
        "policy": policy_entry,
        "sandbox": sandbox_entry,
        "shell bounds": _bounds(sandbox),
        "database": _database(home / "warden.db"),
        "snapshots": _snapshots(home / "snapshots", sandbox),
        "browser": _browser(),
        "display": _display(),
        "phone": _phone(),
    }


def _bounds(sandbox: Sandbox) -> dict:
    """The bounds a confined command runs within, and how each is enforced here; one a cgroup would
    enforce but this host gives none for is polled instead, and said so (`ok` is then false)."""
    from engine.envs.workspace.bounds import enforcement

    enforced = enforcement()
    lines = [f"{name}: {how}" for name, how in enforced.items()]
    return {"ok": all(how.startswith("enforced") for how in enforced.values()),
            "detail": "\n".join([sandbox.bounds.line(), *lines]), "bounds": sandbox.bounds.line(),
            "enforced": enforced}


def _home(home: Path) -> dict:
    if home.exists() and not home.is_dir():
        return {"ok": False, "detail": f"{home}: not a folder (it is a file); point $WARDEN_HOME at a folder"}
    return {"ok": True, "detail": str(home) + ("" if home.exists() else " (created on first use)")}


def _database(path: Path) -> dict:
    if not path.exists():
        return {"ok": True, "detail": f"{path} (created on first use)"}
    try:
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as db:
            version = db.execute("PRAGMA user_version").fetchone()[0]
            mode = db.execute("PRAGMA journal_mode").fetchone()[0]
            tasks = db.execute("SELECT COUNT(*) FROM tasks").fetchone()[0] if version else 0
    except sqlite3.Error as exc:
        return {"ok": False, "detail": f"{path}: unusable ({exc})"}
    ok = version <= len(MIGRATIONS)
    note = "" if ok else f"; newer than this Warden ({len(MIGRATIONS)})"
    return {"ok": ok, "detail": f"{path}: schema {version}{note}, {mode}, {tasks} tasks"}


def _snapshots(store: Path, sandbox) -> dict:
    """How snapshots will be taken here: reflink or copy, and whether a confined command's receipt can list
    exactly what it changed (the overlay) or snapshots the whole workspace. Probed in the store itself,
    leaving nothing behind; a store not made yet is probed on first use."""
    from engine.envs.workspace import overlay, reflink

    if not store.is_dir():
        return {"ok": True, "detail": f"{store} (created, and probed, on first use)"}
    try:
        clones = reflink.probe(store, store)
    except OSError as exc:
        return {"ok": False, "detail": f"{store}: cannot write there ({exc.strerror or exc})"}
    problem = overlay.unavailable(sandbox, store)
    shell = ("a confined command snapshots exactly what it changed (overlay)" if problem is None
             else f"a confined command snapshots the whole workspace ({problem})")
    return {"ok": True, "detail": f"{'reflink' if clones else 'copy'} into {store}; {shell}",
            "reflink": clones, "shell_overlay": problem is None}


def _browser() -> dict:
    """The Chromium the web environment would launch (the same search it makes), or how to get one."""
    from engine.envs.web import browser_problem, find_browser

    explicit = os.environ.get("WARDEN_BROWSER") or None
    problem = browser_problem(explicit)
    return {"ok": problem is None, "detail": problem or f"Chromium at {find_browser(explicit)}"}


def _display() -> dict:
    """Whether the desktop tools can act on `$DISPLAY` now (one X connection is opened to find out)."""
    from engine.envs.desktop import desktop_unavailable

    display = os.environ.get("DISPLAY") or None
    problem = desktop_unavailable(display)
    if problem and not display:
        xvfb = shutil.which("Xvfb")
        problem += " (Xvfb is installed)" if xvfb else " (apt-get install xvfb)"
    return {"ok": problem is None, "detail": problem or f"DISPLAY={display}"}


def _phone() -> dict:
    """Whether a phone can be driven now: uiautomator2, `adb`, and a device `adb devices` lists (or the one
    `$ANDROID_SERIAL` names)."""
    from engine.envs.android import android_unavailable

    problem = android_unavailable()
    if problem:
        return {"ok": False, "detail": problem}
    adb = shutil.which("adb")
    if adb is None:
        return {"ok": False, "detail": "adb not found on PATH (apt-get install adb, or the Android platform-tools)"}
    try:
        listed = subprocess.run([adb, "devices"], capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return {"ok": False, "detail": f"`adb devices` failed ({exc})"}
    devices = [line.split()[0] for line in listed.stdout.splitlines()[1:]
               if len(line.split()) >= 2 and line.split()[1] == "device"]
    serial = os.environ.get("ANDROID_SERIAL")
    if serial and serial not in devices:
        return {"ok": False, "detail": f"no phone {serial} attached (`adb devices` lists {', '.join(devices) or 'none'})"}
    if not devices:
        return {"ok": False, "detail": "no phone attached (`adb devices` lists none)"}
    if not serial and len(devices) > 1:
        return {"ok": False, "detail": f"{len(devices)} phones attached ({', '.join(devices)}); set ANDROID_SERIAL"}
    return {"ok": True, "detail": f"uiautomator2, adb, phone {serial or devices[0]}"}
