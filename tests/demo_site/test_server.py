"""DemoSite's life cycle: loopback only, start/stop, a copied state, the slow page, and `python -m engine.demo_site`."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from engine.demo_site import DemoSite
from tests.demo_site.client import Client

ROOT = Path(__file__).resolve().parents[2]


def test_start_gives_a_loopback_url_and_stop_ends_it() -> None:
    site = DemoSite(dialog="never")
    url = site.start()
    assert url.startswith("http://127.0.0.1:") and url == site.url
    assert Client(url).get("/contacts").status == 200
    with pytest.raises(RuntimeError):
        site.start()
    site.stop()
    with pytest.raises(urllib.error.URLError):
        urllib.request.urlopen(url + "/contacts", timeout=5)
    site.stop()


def test_localhost_is_loopback_too() -> None:
    site = DemoSite()
    try:
        assert site.start("localhost").startswith("http://127.0.0.1:")
    finally:
        site.stop()


@pytest.mark.parametrize("host", ["0.0.0.0", "10.1.2.3", "example.org"])
def test_only_loopback_addresses(host: str) -> None:
    with pytest.raises(ValueError):
        DemoSite().start(host)


def test_state_is_a_copy(site: DemoSite) -> None:
    copy = site.state()
    copy["contacts"].clear()
    copy["settings"]["theme"] = "dark"
    assert len(site.state()["contacts"]) == 4 and site.state()["settings"]["theme"] == "light"
    assert Client(site.url).state() == site.state()


def test_slow_page_answers_and_does_not_hold_up_others() -> None:
    with DemoSite(dialog="never") as site:
        client = Client(site.url)
        answered: list[str] = []
        slow = threading.Thread(target=lambda: answered.append(client.get("/reports").text))
        slow.start()
        assert client.get("/contacts").status == 200
        assert answered == []
        slow.join(timeout=30)
        assert "Run report" in answered[0]


FOREGROUND = ("import runpy, signal; signal.signal(signal.SIGINT, signal.default_int_handler); "
              "runpy.run_module('engine.demo_site', run_name='__main__', alter_sys=True)")
"""`python -m engine.demo_site` as typed at a prompt, where Ctrl-C interrupts it. A child inherits its parent's
SIGINT, and a test run started in the background of a script (a CI step, `pytest &`) ignores it: run as plain
`-m`, the module would then never see the interrupt and the test would wait out its timeout."""


def test_module_serves_in_the_foreground_until_interrupted() -> None:
    process = subprocess.Popen([sys.executable, "-c", FOREGROUND, "--port", "0", "--dialog", "never"],
                               cwd=ROOT, stdout=subprocess.PIPE, text=True,
                               env={**os.environ, "PYTHONPATH": str(ROOT)})
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        url = line.split(" on ", 1)[1].split()[0]
        assert url.startswith("http://127.0.0.1:") and url.endswith("/contacts")
        assert Client(url.removesuffix("/contacts")).get("/contacts").status == 200
        process.send_signal(signal.SIGINT)
        assert process.wait(timeout=10) == 0
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
