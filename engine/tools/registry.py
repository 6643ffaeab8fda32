"""The tool registry: what each tool accepts, what it may change, and how that is undone.

It is the only list of tools: environments contribute theirs, and the gate reads its names.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Concatenate, ParamSpec, TypeVar

from engine.errors import WardenError
from engine.tier import Tier
from engine.tools.call import ToolCall
from engine.tools.compensator import Compensator
from engine.tools.pins import Pin
from engine.tools.witness import Witness

if TYPE_CHECKING:
    from engine.envs.environment import Environment

MAX_ARGUMENT_BYTES = 1_000_000

Predicate = dict[str, Any]


class ToolError(WardenError):
    """A call names an unknown tool, has bad arguments, or the tool failed."""


class CommandFailed(ToolError):
    """A command ran and exited non-zero: the step failed, and `output` keeps what it printed and its exit status
    (`data["exit"]`), for whoever passes them on (`warden exec`)."""

    def __init__(self, message: str, output: "ToolOutput") -> None:
        super().__init__(message)
        self.output = output


E = TypeVar("E", bound="Environment")
P = ParamSpec("P")
R = TypeVar("R")


def acting_in(
    env_type: type[E], act: Callable[Concatenate[E, P], Awaitable[R]],
) -> Callable[Concatenate["Environment", P], Awaitable[R]]:
    """`act`, written for one environment class, as a tool's `run` or `pin` (or a witness's look): the runtime
    hands a tool the environment it came from, typed as any environment; another kind is refused in one line."""

    async def checked(env: Environment, /, *args: P.args, **kwargs: P.kwargs) -> R:
        if not isinstance(env, env_type):
            kind = env_type.kind
            article = "an" if kind[:1] in ("a", "e", "i", "o", "u") else "a"
            raise ToolError(f"{article} {kind} tool cannot act in a {env.kind} environment")
        return await act(env, *args, **kwargs)

    return checked


@dataclass(frozen=True)
class ToolOutput:
    """What a tool returns: text for a person or a model, and structured data."""

    text: str
    data: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Tool:
    """A tool's declaration; `kind` is the environment kind it acts in, `touches` the targets
    a snapshot of that environment must cover.

    `needs` and `effect` are predicates of that kind: what must hold before the call, and
    what holds after it. Programs check them. Only an `idempotent` tool's effect also
    proves the call needs no running (a resumed step interrupted mid-dispatch, a
    scripted step already done): for an append, "the file contains the text" may have
    been true before it ever ran. A tool with `unavailable` set is refused before the
    gate rules on it, with that line as the reason. A `witness` lets a step interrupted
    mid-dispatch be settled by what it recorded then, rather than by asking a person.

    A `scoped` tool acts only inside what its environment's task spec granted (a browser
    confined to the spec's allowed origins, a display the task names): being externally
    irreversible there does not by itself ask a person, though the gate's rules still may.
    `egress` names the destination when a call would leave that scope (a navigation to
    another origin), which the gate rates as egress. `compensator` names, for a call, how its effect
    on a cooperating system is compensated (`engine/tools/compensator.py`); its tier is then
    `runtime_compensable`.
    A tool that `snapshots_itself` learns what it changed only by running (a confined shell command on an
    overlay): the journal gives it an empty snapshot directory (`engine/journal/deferred.py`) that it
    fills before it touches the environment.
    A tool whose calls run files of its environment as code (a shell running `sh run.sh`) reads, with
    `pin`, what the files the gate names (`Verdict.code`) hold now: an approval is bound to that, and a
    change of them before dispatch asks afresh (`engine/tools/pins.py`).
    """

    name: str
    kind: str
    schema: dict[str, type]
    run: Callable[["Environment", dict[str, Any]], Awaitable[ToolOutput]]
    tier: Tier | Callable[[dict[str, Any]], Tier]
    reverser: str | None = None
    touches: Callable[[dict[str, Any]], list[str]] = lambda args: []
    needs: Callable[[dict[str, Any]], Predicate | None] = lambda args: None
    effect: Callable[[dict[str, Any]], Predicate | None] = lambda args: None
    summary: Callable[[dict[str, Any]], str] | None = None
    unavailable: str | None = None
    idempotent: bool = False
    witness: Witness | None = None
    scoped: bool = False
    egress: Callable[[dict[str, Any]], str | None] = lambda args: None
    compensator: Callable[[dict[str, Any]], Compensator | None] = lambda args: None
    snapshots_itself: bool = False
    pin: Callable[["Environment", tuple[str, ...]], Awaitable[tuple[Pin, ...]]] | None = None

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
        """The tool for a call that can run here now, or a one-line error."""
        tool = self.validate(call)
        if tool.unavailable:
            raise ToolError(tool.unavailable)
        return tool

    def validate(self, call: ToolCall) -> Tool:
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
        size = _text_bytes(call.args, call.tool)
        if size > MAX_ARGUMENT_BYTES:
            raise ToolError(f"{call.tool}: arguments are {size} bytes, over {MAX_ARGUMENT_BYTES}")
        return tool


def _text_bytes(value: Any, tool: str) -> int:
    """UTF-8 size of every string in the arguments; text that is not valid Unicode is refused."""
    if isinstance(value, str):
        try:
            return len(value.encode())
        except UnicodeEncodeError as exc:
            raise ToolError(f"{tool}: an argument is not valid Unicode text ({exc.reason} at {exc.start})") from None
    if isinstance(value, dict):
        return sum(_text_bytes(k, tool) + _text_bytes(v, tool) for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return sum(_text_bytes(item, tool) for item in value)
    return 0
