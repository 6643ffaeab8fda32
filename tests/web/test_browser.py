"""Finding a Chromium without launching one: an explicit path, Playwright's own, then the system's."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.envs.web import BrowserMissing, WebEnv, browser, find_browser
from engine.envs.web.browser import require_browser


def executable(path: Path) -> str:
    path.write_text("#!/bin/sh\nexit 0\n")
    path.chmod(0o755)
    return str(path)


@pytest.fixture
def bare(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """A machine with no Chromium anywhere: no Playwright browser, no system paths, an empty PATH."""
    empty = tmp_path / "bin"
    empty.mkdir()
    monkeypatch.setattr(browser, "playwright_chromium", lambda: None)
    monkeypatch.setattr(browser, "SYSTEM_PATHS", ())
    monkeypatch.setenv("PATH", str(empty))
    return empty


def test_an_explicit_executable_is_used_as_given(tmp_path: Path) -> None:
    chosen = executable(tmp_path / "my-chrome")
    assert find_browser(chosen) == chosen
    assert require_browser(chosen) == chosen


def test_an_explicit_command_is_looked_up_on_path(bare: Path) -> None:
    assert find_browser("my-chrome") is None
    chosen = executable(bare / "my-chrome")
    assert find_browser("my-chrome") == chosen


def test_an_explicit_path_that_is_not_there_is_said_in_one_line(tmp_path: Path) -> None:
    missing = str(tmp_path / "nothing")
    assert find_browser(missing) is None
    not_executable = tmp_path / "plain"
    not_executable.write_text("")
    assert find_browser(str(not_executable)) is None
    with pytest.raises(BrowserMissing) as failed:
        require_browser(missing)
    assert str(failed.value) == (f"the browser {missing} is not an executable file; name another, or install one "
                                 "with `playwright install chromium` or `apt-get install chromium`")


def test_with_no_browser_anywhere_there_is_none_and_the_tools_say_how_to_install_one(bare: Path) -> None:
    assert find_browser() is None
    with pytest.raises(BrowserMissing, match=r"^no Chromium found; install one with `playwright install chromium` "
                                             r"or `apt-get install chromium`$"):
        require_browser()
    tools = WebEnv().tools()
    browser = [tool for tool in tools if tool.name.startswith("browser.")]
    assert browser and all(tool.unavailable and tool.unavailable.startswith("no Chromium found") for tool in browser)
    assert {tool.name for tool in tools if not tool.unavailable} == {"api.post", "api.delete"}, "plain HTTP needs none"


async def test_reset_with_no_browser_raises_browser_missing(bare: Path) -> None:
    with pytest.raises(BrowserMissing):
        await WebEnv().reset({"start_url": "http://127.0.0.1:1/"})


def test_playwrights_chromium_comes_before_the_systems(bare: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    system = executable(bare / "chromium-browser")
    assert find_browser() == system
    installed = executable(bare.parent / "playwright-chrome")
    monkeypatch.setattr(browser, "playwright_chromium", lambda: installed)
    assert find_browser() == installed


def test_system_commands_are_tried_in_order(bare: Path) -> None:
    executable(bare / "google-chrome")
    assert find_browser() == str(bare / "google-chrome")
    executable(bare / "chromium")
    assert find_browser() == str(bare / "chromium")


def test_playwrights_own_answer_is_a_file_that_exists_or_none() -> None:
    found = browser.playwright_chromium()
    assert found is None or Path(found).is_file()
