"""A tool call, written `{"tool": NAME, "args": {...}}` everywhere."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class ToolCall:
    """One call of a registered tool; its digest binds approvals to exact arguments."""

    tool: str
    args: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def from_json(cls, obj: Any) -> "ToolCall":
        if not isinstance(obj, dict) or not isinstance(obj.get("tool"), str):
            raise ValueError(f'a tool call is {{"tool": NAME, "args": {{...}}}}, got {obj!r:.80}')
        args = obj.get("args", {})
        if not isinstance(args, dict):
            raise ValueError(f"args of {obj['tool']} must be an object, got {type(args).__name__}")
        return cls(obj["tool"], dict(args))

    def as_json(self) -> dict[str, Any]:
        return {"tool": self.tool, "args": self.args}

    def canonical(self) -> str:
        """Sorted, compact, ASCII-only JSON: any text (even a lone surrogate) can be stored and hashed."""
        return json.dumps(self.as_json(), sort_keys=True, separators=(",", ":"))

    def digest(self) -> str:
        return hashlib.sha256(self.canonical().encode()).hexdigest()

    def __hash__(self) -> int:
        return hash(self.canonical())
