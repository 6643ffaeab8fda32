"""A host's settings file with Warden's hooks merged in, and taken out again, leaving everything else as it was.

Claude Code reads hooks from `.claude/settings.json`: `{"hooks": {EVENT: [{"matcher": ..., "hooks":
[{"type": "command", "command": ..., "timeout": ...}]}]}}`. Warden adds one matcher group per event whose
command is `warden hook HOST`; installing again finds it and adds nothing, uninstalling removes only groups
whose commands are all Warden's. A settings file that is not a JSON object is refused in one line, untouched.
"""

from __future__ import annotations

import json
import os
import shlex
import tempfile
from pathlib import Path
from typing import Any

from engine.errors import WardenError

EVENTS = {"PreToolUse": "*", "PostToolUse": "*", "UserPromptSubmit": None, "SessionStart": None}
TIMEOUT = 600


class SettingsError(WardenError):
    """The host's settings file cannot be read or written as JSON."""


def install(path: Path, command: list[str]) -> str:
    """Merge Warden's hooks (running `command`) into the settings at `path`; what changed, in words."""
    settings = _read(path)
    hooks = settings.setdefault("hooks", {})
    if not isinstance(hooks, dict):
        raise SettingsError(f"{path}: \"hooks\" is not an object; fix it by hand, nothing was changed")
    text, added = shlex.join(command), []
    for event, matcher in EVENTS.items():
        groups = hooks.setdefault(event, [])
        if not isinstance(groups, list):
            raise SettingsError(f"{path}: hooks.{event} is not a list; fix it by hand, nothing was changed")
        if any(_ours(group, text) for group in groups):
            continue
        group: dict[str, Any] = {"hooks": [{"type": "command", "command": text, "timeout": TIMEOUT}]}
        if matcher is not None:
            group = {"matcher": matcher, **group}
        groups.append(group)
        added.append(event)
    if added:
        _write(path, settings)
    return f"{path}: added {', '.join(added)}" if added else f"{path}: already installed"


def uninstall(path: Path, command: list[str]) -> str:
    """Remove Warden's hook groups (running `command`) from the settings at `path`; what changed, in words."""
    if not path.exists():
        return f"{path}: nothing to remove"
    settings = _read(path)
    hooks = settings.get("hooks")
    if not isinstance(hooks, dict):
        return f"{path}: nothing to remove"
    text, removed = shlex.join(command), []
    for event, groups in list(hooks.items()):
        if not isinstance(groups, list):
            continue
        kept = [group for group in groups if not _ours(group, text)]
        if len(kept) != len(groups):
            removed.append(event)
            if kept:
                hooks[event] = kept
            else:
                del hooks[event]
    if not hooks:
        del settings["hooks"]
    if removed:
        _write(path, settings)
    return f"{path}: removed {', '.join(removed)}" if removed else f"{path}: nothing to remove"


def _ours(group: object, command: str) -> bool:
    if not isinstance(group, dict) or not isinstance(group.get("hooks"), list) or not group["hooks"]:
        return False
    return all(isinstance(hook, dict) and hook.get("command") == command for hook in group["hooks"])


def _read(path: Path) -> dict[str, Any]:
    try:
        text = path.read_text(encoding="utf-8") if path.exists() else "{}"
        settings = json.loads(text or "{}")
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise SettingsError(f"{path}: not readable JSON ({exc}); nothing was changed") from None
    if not isinstance(settings, dict):
        raise SettingsError(f"{path}: not a JSON object; nothing was changed")
    return settings


def _write(path: Path, settings: dict[str, Any]) -> None:
    """Written whole or not at all: a temporary file beside it, renamed over it."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=".settings-", suffix=".tmp")
    with os.fdopen(handle, "w", encoding="utf-8") as out:
        json.dump(settings, out, indent=2)
        out.write("\n")
    os.replace(temporary, path)
