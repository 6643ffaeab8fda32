"""Resetting: a fresh context on the start URL, setup steps, and one-line failures for bad specs and dead sites."""

from __future__ import annotations

import pytest

from engine.envs.web import WebEnv
from engine.errors import WardenError


async def test_setup_runs_scripts_awaiting_promises_then_waits_for_a_target(browser_env: WebEnv, site) -> None:
    await browser_env.reset({
        "kind": "web", "start_url": site.url("/"),
        "setup": [{"js": "new Promise((done) => setTimeout(() => { document.title = 'Prepared'; done(); }, 200))"},
                  {"js": "() => { setTimeout(() => { const b = document.createElement('button');"
                         " b.textContent = 'Arrived'; document.body.append(b); }, 300); }"},
                  {"wait_for": {"role": "button", "name": "Arrived"}}],
        "viewport": {"width": 800, "height": 600},
    })
    seen = await browser_env.observe()
    assert seen.fields["title"] == "Prepared"
    assert '- button "Arrived"' in seen.text
    assert seen.fields["display"] == {"width": 800, "height": 600}


async def test_a_setup_script_that_reloads_the_page_is_followed(browser_env: WebEnv, site) -> None:
    await browser_env.reset({"start_url": site.url("/"), "setup": [
        {"js": "sessionStorage.setItem('seen', 'yes'); location.reload()"},
        {"wait_for": {"css": "#save"}},
    ]})
    assert await browser_env.evaluate("sessionStorage.getItem('seen')") == "yes"


async def test_each_reset_opens_a_fresh_profile(browser_env: WebEnv, site) -> None:
    await browser_env.reset({"start_url": site.url("/"), "setup": [
        {"js": "localStorage.setItem('kept', '1'); document.cookie = 'crumb=1'"}]})
    assert await browser_env.evaluate("localStorage.getItem('kept')") == "1"
    await browser_env.reset({"start_url": site.url("/")})
    assert await browser_env.evaluate("[localStorage.getItem('kept'), document.cookie]") == [None, ""]


async def test_a_failing_setup_step_says_which_in_one_line(browser_env: WebEnv, site) -> None:
    with pytest.raises(WardenError) as failed:
        await browser_env.reset({"start_url": site.url("/"), "setup": [{"js": "1"}, {"js": "no_such_name()"}]})
    assert str(failed.value).startswith("web setup: setup step 2 (js): ReferenceError: no_such_name is not defined")
    with pytest.raises(WardenError) as waited:
        await browser_env.reset({"start_url": site.url("/"), "timeout_s": 0.5,
                                 "setup": [{"wait_for": {"text": "Never there"}}]})
    assert str(waited.value) == 'web setup step 1: nothing matches text "Never there" within 0.5 s'


@pytest.mark.parametrize(("spec", "says"), [
    ({}, "web spec: start_url must be an http(s) URL, got None"),
    ({"start_url": "file:///etc/passwd"}, "web spec: start_url must be an http(s) URL"),
    ({"start_url": "http://127.0.0.1:1/", "setup": [{"click": "x"}]},
     'web spec: setup step 1 must be {"js": source} or {"wait_for": TARGET}'),
    ({"start_url": "http://127.0.0.1:1/", "setup": [{"wait_for": {"id": "x"}}]},
     "web spec: setup step 1 wait_for: not a target"),
    ({"start_url": "http://127.0.0.1:1/", "allowed_origins": ["http://127.0.0.1:2/path"]},
     "web allowed_origins: 'http://127.0.0.1:2/path' is not an origin"),
    ({"start_url": "http://127.0.0.1:1/", "allowed_origins": ["http://127.0.0.1:2"]},
     "web spec: start_url http://127.0.0.1:1/ is outside allowed_origins (http://127.0.0.1:2)"),
    ({"start_url": "http://127.0.0.1:1/", "viewport": {"width": 10}}, "web spec: viewport must be"),
    ({"start_url": "http://127.0.0.1:1/", "timeout_s": 0}, "web spec: timeout_s must be a number"),
    ({"start_url": "http://127.0.0.1:1/", "start": "x"}, "web spec: unknown keys ['start']"),
])
async def test_a_bad_spec_is_refused_in_one_line_before_the_browser_is_touched(spec: dict, says: str) -> None:
    env = WebEnv(executable="/nonexistent/chromium")  # never launched: the spec fails first
    with pytest.raises(WardenError) as failed:
        await env.reset(spec)
    assert str(failed.value).startswith(says) and "\n" not in str(failed.value)


async def test_an_unreachable_start_url_fails_in_one_line(browser_env: WebEnv, closed_port: int) -> None:
    url = f"http://127.0.0.1:{closed_port}/"
    with pytest.raises(WardenError) as failed:
        await browser_env.reset({"start_url": url})
    assert str(failed.value) == f"start URL {url} cannot be reached: net::ERR_CONNECTION_REFUSED"


async def test_a_page_that_never_answers_fails_within_its_timeout(browser_env: WebEnv, silent: str) -> None:
    with pytest.raises(WardenError) as failed:
        await browser_env.reset({"start_url": silent, "timeout_s": 1})
    assert str(failed.value) == f"start URL {silent} did not load within 1 s"


async def test_a_start_url_that_is_not_found_still_opens(browser_env: WebEnv, site) -> None:
    await browser_env.reset({"start_url": site.url("/missing")})
    assert (await browser_env.observe()).fields["title"] == "Not found"
