"""The Gemini computer-use agent: `google-genai`'s client with its computer-use tool.

The model calls predefined functions (`click_at`, `type_text_at`, `navigate`, ...) with points
on a 0..999 grid, mapped here to pixels of the observation's display. One function may take
several Warden calls (`type_text_at` is a click, a clear, the text and Enter); they are proposed
one per `propose`, each through the runner and the gate, and the model hears back once they
are all done. Function responses carry the page URL and a screenshot, as the tool expects.

The client is `genai.Client()` without a key or base URL: the SDK reads `GEMINI_API_KEY` /
`GOOGLE_API_KEY` and `GOOGLE_GEMINI_BASE_URL` itself when the client is built. Only the API
version is pinned (computer use is a v1beta feature; the SDK's own default is v1), unless the
spec or the SDK's `GOOGLE_GENAI_API_VERSION` says otherwise.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import Any

from google import genai
from google.genai import errors, types

from engine.agents.agent import AgentContext, AgentError, Finish, GiveUp, Usage
from engine.agents.computer import Look, Move, Refuse, chain
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

DEFAULT_MODEL = "gemini-2.5-computer-use-preview-10-2025"
DEFAULT_API_VERSION = "v1beta"

DEFAULTS: dict[str, Any] = {
    "model": DEFAULT_MODEL,
    "api_version": "",
    "max_retries": 2,
    "timeout_s": 120.0,
}

ENVIRONMENTS = {"web": types.Environment.ENVIRONMENT_BROWSER, "desktop": types.Environment.ENVIRONMENT_DESKTOP}
EXCLUDED = {"web": ["drag_and_drop", "hover_at", "search"], "desktop": []}
"""Predefined functions Warden has no tool for, withheld from the model so it does not plan with them."""

REFUSALS = {types.FinishReason.SAFETY, types.FinishReason.PROHIBITED_CONTENT, types.FinishReason.BLOCKLIST,
            types.FinishReason.SPII, types.FinishReason.RECITATION, types.FinishReason.IMAGE_SAFETY,
            types.FinishReason.IMAGE_PROHIBITED_CONTENT}
_ENDED = {None, types.FinishReason.STOP, types.FinishReason.FINISH_REASON_UNSPECIFIED}
_DROPPED_SCREEN = "(an earlier screenshot, dropped to keep the conversation short)"
GRID = 1000
"""Gemini's points are on a 0..999 grid in each direction."""


class GeminiAgent(ModelAgent):
    name = "gemini"

    def __init__(self, client: genai.Client, context: AgentContext, options: Mapping[str, Any]) -> None:
        super().__init__(context, limits_from(options, "gemini"))
        self._client = client
        self.model: str = options["model"]
        self._price = context.prices.get(self.model)
        self.contents: list[types.Content] = []
        self._config = types.GenerateContentConfig(
            tools=[types.Tool(computer_use=types.ComputerUse(
                environment=ENVIRONMENTS[context.env_kind],
                excluded_predefined_functions=EXCLUDED[context.env_kind] or None))],
            automatic_function_calling=types.AutomaticFunctionCallingConfig(disable=True),
        )

    @classmethod
    def from_spec(cls, spec: Mapping[str, Any], context: AgentContext) -> "GeminiAgent":
        options = read_spec(spec, "gemini", {**DEFAULTS, **LIMIT_DEFAULTS})
        if context.env_kind not in ENVIRONMENTS:
            raise AgentError("gemini agent: acts on a web or desktop screen; "
                             f"this task's environment is {context.env_kind}")
        if not (os.environ.get("GEMINI_API_KEY") or os.environ.get("GOOGLE_API_KEY")):
            raise AgentError("gemini agent: neither GEMINI_API_KEY nor GOOGLE_API_KEY is set")
        version = options["api_version"] or None
        if version is None and not os.environ.get("GOOGLE_GENAI_API_VERSION"):
            version = DEFAULT_API_VERSION
        retries = types.HttpRetryOptions(attempts=options["max_retries"] + 1) if options["max_retries"] else None
        http = types.HttpOptions(api_version=version, timeout=int(options["timeout_s"] * 1000), retry_options=retries)
        try:
            client = genai.Client(http_options=http)
        except ValueError as exc:
            raise AgentError(f"gemini agent: {' '.join(str(exc).split())}") from None
        return cls(client, context, options)

    def _open(self, text: str, png: bytes) -> None:
        self.contents = [types.Content(role="user", parts=[types.Part(text=text),
                                                           types.Part.from_bytes(data=png, mime_type="image/png")])]

    async def _ask(self) -> Reply:
        response = await self._client.aio.models.generate_content(
            model=self.model, contents=self.contents, config=self._config)
        usage = self._usage(response.usage_metadata)
        feedback = response.prompt_feedback
        if feedback is not None and feedback.block_reason is not None:
            return Reply((), usage, GiveUp(f"gemini: the request was blocked ({_name(feedback.block_reason)})"))
        if not response.candidates:
            return Reply((), usage, GiveUp("gemini: the model returned no answer"))
        candidate = response.candidates[0]
        content = candidate.content
        parts = (content.parts or []) if content is not None else []
        if content is not None and parts:
            self.contents.append(content)
        calls = [part.function_call for part in parts if part.function_call is not None]
        text = " ".join(part.text for part in parts if part.text and not part.thought).strip()
        reason = candidate.finish_reason
        if reason in REFUSALS:
            return Reply((), usage, GiveUp(f"gemini: the model refused ({_name(reason)})"))
        for call in calls:
            decision = (call.args or {}).get("safety_decision")
            if isinstance(decision, Mapping) and decision.get("decision") == "require_confirmation":
                why = " ".join(str(decision.get("explanation", "")).split())[:300]
                return Reply((), usage, GiveUp(f"gemini: the model asks a person to confirm {call.name} first: {why}"))
        if calls:
            return Reply(tuple(ModelAction(call.id, call.name or "", dict(call.args or {})) for call in calls), usage)
        if reason in _ENDED:
            return Reply((), usage, Finish(text or "the model ended its turn"))
        return Reply((), usage, GiveUp(f"gemini: the model stopped ({_name(reason)}) without acting"))

    def _usage(self, metadata: types.GenerateContentResponseUsageMetadata | None) -> Usage:
        if metadata is None:
            return Usage.priced(0, 0, self._price)
        input_tokens = (metadata.prompt_token_count or 0) + (metadata.tool_use_prompt_token_count or 0)
        output_tokens = (metadata.candidates_token_count or 0) + (metadata.thoughts_token_count or 0)
        return Usage.priced(input_tokens, output_tokens, self._price)

    def _answer(self, results: Sequence[Result], observation: Observation) -> None:
        url = observation.fields.get("url")
        parts = []
        for result in results:
            response: dict[str, Any] = {"error" if result.error else "output": result.text}
            if self.actions.web:
                response["url"] = url if isinstance(url, str) else ""
            screen = None
            if result.image is not None:
                screen = [types.FunctionResponsePart(
                    inline_data=types.FunctionResponseBlob(mime_type="image/png", data=result.image))]
            parts.append(types.Part(function_response=types.FunctionResponse(
                id=result.action.id, name=result.action.name, response=response, parts=screen)))
        self.contents.append(types.Content(role="user", parts=parts))
        self._drop_old_screens()

    def _drop_old_screens(self) -> None:
        """Keep the newest `keep_screenshots` images; older ones leave the conversation."""
        slots = [(parts, index) for parts in (content.parts for content in self.contents) if parts
                 for index, part in enumerate(parts)
                 if part.inline_data is not None
                 or (part.function_response is not None and part.function_response.parts)]
        for parts, index in slots[:max(0, len(slots) - self.limits.keep_screenshots)]:
            part = parts[index]
            if part.inline_data is not None:
                parts[index] = types.Part(text=_DROPPED_SCREEN)
            elif part.function_response is not None:
                parts[index] = types.Part(function_response=part.function_response.model_copy(
                    update={"parts": None}))

    def _translate(self, action: ModelAction) -> Move:
        args, name = action.args, action.name
        if name == "open_web_browser":
            return Look("the browser is open")
        if name == "wait_5_seconds":
            return Look("waited 5 seconds", wait=5.0)
        if name in ("go_back", "go_forward") and self.actions.web:
            return self.actions.keys(["Alt+ArrowLeft" if name == "go_back" else "Alt+ArrowRight"])
        if name == "navigate":
            return self.actions.goto(args.get("url", ""))
        if name == "key_combination":
            keys = args.get("keys")
            return self.actions.keys([keys]) if isinstance(keys, str) else Refuse("key_combination needs keys")
        if name == "scroll_document":
            return self._scroll(args.get("direction"), GRID)
        if name in ("click_at", "type_text_at", "scroll_at"):
            point = self._point(args.get("x"), args.get("y"))
            if isinstance(point, Refuse):
                return point
            if name == "click_at":
                return self.actions.click(*point)
            if name == "scroll_at":
                return self._scroll(args.get("direction"), _number(args.get("magnitude"), 800))
            text = args.get("text")
            if not isinstance(text, str):
                return Refuse("type_text_at needs text")
            moves = [self.actions.click(*point)]
            if args.get("clear_before_typing", True):
                moves.append(self.actions.keys(["Control+A", "Delete"]))
            moves.append(self.actions.type(text))
            if args.get("press_enter", True):
                moves.append(self.actions.keys(["Enter"]))
            return chain(moves)
        return Refuse(f"{name} is not available in this {self.env_kind} environment")

    def _point(self, x: object, y: object) -> tuple[int, int] | Refuse:
        if not all(isinstance(value, (int, float)) and not isinstance(value, bool) and 0 <= value <= GRID
                   for value in (x, y)):
            return Refuse(f"x and y are numbers from 0 to 999, got {x!r:.20}, {y!r:.20}")
        assert self.display is not None
        return self.display.from_normalised(float(x), float(y), GRID)  # type: ignore[arg-type]

    def _scroll(self, direction: object, magnitude: float) -> Move:
        """A scroll of `magnitude` on the 0..999 grid (the whole grid is one screen) in pixels."""
        assert self.display is not None
        across = str(direction).lower() in ("left", "right")
        extent = self.display.width if across else self.display.height
        return self.actions.scroll(str(direction), int(magnitude * extent / GRID))

    def _error_line(self, exc: Exception) -> str:
        if isinstance(exc, errors.APIError):
            message = " ".join(str(exc.message or "").split())[:300]
            return f"gemini: {exc.code} {exc.status or 'error'}: {message}".rstrip(": ")
        return super()._error_line(exc)


def _name(value: object) -> str:
    return getattr(value, "value", None) or str(value)


def _number(value: object, default: float) -> float:
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) and value > 0 else default
