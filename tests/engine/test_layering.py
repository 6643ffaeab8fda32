"""The engine never imports Textual: checked in a fresh interpreter over every engine module."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

PROBE = """
import importlib, pkgutil, sys
from pathlib import Path
import engine, engine.runtime, engine.demo
names = {m.name for m in pkgutil.walk_packages(engine.__path__, "engine.")}
root = Path(engine.__file__).parent
# also modules in folders without __init__.py, which pkgutil does not walk into
names |= {"engine." + ".".join(p.relative_to(root).with_suffix("").parts) for p in root.rglob("*.py")}
names = sorted(n.removesuffix(".__init__") for n in names if not n.endswith(".__main__"))  # a __main__ runs when imported
for name in names:
    importlib.import_module(name)
print(len(names))
print(any(m == "textual" or m.startswith("textual.") for m in sys.modules))
"""


def test_engine_imports_no_textual():
    done = subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    count, textual_loaded = done.stdout.split()
    assert int(count) > 30  # the walk really found the engine's modules
    assert textual_loaded == "False"
