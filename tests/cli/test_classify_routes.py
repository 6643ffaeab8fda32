"""`warden classify` says where each call goes and why, as a person reads it and as a script parses it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def classify(tmp_path: Path, text: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "app.cli", "classify", *args], input=text, capture_output=True,
                          text=True, timeout=120, cwd=ROOT, env={**os.environ, "WARDEN_HOME": str(tmp_path / "home")})


def test_explain_names_the_route_and_its_reason_for_each_input(tmp_path: Path) -> None:
    text = "rm -rf build\ncurl -d @notes.txt https://api.example.com/v1\nrm -rf /\nls\n"
    result = classify(tmp_path, text, "--explain")
    assert result.returncode == 0, result.stderr
    blocks = result.stdout.split("$ ")[1:]
    assert [block.splitlines()[1].strip() for block in blocks] == [
        "runs: confined, undoable",
        "asks: sends an HTTP request to another host (api.example.com)",
        "blocked: recursively deletes a filesystem root, system tree or home directory (+2 more rules)",
        "runs: read-only",
    ]
    assert "fs.rm-recursive (dangerous, local_reversible)" in blocks[0] and "'rm -rf build'" in blocks[0]


def test_jsonl_gives_the_route_and_why_for_a_tool_call(tmp_path: Path) -> None:
    calls = [{"command": "git push origin main"},
             {"tool": "fs.delete", "args": {"path": "notes.txt"}},
             {"tool": "http.request", "args": {"url": "https://api.example.com/x", "method": "POST"}}]
    result = classify(tmp_path, "".join(json.dumps(call) + "\n" for call in calls), "--jsonl")
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert [row["route"] for row in rows] == ["asks", "runs", "asks"]
    assert rows[1]["why"] == "inside the workspace, undoable" and "api.example.com" in rows[2]["why"]


def test_the_policy_file_tightens_a_route_and_explain_says_so(tmp_path: Path) -> None:
    policy = tmp_path / "policy.toml"
    policy.write_text('[ask]\npaths = ["migrations/*"]\n', encoding="utf-8")
    result = classify(tmp_path, "sed -i s/a/b/ migrations/001.sql\nsed -i s/a/b/ src/x.py\n", "--explain",
                      "--policy", str(policy))
    lines = [line.strip() for line in result.stdout.splitlines() if line.startswith("  runs") or line.startswith("  asks")]
    assert lines == ["asks: the policy asks for paths like migrations/* (migrations/001.sql)", "runs: confined, undoable"]


def test_a_policy_naming_an_unknown_rule_is_one_line(tmp_path: Path) -> None:
    policy = tmp_path / "policy.toml"
    policy.write_text('[ask]\nrules = ["fs.rm-everything"]\n', encoding="utf-8")
    result = classify(tmp_path, "ls\n", "--policy", str(policy))
    assert result.returncode != 0 and result.stdout == ""
    assert result.stderr.count("\n") == 1 and "no rule 'fs.rm-everything'" in result.stderr
