"""The scripted agent: follows a given plan of tool calls, looking at the screen as it goes.

A step whose effect already holds on the live screen is skipped, so the agent can take
over mid-task from a replay that fell back without repeating what is already done.
"""

from __future__ import annotations

from collections.abc import Iterator

from engine.envs.workspace import WorkspaceEnv
from engine.programs.predicates import holds
from engine.tools.call import ToolCall
from engine.tools.registry import ToolError, ToolRegistry


class ScriptedAgent:
    name = "scripted"

    def __init__(self, plan: tuple[ToolCall, ...], registry: ToolRegistry) -> None:
        self.plan = plan
        self._registry = registry

    def steps(self, env: WorkspaceEnv) -> Iterator[tuple[int, ToolCall]]:
        """Yield `(position, call)` for each plan step still needed, judged when it is reached."""
        for position, call in enumerate(self.plan):
            try:
                effect = self._registry.get(call.tool).effect(call.args)
            except ToolError:
                effect = None
            if effect is not None and holds(effect, env):
                continue
            yield position, call
