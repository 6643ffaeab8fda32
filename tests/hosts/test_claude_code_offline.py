"""A real Claude Code runs offline against the Messages API stand-in, and its project hook fires.

The stand-in proposes one Bash command that only writes a file inside the throwaway project;
a PreToolUse hook from the project's `.claude/settings.json` records what Claude Code hands it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.hosts.claude_install import claude_binary
from tests.hosts.messages_standin import MessagesStandIn, text, tool_use

COMMAND = "echo hello > hello.txt"

RECORD_HOOK = """\
import json
import sys

payload = json.load(sys.stdin)
with open({log!r}, "a") as log:
    log.write(json.dumps(payload) + "\\n")
"""


def test_claude_code_runs_offline_and_fires_a_pre_tool_use_hook(tmp_path: Path) -> None:
    claude = claude_binary()
    home, project = tmp_path / "home", tmp_path / "project"
    home.mkdir()
    (project / ".claude").mkdir(parents=True)
    log = tmp_path / "hook.jsonl"
    hook = tmp_path / "record_hook.py"
    hook.write_text(RECORD_HOOK.format(log=str(log)))
    settings = {"hooks": {"PreToolUse": [
        {"matcher": "Bash", "hooks": [{"type": "command", "command": f"{sys.executable} {hook}"}]},
    ]}}
    (project / ".claude" / "settings.json").write_text(json.dumps(settings))

    with MessagesStandIn([tool_use("Bash", {"command": COMMAND}), text("done")], max_seconds=180) as api:
        env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "HOME": str(home),
            "XDG_CONFIG_HOME": str(home / ".config"),
            "XDG_CACHE_HOME": str(home / ".cache"),
            "ANTHROPIC_BASE_URL": api.url,
            "ANTHROPIC_API_KEY": "dummy",
            "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
            "DISABLE_AUTOUPDATER": "1",
            "DISABLE_TELEMETRY": "1",
        }
        done = subprocess.run(
            [str(claude), "-p", "make hello", "--output-format", "json", "--permission-mode", "acceptEdits"],
            cwd=project, env=env, capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL,
        )

    assert done.returncode == 0, f"claude exited {done.returncode}: {done.stderr[-2000:]}"
    result = json.loads(done.stdout)
    assert result["is_error"] is False and result["result"] == "done", result
    assert not api.exhausted and api.played == [0, 1]
    assert api.tool_results()[0]["is_error"] is False

    payloads = [json.loads(line) for line in log.read_text().splitlines()]
    assert len(payloads) == 1, payloads
    payload = payloads[0]
    assert payload["hook_event_name"] == "PreToolUse"
    assert payload["tool_name"] == "Bash"
    assert payload["tool_input"]["command"] == COMMAND
    assert payload["session_id"] == result["session_id"]
    assert (project / "hello.txt").read_text() == "hello\n"
