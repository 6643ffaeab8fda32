"""The tool registry: what each tool accepts, what it may change, and how that is undone."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from engine.envs.workspace import WorkspaceEnv
from engine.errors import WardenError
from engine.gate.verdict import Tier
from engine.tools.call import ToolCall

MAX_ARGUMENT_BYTES = 1_000_000

Predicate = dict[str, Any]


class ToolError(WardenError):
    """A call names an unknown tool, has bad arguments, or the tool failed."""


@dataclass(frozen=True)
class Tool:
    """A tool's declaration; `touches` names the workspace paths a snapshot must cover.

    `needs` and `effect` are predicates over the workspace: what must hold before the
    call, and what holds after it. Programs check them; resume uses `effect` as the
    idempotency check of a step interrupted mid-dispatch.
    """

    name: str
    schema: dict[str, type]
    run: Callable[[WorkspaceEnv, dict[str, Any]], Awaitable[str]]
    tier: Tier | Callable[[dict[str, Any]], Tier]
    reverser: str | None = None
    touches: Callable[[dict[str, Any]], list[str]] = lambda args: []
    needs: Callable[[dict[str, Any]], Predicate | None] = lambda args: None
    effect: Callable[[dict[str, Any]], Predicate | None] = lambda args: None
    summary: Callable[[dict[str, Any]], str] | None = None

    def tier_for(self, args: dict[str, Any]) -> Tier:
        return self.tier(args) if callable(self.tier) else self.tier

    def describe(self, args: dict[str, Any]) -> str:
        if self.summary is not None:
            return self.summary(args)
        return f"{self.name} " + " ".join(f"{k}={str(v)[:40]!r}" for k, v in args.items())


class ToolRegistry:
    """Refuses a tool that claims `local_reversible` without saying how it is reversed."""

    def __init__(self) -> None:
        self._tools: dict[str, Tool] = {}

    def register(self, tool: Tool) -> None:
        if tool.name in self._tools:
            raise ToolError(f"tool {tool.name} is already registered")
        if not callable(tool.tier) and tool.tier is Tier.LOCAL_REVERSIBLE and tool.reverser is None:
            raise ToolError(f"tool {tool.name} claims local_reversible but declares no reverser")
        if callable(tool.tier) and tool.reverser is None:
            raise ToolError(f"tool {tool.name} may be local_reversible but declares no reverser")
        self._tools[tool.name] = tool

    def names(self) -> list[str]:
        return sorted(self._tools)

    def get(self, name: str) -> Tool:
        try:
            return self._tools[name]
        except KeyError:
            raise ToolError(f"unknown tool {name!r}; known tools: {', '.join(self.names())}") from None

    def check(self, call: ToolCall) -> Tool:
        """The tool for a call whose arguments match its schema exactly, or a one-line error."""
        tool = self.get(call.tool)
        missing = set(tool.schema) - set(call.args)
        extra = set(call.args) - set(tool.schema)
        if missing or extra:
            raise ToolError(
                f"{call.tool} takes {sorted(tool.schema)}; missing {sorted(missing)}, unexpected {sorted(extra)}"
            )
        for name, kind in tool.schema.items():
            value = call.args[name]
            if not isinstance(value, kind):
                raise ToolError(f"{call.tool}: {name} must be {kind.__name__}, got {type(value).__name__}")
            if isinstance(value, str) and len(value.encode()) > MAX_ARGUMENT_BYTES:
                raise ToolError(f"{call.tool}: {name} is {len(value.encode())} bytes, over {MAX_ARGUMENT_BYTES}")
        return tool
