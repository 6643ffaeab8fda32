"""Did an interrupted call run? A witness records its target before the call and judges after.

A step killed between its write-ahead and its receipt may or may not have taken effect.
For a tool that is not idempotent, "the effect holds" proves nothing (an append's text
may have been there before), so such a tool records what it will change at dispatch
and compares it with what is there on resume.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from engine.envs.environment import Environment


@dataclass(frozen=True)
class Evidence:
    """`ran` is True when the effect is there exactly, False when the target is as it was at
    dispatch, None when nothing can be told; `seen` says what the check saw, for a person."""

    ran: bool | None
    seen: str


@dataclass(frozen=True)
class Witness:
    before: Callable[["Environment", dict[str, Any]], Awaitable[dict[str, Any]]]
    after: Callable[["Environment", dict[str, Any], dict[str, Any]], Awaitable[Evidence]]
