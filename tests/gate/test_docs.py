"""docs/gate.md carries the generated theme table; this keeps it from drifting."""

from __future__ import annotations

from engine.gate.packs import markdown
from tests.gate.conftest import REPO


def test_theme_table_matches_bank() -> None:
    text = (REPO / "docs" / "gate.md").read_text(encoding="utf-8")
    assert markdown() in text, "regenerate with: python -m engine.gate.packs --markdown"
