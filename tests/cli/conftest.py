"""What the CLI's tests share: a temporary $WARDEN_HOME the commands open."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("WARDEN_HOME", str(tmp_path / "home"))
    return tmp_path / "home"
