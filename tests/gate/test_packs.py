"""Packs: every rule and read-only proof belongs to exactly one pack, and the policy switches packs by id."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from engine.gate.packs import PACKS, bank


def classify(lines: list[str], policy: Path | None, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    args = [sys.executable, "-m", "app.cli", "classify", "--jsonl"]
    if policy is not None:
        args += ["--policy", str(policy)]
    payload = "".join(json.dumps({"command": line}) + "\n" for line in lines)
    return subprocess.run(args, input=payload, capture_output=True, text=True, timeout=120,
                          env={"WARDEN_HOME": str(tmp_path / "home"), "PATH": "/usr/bin:/bin"})


def test_each_rule_and_proof_has_one_pack() -> None:
    ids = [pack.id for pack in PACKS]
    assert len(ids) == len(set(ids))
    owners: dict[str, str] = {}
    for pack in PACKS:
        assert pack.summary and (pack.rules or pack.calls or pack.read_only), pack.id
        for name in pack.read_only:
            assert name not in owners, f"{name} is proven by {owners[name]} and {pack.id}"
            owners[name] = pack.id
    assert len(bank().all()) == sum(len(p.rules) + len(p.calls) for p in PACKS)


def test_switching_a_pack_off_only_makes_the_gate_ask_more(tmp_path: Path) -> None:
    lines = ["del /s /q C:\\", "git log --oneline", "git push --force origin main", "rm -rf /"]
    before = classify(lines, None, tmp_path)
    assert before.returncode == 0, before.stderr
    policy = tmp_path / "policy.toml"
    policy.write_text('[gate]\ndisable_packs = ["windows", "vcs.git"]\n', encoding="utf-8")
    after = classify(lines, policy, tmp_path)
    assert after.returncode == 0, after.stderr
    levels = {"safe": 0, "dangerous": 1, "catastrophic": 2}
    was = [json.loads(line) for line in before.stdout.splitlines()]
    now = [json.loads(line) for line in after.stdout.splitlines()]
    assert [v["level"] for v in was] == ["catastrophic", "safe", "dangerous", "catastrophic"]
    for old, new in zip(was, now):
        assert levels[new["level"]] >= 1, new
    assert now[1]["level"] == "dangerous" and "shell.unknown" in now[1]["rules"]
    assert now[3]["level"] == "catastrophic"


def test_a_core_or_unknown_pack_is_refused_in_one_line(tmp_path: Path) -> None:
    for ids, said in ((["core.filesystem"], "core pack"), (["no.such"], "no pack 'no.such'")):
        policy = tmp_path / "policy.toml"
        policy.write_text(f"[gate]\ndisable_packs = {json.dumps(ids)}\n", encoding="utf-8")
        run = classify(["ls"], policy, tmp_path)
        assert run.returncode != 0
        lines = [line for line in run.stderr.splitlines() if line.strip()]
        assert len(lines) == 1 and said in lines[0] and "Traceback" not in run.stderr, run.stderr
