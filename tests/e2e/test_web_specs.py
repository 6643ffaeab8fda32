"""`warden run --spec`: a coordinate click's trace names the element it hit, TOML specs and bad specs.
(Every bundled family is solved cold, then replayed, in `test_web_programs.py`.)"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
FAMILIES = sorted((REPO / "docs" / "examples" / "web").glob("*.json"))


def warden_run(home: Path, spec: Path, *extra: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "WARDEN_HOME": str(home)}
    return subprocess.run([sys.executable, "-m", "app.cli", "run", "--spec", str(spec), "--json", *extra],
                          capture_output=True, text=True, env=env, timeout=180, cwd=REPO)


def test_there_are_at_least_six_families() -> None:
    assert len(FAMILIES) >= 6


def test_a_coordinate_click_is_traced_with_the_role_and_name_it_hit(tmp_path: Path) -> None:
    """The agent clicks pixels only; the trace must still say it pressed the "New contact" link."""
    probe = tmp_path / "probe.json"
    probe.write_text(json.dumps({
        "goal": "Open the form for a new contact",
        "env": {"kind": "web", "start_url": "{demo}/contacts", "viewport": {"width": 1000, "height": 700},
                "setup": [{"js": "fetch('/api/reset', {method: 'POST', body: JSON.stringify({dialog: 'never'})})"
                                 ".then(() => location.reload())"},
                          {"wait_for": {"role": "heading", "name": "Contacts"}}]},
        "evaluate": {"url": "/contacts/new"},
        "agent": {"kind": "scripted", "steps": [{"tool": "browser.wait",
                                                 "args": {"target": {"role": "link", "name": "New contact"}}}]},
        "learn": False,
    }))
    first = warden_run(tmp_path / "home", probe)
    assert json.loads(first.stdout)["outcome"] == "failed"  # waiting is not opening the form
    box = _box(tmp_path / "home", "New contact")
    spec = json.loads(probe.read_text())
    spec["agent"]["steps"] = [{"tool": "browser.click", "args": {"target": {"x": box[0], "y": box[1]}}}]
    probe.write_text(json.dumps(spec))
    done = warden_run(tmp_path / "home", probe)
    result = json.loads(done.stdout)
    assert result["outcome"] == "succeeded", (result, done.stderr[-1500:])
    shown = subprocess.run([sys.executable, "-m", "app.cli", "tasks", "show", result["task_id"], "--json"],
                           capture_output=True, text=True, env={**os.environ, "WARDEN_HOME": str(tmp_path / "home")},
                           cwd=REPO, timeout=60)
    [step] = json.loads(shown.stdout)["steps"]
    assert step["call"]["args"]["target"] == {"x": box[0], "y": box[1]}
    assert step["target"]["role"] == "link" and step["target"]["name"] == "New contact"
    assert step["target"]["selector"]
    assert step["before"]["url"].endswith("/contacts") and step["after"]["url"].endswith("/contacts/new")


def _box(home: Path, name: str) -> tuple[int, int]:
    """The centre of a link on the demo's contacts page, measured in a browser of our own."""
    import asyncio

    from engine.demo_site import DemoSite
    from engine.envs.web import WebEnv

    async def measure(url: str) -> tuple[int, int]:
        env = WebEnv()
        try:
            await env.reset({"start_url": url + "/contacts", "viewport": {"width": 1000, "height": 700},
                             "setup": [{"js": "fetch('/api/reset', {method: 'POST', body: JSON.stringify("
                                              "{dialog: 'never'})}).then(() => location.reload())"},
                                       {"wait_for": {"role": "heading", "name": "Contacts"}}]})
            box = await env.page().get_by_role("link", name=name, exact=True).bounding_box()
            return round(box["x"] + box["width"] / 2), round(box["y"] + box["height"] / 2)
        finally:
            await env.close()

    with DemoSite() as site:
        return asyncio.run(measure(site.url))


def test_a_toml_spec_whose_goal_the_page_states_runs_with_that_goal(tmp_path: Path) -> None:
    spec = tmp_path / "search.toml"
    spec.write_text('''
goal_js = "'Search the contacts for ' + document.querySelector('h1').textContent.replace('Contacts', 'Grace')"
learn = false
evaluate = {url = "q=Grace"}

[env]
kind = "web"
start_url = "{demo}/contacts"
setup = [{js = "fetch('/api/reset', {method: 'POST', body: JSON.stringify({dialog: 'never'})}).then(() => location.reload())"},
         {wait_for = {role = "heading", name = "Contacts"}}]

[agent]
kind = "scripted"
steps = [{tool = "browser.fill", args = {target = {label = "Search contacts"}, text = "Grace"}},
         {tool = "browser.press", args = {key = "Enter"}}]
''')
    done = warden_run(tmp_path / "home", spec)
    result = json.loads(done.stdout)
    assert result["goal"] == "Search the contacts for Grace"
    assert result["outcome"] == "succeeded" and result["evaluation"] is True, (result, done.stderr[-1500:])


def test_a_spec_that_is_not_a_task_is_one_line_and_exit_2(tmp_path: Path) -> None:
    spec = tmp_path / "broken.json"
    spec.write_text('{"goal": "x", "env": {"kind": "web", "start_url": "{demo}/"}, "agent": {"kind": "nobody"}}')
    done = warden_run(tmp_path / "home", spec)
    assert done.returncode == 2 and "nobody" in done.stderr and len(done.stderr.strip().splitlines()) == 1
