"""The console shows the policy it started with, and honours a remapped key."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Static

from app.console import create_app
from app.screens.policy import PolicyScreen
from engine.runtime import Switches
from tests.console.test_demo_flow import SIZE, asking, query, until
from widgets.approval_list import ApprovalList


async def test_policy_screen_and_remapped_approve(tmp_path: Path) -> None:
    home, workspace = tmp_path / "home", tmp_path / "workspace"
    asking(home, '[hosts]\nallow = ["docs.example.org"]\n[tools."code.run"]\nlevel = "dangerous"\n')
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


def titles(app) -> dict[str, str]:
    return {pane: str(app.query_one(f"#{pane}").border_title)
            for pane in ("tasks", "approvals", "journal", "programs-pane")}


async def test_pane_titles_show_the_keys_as_mapped(tmp_path: Path) -> None:
    home, workspace = asking(tmp_path / "home"), tmp_path / "workspace"
    (home / "keymap.toml").write_text('"warden.approve" = "y"\n"warden.undo_task" = "ctrl+z"\n'
                                      '"warden.discard_program" = "X"\n', encoding="utf-8")
    app = create_app(home, workspace, demo=True, switches=Switches(), web_demo=False)
    async with app.run_test(size=SIZE) as pilot:
        approvals = app.query_one(ApprovalList)
        await until(pilot, lambda: approvals.row_count == 1, "the pending approval")
        shown = titles(app)
        assert "y/T/P approve · d deny" in shown["approvals"]
        assert "a approve" not in shown["approvals"]
        assert "(1 waiting)" in shown["approvals"]
        assert "undo task" in shown["tasks"] and "U undo task" not in shown["tasks"]
        assert "^z undo task" in shown["journal"] or "ctrl+z undo task" in shown["journal"]
        assert "a accept · X discard" in shown["programs-pane"]
        assert not [n for n in app._notifications if "keymap" in n.title]


async def test_a_keymap_clash_is_refused_naming_both_ids(tmp_path: Path) -> None:
    home, workspace = asking(tmp_path / "home"), tmp_path / "workspace"
    (home / "keymap.toml").write_text('"warden.approve" = "d"\n"warden.policy" = "y"\n', encoding="utf-8")
    app = create_app(home, workspace, demo=True, switches=Switches(), web_demo=False)
    async with app.run_test(size=SIZE) as pilot:
        approvals = app.query_one(ApprovalList)
        await until(pilot, lambda: approvals.row_count == 1, "the pending approval")
        notices = [n for n in app._notifications if "warden.approve" in n.message]
        assert len(notices) == 1 and "warden.deny" in notices[0].message and '"d"' in notices[0].message
        assert "a/T/P approve · d deny" in titles(app)["approvals"]

        await pilot.press("y")  # the rest of the keymap still applies
        await until(pilot, lambda: isinstance(app.screen, PolicyScreen), "the policy screen on the remapped key")
        await pilot.press("escape")
        await until(pilot, lambda: not isinstance(app.screen, PolicyScreen), "the policy screen to close")

        await pilot.press("2")
        await pilot.pause(1.0)
        await pilot.press("d")  # deny kept its key: the clash did not drop it
        await until(pilot, lambda: query(home, "SELECT status FROM approvals") == [("denied",)], "the call denied")


async def test_two_ids_mapped_to_one_key_keep_their_defaults(tmp_path: Path) -> None:
    home, workspace = asking(tmp_path / "home"), tmp_path / "workspace"
    (home / "keymap.toml").write_text('"warden.approve" = "y"\n"warden.deny" = "y"\n', encoding="utf-8")
    app = create_app(home, workspace, demo=True, switches=Switches(), web_demo=False)
    async with app.run_test(size=SIZE) as pilot:
        approvals = app.query_one(ApprovalList)
        await until(pilot, lambda: approvals.row_count == 1, "the pending approval")
        notices = [n for n in app._notifications if "warden.approve" in n.message or "warden.deny" in n.message]
        assert len(notices) == 1 and "warden.approve" in notices[0].message and "warden.deny" in notices[0].message
        assert "a/T/P approve · d deny" in titles(app)["approvals"]
        await pilot.press("2")
        await pilot.pause(1.0)
        await pilot.press("a")
        await until(pilot, lambda: query(home, "SELECT status FROM approvals") == [("used",)], "the call approved")
