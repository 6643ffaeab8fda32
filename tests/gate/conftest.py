"""Shared fixtures for the gate tests: one classifier, and the labelled corpus kept in `corpus/` (one directory per category)."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.gate.classifier import Classifier
from engine.gate.verdict import Verdict
from engine.tools.call import ToolCall

REPO = Path(__file__).resolve().parents[2]
CORPUS = REPO / "tests" / "gate" / "corpus"


@pytest.fixture(scope="session")
def classifier() -> Classifier:
    return Classifier()


@pytest.fixture(scope="session")
def shell(classifier: Classifier):
    def rate(command: str) -> Verdict:
        return classifier.classify(ToolCall("shell.run", {"command": command}))

    return rate
