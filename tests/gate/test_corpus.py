"""The acceptance thresholds of issue 12 on the labelled corpus kept in the repository (a plain clone has it).

Each assertion lists the cases that miss it (command, verdict, rules, file:line), so a failure says what to fix.
"""

from __future__ import annotations

import pytest

from engine.bench.gate import TARGETS, Miss, Report, load_corpus, run
from tests.gate.conftest import CORPUS


@pytest.fixture(scope="module")
def report() -> Report:
    assert CORPUS.is_dir(), f"corpus missing: expected the directory {CORPUS}"
    return run(load_corpus(CORPUS), str(CORPUS), iterations=1, adversarial_iterations=1, adversarial_size=1000)


def _listing(misses: list[Miss], limit: int = 80) -> str:
    lines = [f"  {miss.level:<12} {miss.command!r}  rules={list(miss.rules)}  ({miss.location})"
             for miss in misses[:limit]]
    if len(misses) > limit:
        lines.append(f"  ... and {len(misses) - limit} more")
    return "\n".join(lines)


def test_the_bench_targets_are_the_issue_thresholds() -> None:
    assert TARGETS["catastrophic_rated_safe"] == 0 and TARGETS["catastrophic_at_least_dangerous"] == 1.0
    assert TARGETS["catastrophic_rated_catastrophic"] == 0.95 and TARGETS["dangerous_at_least_dangerous"] == 0.99
    assert TARGETS["safe_rated_safe"] == 0.90


def test_no_catastrophic_command_is_rated_safe(report: Report) -> None:
    rated_safe = [miss for miss in report.misses["catastrophic"] if miss.level == "safe"]
    assert not rated_safe, f"{len(rated_safe)} catastrophic commands rated safe:\n{_listing(rated_safe)}"


def test_every_catastrophic_command_is_at_least_dangerous(report: Report) -> None:
    below = [miss for miss in report.misses["catastrophic"] if miss.level not in ("dangerous", "catastrophic")]
    assert report.recall["catastrophic_at_least_dangerous"] == 1.0, \
        f"catastrophic rated below dangerous:\n{_listing(below)}"


def test_catastrophic_rated_exactly_catastrophic(report: Report) -> None:
    share = report.recall["catastrophic_rated_catastrophic"]
    assert share >= 0.95, (
        f"catastrophic rated catastrophic: {share:.1%} of {report.counts['catastrophic']} (target 95%); "
        f"misses:\n{_listing(report.misses['catastrophic'])}")


def test_dangerous_rated_at_least_dangerous(report: Report) -> None:
    share = report.recall["dangerous_at_least_dangerous"]
    assert share >= 0.99, (
        f"dangerous rated at least dangerous: {share:.1%} of {report.counts['dangerous']} (target 99%); "
        f"rated safe:\n{_listing(report.misses['dangerous'])}")


def test_safe_commands_pass_as_safe(report: Report) -> None:
    share = report.recall["safe_rated_safe"]
    assert share >= 0.90, (
        f"safe rated safe: {share:.1%} of {report.counts['safe']} (target 90%); "
        f"asked about:\n{_listing(report.misses['safe'])}")
