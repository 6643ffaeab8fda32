"""A tool call as the records beside its step keep it: long text as its digest, length and start.

A step row keeps its call's arguments whole (and a scripted task's spec, its plan): that is what
resumes, replays and compiling read. Every other record of the call (the events the console and
the timeline show, the receipt undo reads) needs what the call acted on, not another copy of the
5 MB it wrote: before this, one `fs.write` was stored seven times. So in those records a string
argument longer than `KEPT_CHARS` is replaced by `{"abridged": {"sha256", "chars", "start"}}`.

It is applied to a call as recorded (its secrets already redacted), so the digest is that of the
text the step row holds, the start shows no secret cut in half, and the digest of a text holding a
secret is never that of the secret's clear text.
"""

from __future__ import annotations

import hashlib
from typing import Any

from engine.tools.call import ToolCall

KEPT_CHARS = 4096
START_CHARS = 200
MARK = "abridged"


def abridged(call: ToolCall) -> ToolCall:
    """`call` with every string argument longer than `KEPT_CHARS` abridged (nested ones too)."""
    return ToolCall(call.tool, _abridge(call.args))


def abridged_json(call: Any) -> Any:
    """A call as JSON (`{"tool", "args"}`) abridged; anything else as it is."""
    if isinstance(call, dict) and isinstance(call.get("args"), dict):
        return {**call, "args": _abridge(call["args"])}
    return call


def abridged_value(value: Any) -> Any:
    """Any JSON-like value with every string in it longer than `KEPT_CHARS` abridged (a task's spec)."""
    return _abridge(value)


def is_abridged(value: Any) -> bool:
    return isinstance(value, dict) and set(value) == {MARK} and isinstance(value[MARK], dict)


def _abridge(value: Any) -> Any:
    if isinstance(value, str):
        if len(value) <= KEPT_CHARS:
            return value
        digest = hashlib.sha256(value.encode("utf-8", "surrogatepass")).hexdigest()
        return {MARK: {"sha256": digest, "chars": len(value), "start": value[:START_CHARS]}}
    if isinstance(value, dict):
        return {key: _abridge(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_abridge(item) for item in value]
    return value
