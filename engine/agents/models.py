"""Factories for the model agents that import a provider's SDK only when a task asks for its agent.

The SDKs are large (each adds about a second to an import), and most commands never run a
model; the runtime registers these instead of the classes' `from_spec` so starting Warden
does not pay for them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.agents.agent import Agent, AgentContext, AgentFactory


def anthropic_agent(spec: Mapping[str, Any], context: AgentContext) -> Agent:
    from engine.agents.anthropic import AnthropicAgent

    return AnthropicAgent.from_spec(spec, context)


def gemini_agent(spec: Mapping[str, Any], context: AgentContext) -> Agent:
    from engine.agents.gemini import GeminiAgent

    return GeminiAgent.from_spec(spec, context)


MODEL_AGENTS: dict[str, AgentFactory] = {"anthropic": anthropic_agent, "gemini": gemini_agent}
