"""Each command imports what it uses, and nothing the others need.

Importing the whole runtime (the browser driver, the graph library, the console, the model SDKs) was most
of what `echo ls | warden classify` cost; these tests look at which modules a fresh interpreter holds after
a command ran, which is what start-up costs, without timing anything.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from app.cli import COMMANDS, build_parser

ROOT = Path(__file__).resolve().parents[2]
HEAVY = ("playwright", "networkx", "textual", "anthropic", "google.genai")
"""Packages no command that neither drives a screen nor runs a task may import."""

RUN = """
import json, sys
from app.cli import main
try:
    main(sys.argv[2:])
except SystemExit:
    pass
with open(sys.argv[1], "w") as out:
    json.dump(sorted(sys.modules), out)
"""


def imported(tmp_path: Path, *args: str, stdin: str = "") -> set[str]:
    """The modules a fresh interpreter holds after `warden ARGS` ran on `stdin`."""
    listing = tmp_path / "modules.json"
    result = subprocess.run([sys.executable, "-c", RUN, str(listing), *args], input=stdin, capture_output=True,
                            text=True, cwd=ROOT, timeout=60, env={**os.environ, "WARDEN_HOME": str(tmp_path / "home")})
    assert listing.exists(), result.stderr
    return set(json.loads(listing.read_text()))


def among(modules: set[str], packages: tuple[str, ...]) -> list[str]:
    return sorted(name for name in modules if any(name == p or name.startswith(p + ".") for p in packages))


def test_classify_imports_the_gate_alone(tmp_path: Path) -> None:
    modules = imported(tmp_path, "classify", stdin="ls\n")
    assert "engine.gate.classifier" in modules, "the command did not run"
    assert among(modules, HEAVY) == []
    assert among(modules, ("engine.runtime", "engine.envs", "engine.store", "engine.programs", "rich")) == []
    assert among(modules, ("app.commands",)) == ["app.commands", "app.commands.classify"]


def test_help_imports_no_command(tmp_path: Path) -> None:
    modules = imported(tmp_path, "--help")
    assert among(modules, ("app.commands",)) == []
    assert among(modules, HEAVY) == []


def test_doctor_imports_no_runtime(tmp_path: Path) -> None:
    modules = imported(tmp_path, "doctor", "--json")
    assert "app.commands.doctor" in modules
    assert among(modules, ("engine.runtime", "networkx", "textual", "anthropic", "google.genai")) == []


def test_the_help_listing_is_what_each_command_registers() -> None:
    """`warden --help` lists the summaries in `COMMANDS` without importing a module: the listing must be the same
    as when every module registers its command itself."""
    assert build_parser(()).format_help() == build_parser(COMMANDS).format_help()
