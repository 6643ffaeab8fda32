"""Acceptance: Claude and Gemini each complete a three-step task on the demo site through their real SDKs,
pointed by the SDKs' own variables at loopback stand-ins of their APIs, in a real Chromium driven by the runtime.
The tests read what the SDKs sent: the computer-use tool, the screenshots, the tool results."""

from __future__ import annotations

import asyncio
import base64
from pathlib import Path

import pytest

from engine.demo_site import DemoSite
from engine.envs.web import WebEnv
from engine.runtime import Runtime, Switches
from engine.tasks.task import TaskSpec, TaskStatus
from tests.agents.anthropic_standin import AnthropicStandIn
from tests.agents.gemini_standin import GeminiStandIn, click_at, key_combination, say, type_text_at

VIEWPORT = {"width": 1000, "height": 700}
PNG = b"\x89PNG\r\n\x1a\n"


@pytest.fixture
def site():
    with DemoSite(dialog="never") as running:
        yield running


def search_box(url: str) -> tuple[int, int]:
    """The centre of the contacts page's search field, in viewport pixels."""

    async def measure() -> tuple[int, int]:
        env = WebEnv()
        try:
            await env.reset({"start_url": url + "/contacts", "viewport": VIEWPORT})
            box = await env.page().get_by_label("Search contacts").bounding_box()
            return round(box["x"] + box["width"] / 2), round(box["y"] + box["height"] / 2)
        finally:
            await env.close()

    return asyncio.run(measure())


def search_task(url: str, kind: str) -> TaskSpec:
    return TaskSpec.from_json({
        "goal": "Search the contacts for Grace", "learn": False, "agent": {"kind": kind},
        "env": {"kind": "web", "start_url": url + "/contacts", "viewport": VIEWPORT},
        "evaluate": {"all": [{"url": "q=Grace"}, {"text": "Grace Hopper"}]},
    })


async def run(tmp_path: Path, spec: TaskSpec) -> tuple[Runtime, str]:
    runtime = await Runtime.open(tmp_path / "home", tmp_path / "ws", Switches())
    task = await runtime.submit(spec)
    await runtime.run_until_idle()
    return runtime, task.id


def test_claude_searches_the_contacts_through_the_anthropic_sdk(tmp_path: Path, site, monkeypatch) -> None:
    x, y = search_box(site.url)
    with AnthropicStandIn([f"click {x} {y}", "type Grace", "key Return", "I searched for Grace."]) as api:
        monkeypatch.setenv("ANTHROPIC_BASE_URL", api.url)
        monkeypatch.setenv("ANTHROPIC_API_KEY", "test-key")

        async def go():
            runtime, task_id = await run(tmp_path, search_task(site.url, "anthropic"))
            try:
                return await runtime.task(task_id), await runtime.traces(task_id), await runtime.queue.spent(task_id)
            finally:
                await runtime.close()

        task, steps, spent = asyncio.run(go())
        bodies = api.bodies()
    assert task.status is TaskStatus.SUCCEEDED, task.error
    assert [s["call"] for s in steps] == [
        {"tool": "browser.click", "args": {"target": {"x": x, "y": y}}},
        {"tool": "browser.type", "args": {"text": "Grace"}},
        {"tool": "browser.press", "args": {"key": "Enter"}},
    ]
    assert steps[0]["target"]["role"] == "searchbox" and steps[0]["target"]["name"] == "Search contacts"
    assert len(bodies) == 4 and spent.usage.model_calls == 4 and spent.usage.tokens > 0
    [computer] = [tool for tool in bodies[0]["tools"] if tool["name"] == "computer"]
    assert computer["type"].startswith("computer_") and computer["display_width_px"] == 1000
    assert computer["display_height_px"] == 700
    first_image = _images(bodies[0])
    assert first_image and base64.b64decode(first_image[0])[:8] == PNG
    for before, after in zip(bodies, bodies[1:]):
        [use] = [b for b in before_reply(after) if b["type"] == "tool_use"]
        [result] = [b for b in after["messages"][-1]["content"] if b.get("type") == "tool_result"]
        assert result["tool_use_id"] == use["id"]
        assert any(part.get("type") == "image" for part in result["content"])


def before_reply(body: dict) -> list[dict]:
    """The assistant turn the SDK echoed back before the newest tool results."""
    return body["messages"][-2]["content"]


def _images(body: dict) -> list[str]:
    found = []
    for message in body["messages"]:
        for block in message["content"] if isinstance(message["content"], list) else []:
            if block.get("type") == "image":
                found.append(block["source"]["data"])
            for part in block.get("content", []) if isinstance(block.get("content"), list) else []:
                if part.get("type") == "image":
                    found.append(part["source"]["data"])
    return found


def test_gemini_searches_the_contacts_through_google_genai(tmp_path: Path, site, monkeypatch) -> None:
    x, y = search_box(site.url)
    nx, ny = round(x * 1000 / VIEWPORT["width"]), round(y * 1000 / VIEWPORT["height"])
    script = [click_at(nx, ny), type_text_at(nx, ny, "Grace"), key_combination("Enter"), say("Searched for Grace.")]
    with GeminiStandIn(script) as api:
        monkeypatch.setenv("GOOGLE_GEMINI_BASE_URL", api.url)
        monkeypatch.setenv("GEMINI_API_KEY", "test-key")
        monkeypatch.delenv("GOOGLE_API_KEY", raising=False)

        async def go():
            runtime, task_id = await run(tmp_path, search_task(site.url, "gemini"))
            try:
                return await runtime.task(task_id), await runtime.traces(task_id)
            finally:
                await runtime.close()

        task, steps = asyncio.run(go())
        bodies = api.bodies()
    assert task.status is TaskStatus.SUCCEEDED, task.error
    tools = [s["call"]["tool"] for s in steps]
    assert tools[0] == "browser.click" and "browser.type" in tools and tools[-1] == "browser.press"
    click = steps[0]["call"]["args"]["target"]
    assert abs(click["x"] - x) <= 2 and abs(click["y"] - y) <= 2  # 0..999 grid mapped back to pixels
    assert steps[0]["target"]["name"] == "Search contacts"
    assert any("computer_use" in tool or "computerUse" in tool for tool in bodies[0]["tools"])
    inline = [part["inlineData"] for content in bodies[0]["contents"] for part in content["parts"] if "inlineData" in part]
    assert inline and inline[0].get("mimeType", inline[0].get("mime_type")) == "image/png" and _decode(inline[0]["data"])[:8] == PNG
    responses = [part["functionResponse"] for content in bodies[1]["contents"] for part in content["parts"]
                 if "functionResponse" in part]
    assert responses and responses[-1]["name"] == "click_at"


def _decode(data: str) -> bytes:
    """The SDK sends bytes base64url-encoded, possibly without padding."""
    return base64.urlsafe_b64decode(data + "=" * (-len(data) % 4))
