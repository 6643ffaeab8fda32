"""A stand-in for the Gemini API's `generateContent` on loopback, playing a script.

It answers `POST /{version}/models/{model}:generateContent` with the next scripted reply in the
wire format `google-genai` parses, and records every request body. Point the SDK at it through
its own variables (they are read when the client is built, so set them first):

    with GeminiStandIn(["click_at 500 500", "type_text_at 500 120 hello", "All done."]) as api:
        monkeypatch.setenv("GOOGLE_GEMINI_BASE_URL", api.url)
        monkeypatch.setenv("GEMINI_API_KEY", "test-key")
        ...  # build the agent and drive it; then look at api.bodies()

A script item is a step built by the helpers below or a string: `click_at X Y`,
`type_text_at X Y TEXT` (no Enter, no clearing), `key_combination KEYS`, `navigate URL`,
`scroll_document DIRECTION`, `wait_5_seconds`, `open_web_browser`; any other string is the
model's final text. Points are on Gemini's 0..999 grid. When the script runs out it answers 500.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from tests.agents.loopback import Loopback, Recorded

_PATH = re.compile(r"^/(v1|v1beta|v1alpha)/models/([^/:]+):generateContent$")


@dataclass(frozen=True)
class Call:
    name: str
    args: dict[str, Any]
    id: str | None = None


@dataclass(frozen=True)
class Say:
    text: str
    finish_reason: str = "STOP"


@dataclass(frozen=True)
class Together:
    """Several parts in one reply (parallel function calls, text before a call)."""

    parts: tuple["Call | Say", ...]


@dataclass(frozen=True)
class Failure:
    status: int
    state: str
    message: str


Step = Call | Say | Together | Failure


def call(name: str, **args: Any) -> Call:
    return Call(name, args)


def click_at(x: int, y: int) -> Call:
    return call("click_at", x=x, y=y)


def type_text_at(x: int, y: int, text: str, press_enter: bool = False, clear_before_typing: bool = False) -> Call:
    return call("type_text_at", x=x, y=y, text=text, press_enter=press_enter, clear_before_typing=clear_before_typing)


def key_combination(keys: str) -> Call:
    return call("key_combination", keys=keys)


def navigate(url: str) -> Call:
    return call("navigate", url=url)


def scroll_document(direction: str) -> Call:
    return call("scroll_document", direction=direction)


def say(text: str) -> Say:
    return Say(text)


def blocked(reason: str = "SAFETY") -> Say:
    return Say("", reason)


def together(*parts: "Call | Say") -> Together:
    return Together(tuple(parts))


def fail(status: int = 500, state: str = "INTERNAL", message: str = "An internal error has occurred.") -> Failure:
    return Failure(status, state, message)


def parse(item: "Step | str") -> Step:
    """A script string as a step (see the module docstring)."""
    if not isinstance(item, str):
        return item
    verb, _, rest = item.partition(" ")
    words = rest.split()
    if verb == "click_at" and len(words) == 2:
        return click_at(int(words[0]), int(words[1]))
    if verb == "type_text_at" and len(words) >= 3:
        x, y, text = rest.split(" ", 2)
        return type_text_at(int(x), int(y), text)
    if verb == "key_combination" and len(words) == 1:
        return key_combination(words[0])
    if verb == "navigate" and len(words) == 1:
        return navigate(words[0])
    if verb == "scroll_document" and len(words) == 1:
        return scroll_document(words[0])
    if item in ("wait_5_seconds", "open_web_browser", "go_back", "go_forward"):
        return call(item)
    return say(item)


class GeminiStandIn(Loopback):
    """Answers `generateContent` from `script`; each reply reports the given token counts."""

    def __init__(self, script: Sequence["Step | str"], prompt_tokens: int = 1200, output_tokens: int = 40,
                 thoughts_tokens: int = 0) -> None:
        super().__init__()
        self.script = [parse(item) for item in script]
        self.prompt_tokens = prompt_tokens
        self.output_tokens = output_tokens
        self.thoughts_tokens = thoughts_tokens
        self.models: list[str] = []
        self._next = 0

    def bodies(self) -> list[dict[str, Any]]:
        """The JSON body of every generateContent request, in order."""
        return [request.body for request in self.requests if _PATH.match(request.path.split("?")[0])]

    def respond(self, request: Recorded) -> tuple[int, Any, dict[str, str]]:
        match = _PATH.match(request.path.split("?")[0])
        if match is None:
            return _error(404, "NOT_FOUND", f"the stand-in serves models/*:generateContent, not {request.path}")
        self.models.append(match.group(2))
        if self._next >= len(self.script):
            return _error(500, "INTERNAL", "the stand-in's script is exhausted")
        step = self.script[self._next]
        self._next += 1
        if isinstance(step, Failure):
            return _error(step.status, step.state, step.message)
        parts = step.parts if isinstance(step, Together) else (step,)
        finish = next((part.finish_reason for part in parts if isinstance(part, Say)), "STOP")
        content = [_part(part) for part in parts if not (isinstance(part, Say) and not part.text)]
        usage = {"promptTokenCount": self.prompt_tokens, "candidatesTokenCount": self.output_tokens,
                 "totalTokenCount": self.prompt_tokens + self.output_tokens + self.thoughts_tokens}
        if self.thoughts_tokens:
            usage["thoughtsTokenCount"] = self.thoughts_tokens
        candidate: dict[str, Any] = {"finishReason": finish, "index": 0}
        if content:
            candidate["content"] = {"role": "model", "parts": content}
        return 200, {"candidates": [candidate], "usageMetadata": usage, "modelVersion": match.group(2),
                     "responseId": f"resp-{self._next}"}, {}


def _part(part: "Call | Say") -> dict[str, Any]:
    if isinstance(part, Say):
        return {"text": part.text}
    body: dict[str, Any] = {"name": part.name, "args": part.args}
    if part.id is not None:
        body["id"] = part.id
    return {"functionCall": body}


def _error(status: int, state: str, message: str) -> tuple[int, Any, dict[str, str]]:
    return status, {"error": {"code": status, "message": message, "status": state}}, {}
