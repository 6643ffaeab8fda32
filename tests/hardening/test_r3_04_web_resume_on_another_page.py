"""Round three, finding 4: an approved web call, resumed by another process, ran on a reset page.

`warden run` exits when a web task pauses for approval; `warden approvals approve`, then
`warden worker --until-idle` resumes it in a process that never held the task's page. That
process reset the page to the spec's start and went on with the approved step: the name filled
before the pause was gone, the approved phone number went into a fresh form, and the form was
submitted without a name. A resumed task must re-establish its page (replaying its done steps,
checking each against its trace) and act there, or stop with a reason; never act on a reset page.
All through the real CLI, in separate processes, against the demo site served on loopback here.
"""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import urllib.request
from pathlib import Path

from engine.demo_site import DemoSite
from engine.runtime import Runtime
from engine.tasks.task import TaskSpec, TaskStatus, scripted
from tests.web.conftest import serving

REPO = Path(__file__).resolve().parents[2]
CARD_LIKE = "4111 1111 1111 1111"  # a phone that reads as a card number: the gate asks before filling it
SEEDED_RESET = "fetch('/api/reset', {method: 'POST', body: JSON.stringify({dialog: 'never'})})"


def warden(home: Path, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "WARDEN_HOME": str(home)}
    return subprocess.run([sys.executable, "-m", "app.cli", *args], capture_output=True, text=True, env=env,
                          cwd=REPO, timeout=300)


def spec_for(site_url: str, steps: list[dict]) -> dict:
    return {
        "goal": f"Add a contact named Ada Lovelace whose phone is {CARD_LIKE}",
        "env": {"kind": "web", "start_url": f"{site_url}/contacts/new", "resettable": True,
                "setup": [{"js": SEEDED_RESET + ".then(() => location.reload())"},
                          {"wait_for": {"role": "heading", "name": "New contact"}}]},
        "evaluate": {"js": "fetch('/api/state').then(r => r.json()).then(s => s.contacts.some("
                           f"c => c.name === 'Ada Lovelace' && c.phone === '{CARD_LIKE}'))"},
        "agent": {"kind": "scripted", "steps": steps},
        "learn": False,
    }


FILL_NAME = {"tool": "browser.fill", "args": {"target": {"label": "Name"}, "text": "Ada Lovelace"}}
FILL_PHONE = {"tool": "browser.fill", "args": {"target": {"label": "Phone"}, "text": CARD_LIKE}}
SAVE = {"tool": "browser.click", "args": {"target": {"role": "button", "name": "Save contact"}}}


def contacts(site: DemoSite) -> list[dict]:
    with urllib.request.urlopen(site.url + "/api/state", timeout=10) as answer:
        return json.load(answer)["contacts"]


def held_then_resumed(tmp_path: Path, site: DemoSite, steps: list[dict]) -> tuple[dict, list[dict]]:
    """Run the spec until it pauses, approve its call from another process, resume it in a third;
    the task as `warden tasks show` gives it, and what the worker reported, line by line."""
    home = tmp_path / "home"
    spec = tmp_path / "spec.json"
    spec.write_text(json.dumps(spec_for(site.url, steps)))
    first = warden(home, "run", "--spec", str(spec), "--json")
    held = json.loads(first.stdout)
    assert held["outcome"] == "blocked", (held, first.stderr[-2000:])
    [approval] = json.loads(warden(home, "approvals", "list", "--json").stdout)
    assert approval["call"] == FILL_PHONE
    assert approval["scene"]["element"]["name"] == "Phone" and approval["scene"]["url"].endswith("/contacts/new")
    decided = warden(home, "approvals", "approve", approval["id"])
    assert decided.returncode == 0, decided.stderr
    worker = warden(home, "worker", "--until-idle", "--json")
    assert worker.returncode == 0, worker.stderr[-2000:]
    shown = warden(home, "tasks", "show", held["task_id"], "--json")
    return json.loads(shown.stdout), [json.loads(line) for line in worker.stdout.splitlines() if line.strip()]


def test_an_approved_fill_resumed_elsewhere_acts_on_the_page_it_was_approved_on(tmp_path: Path) -> None:
    with DemoSite(dialog="never") as site:
        task, reported = held_then_resumed(tmp_path, site, [FILL_NAME, FILL_PHONE, SAVE])
        saved = [c for c in contacts(site) if c["phone"] == CARD_LIKE or c["name"] == "Ada Lovelace"]
    steps = {step["idx"]: step for step in task["steps"]}
    assert task["status"] == "succeeded", task
    assert [(c["name"], c["phone"]) for c in saved] == [("Ada Lovelace", CARD_LIKE)]
    phone = steps[1]
    assert phone["status"] == "done" and phone["target"]["name"] == "Phone"
    assert phone["after"]["url"].endswith("/contacts/new")
    said = [line["reason"] for line in reported if line.get("event") == "task_resumed"]
    assert any("re-established" in reason and "step(s) 0" in reason for reason in said), reported


def test_a_page_that_cannot_be_re_established_stops_the_task_with_a_reason(tmp_path: Path) -> None:
    """The first step clicks a link that is there before the pause; the site then changes under the task (the
    link reads otherwise, and no contact is left), so replaying it cannot find what it clicked: the task
    stops, says why, and the approved call never runs on the page the reset left."""
    with DemoSite(dialog="never") as site:
        open_form = {"tool": "browser.click", "args": {"target": {"role": "link", "name": "New contact"}}}
        home = tmp_path / "home"
        spec = tmp_path / "spec.json"
        raw = spec_for(site.url, [open_form, FILL_NAME, FILL_PHONE, SAVE])
        raw["env"]["start_url"] = f"{site.url}/contacts"
        raw["env"]["setup"] = [{"js": SEEDED_RESET + ".then(() => location.reload())"},
                               {"wait_for": {"role": "heading", "name": "Contacts"}}]
        spec.write_text(json.dumps(raw))
        held = json.loads(warden(home, "run", "--spec", str(spec), "--json").stdout)
        assert held["outcome"] == "blocked", held
        [approval] = json.loads(warden(home, "approvals", "list", "--json").stdout)
        assert warden(home, "approvals", "approve", approval["id"]).returncode == 0
        raw["env"]["setup"] = [{"js": "fetch('/api/reset', {method: 'POST', body: JSON.stringify("
                                      "{dialog: 'never', contacts: []})}).then(() => location.reload())"},
                               {"wait_for": {"role": "heading", "name": "Contacts"}}]
        moved = {"js": "document.querySelector('a[href=\"/contacts/new\"]').textContent = 'Add someone'"}
        _change_start(home, held["task_id"], raw["env"]["setup"] + [moved])
        assert warden(home, "worker", "--until-idle", "--json").returncode == 0
        task = json.loads(warden(home, "tasks", "show", held["task_id"], "--json").stdout)
        left = contacts(site)
    steps = {step["idx"]: step for step in task["steps"]}
    assert task["status"] == "failed", task
    assert "re-establish" in task["error"] and 'link "New contact"' in task["error"], task["error"]
    assert steps[2]["status"] != "done", "the approved fill must not run on a page that was not re-established"
    assert left == []


def _change_start(home: Path, task_id: str, setup: list[dict]) -> None:
    """Stand-in for a site that changed while the task waited: the setup the next reset runs is another."""
    con = sqlite3.connect(home / "warden.db")
    try:
        spec = json.loads(con.execute("SELECT spec FROM tasks WHERE id = ?", (task_id,)).fetchone()[0])
        spec["env"]["setup"] = setup
        con.execute("UPDATE tasks SET spec = ? WHERE id = ?", (json.dumps(spec), task_id))
        con.commit()
    finally:
        con.close()


FIRST = """<!doctype html><html><head><title>First</title></head><body>
<button onclick="document.title = 'deleted on the first page'">Delete</button></body></html>"""
SECOND = """<!doctype html><html><head><title>Second</title></head><body>
<button onclick="document.title = 'deleted on the second page'">Delete</button></body></html>"""


async def test_an_approval_covers_only_the_page_it_was_given_on(tmp_path: Path) -> None:
    """The page changed between the approval and the dispatch (same call, same runner): the approval does not
    cover it; it is withdrawn, and the person is asked again, told what changed."""
    with serving() as site:
        site.pages.update({"/first": FIRST, "/second": SECOND})
        runtime = await Runtime.open(tmp_path / "home", tmp_path / "ws")
        try:
            delete = {"tool": "browser.click", "args": {"target": {"role": "button", "name": "Delete"}}}
            spec = TaskSpec("Delete it on the first page", {"kind": "web", "start_url": site.url("/first"),
                                                           "timeout_s": 2}, scripted([delete]), learn=False)
            task = await runtime.submit(spec)
            await runtime.run_until_idle()
            [given] = await runtime.pending_approvals()
            page = runtime.environments["web"].page()
            await page.goto(site.url("/second"))
            await runtime.approve(given.id)
            await runtime.run_until_idle()
            assert await page.title() == "Second", "the approved click ran on a page it was not approved on"
            assert (await runtime.queue.get(task.id)).status is TaskStatus.PAUSED
            assert f'button "Delete" at {site.url("/first")}' in given.reason
            assert (await runtime.approvals.get(given.id)).status.value == "withdrawn"
            [again] = await runtime.pending_approvals()
            assert f"it was given on {site.url('/first')}, and the page is now {site.url('/second')}" in again.reason
            await runtime.approve(again.id)
            await runtime.run_until_idle()
            assert (await runtime.queue.get(task.id)).status is TaskStatus.SUCCEEDED
            assert await page.title() == "deleted on the second page"
        finally:
            await runtime.close()


FORM = """<!doctype html><html><head><title>Form</title></head><body>
<form method="post" action="/echo"><input name="q" aria-label="Query" value="once"><button>Save</button></form>
</body></html>"""


async def test_a_site_that_kept_the_effects_is_never_sent_them_again(tmp_path: Path) -> None:
    """The spec does not reset its site, so the site kept the form the first runner posted. A second runtime
    (another process's view of the home: it never held the page) must not post it again to re-establish the
    page: the replay is read-only, the post is refused, and the task stops saying so."""
    (tmp_path / "home").mkdir()
    (tmp_path / "home" / "policy.toml").write_text('[tools."browser.scroll"]\nlevel = "dangerous"\n')
    with serving() as site:
        site.pages["/form"] = FORM
        save = {"tool": "browser.click", "args": {"target": {"role": "button", "name": "Save"}}}
        scroll = {"tool": "browser.scroll", "args": {"dx": 0, "dy": 100}}
        spec = TaskSpec("Save the form, then scroll", {"kind": "web", "start_url": site.url("/form"), "timeout_s": 2},
                        scripted([save, scroll]), learn=False)
        first = await Runtime.open(tmp_path / "home", tmp_path / "ws")
        try:
            task = await first.submit(spec)
            await first.run_until_idle()
            [asked] = await first.pending_approvals()
        finally:
            await first.close()
        assert site.posts == [("/echo", "q=once")]
        second = await Runtime.open(tmp_path / "home", tmp_path / "ws")
        try:
            await second.approve(asked.id)
            await second.run_until_idle()
            stopped = await second.queue.get(task.id)
            steps = {row["idx"]: row for row in await second.traces(task.id)}
        finally:
            await second.close()
    assert site.posts == [("/echo", "q=once")], "re-establishing the page posted the form a second time"
    assert stopped.status is TaskStatus.FAILED
    assert stopped.error.startswith('cannot re-establish its page in this runner: step 0 (browser.click button "Save")')
    assert "read-only" in stopped.error and "was not reset" in stopped.error, stopped.error
    assert steps[1]["status"] != "done"
