"""A stand-in for Anthropic's Messages API (`POST /v1/messages`) on loopback, playing a script.

Each request is answered with the next scripted reply, in the wire format the SDK parses; every
request body is recorded in `requests`. Point the SDK at it through its own variables:

    with AnthropicStandIn(["click 640 400", "type hello", "key Return", "All done."]) as api:
        monkeypatch.setenv("ANTHROPIC_BASE_URL", api.url)
        monkeypatch.setenv("ANTHROPIC_API_KEY", "test-key")
        ...  # build the agent and drive it; then look at api.bodies()

A script item is a step built by the helpers below or a string: `click X Y`, `type TEXT`,
`key COMBO`, `scroll DIRECTION AMOUNT`, `navigate URL`, `wait SECONDS`, `screenshot`; any other
string is the model's final text (it ends its turn without a tool use). Coordinates are pixels.
When the script runs out the stand-in answers 500.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from tests.agents.loopback import Loopback, Recorded


@dataclass(frozen=True)
class ToolUse:
    name: str
    input: dict[str, Any]


@dataclass(frozen=True)
class Say:
    text: str
    stop_reason: str = "end_turn"


@dataclass(frozen=True)
class Together:
    """Several blocks in one reply (parallel tool uses, text before a tool use)."""

    parts: tuple["ToolUse | Say", ...]


@dataclass(frozen=True)
class Failure:
    status: int
    kind: str
    message: str
    headers: dict[str, str] = field(default_factory=dict)


Step = ToolUse | Say | Together | Failure


def action(kind: str, **fields: Any) -> ToolUse:
    return ToolUse("computer", {"action": kind, **fields})


def click(x: int, y: int) -> ToolUse:
    return action("left_click", coordinate=[x, y])


def type_text(text: str) -> ToolUse:
    return action("type", text=text)


def key(combo: str) -> ToolUse:
    return action("key", text=combo)


def scroll(direction: str, amount: int, x: int = 10, y: int = 10) -> ToolUse:
    return action("scroll", coordinate=[x, y], scroll_direction=direction, scroll_amount=amount)


def screenshot() -> ToolUse:
    return action("screenshot")


def wait(seconds: float) -> ToolUse:
    return action("wait", duration=seconds)


def navigate(url: str) -> ToolUse:
    return ToolUse("navigate", {"url": url})


def say(text: str) -> Say:
    return Say(text)


def refuse(text: str = "I can't help with that.") -> Say:
    return Say(text, "refusal")


def together(*parts: "ToolUse | Say") -> Together:
    return Together(tuple(parts))


def fail(status: int = 529, kind: str = "overloaded_error", message: str = "Overloaded",
         headers: dict[str, str] | None = None) -> Failure:
    return Failure(status, kind, message, headers or {})


def parse(item: "Step | str") -> Step:
    """A script string as a step (see the module docstring)."""
    if not isinstance(item, str):
        return item
    verb, _, rest = item.partition(" ")
    words = rest.split()
    if verb == "click" and len(words) == 2:
        return click(int(words[0]), int(words[1]))
    if verb == "type" and rest:
        return type_text(rest)
    if verb == "key" and rest:
        return key(rest)
    if verb == "scroll" and len(words) == 2:
        return scroll(words[0], int(words[1]))
    if verb == "navigate" and len(words) == 1:
        return navigate(words[0])
    if verb == "wait" and len(words) == 1:
        return wait(float(words[0]))
    if item == "screenshot":
        return screenshot()
    return say(item)


class AnthropicStandIn(Loopback):
    """Answers `POST /v1/messages` from `script`; each reply reports `input_tokens`/`output_tokens`."""

    def __init__(self, script: Sequence["Step | str"], input_tokens: int = 1000, output_tokens: int = 50) -> None:
        super().__init__()
        self.script = [parse(item) for item in script]
        self.input_tokens = input_tokens
        self.output_tokens = output_tokens
        self._ids = itertools.count(1)
        self._next = 0

    def bodies(self) -> list[dict[str, Any]]:
        """The JSON body of every request to the Messages API, in order."""
        return [request.body for request in self.requests if request.path.startswith("/v1/messages")]

    def respond(self, request: Recorded) -> tuple[int, Any, dict[str, str]]:
        if request.path.split("?")[0] != "/v1/messages":
            return _error(404, "not_found_error", f"the stand-in serves /v1/messages, not {request.path}")
        if self._next >= len(self.script):
            return _error(500, "api_error", "the stand-in's script is exhausted")
        step = self.script[self._next]
        self._next += 1
        if isinstance(step, Failure):
            status, body, headers = _error(step.status, step.kind, step.message)
            return status, body, {**headers, **step.headers}
        parts = step.parts if isinstance(step, Together) else (step,)
        content = [self._block(part) for part in parts]
        uses = any(isinstance(part, ToolUse) for part in parts)
        stop = "tool_use" if uses else parts[-1].stop_reason  # type: ignore[union-attr]
        return 200, {
            "id": f"msg_{self._next:04d}", "type": "message", "role": "assistant",
            "model": request.body.get("model", "") if isinstance(request.body, dict) else "",
            "content": content, "stop_reason": stop, "stop_sequence": None,
            "usage": {"input_tokens": self.input_tokens, "output_tokens": self.output_tokens},
        }, {"request-id": f"req_{self._next:04d}"}

    def _block(self, part: "ToolUse | Say") -> dict[str, Any]:
        if isinstance(part, Say):
            return {"type": "text", "text": part.text}
        return {"type": "tool_use", "id": f"toolu_{next(self._ids):02d}", "name": part.name, "input": part.input}


def _error(status: int, kind: str, message: str) -> tuple[int, Any, dict[str, str]]:
    return status, {"type": "error", "error": {"type": kind, "message": message}}, {}
