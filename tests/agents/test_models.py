"""The lazy factories: registering the model agents imports no provider SDK; building one does."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from engine.agents.anthropic import AnthropicAgent
from engine.agents.gemini import GeminiAgent
from engine.agents.models import MODEL_AGENTS
from tests.agents.conftest import context

ROOT = Path(__file__).resolve().parents[2]


def test_the_factories_import_no_sdk_until_asked():
    probe = ("import sys, engine.agents.models; "
             "print(sorted(name for name in ('anthropic', 'google.genai') if name in sys.modules))")
    done = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_the_factories_build_the_agents(monkeypatch):
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-test-key")
    monkeypatch.setenv("GEMINI_API_KEY", "gemini-test-key")
    assert isinstance(MODEL_AGENTS["anthropic"]({"kind": "anthropic"}, context()), AnthropicAgent)
    assert isinstance(MODEL_AGENTS["gemini"]({"kind": "gemini"}, context()), GeminiAgent)
