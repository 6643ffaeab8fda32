"""A host's settings file with Warden's hooks merged in, and taken out again, leaving everything else as it was.

Claude Code reads hooks from `.claude/settings.json`: `{"hooks": {EVENT: [{"matcher": ..., "hooks":
[{"type": "command", "command": ..., "timeout": ...}]}]}}`. Warden adds one matcher group per event whose
command is `warden hook HOST`; installing again finds it and adds nothing, uninstalling removes only groups
whose commands are all Warden's. A settings file that is not a JSON object is refused in one line, untouched.

The other hosts read the same shape from their own files, so the same merge serves them:
- Gemini CLI: `.gemini/settings.json` (project) or `~/.gemini/settings.json` (user), events `BeforeTool`,
  `AfterTool` (matcher `*`), `BeforeAgent`, `SessionStart`, each hook `{"type": "command", "name": "warden",
  "command": ..., "timeout": MILLISECONDS}` (google-gemini/gemini-cli docs/hooks/index.md, reference.md);
- Codex: `hooks.json` beside its `config.toml`, that is `.codex/hooks.json` (project) or
  `$CODEX_HOME/hooks.json` (user, `~/.codex` without the variable), events `PreToolUse`, `PostToolUse`,
  `UserPromptSubmit`, `SessionStart` with no matcher (every tool), `timeout` in seconds
  (openai/codex codex-rs/hooks/src/engine/discovery.rs `load_hooks_json`, codex-rs/config hooks
  `HooksFile`/`HookHandlerConfig`). JSON rather than `[hooks]` in `config.toml`: Codex reads both, and the
  JSON file can be merged without rewriting the person's TOML.
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
    return install_hooks(path, command, EVENTS, {"timeout": TIMEOUT})


def install_hooks(path: Path, command: list[str], events: dict[str, str | None], fields: dict[str, Any]) -> str:
    """Merge one Warden group per event of `events` (event: matcher, None for none) into the hooks at `path`,
    each hook `{"type": "command", "command": ..., **fields}`; what changed, in words."""
    settings = _read(path)
    hooks = settings.setdefault("hooks", {})
    if not isinstance(hooks, dict):
        raise SettingsError(f"{path}: \"hooks\" is not an object; fix it by hand, nothing was changed")
    text, added = shlex.join(command), []
    for event, matcher in events.items():
        groups = hooks.setdefault(event, [])
        if not isinstance(groups, list):
            raise SettingsError(f"{path}: hooks.{event} is not a list; fix it by hand, nothing was changed")
        if any(_ours(group, text) for group in groups):
            continue
        group: dict[str, Any] = {"hooks": [{"type": "command", "command": text, **fields}]}
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


GEMINI_EVENTS: dict[str, str | None] = {"BeforeTool": "*", "AfterTool": "*", "BeforeAgent": None,
                                        "SessionStart": None}
CODEX_EVENTS: dict[str, str | None] = {"PreToolUse": None, "PostToolUse": None, "UserPromptSubmit": None,
                                       "SessionStart": None}


def settings_path(host: str, project: Path | None) -> Path:
    """The file `warden hook install HOST` writes: the project's (`project` given) or the user's."""
    if host == "claude-code":
        return (project if project is not None else Path.home()) / ".claude" / "settings.json"
    if host == "gemini-cli":
        return (project if project is not None else Path.home()) / ".gemini" / "settings.json"
    if host == "codex":
        if project is not None:
            return project / ".codex" / "hooks.json"
        return Path(os.environ.get("CODEX_HOME") or Path.home() / ".codex") / "hooks.json"
    raise SettingsError(f"no hook settings for host {host!r}")


def install_gemini(path: Path, command: list[str]) -> str:
    """Gemini CLI's hooks (timeout in milliseconds, under the 600 s Warden may wait for a person)."""
    return install_hooks(path, command, GEMINI_EVENTS, {"name": "warden", "timeout": TIMEOUT * 1000})


def install_codex(path: Path, command: list[str]) -> str:
    """Codex's hooks.json (timeout in seconds). Codex runs a user or project hook only once it is trusted
    (`/hooks` in Codex, or `--dangerously-bypass-hook-trust` for one run), and a project's `.codex` only
    when the project is trusted."""
    return install_hooks(path, command, CODEX_EVENTS, {"timeout": TIMEOUT})


def install_for(host: str, path: Path, command: list[str]) -> str:
    """Install the hooks of `host` into `path` (see `settings_path`)."""
    installers = {"claude-code": install, "gemini-cli": install_gemini, "codex": install_codex}
    if host not in installers:
        raise SettingsError(f"no hook settings for host {host!r}")
    return installers[host](path, command)


def uninstall_for(host: str, path: Path, command: list[str]) -> str:
    """Remove the hooks of `host` from `path`: the same for every host, only Warden's groups go."""
    settings_path(host, None)  # an unknown host is refused
    return uninstall(path, command)
