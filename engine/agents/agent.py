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
class Usage:
    model_calls: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    cost_usd: float = 0.0

    def as_json(self) -> dict[str, Any]:
        return {"model_calls": self.model_calls, "input_tokens": self.input_tokens,
                "output_tokens": self.output_tokens, "cost_usd": self.cost_usd}


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
    """What an agent is built with: the task's goal and the tools it may call."""

    goal: str
    tools: ToolRegistry


AgentFactory = Callable[[Mapping[str, Any], AgentContext], Agent]
