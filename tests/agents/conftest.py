"""Shared pieces for the model-agent tests: a registry with the screen tools, screens, turns.

The registry holds stand-ins of the web and desktop tools with the argument shapes the agents
map to, so a mapped call is checked exactly as the runner would check it.
"""

from __future__ import annotations

import io
from collections.abc import Sequence

import pytest
from PIL import Image

from engine.agents.agent import AgentContext, Outcome, Price, Turn
from engine.envs.environment import Observation
from engine.tier import Tier
from engine.tools.call import ToolCall
from engine.tools.registry import Tool, ToolOutput, ToolRegistry
from tests.agents.anthropic_standin import AnthropicStandIn
from tests.agents.gemini_standin import GeminiStandIn

SCREEN_TOOLS: dict[str, dict[str, type]] = {
    "browser.click": {"target": dict},
    "browser.type": {"text": str},
    "browser.press": {"key": str},
    "browser.scroll": {"dx": int, "dy": int},
    "browser.goto": {"url": str},
    "desktop.click": {"x": int, "y": int},
    "desktop.type": {"text": str},
    "desktop.hotkey": {"keys": str},
    "desktop.scroll": {"dy": int},
}

DISPLAY = {"width": 1280, "height": 800}


async def _nothing(env, args) -> ToolOutput:
    return ToolOutput("")


def screen_tools() -> ToolRegistry:
    registry = ToolRegistry()
    for name, schema in SCREEN_TOOLS.items():
        registry.register(Tool(name, name.split(".")[0], schema, _nothing, Tier.EXTERNALLY_IRREVERSIBLE))
    return registry


def png(colour: tuple[int, int, int], size: tuple[int, int] = (32, 20)) -> bytes:
    """A small real PNG of one colour; different screens get different colours."""
    out = io.BytesIO()
    Image.new("RGB", size, colour).save(out, format="PNG")
    return out.getvalue()


class Screen:
    """A live screen: `show` changes it, `observe` returns an Observation whose camera sees it now."""

    def __init__(self, colour: tuple[int, int, int] = (255, 255, 255), display: dict | None = None,
                 url: str = "http://127.0.0.1:8000/") -> None:
        self.image = png(colour)
        self.display = DISPLAY if display is None else display
        self.url = url
        self.shots = 0

    def show(self, colour: tuple[int, int, int], url: str | None = None) -> bytes:
        self.image = png(colour)
        self.url = url or self.url
        return self.image

    async def camera(self) -> bytes:
        self.shots += 1
        return self.image

    def observe(self, kind: str = "web") -> Observation:
        fields = {"display": self.display, "url": self.url} if self.display else {"url": self.url}
        return Observation(kind, f"page at {self.url}", fields, camera=self.camera)


def context(goal: str = "Add a note that says hello", env_kind: str = "web",
            prices: dict[str, Price] | None = None) -> AgentContext:
    return AgentContext(goal, screen_tools(), env_kind, prices or {})


class History:
    """The task's steps as the runner reports them: `settle` records the outcome of a proposed call."""

    def __init__(self, turns: Sequence[Turn] = ()) -> None:
        self.turns: list[Turn] = list(turns)

    def settle(self, call: ToolCall, outcome: Outcome = Outcome.DONE, output: str = "",
               source: str = "agent") -> list[Turn]:
        self.turns.append(Turn(len(self.turns), call, source, outcome, output))
        return list(self.turns)


@pytest.fixture
def screen() -> Screen:
    return Screen()


@pytest.fixture
def anthropic_api(monkeypatch, tmp_path):
    """`anthropic_api(script)`: a started Messages API stand-in the SDK is pointed at by its own variables."""
    started: list[AnthropicStandIn] = []
    for name in ("ANTHROPIC_AUTH_TOKEN", "ANTHROPIC_CUSTOM_HEADERS", "ANTHROPIC_PROFILE"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("ANTHROPIC_CONFIG_DIR", str(tmp_path / "anthropic-config"))

    def start(script, **options) -> AnthropicStandIn:
        api = AnthropicStandIn(script, **options).start()
        started.append(api)
        monkeypatch.setenv("ANTHROPIC_BASE_URL", api.url)
        monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-test-key")
        return api

    yield start
    for api in started:
        api.stop()


@pytest.fixture
def gemini_api(monkeypatch):
    """`gemini_api(script)`: a started generateContent stand-in the SDK is pointed at by its own variables."""
    started: list[GeminiStandIn] = []
    for name in ("GOOGLE_API_KEY", "GOOGLE_GENAI_USE_VERTEXAI", "GOOGLE_GENAI_USE_ENTERPRISE",
                 "GOOGLE_GENAI_API_VERSION", "GOOGLE_CLOUD_PROJECT", "GOOGLE_CLOUD_LOCATION"):
        monkeypatch.delenv(name, raising=False)

    def start(script, **options) -> GeminiStandIn:
        api = GeminiStandIn(script, **options).start()
        started.append(api)
        monkeypatch.setenv("GOOGLE_GEMINI_BASE_URL", api.url)
        monkeypatch.setenv("GEMINI_API_KEY", "gemini-test-key")
        return api

    yield start
    for api in started:
        api.stop()
