"""The scripted agent: proposes given steps in order, looking at the screen as it goes.

A step of an idempotent tool whose effect already holds on the live screen is skipped,
so it can take over mid-task from a replay that fell back without repeating what is
already done; a non-idempotent step (an append) is never skipped on what the screen
shows. It is a pure function of the observation and the history, so a resumed task
rebuilds it freely.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.agents.agent import Act, AgentContext, AgentError, Finish, GiveUp, Outcome, Proposal, Turn
from engine.envs.environment import Observation
from engine.tools.call import ToolCall
from engine.tools.registry import ToolError, ToolRegistry


class ScriptedAgent:
    name = "scripted"
    costless = True  # a proposal spends no model and no money: the runner may ask before spending a budget

    def __init__(self, steps: Sequence[ToolCall], tools: ToolRegistry) -> None:
        self.steps = tuple(steps)
        self._tools = tools

    @classmethod
    def from_spec(cls, spec: Mapping[str, Any], context: AgentContext) -> "ScriptedAgent":
        steps = spec.get("steps", [])
        if not isinstance(steps, list):
            raise AgentError('a scripted agent\'s "steps" is a list of {"tool": ..., "args": {...}}')
        calls = []
        for number, step in enumerate(steps, 1):
            try:
                call = ToolCall.from_json(step)
                context.tools.validate(call)
            except (ValueError, ToolError) as exc:
                raise AgentError(f"step {number}: {exc}") from None
            calls.append(call)
        return cls(calls, context.tools)

    async def propose(self, observation: Observation, history: Sequence[Turn]) -> Proposal:
        mine = [turn for turn in history if turn.source == "agent"]
        if mine and mine[-1].outcome is not Outcome.DONE:
            last = mine[-1]
            return GiveUp(last.output or f"{last.call.tool} {last.outcome.value}")
        for call in self.steps[self._position(mine):]:
            effect = self._effect(call)
            if effect is not None and await observation.holds(effect):
                continue
            return Act(call)
        return Finish("every scripted step is done")

    def _position(self, mine: list[Turn]) -> int:
        """How far through the script the agent's own past calls went."""
        position = 0
        for turn in mine:
            for index in range(position, len(self.steps)):
                if self.steps[index] == turn.call:
                    position = index + 1
                    break
        return position

    def _effect(self, call: ToolCall) -> dict | None:
        """The predicate that shows the step is already done, for tools whose effect can show it."""
        try:
            tool = self._tools.get(call.tool)
            return tool.effect(call.args) if tool.idempotent else None
        except (ToolError, KeyError, TypeError, AttributeError):
            return None
