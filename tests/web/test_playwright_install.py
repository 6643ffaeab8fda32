"""A browser `playwright install chromium` put on disk wins over the system's, found without starting Playwright."""

from __future__ import annotations

import json
from pathlib import Path

import playwright

from engine.envs.web import browser


def test_playwrights_own_chromium_is_found_from_its_revision_record(tmp_path: Path, monkeypatch) -> None:
    record = Path(playwright.__file__).parent / "driver" / "package" / "browsers.json"
    revision = next(b["revision"] for b in json.loads(record.read_text())["browsers"] if b["name"] == "chromium")
    chrome = tmp_path / f"chromium-{revision}" / "chrome-linux64" / "chrome"
    chrome.parent.mkdir(parents=True)
    chrome.write_text("#!/bin/sh\n")
    chrome.chmod(0o755)
    monkeypatch.setenv("PLAYWRIGHT_BROWSERS_PATH", str(tmp_path))
    browser.playwright_chromium.cache_clear()
    try:
        assert browser.find_browser() == str(chrome)
        chrome.chmod(0o644)  # not executable: not a browser
        browser.playwright_chromium.cache_clear()
        assert browser.find_browser() != str(chrome)
    finally:
        browser.playwright_chromium.cache_clear()
