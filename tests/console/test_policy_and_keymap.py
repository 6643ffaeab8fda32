"""The console shows the policy it started with, and honours a remapped key."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Static

from app.console import create_app
from app.screens.policy import PolicyScreen
from engine.runtime import Switches
from tests.console.test_demo_flow import SIZE, query, until
from widgets.approval_list import ApprovalList


async def test_policy_screen_and_remapped_approve(tmp_path: Path) -> None:
    home, workspace = tmp_path / "home", tmp_path / "workspace"
    home.mkdir()
    (home / "policy.toml").write_text(
        '[hosts]\nallow = ["docs.example.org"]\n[tools."code.run"]\nlevel = "dangerous"\n', encoding="utf-8"
    )
    (home / "keymap.toml").write_text('"warden.approve" = "y"\n', encoding="utf-8")
    app = create_app(home, workspace, demo=True, switches=Switches(), web_demo=False)
    async with app.run_test(size=SIZE) as pilot:
        approvals = app.query_one(ApprovalList)
        await until(pilot, lambda: approvals.row_count == 1, "the pending approval")

        await pilot.press("p")
        await until(pilot, lambda: isinstance(app.screen, PolicyScreen), "the policy screen")
        shown = str(app.screen.query_one(Static).render())
        assert "docs.example.org" in shown and str(home / "policy.toml") in shown
        assert "code.run: dangerous" in shown
        await pilot.press("escape")
        await until(pilot, lambda: not isinstance(app.screen, PolicyScreen), "the policy screen to close")

        await pilot.press("2", "a")
        await pilot.pause()
        assert query(home, "SELECT status FROM approvals") == [("pending",)]
        await pilot.press("y")
        await until(pilot, lambda: not (workspace / "scratch.txt").exists(), "the remapped key to approve")
        assert query(home, "SELECT status FROM approvals") == [("used",)]
