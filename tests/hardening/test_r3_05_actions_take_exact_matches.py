"""Round three, finding 5: actions fell back to loose matches.

A `browser.click` by text or role tried the exact match, then a case-insensitive substring, so an
approved click on "Reply" landed on a sentence holding "reply". An action takes the one element
that matches exactly, or refuses, saying how many matched; and the approval a person is asked for
names the element the call would act on (its role and accessible name).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from engine.envs.web import WebEnv
from engine.runtime import Runtime
from engine.tasks.task import TaskSpec, TaskStatus, scripted
from engine.tools.registry import ToolError
from tests.web.calls import call
from tests.web.conftest import Site, serving

MAIL = """<!doctype html><html><head><title>Inbox</title></head><body>
<p id="task" onclick="document.title = 'the sentence was clicked'">Open the first email and reply to its sender.</p>
<button onclick="document.title = 'reply all was pressed'">Reply all</button>
</body></html>"""

TWO_REPLIES = """<!doctype html><html><head><title>Thread</title></head><body>
<button onclick="document.title = 'the first reply'">Reply</button>
<button onclick="document.title = 'the second reply'">Reply</button>
</body></html>"""

FORMS = """<!doctype html><html><head><title>Settings</title></head><body>
<label for="display">Display name</label><input id="display">
<label>Colour <select id="colour"><option value="r">Red</option><option value="g">Green</option></select></label>
<button id="drop" onclick="document.title = 'deleted'">Delete</button>
</body></html>"""


@pytest.fixture(scope="module")
def pages() -> Iterator[Site]:
    with serving() as site:
        site.pages.update({"/mail": MAIL, "/thread": TWO_REPLIES, "/forms": FORMS})
        yield site


@pytest.fixture
async def web(pages: Site) -> AsyncIterator[WebEnv]:
    env = WebEnv()
    try:
        yield env
    finally:
        await env.close()


async def open_page(env: WebEnv, url: str) -> None:
    await env.reset({"kind": "web", "start_url": url, "timeout_s": 1})


async def title(env: WebEnv) -> str:
    return await env.evaluate("document.title")


async def test_a_text_or_role_target_never_acts_on_a_loose_match(web: WebEnv, pages: Site) -> None:
    await open_page(web, pages.url("/mail"))
    for target in ({"text": "Reply"}, {"role": "button", "name": "Reply"}, {"text": "reply"}):
        with pytest.raises(ToolError) as refused:
            await call(web, "browser.click", target=target)
        assert "nothing matches" in str(refused.value) and "exactly" in str(refused.value), refused.value
        assert await title(web) == "Inbox", f"{target} acted on a loose match"
    with pytest.raises(ToolError, match=r"contains? it loosely"):
        await call(web, "browser.click", target={"text": "Reply"})


async def test_an_exact_match_that_is_not_unique_is_refused_with_the_count(web: WebEnv, pages: Site) -> None:
    await open_page(web, pages.url("/thread"))
    for target in ({"text": "Reply"}, {"role": "button", "name": "Reply"}, {"css": "button"}):
        with pytest.raises(ToolError, match=r"2 elements match .* exactly one"):
            await call(web, "browser.click", target=target)
    assert await title(web) == "Thread"


async def test_a_label_matches_its_own_words_whole(web: WebEnv, pages: Site) -> None:
    await open_page(web, pages.url("/forms"))
    with pytest.raises(ToolError, match="nothing matches label \"name\""):
        await call(web, "browser.fill", target={"label": "name"}, text="Ada")
    assert await web.evaluate("document.getElementById('display').value") == ""
    filled = await call(web, "browser.fill", target={"label": "Display name"}, text="Ada")
    assert filled.data["target"]["name"] == "Display name"
    chosen = await call(web, "browser.select", target={"label": "Colour"}, value="g")  # a label wrapping its select
    assert chosen.data["target"]["role"] == "combobox"


async def test_the_approval_names_the_element_the_call_acts_on(tmp_path: Path, pages: Site) -> None:
    runtime = await Runtime.open(tmp_path / "home", tmp_path / "ws")
    try:
        spec = TaskSpec("Delete the thing", {"kind": "web", "start_url": pages.url("/forms"), "timeout_s": 2},
                        scripted([{"tool": "browser.click", "args": {"target": {"text": "Delete"}}}]), learn=False)
        task = await runtime.submit(spec)
        await runtime.run_until_idle()
        assert (await runtime.queue.get(task.id)).status is TaskStatus.PAUSED
        [approval] = await runtime.pending_approvals()
        assert 'button "Delete"' in approval.reason, approval.reason
        assert approval.scene is not None and approval.scene.url == pages.url("/forms")
        assert (approval.scene.element.role, approval.scene.element.name) == ("button", "Delete")
    finally:
        await runtime.close()
