"""API actions on a task's site: `api.post` creates a record through the site's JSON API, `api.delete` removes one.

They send plain HTTP (no page needed), so a compensation can run in a process that never opened
the task's browser. While a task's spec is loaded they reach only its allowed origins, and never
on a read-only page. A redirect is followed only while every hop stays there (within the called
URL's own origin when no spec is loaded): each hop is checked before it is requested, and one that
leaves is refused, naming where it pointed; the outcome of a followed one names the final URL. An
`api.post` the spec declares a compensator for is `runtime_compensable` (its receipt keeps how to
delete what it made, and until when); any other is externally irreversible.
"""

from __future__ import annotations

import asyncio
import json
import urllib.error
import urllib.request
from collections.abc import Callable
from http.client import HTTPMessage
from typing import IO, Any

from engine.envs.web.environment import WebEnv
from engine.envs.web.forms import KIND
from engine.envs.web.origins import origin_of
from engine.tier import Tier
from engine.tools.registry import Tool, ToolError, ToolOutput, acting_in

ANSWER_LIMIT = 1_000_000

HopCheck = Callable[[str], "str | None"]  # a redirect's target URL -> None to follow it, or why it is refused


class RedirectRefused(Exception):
    """A redirect pointed outside where the call may go; nothing was requested there."""

    def __init__(self, code: int, target: str, why: str) -> None:
        super().__init__(f"{code} to {target}: {why}")
        self.code, self.target, self.why = code, target, why


class _ConfinedRedirects(urllib.request.HTTPRedirectHandler):
    """urllib's redirect handling, with every hop's target checked before it is requested."""

    def __init__(self, check: HopCheck) -> None:
        self._check = check

    def redirect_request(self, req: urllib.request.Request, fp: IO[bytes], code: int, msg: str,
                         headers: HTTPMessage, newurl: str) -> urllib.request.Request | None:
        follow = super().redirect_request(req, fp, code, msg, headers, newurl)
        why = None if follow is None else self._check(follow.full_url)
        if why is not None:
            fp.close()
            raise RedirectRefused(code, newurl, why)
        return follow


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


def _hop_check(env: WebEnv, url: str) -> HopCheck:
    """Where a redirect of a call to `url` may lead: the loaded spec's allowed origins, else `url`'s own origin."""
    guard = env.guard
    if guard.allowed:
        def within_allowed(target: str) -> str | None:
            if origin_of(target) is not None and guard.inside(target):
                return None
            return f"outside the task's allowed origins ({', '.join(guard.allowed)})"
        return within_allowed
    home = origin_of(url)

    def within_home(target: str) -> str | None:
        return None if origin_of(target) == home else f"outside the called URL's origin ({home})"
    return within_home


def _send(method: str, url: str, body: bytes | None, timeout: float, check: HopCheck) -> tuple[int, bytes, str]:
    """The status, the body and the final URL of the answer, redirects followed only where `check` allows."""
    headers = {"Accept": "application/json"}
    if body is not None:
        headers["Content-Type"] = "application/json"
    request = urllib.request.Request(url, body, headers, method=method)
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}), _ConfinedRedirects(check))
    try:
        with opener.open(request, timeout=timeout) as answer:
            return answer.status, answer.read(ANSWER_LIMIT), answer.url
    except urllib.error.HTTPError as error:
        with error:
            return error.code, error.read(ANSWER_LIMIT), error.url or url


def _answered(method: str, url: str, final: str, status: int) -> str:
    if final == url:
        return f"{method} {url} answered {status}"
    return f"{method} {url} was redirected to {final}, which answered {status}"


async def _call(env: WebEnv, tool: str, method: str, url: str, payload: Any = None) -> ToolOutput:
    _reachable(env, tool, method, url)
    body = None if payload is None else json.dumps(payload).encode()
    try:
        status, raw, final = await asyncio.to_thread(_send, method, url, body, env.timeout_s, _hop_check(env, url))
    except RedirectRefused as refused:
        raise ToolError(f"{tool}: {method} {url:.100} was redirected to {refused.target:.200} ({refused.code}), "
                        f"{refused.why}: not followed") from None
    except (OSError, ValueError) as exc:
        raise ToolError(f"{tool}: {method} {url:.100} failed: {getattr(exc, 'reason', None) or exc}") from None
    try:
        answer = json.loads(raw) if raw.strip() else None
    except ValueError:
        answer = None
    if status >= 400:
        said = answer.get("error") if isinstance(answer, dict) else None
        raise ToolError(f"{tool}: {_answered(method, url, final, status)}" + (f": {said}" if said else ""))
    return ToolOutput(_answered(method, url, final, status),
                      {"status": status, "url": url, "final_url": final, "response": answer})


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
        Tool(name="api.post", kind=KIND, schema={"url": str, "json": dict}, run=acting_in(WebEnv, _post), tier=tier,
             reverser="compensate", compensator=compensator, summary=lambda a: f"api.post {a['url']}"),
        Tool(name="api.delete", kind=KIND, schema={"url": str}, run=acting_in(WebEnv, _delete), tier=Tier.EXTERNALLY_IRREVERSIBLE,
             summary=lambda a: f"api.delete {a['url']}"),
    )
