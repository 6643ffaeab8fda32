"""Shared fixtures for the gate tests: one classifier, and the labelled corpus kept in `corpus/` (one directory per category)."""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest

from engine.gate.classifier import Classifier
from engine.gate.packs import bank
from engine.gate.shell.view import Command
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


def prove(command: str) -> str | None:
    """The read-only proof of one plain command by its program's table: None when proven, else why not."""
    cmd = Command(tuple(shlex.split(command)))
    proof = bank().read_only.get(cmd.name)
    assert proof is not None, f"no read-only table for {cmd.name}"
    return proof(cmd)
