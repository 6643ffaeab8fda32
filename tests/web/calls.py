"""Calling a web tool the way the runtime does: through a registry that checks the arguments exactly."""

from __future__ import annotations

from engine.envs.web import WebEnv
from engine.tools.call import ToolCall
from engine.tools.registry import ToolOutput, ToolRegistry


def registry_of(env: WebEnv) -> ToolRegistry:
    registry = ToolRegistry()
    for tool in env.tools():
        registry.register(tool)
    return registry


async def call(env: WebEnv, tool: str, **args: object) -> ToolOutput:
    return await registry_of(env).check(ToolCall(tool, dict(args))).run(env, dict(args))
