"""The web environment's reset spec, checked whole before a browser is touched."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.envs.web.origins import Subresources, origin_of, parse_origin
from engine.envs.web.targets import target_problem
from engine.errors import WardenError
from engine.tools.compensator import Compensator, CompensatorError

KEYS = ("kind", "start_url", "setup", "allowed_origins", "subresources", "viewport", "timeout_s", "resettable",
        "read_only", "compensators")
DEFAULT_VIEWPORT = (1280, 800)
DEFAULT_TIMEOUT_S = 15.0


@dataclass(frozen=True)
class WebSpec:
    """Where a task starts, what runs there first, and where its pages may go.

    `setup` steps are `{"js": source}` (evaluated in the page, awaited when it returns a
    promise) or `{"wait_for": TARGET}` (until visible). `timeout_s` bounds each navigation
    and action. `resettable` is the spec's word that its setup puts the site back in its start
    state (a benchmark's reset), so the verify gate may re-run a program's steps there;
    `read_only` refuses every request but a read, and every socket, once the setup has run.
    `subresources` says where a page's reads may go (`origins.Subresources`). `compensators` declare how
    an API action's record on a site is compensated (`engine/tools/compensator.py`); a compensating
    call's URL must stay inside the allowed origins.
    """

    start_url: str
    setup: tuple[dict, ...]
    allowed_origins: tuple[str, ...]
    viewport: tuple[int, int]
    timeout_s: float
    resettable: bool = False
    read_only: bool = False
    compensators: tuple[Compensator, ...] = ()
    subresources: Subresources = Subresources.ORIGINS


def parse_spec(spec: Mapping[str, Any]) -> WebSpec:
    """A `WebSpec` from a task's env object, or a one-line `WardenError` naming what is wrong."""
    unknown = sorted(set(spec) - set(KEYS))
    if unknown:
        raise WardenError(f"web spec: unknown keys {unknown}; known: {list(KEYS)}")
    start_url = spec.get("start_url")
    if not isinstance(start_url, str) or origin_of(start_url) is None:
        raise WardenError(f"web spec: start_url must be an http(s) URL, got {start_url!r:.100}")
    allowed = spec.get("allowed_origins", [origin_of(start_url)])
    if not isinstance(allowed, list) or not allowed or not all(isinstance(item, str) for item in allowed):
        raise WardenError("web spec: allowed_origins must be a non-empty list of origins like http://127.0.0.1:8000")
    origins = tuple(dict.fromkeys(parse_origin(item) for item in allowed))
    if origin_of(start_url) not in origins:
        raise WardenError(f"web spec: start_url {start_url:.100} is outside allowed_origins ({', '.join(origins)})")
    return WebSpec(start_url, _setup(spec.get("setup", [])), origins, _viewport(spec.get("viewport")),
                   _timeout(spec.get("timeout_s", DEFAULT_TIMEOUT_S)), _flag(spec, "resettable"), _flag(spec, "read_only"),
                   _compensators(spec.get("compensators", []), origins), _subresources(spec.get("subresources")))


def _subresources(value: Any) -> Subresources:
    if value is None:
        return Subresources.ORIGINS
    known = {choice.value: choice for choice in Subresources}
    if isinstance(value, str) and value in known:
        return known[value]
    raise WardenError(f'web spec: subresources must be "origins" (reads stay within allowed_origins, the default) '
                      f'or "any" (reads may reach any origin), got {value!r:.40}')


def _compensators(declared: Any, origins: tuple[str, ...]) -> tuple[Compensator, ...]:
    if not isinstance(declared, list):
        raise WardenError("web spec: compensators must be a list of compensator objects")
    found = []
    for number, raw in enumerate(declared, 1):
        try:
            compensator = Compensator.from_json(raw, f"web spec: compensator {number}")
        except CompensatorError as exc:
            raise WardenError(str(exc)) from None
        url = compensator.compensate.args.get("url")
        if isinstance(url, str) and origin_of(url.replace("{key}", "0")) not in origins:
            raise WardenError(f"web spec: compensator {number} calls {url:.100}, outside allowed_origins "
                              f"({', '.join(origins)})")
        found.append(compensator)
    return tuple(found)


def _flag(spec: Mapping[str, Any], key: str) -> bool:
    value = spec.get(key, False)
    if not isinstance(value, bool):
        raise WardenError(f"web spec: {key} must be true or false, got {value!r:.40}")
    return value


def _setup(steps: Any) -> tuple[dict, ...]:
    if not isinstance(steps, list):
        raise WardenError('web spec: setup must be a list of {"js": ...} and {"wait_for": TARGET} steps')
    for number, step in enumerate(steps, 1):
        if isinstance(step, dict) and set(step) == {"js"} and isinstance(step["js"], str):
            continue
        if isinstance(step, dict) and set(step) == {"wait_for"}:
            problem = target_problem(step["wait_for"])
            if problem is None:
                continue
            raise WardenError(f"web spec: setup step {number} wait_for: {problem}")
        raise WardenError(f'web spec: setup step {number} must be {{"js": source}} or {{"wait_for": TARGET}}, '
                          f"got {step!r:.80}")
    return tuple(steps)


def _viewport(viewport: Any) -> tuple[int, int]:
    if viewport is None:
        return DEFAULT_VIEWPORT
    if (isinstance(viewport, dict) and set(viewport) == {"width", "height"}
            and all(type(viewport[k]) is int and 0 < viewport[k] <= 10_000 for k in viewport)):
        return viewport["width"], viewport["height"]
    raise WardenError(f'web spec: viewport must be {{"width": W, "height": H}} in pixels, got {viewport!r:.80}')


def _timeout(timeout: Any) -> float:
    if isinstance(timeout, (int, float)) and not isinstance(timeout, bool) and 0 < timeout <= 600:
        return float(timeout)
    raise WardenError(f"web spec: timeout_s must be a number of seconds above 0 and at most 600, got {timeout!r:.40}")
