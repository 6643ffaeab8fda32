"""API actions on a task's site: `api.post` creates a record through the site's JSON API, `api.delete` removes one.

They send plain HTTP (no page needed), so a compensation can run in a process that never opened
the task's browser. While a task's spec is loaded they reach only its allowed origins, and never
on a read-only page. An `api.post` the spec declares a compensator for is `runtime_compensable`
(its receipt keeps how to delete what it made, and until when); any other is externally irreversible.
"""

from __future__ import annotations

import asyncio
import json
import urllib.error
import urllib.request
from typing import TYPE_CHECKING, Any

from engine.envs.web.forms import KIND
from engine.envs.web.origins import origin_of
from engine.tier import Tier
from engine.tools.registry import Tool, ToolError, ToolOutput

if TYPE_CHECKING:
    from engine.envs.web.environment import WebEnv

ANSWER_LIMIT = 1_000_000
_OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}))


def _reachable(env: WebEnv, tool: str, method: str, url: str) -> None:
    """Refuse a URL outside the loaded spec's origins, or a write on a read-only page."""
    if origin_of(url) is None:
        raise ToolError(f"{tool}: only http(s) URLs can be called, not {url!r:.100}")
    guard = env.guard
    if guard.allowed and not guard.inside(url):
        raise ToolError(f"{tool}: {guard.refusal(url, method)}")
    if guard.read_only:
        guard.writes_refused += 1
        raise ToolError(f"{tool}: {guard.refusal(url, method)}")


def _send(method: str, url: str, body: bytes | None, timeout: float) -> tuple[int, bytes]:
    headers = {"Accept": "application/json"}
    if body is not None:
        headers["Content-Type"] = "application/json"
    request = urllib.request.Request(url, body, headers, method=method)
    try:
        with _OPENER.open(request, timeout=timeout) as answer:
            return answer.status, answer.read(ANSWER_LIMIT)
    except urllib.error.HTTPError as error:
        with error:
            return error.code, error.read(ANSWER_LIMIT)


async def _call(env: WebEnv, tool: str, method: str, url: str, payload: Any = None) -> ToolOutput:
    _reachable(env, tool, method, url)
    body = None if payload is None else json.dumps(payload).encode()
    try:
        status, raw = await asyncio.to_thread(_send, method, url, body, env.timeout_s)
    except (OSError, ValueError) as exc:
        raise ToolError(f"{tool}: {method} {url:.100} failed: {getattr(exc, 'reason', None) or exc}") from None
    try:
        answer = json.loads(raw) if raw.strip() else None
    except ValueError:
        answer = None
    if status >= 400:
        said = answer.get("error") if isinstance(answer, dict) else None
        raise ToolError(f"{tool}: {method} {url:.100} answered {status}" + (f": {said}" if said else ""))
    return ToolOutput(f"{method} {url} answered {status}", {"status": status, "url": url, "response": answer})


async def _post(env: WebEnv, args: dict[str, Any]) -> ToolOutput:
    return await _call(env, "api.post", "POST", args["url"], args["json"])


async def _delete(env: WebEnv, args: dict[str, Any]) -> ToolOutput:
    return await _call(env, "api.delete", "DELETE", args["url"])


def api_tools(env: WebEnv) -> tuple[Tool, ...]:
    """The two API tools; `env` answers which `api.post` calls its spec declares a compensator for."""

    def compensator(args: dict[str, Any]):
        return env.compensator_for("api.post", args)

    def tier(args: dict[str, Any]) -> Tier:
        return Tier.RUNTIME_COMPENSABLE if compensator(args) is not None else Tier.EXTERNALLY_IRREVERSIBLE

    return (
        Tool(name="api.post", kind=KIND, schema={"url": str, "json": dict}, run=_post, tier=tier,
             reverser="compensate", compensator=compensator, summary=lambda a: f"api.post {a['url']}"),
        Tool(name="api.delete", kind=KIND, schema={"url": str}, run=_delete, tier=Tier.EXTERNALLY_IRREVERSIBLE,
             summary=lambda a: f"api.delete {a['url']}"),
    )
