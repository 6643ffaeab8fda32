"""The Anthropic computer-use agent: Claude on the Messages API with the computer tool.

The client is the SDK's own `AsyncAnthropic()`, built without a key or base URL: the SDK reads
`ANTHROPIC_API_KEY` and `ANTHROPIC_BASE_URL` itself, so a user can point Warden at a gateway
the same way as any other Anthropic client. The computer tool's version and its beta flag are
the newest single-tool pair the installed SDK declares (`BetaToolComputerUse20251124Param`,
beta `computer-use-2025-11-24`); the display size comes from the observation. In a web
environment the model also gets a `navigate` tool, since a Playwright page has no address bar
to click.
"""

from __future__ import annotations

import base64
import os
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import anthropic
from anthropic.types.beta import (
    BetaContentBlockParam,
    BetaImageBlockParam,
    BetaMessageParam,
    BetaTextBlockParam,
    BetaToolParam,
    BetaToolResultBlockParam,
    BetaToolUnionParam,
)

from engine.agents.agent import AgentContext, AgentError, Finish, GiveUp, Usage
from engine.agents.computer import PIXELS_PER_WHEEL_CLICK, Look, Move, Refuse
from engine.agents.conversation import (
    LIMIT_DEFAULTS,
    ModelAction,
    ModelAgent,
    Reply,
    Result,
    limits_from,
    read_spec,
)
from engine.envs.environment import Observation

DEFAULT_MODEL = "claude-sonnet-4-6"
TOOL_BETAS = {"computer_20251124": "computer-use-2025-11-24", "computer_20250124": "computer-use-2025-01-24"}
"""Computer tool versions with the same request shape, and the beta flag each needs."""
DEFAULT_TOOL = "computer_20251124"

DEFAULTS: dict[str, Any] = {
    "model": DEFAULT_MODEL,
    "max_tokens": 4096,
    "tool": DEFAULT_TOOL,
    "max_retries": 2,
    "timeout_s": 120.0,
}

_NAVIGATE: BetaToolParam = {
    "name": "navigate",
    "description": "Open a URL in the browser's current tab.",
    "input_schema": {"type": "object", "properties": {"url": {"type": "string", "description": "The URL to open."}},
                     "required": ["url"]},
}
_DROPPED_SCREEN = "(an earlier screenshot, dropped to keep the conversation short)"
_SUPPORTED = "left_click, type, key, scroll, screenshot, wait"


class AnthropicAgent(ModelAgent):
    name = "anthropic"

    def __init__(self, client: anthropic.AsyncAnthropic, context: AgentContext, options: Mapping[str, Any]) -> None:
        super().__init__(context, limits_from(options, "anthropic"))
        self._client = client
        self.model: str = options["model"]
        self.max_tokens: int = options["max_tokens"]
        self.tool: str = options["tool"]
        self._price = context.prices.get(self.model)
        self.messages: list[BetaMessageParam] = []
        self._cursor: tuple[int, int] | None = None

    @classmethod
    def from_spec(cls, spec: Mapping[str, Any], context: AgentContext) -> "AnthropicAgent":
        options = read_spec(spec, "anthropic", {**DEFAULTS, **LIMIT_DEFAULTS})
        if options["tool"] not in TOOL_BETAS:
            raise AgentError(f"anthropic agent: tool must be one of {', '.join(TOOL_BETAS)}, got {options['tool']!r}")
        if options["max_tokens"] < 1:
            raise AgentError("anthropic agent: max_tokens must be at least 1")
        if context.env_kind not in ("web", "desktop"):
            raise AgentError("anthropic agent: acts on a web or desktop screen; "
                             f"this task's environment is {context.env_kind}")
        if not os.environ.get("ANTHROPIC_API_KEY"):
            raise AgentError("anthropic agent: ANTHROPIC_API_KEY is not set")
        client = anthropic.AsyncAnthropic(max_retries=options["max_retries"], timeout=options["timeout_s"])
        return cls(client, context, options)

    def _open(self, text: str, png: bytes) -> None:
        self.messages = [{"role": "user", "content": [{"type": "text", "text": text}, _image(png)]}]

    def _tools(self) -> list[BetaToolUnionParam]:
        assert self.display is not None
        width, height = self.display.width, self.display.height
        computer: BetaToolUnionParam
        if self.tool == "computer_20251124":
            computer = {"type": "computer_20251124", "name": "computer",
                        "display_width_px": width, "display_height_px": height}
        else:  # the other version in TOOL_BETAS, which from_spec checks
            computer = {"type": "computer_20250124", "name": "computer",
                        "display_width_px": width, "display_height_px": height}
        return [computer, _NAVIGATE] if self.actions.web else [computer]

    async def _ask(self) -> Reply:
        response = await self._client.beta.messages.create(
            model=self.model, max_tokens=self.max_tokens, tools=self._tools(), messages=self.messages,
            betas=[TOOL_BETAS[self.tool]],
        )
        used = response.usage
        input_tokens = used.input_tokens + (used.cache_creation_input_tokens or 0) + (used.cache_read_input_tokens or 0)
        usage = Usage.priced(input_tokens, used.output_tokens, self._price)
        self.messages.append({"role": "assistant", "content": [_param(block) for block in response.content]})
        text = " ".join(block.text for block in response.content if block.type == "text").strip()
        uses = [block for block in response.content if block.type == "tool_use"]
        if response.stop_reason == "refusal":
            said = " ".join(text.split())[:300]
            return Reply((), usage, GiveUp("anthropic: the model refused" + (f": {said}" if said else "")))
        if uses:
            return Reply(tuple(ModelAction(block.id, block.name, dict(block.input or {})) for block in uses), usage)
        if response.stop_reason in ("end_turn", "stop_sequence"):
            return Reply((), usage, Finish(text or "the model ended its turn"))
        return Reply((), usage, GiveUp(f"anthropic: the model stopped ({response.stop_reason}) without acting"))

    def _answer(self, results: Sequence[Result], observation: Observation) -> None:
        content: list[BetaToolResultBlockParam] = []
        for result in results:
            if result.action.id is None:  # every tool_use block carries one
                raise AgentError(f"anthropic: the {result.action.name} action has no tool_use id to answer")
            inner: list[BetaTextBlockParam | BetaImageBlockParam] = [{"type": "text", "text": result.text}]
            if result.image is not None:
                inner.append(_image(result.image))
            block: BetaToolResultBlockParam = {"type": "tool_result", "tool_use_id": result.action.id, "content": inner}
            if result.error:
                block["is_error"] = True
            content.append(block)
        self.messages.append({"role": "user", "content": content})
        self._drop_old_screens()

    def _drop_old_screens(self) -> None:
        """Keep the newest `keep_screenshots` images; older ones become a line of text."""
        slots = list(self._image_slots())
        for blocks, index in slots[:max(0, len(slots) - self.limits.keep_screenshots)]:
            blocks[index] = {"type": "text", "text": _DROPPED_SCREEN}

    def _image_slots(self) -> Iterator[tuple[list[dict[str, Any]], int]]:
        """Every image in the conversation, oldest first, as (the list holding it, its index)."""
        for message in self.messages:
            content = message["content"]
            if not isinstance(content, list):
                continue
            nested = [block["content"] for block in content
                      if block.get("type") == "tool_result" and isinstance(block.get("content"), list)]
            for blocks in [content, *nested]:
                for index, block in enumerate(blocks):
                    if block.get("type") == "image":
                        yield blocks, index

    def _translate(self, action: ModelAction) -> Move:
        args = action.args
        if action.name == "navigate":
            return self.actions.goto(args.get("url", ""))
        if action.name != "computer":
            return Refuse(f"there is no tool named {action.name!r}")
        kind = args.get("action")
        if kind == "screenshot":
            return Look("the screen as it is now")
        if kind == "wait":
            return Look("waited", wait=_number(args.get("duration"), 1.0))
        if kind == "type":
            text = args.get("text")
            return self.actions.type(text) if isinstance(text, str) and text else Refuse("type needs text")
        if kind == "key":
            text = args.get("text")
            return self.actions.keys(text.split()) if isinstance(text, str) else Refuse("key needs text")
        if kind in ("left_click", "mouse_move", "scroll"):
            point = self._point(args.get("coordinate"))
            if isinstance(point, Refuse):
                return point
            if kind == "mouse_move":
                self._cursor = point
                return Look(f"the pointer is at {point[0]}, {point[1]}")
            if kind == "scroll":
                amount = int(_number(args.get("scroll_amount"), 3))
                return self.actions.scroll(str(args.get("scroll_direction", "")), amount * PIXELS_PER_WHEEL_CLICK)
            if args.get("text"):
                return Refuse(f"clicking while holding {args['text']} is not available here; available: {_SUPPORTED}")
            self._cursor = point
            return self.actions.click(*point)
        if kind == "cursor_position":
            where = f"{self._cursor[0]}, {self._cursor[1]}" if self._cursor else "unknown"
            return Look(f"the pointer is at {where}")
        return Refuse(f"{kind} is not available in this {self.env_kind} environment; available: {_SUPPORTED}")

    def _point(self, coordinate: object) -> tuple[int, int] | Refuse:
        """A coordinate the model gave, on the screen; none means where the pointer last was."""
        if coordinate is None:
            if self._cursor is None:
                return Refuse("no coordinate was given and the pointer is unknown")
            return self._cursor
        if (not isinstance(coordinate, (list, tuple)) or len(coordinate) != 2
                or not all(isinstance(value, (int, float)) and not isinstance(value, bool) for value in coordinate)):
            return Refuse(f"a coordinate is [x, y], got {coordinate!r:.60}")
        x, y = int(coordinate[0]), int(coordinate[1])
        assert self.display is not None
        if not self.display.holds(x, y):
            return Refuse(f"({x}, {y}) is outside the {self.display.width}x{self.display.height} screen")
        return x, y

    def _error_line(self, exc: Exception) -> str:
        if isinstance(exc, anthropic.APIStatusError):
            error = exc.body.get("error") if isinstance(exc.body, dict) else None
            if isinstance(error, dict):
                detail = f"{error.get('type', 'error')}: {error.get('message', '')}"
            else:
                detail = exc.message
            return _line(f"anthropic: {exc.status_code} {detail}")
        if isinstance(exc, anthropic.APITimeoutError):
            return "anthropic: the request timed out"
        if isinstance(exc, anthropic.APIConnectionError):
            cause = exc.__cause__ or exc
            return _line(f"anthropic: cannot reach {self._client.base_url}: {cause}")
        return super()._error_line(exc)


def _image(png: bytes) -> BetaImageBlockParam:
    return {"type": "image",
            "source": {"type": "base64", "media_type": "image/png", "data": base64.b64encode(png).decode("ascii")}}


def _param(block: Any) -> BetaContentBlockParam:
    """A response content block as the request param that replays it in the conversation."""
    if block.type == "text":
        return {"type": "text", "text": block.text}
    if block.type == "tool_use":
        return {"type": "tool_use", "id": block.id, "name": block.name, "input": block.input}
    if block.type == "thinking":
        return {"type": "thinking", "thinking": block.thinking, "signature": block.signature}
    return block.model_dump(mode="json", exclude_none=True)


def _number(value: object, default: float) -> float:
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) and value >= 0 else default


def _line(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= 300 else text[:297] + "..."
