"""`warden classify` and `warden bench gate` through the real command line."""

from __future__ import annotations

import json
import subprocess
import sys

from tests.gate.conftest import REPO


def warden(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "app.cli", *args], input=stdin, capture_output=True, text=True,
                          cwd=REPO, timeout=60)


def test_classify_plain() -> None:
    result = warden("classify", stdin="ls -la\nsudo rm -rf /\n")
    lines = result.stdout.splitlines()
    assert result.returncode == 0
    assert lines[0].startswith("safe\t") and lines[1].startswith("catastrophic\t")
    assert len(lines[1].split("\t")) == 5 and lines[1].split("\t")[4].startswith("blocked: ")


def test_classify_jsonl_keeps_going_after_bad_line() -> None:
    stdin = '{"command": "git status"}\nnot json\n{"tool": "fs.delete", "args": {"path": "x"}}\n'
    result = warden("classify", "--jsonl", stdin=stdin)
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert result.returncode == 1
    assert rows[0]["level"] == "safe" and "error" in rows[1] and rows[2]["rules"] == ["fs.delete"]
    assert set(rows[0]) == {"level", "tier", "rules", "reason", "route", "why"}


def test_classify_json_prints_a_json_verdict_per_plain_line() -> None:
    result = warden("classify", "--json", stdin="ls -la\n\ngit status\n")
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert result.returncode == 0
    assert [row["level"] for row in rows] == ["safe", "safe"]
    assert set(rows[0]) == {"level", "tier", "rules", "reason", "route", "why"}


def test_classify_other_tool() -> None:
    result = warden("classify", "--tool", "http", stdin="http://169.254.169.254/latest/\n")
    assert result.stdout.startswith("dangerous\t")


def test_bench_gate_small(tmp_path) -> None:
    corpus = tmp_path / "c.jsonl"
    corpus.write_text("\n".join(json.dumps(r) for r in [
        {"label": "safe", "command": "ls"}, {"label": "dangerous", "command": "rm x"},
        {"label": "catastrophic", "command": "rm -rf /"}]) + "\n", encoding="utf-8")
    out = tmp_path / "report.json"
    result = warden("bench", "gate", "--corpus", str(corpus), "--json", "--iterations", "1",
                    "--adversarial-iterations", "1", "--adversarial-size", "2000", "--output", str(out))
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["recall"]["safe_rated_safe"] == 1.0 and data["counts"]["catastrophic"] == 1
    assert json.loads(out.read_text())["latency_us"]["median"] > 0
    table = warden("bench", "gate", "--corpus", str(corpus), "--iterations", "1", "--adversarial-iterations", "1",
                   "--adversarial-size", "2000")
    assert "safe rated safe" in table.stdout


def test_bench_missing_corpus(tmp_path) -> None:
    result = warden("bench", "gate", "--corpus", str(tmp_path / "none.jsonl"))
    assert result.returncode == 2 and result.stderr.startswith("warden: ")
