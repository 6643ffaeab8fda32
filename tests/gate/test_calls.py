"""Non-shell tools, the policy file, and the contracts the runtime relies on."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.gate.classifier import Classifier
from engine.gate.policy import Policy, PolicyError
from engine.gate.verdict import Level
from engine.tier import Tier
from engine.tools.call import ToolCall


def rate(tool: str, policy: Policy | None = None, **args):
    return Classifier(policy).classify(ToolCall(tool, args))


def test_demo_contract() -> None:
    assert rate("fs.delete", path="notes.txt").level == Level.DANGEROUS
    for tool, args in [("fs.write", {"path": "a.txt", "content": "x"}), ("fs.append", {"path": "a.txt", "content": "x"}),
                       ("fs.mkdir", {"path": "sub/dir"}), ("fs.move", {"src": "a.txt", "dst": "b/a.txt"})]:
        assert rate(tool, **args).level == Level.SAFE, tool


def test_unknown_tool() -> None:
    verdict = rate("teleport.now")
    assert verdict.level == Level.DANGEROUS and verdict.rules == ("tool.unknown",)


def test_declared_tier_is_kept_when_stricter() -> None:
    verdict = Classifier().classify(ToolCall("shell.run", {"command": "ls"}), Tier.RUNTIME_COMPENSABLE)
    assert verdict.tier == Tier.RUNTIME_COMPENSABLE


def test_http_get_is_safe_but_irreversible() -> None:
    verdict = rate("http.request", method="GET", url="https://example.com/")
    assert verdict.level == Level.SAFE and verdict.tier == Tier.EXTERNALLY_IRREVERSIBLE


def test_code_run_reads_payload() -> None:
    assert rate("code.run", language="python", code="import shutil; shutil.rmtree('/')").level == Level.CATASTROPHIC
    assert rate("code.run", language="python", code="print(1)").level == Level.DANGEROUS


def test_policy_extends_and_overrides(tmp_path: Path) -> None:
    path = tmp_path / "policy.toml"
    path.write_text('[shell]\nread_only = ["frobnicate"]\n[tools."code.run"]\nlevel = "safe"\n', encoding="utf-8")
    policy = Policy.load(path)
    assert rate("shell.run", policy, command="frobnicate --all").level == Level.SAFE
    assert rate("code.run", policy, language="python", code="print(1)").level == Level.SAFE
    assert rate("code.run", policy, language="python", code="import os; os.system('rm -rf /')").level == Level.CATASTROPHIC


def test_bad_policy_is_one_line_error(tmp_path: Path) -> None:
    path = tmp_path / "policy.toml"
    path.write_text("[nonsense]\n", encoding="utf-8")
    with pytest.raises(PolicyError):
        Policy.load(path)
