"""`warden doctor` marks a home that is a file, and a phone that cannot be reached, as problems, saying why."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.commands import doctor
from tests.cli.test_submit import warden


def test_a_home_that_is_a_file_is_not_ok(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.write_text("not a folder\n")
    found = warden(home, "doctor", "--json")
    entry = json.loads(found.stdout)["home"]
    assert entry["ok"] is False and "not a folder" in entry["detail"]
    table = warden(home, "doctor")
    line = next(line for line in table.stdout.splitlines() if line.startswith("│ home "))
    assert "!" in line and "✔" not in line
    assert "not a folder" in " ".join(table.stdout.split())


def test_a_phone_with_no_adb_is_not_ok(monkeypatch: pytest.MonkeyPatch) -> None:
    import engine.envs.android as android

    monkeypatch.setattr(android, "android_unavailable", lambda: None)
    monkeypatch.setattr(doctor.shutil, "which", lambda name: None)
    entry = doctor._phone()
    assert entry["ok"] is False and "adb" in entry["detail"]


def test_a_phone_with_adb_but_no_device_is_not_ok(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    import engine.envs.android as android

    adb = tmp_path / "adb"
    adb.write_text("#!/bin/sh\necho 'List of devices attached'\necho\n")
    adb.chmod(0o755)
    monkeypatch.setattr(android, "android_unavailable", lambda: None)
    monkeypatch.setattr(doctor.shutil, "which", lambda name: str(adb) if name == "adb" else None)
    monkeypatch.delenv("ANDROID_SERIAL", raising=False)
    entry = doctor._phone()
    assert entry["ok"] is False and "no phone" in entry["detail"]

    adb.write_text("#!/bin/sh\necho 'List of devices attached'\necho 'emulator-5554\tdevice'\n")
    entry = doctor._phone()
    assert entry["ok"] is True and "emulator-5554" in entry["detail"]
