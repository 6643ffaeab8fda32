"""The acceptance thresholds on the labelled corpus kept in the repository (a plain clone has it)."""

from __future__ import annotations

from engine.bench.gate import load_corpus, run
from tests.gate.conftest import CORPUS


def test_corpus_thresholds() -> None:
    assert CORPUS.exists(), f"corpus missing: expected {CORPUS}"
    report = run(load_corpus(CORPUS), str(CORPUS), iterations=1, adversarial_iterations=1, adversarial_size=1000)
    recall = report.recall
    assert recall["catastrophic_at_least_dangerous"] == 1.0, report.misses["catastrophic"]
    assert recall["catastrophic_rated_catastrophic"] >= 0.95, report.misses["catastrophic"]
    assert recall["dangerous_at_least_dangerous"] >= 0.99, report.misses["dangerous"]
    assert recall["safe_rated_safe"] >= 0.85, report.misses["safe"]
