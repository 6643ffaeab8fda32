"""Compensators: how an action against a cooperating system is undone there, and for how long that holds.

An environment (on its tool) or a task spec declares one: the system, where the key of what
the action made is read from its result, the compensating call with `{key}` in its arguments,
and the window in seconds. Bound to one call's result it becomes a `Compensation`, which its
receipt keeps whole, so an undo in another process needs nothing but the receipt.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.errors import WardenError
from engine.tools.call import ToolCall

KEY_MARK = "{key}"
_PLAIN_KEY = re.compile(r"[A-Za-z0-9._~-]{1,200}")
_FIELDS = {"tool", "match", "system", "key", "compensate", "window_s", "noun"}


class CompensatorError(WardenError):
    """A compensator declaration is malformed, or a call's result holds no usable key."""


@dataclass(frozen=True)
class Compensation:
    """One action's compensation: the compensating call with its key filled in, valid until `deadline`."""

    system: str
    key: str
    call: ToolCall
    deadline: float
    noun: str = "record"

    def remains(self) -> str:
        """What stays in the cooperating system when the compensation cannot run."""
        return f"{self.noun} {self.key} in {self.system} remains"

    def as_json(self) -> dict[str, Any]:
        return {"system": self.system, "key": self.key, "call": self.call.as_json(), "deadline": self.deadline,
                "noun": self.noun}

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> "Compensation":
        return cls(raw["system"], raw["key"], ToolCall.from_json(raw["call"]), float(raw["deadline"]),
                   raw.get("noun", "record"))


@dataclass(frozen=True)
class Compensator:
    """A declared compensator for calls of `tool` whose arguments include `match`.

    `key` is a dotted path into the call's result data (`response.id` for an API answer);
    the key must be plain (letters, digits, `._~-`), so it cannot steer the compensating call
    anywhere its template did not say.
    """

    tool: str
    system: str
    key: str
    compensate: ToolCall
    window_s: float
    match: Mapping[str, Any] = field(default_factory=dict)
    noun: str = "record"

    def covers(self, tool: str, args: Mapping[str, Any]) -> bool:
        return tool == self.tool and all(args.get(name) == value for name, value in self.match.items())

    def bind(self, data: Mapping[str, Any], now: float) -> Compensation:
        """The compensation of one call whose result data is `data`; `CompensatorError` when the key is not there."""
        value: Any = data
        for part in self.key.split("."):
            if not isinstance(value, Mapping) or part not in value:
                raise CompensatorError(f"the result holds no {self.key}: nothing to compensate by")
            value = value[part]
        if isinstance(value, bool) or not isinstance(value, (int, str)) or not _PLAIN_KEY.fullmatch(str(value)):
            raise CompensatorError(f"the result's {self.key} ({str(value)[:40]!r}) is not a plain key")
        key = str(value)
        call = ToolCall(self.compensate.tool, _filled(self.compensate.args, key))
        return Compensation(self.system, key, call, now + self.window_s, self.noun)

    @classmethod
    def from_json(cls, raw: Any, where: str = "compensator") -> "Compensator":
        """A compensator from a spec's JSON: `{"tool", "match"?, "system", "key", "compensate": {"tool", "args"},
        "window_s", "noun"?}`; a one-line `CompensatorError` naming what is wrong otherwise."""
        if not isinstance(raw, Mapping):
            raise CompensatorError(f"{where} must be an object, got {raw!r:.60}")
        unknown = sorted(set(raw) - _FIELDS)
        if unknown:
            raise CompensatorError(f"{where}: unknown keys {unknown}; known: {sorted(_FIELDS)}")
        for name in ("tool", "system", "key"):
            if not isinstance(raw.get(name), str) or not raw[name]:
                raise CompensatorError(f"{where}: {name} must be a non-empty string")
        match = raw.get("match", {})
        if not isinstance(match, Mapping):
            raise CompensatorError(f"{where}: match must be an object of argument values")
        window = raw.get("window_s")
        if isinstance(window, bool) or not isinstance(window, (int, float)) or not 0 < window < 10 ** 9:
            raise CompensatorError(f"{where}: window_s must be a positive number of seconds, got {window!r:.40}")
        try:
            compensate = ToolCall.from_json(raw.get("compensate"))
        except ValueError as exc:
            raise CompensatorError(f"{where}: compensate: {exc}") from None
        if KEY_MARK not in compensate.canonical():
            raise CompensatorError(f"{where}: compensate's arguments must name the key as {KEY_MARK}")
        noun = raw.get("noun", "record")
        if not isinstance(noun, str) or not noun:
            raise CompensatorError(f"{where}: noun must be a non-empty string")
        return cls(raw["tool"], raw["system"], raw["key"], compensate, float(window), dict(match), noun)


def _filled(value: Any, key: str) -> Any:
    """`value` with every `{key}` in its strings replaced by the key."""
    if isinstance(value, str):
        return value.replace(KEY_MARK, key)
    if isinstance(value, Mapping):
        return {name: _filled(item, key) for name, item in value.items()}
    if isinstance(value, list):
        return [_filled(item, key) for item in value]
    return value
