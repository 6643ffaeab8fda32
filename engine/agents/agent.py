"""The agent seam: given what the environment shows and what happened so far, propose the next move.

The runner owns the loop (observe → propose → persist → gate → dispatch → observe); an
agent only proposes. A proposal is an action, a finish or a give-up, each with the usage
it cost, so model agents and the scripted one are measured alike.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Protocol

from engine.envs.environment import Observation
from engine.errors import WardenError
from engine.tools.call import ToolCall
from engine.tools.registry import ToolRegistry


class AgentError(WardenError):
    """An agent spec names an unknown kind or is malformed."""


@dataclass(frozen=True)
class Price:
    """What a model costs, in US dollars per million tokens (the policy's price table)."""

    input_per_mtok: float
    output_per_mtok: float


@dataclass(frozen=True)
class Usage:
    model_calls: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    cost_usd: float = 0.0

    @classmethod
    def priced(cls, input_tokens: int, output_tokens: int, price: Price | None, calls: int = 1) -> "Usage":
        """One model call's usage as the provider reported it, costed by the price table (0 when unpriced)."""
        cost = 0.0 if price is None else (input_tokens * price.input_per_mtok + output_tokens * price.output_per_mtok) / 1e6
        return cls(calls, input_tokens, output_tokens, cost)

    def __add__(self, other: "Usage") -> "Usage":
        return Usage(self.model_calls + other.model_calls, self.input_tokens + other.input_tokens,
                     self.output_tokens + other.output_tokens, self.cost_usd + other.cost_usd)

    @property
    def tokens(self) -> int:
        return self.input_tokens + self.output_tokens

    def as_json(self) -> dict[str, Any]:
        return {"model_calls": self.model_calls, "input_tokens": self.input_tokens,
                "output_tokens": self.output_tokens, "cost_usd": self.cost_usd}

    @classmethod
    def from_json(cls, raw: Mapping[str, Any] | None) -> "Usage":
        raw = raw or {}
        return cls(int(raw.get("model_calls", 0)), int(raw.get("input_tokens", 0)), int(raw.get("output_tokens", 0)),
                   float(raw.get("cost_usd", 0.0)))


class Outcome(StrEnum):
    """What became of a proposed call, as the agent is told."""

    DONE = "done"
    FAILED = "failed"
    DENIED = "denied"
    BLOCKED = "blocked"


@dataclass(frozen=True)
class Turn:
    """One past step of the task: the call, who made it (agent or replay), and its outcome."""

    idx: int
    call: ToolCall
    source: str
    outcome: Outcome
    output: str


@dataclass(frozen=True)
class Act:
    call: ToolCall
    usage: Usage = field(default_factory=Usage)


@dataclass(frozen=True)
class Finish:
    summary: str = ""
    usage: Usage = field(default_factory=Usage)


@dataclass(frozen=True)
class GiveUp:
    reason: str
    usage: Usage = field(default_factory=Usage)


Proposal = Act | Finish | GiveUp


class Agent(Protocol):
    name: str

    async def propose(self, observation: Observation, history: Sequence[Turn]) -> Proposal: ...


@dataclass(frozen=True)
class AgentContext:
    """What an agent is built with: the task's goal, the tools it may call, the kind of
    environment it acts in, and the price table its usage is costed by (model name → price)."""

    goal: str
    tools: ToolRegistry
    env_kind: str = "workspace"
    prices: Mapping[str, Price] = field(default_factory=dict)
    briefing: str = ""  # what a replay did before it handed the task over, told to a model with the goal


AgentFactory = Callable[[Mapping[str, Any], AgentContext], Agent]
