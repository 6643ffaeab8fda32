"""Fuzz: the classifier rates any input, never raises, and never hangs.

Random bytes (decoded as an agent's text would be), random text, and random mixtures of
shell syntax go through `Classifier.classify`. The time bound is a hang detector set far
above the benchmark's 50 ms target for a 100 KB input (`warden bench gate` measures
latency); what is asserted is that every input ends with a verdict.
"""

from __future__ import annotations

import time

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.gate.verdict import Level, Verdict

HANG_S = 2.0
SYNTAX = ("rm", "-rf", "/", "~", "$", "$(", ")", "`", "'", '"', "\\", ";", "&&", "||", "|", "&", ">", ">>",
          "<", "<<", "<<<", "EOF", "\n", "{", "}", "(", "((", "[[", "]]", "=", "IFS=", "*", "?", "[a-z]",
          "!", "#", "%", "$'\\x72'", "${", ":-", "for", "in", "do", "done", "if", "then", "fi", "case",
          "esac", "function", "alias", "eval", "sh", "-c", "sudo", "/dev/sda", "C:\\", "%SystemRoot%",
          "$env:USERPROFILE", "Remove-Item", "-Recurse", "powershell", "-enc", "base64", "-d", " ", "\t")


def _rate(shell, command: str) -> Verdict:
    started = time.perf_counter()
    verdict = shell(command)
    elapsed = time.perf_counter() - started
    assert isinstance(verdict, Verdict) and verdict.level in tuple(Level)
    assert elapsed < HANG_S, f"{len(command)} characters took {elapsed:.1f} s"
    return verdict


@settings(max_examples=400, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(max_size=4000))
def test_random_bytes_get_a_verdict(shell, data: bytes) -> None:
    _rate(shell, data.decode("utf-8", errors="replace"))


@settings(max_examples=300, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(max_size=2000))
def test_random_text_gets_a_verdict(shell, text: str) -> None:
    _rate(shell, text)


@settings(max_examples=500, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(SYNTAX), max_size=300).map("".join))
def test_random_shell_syntax_gets_a_verdict(shell, text: str) -> None:
    _rate(shell, text)


@settings(max_examples=40, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow, HealthCheck.large_base_example, HealthCheck.data_too_large])
@given(st.lists(st.sampled_from(SYNTAX), min_size=1, max_size=20).map("".join), st.integers(min_value=1000, max_value=100_000))
def test_long_repeated_syntax_gets_a_verdict(shell, unit: str, size: int) -> None:
    _rate(shell, (unit * (size // len(unit) + 1))[:size])
