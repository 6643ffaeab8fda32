"""A browser killed mid-task: the next call fails in one line, and the next reset launches a new browser."""

from __future__ import annotations

import os
import signal
from pathlib import Path

import pytest

from engine.envs.web import BrowserGone, WebEnv
from tests.web.calls import call


def _parents() -> dict[int, int]:
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            parents[int(entry.name)] = int(stat.rsplit(")", 1)[1].split()[1])
    return parents


def chromium_browsers() -> set[int]:
    """Chromium browser processes (not their renderers and helpers) descended from this test process."""
    parents = _parents()
    found: set[int] = set()
    for pid in parents:
        ancestor = parents.get(pid)
        while ancestor and ancestor != os.getpid():
            ancestor = parents.get(ancestor)
        if not ancestor:
            continue
        try:
            command = Path(f"/proc/{pid}/cmdline").read_bytes()  # helpers rewrite theirs into one string
        except OSError:
            continue
        program = Path(command.split(b"\0")[0].split(b" ")[0].decode()).name
        if "chrom" in program and b"--type=" not in command:
            found.add(pid)
    return found


async def test_a_killed_browser_fails_the_next_call_and_a_reset_brings_a_new_one(site) -> None:
    env = WebEnv()
    spec = {"start_url": site.url("/"), "timeout_s": 5}
    before = chromium_browsers()
    try:
        await env.reset(spec)
        [browser] = chromium_browsers() - before
        assert b"--no-sandbox" in Path(f"/proc/{browser}/cmdline").read_bytes()  # Chromium refuses root otherwise
        os.kill(browser, signal.SIGKILL)
        with pytest.raises(BrowserGone) as failed:
            await call(env, "browser.click", target={"role": "button", "name": "Save"})
        assert str(failed.value).startswith("the browser closed or crashed") and "\n" not in str(failed.value)
        assert not env.ready
        with pytest.raises(BrowserGone):
            await call(env, "browser.goto", url=site.url("/second"))

        await env.reset(spec)
        assert env.ready
        [replacement] = chromium_browsers() - before
        assert replacement != browser
        output = await call(env, "browser.click", target={"role": "button", "name": "Save"})
        assert output.data["target"]["selector"] == "#save"
    finally:
        await env.close()
    assert chromium_browsers() - before == set()
