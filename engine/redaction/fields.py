"""Values an environment knows to be secret before a call is recorded: text bound for a password field.

An environment that can tell implements `secret_values`; the runner asks it for every call it
is about to record and marks what it names (`Redactor.mark`), so the record never holds them.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from engine.tools.call import ToolCall


@runtime_checkable
class KnowsSecrets(Protocol):
    async def secret_values(self, call: ToolCall) -> list[str]: ...


async def secret_values(env: object, call: ToolCall) -> list[str]:
    """What `env` says is secret in `call`; nothing when it cannot tell."""
    return await env.secret_values(call) if isinstance(env, KnowsSecrets) else []
