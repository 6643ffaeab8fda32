"""The hosts Warden answers hooks for, by the name `warden hook NAME` takes: each a protocol module.

A protocol module (`claude_code`, `codex`, `gemini_cli`) reads its host's events (`Event.from_json`), names
their calls (`call_of`, `is_shell`, `is_edit`, `succeeded`) and writes its answers (`allow`, `ask`, `deny`,
`exec_command`). The names are here without importing the modules, so the hook's warm path stays light.
"""

from __future__ import annotations

import importlib
from types import ModuleType

MODULES = {"claude-code": "engine.hosts.claude_code", "codex": "engine.hosts.codex",
           "gemini-cli": "engine.hosts.gemini_cli"}
HOSTS = tuple(MODULES)


def protocol(host: str) -> ModuleType:
    """The protocol module of `host`; `KeyError` for a host Warden does not answer."""
    return importlib.import_module(MODULES[host])
