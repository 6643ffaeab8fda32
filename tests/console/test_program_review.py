"""A program verification could not re-run waits for a person: `a` accepts it, `x` discards it, each confirmed
in a modal that names the program; a program that is not waiting cannot be accepted."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Static

from app.console import WardenApp, create_app
from app.screens.program_decision import ProgramDecisionScreen
from engine.programs.program import Program
from engine.runtime import Runtime, Switches, operator
from programs import SHIPPED
from tests.console.test_demo_flow import SIZE, query, until
from widgets.program_list import ProgramList

HELD = "p-held000001"
SHIPPED_ID = "p-e6204d372a"
HOW = "a step leaves the fork (shell.run with egress): never re-executed"


async def home_with_a_held_program(tmp_path: Path, keymap: str = "") -> Path:
    """A home holding the shipped (verified) program and one stored `unverified`, as the verifier leaves it."""
    home = tmp_path / "home"
    home.mkdir()
    if keymap:
        (home / "keymap.toml").write_text(keymap, encoding="utf-8")
    runtime = await Runtime.open(home, tmp_path / "workspace", Switches())
    try:
        body = Program.load(SHIPPED / "archive-file.json").to_json()
        held = {**body, "id": HELD, "signature": "workspace:stamp the file {file}",
                "goal_template": "Stamp the file {file}",
                "verification": {"status": "unverified", "when": 0.0, "passed": False, "how": HOW}}
        await runtime.corpus.upsert(Program.from_json(held))
    finally:
        await runtime.close()
    return home


def status(home: Path, program_id: str) -> list[tuple]:
    return query(home, "SELECT json_extract(body, '$.verification.status'), json_extract(body, '$.verification.accepted_by')"
                       " FROM programs WHERE id = ?", (program_id,))


def noted(app: WardenApp) -> list[str]:
    """Every notification the app shows, in order (recorded as it is raised, so none expires unseen)."""
    notes: list[str] = []
    show = app.notify

    def record(message: str, **options) -> None:
        notes.append(message)
        show(message, **options)

    app.notify = record
    return notes


def subtitle(app: WardenApp) -> str:
    return str(app.query_one("#programs-pane").border_subtitle)


def decision(app: WardenApp) -> str:
    return str(app.screen.query_one("#confirm-preview", Static).render())


async def highlight(pilot, programs: ProgramList, program_id: str) -> None:
    programs.focus()
    programs.move_cursor(row=programs.get_row_index(program_id), animate=False)
    await pilot.pause()
    assert programs.selected_key == program_id


async def test_accept_then_discard_a_held_program(tmp_path: Path) -> None:
    home = await home_with_a_held_program(tmp_path)
    app = create_app(home, tmp_path / "workspace", switches=Switches())
    notes = noted(app)
    async with app.run_test(size=SIZE) as pilot:
        programs = app.query_one(ProgramList)
        await until(pilot, lambda: programs.row_count == 2, "both programs")
        assert "? unverified" in str(programs.get_row(HELD)[0])
        assert subtitle(app) == "2 programs · 1 waiting to be accepted"

        await highlight(pilot, programs, SHIPPED_ID)
        await pilot.press("a")
        await until(pilot, lambda: any("only an unverified program" in note for note in notes), "the refusal")
        assert notes[-1] == f"{SHIPPED_ID} is verified: only an unverified program waits to be accepted."
        assert not isinstance(app.screen, ProgramDecisionScreen)
        assert status(home, SHIPPED_ID) == [("verified", None)]

        await highlight(pilot, programs, HELD)
        await pilot.press("a")
        await until(pilot, lambda: isinstance(app.screen, ProgramDecisionScreen), "the accept modal")
        shown = decision(app)
        assert f"id     {HELD}" in shown and "goal   Stamp the file {file}" in shown
        assert f"why it is unverified: {HOW}" in shown and "serves it from now on" in shown
        await pilot.press("escape")
        await until(pilot, lambda: not isinstance(app.screen, ProgramDecisionScreen), "the modal to close")
        await pilot.pause()
        assert status(home, HELD) == [("unverified", None)]

        await pilot.press("a")
        await until(pilot, lambda: isinstance(app.screen, ProgramDecisionScreen), "the accept modal again")
        await pilot.press("enter")
        await until(pilot, lambda: status(home, HELD) == [("accepted", operator())], "the program to be accepted")
        await until(pilot, lambda: "accepted" in str(programs.get_row(HELD)[0]), "the row to say accepted")
        await until(pilot, lambda: f"Accepted {HELD}: it is served from now on." in notes, "ProgramAccepted")
        assert subtitle(app) == "2 programs"

        assert programs.selected_key == HELD
        await pilot.press("x")
        await until(pilot, lambda: isinstance(app.screen, ProgramDecisionScreen), "the discard modal")
        shown = decision(app)
        assert f"id     {HELD}" in shown and "how it was accepted" in shown
        assert f"its file {home / 'programs' / (HELD + '.json')} is removed" in " ".join(shown.split())
        await pilot.press("n")
        await until(pilot, lambda: not isinstance(app.screen, ProgramDecisionScreen), "the modal to close")
        await pilot.pause()
        assert (home / "programs" / f"{HELD}.json").exists() and HELD in programs.rows

        await pilot.press("x")
        await until(pilot, lambda: isinstance(app.screen, ProgramDecisionScreen), "the discard modal again")
        await pilot.press("y")
        await until(pilot, lambda: f"Discarded {HELD}; its file is removed." in notes,
                    "ProgramDiscarded (the row may go before it, on the ProgramRemoved event)")
        assert HELD not in programs.rows
        assert query(home, "SELECT id FROM programs WHERE id = ?", (HELD,)) == []
        assert not (home / "programs" / f"{HELD}.json").exists()
        assert subtitle(app) == "1 program"
        assert status(home, SHIPPED_ID) == [("verified", None)]


async def test_the_keys_remap_and_the_palette_finds_both(tmp_path: Path) -> None:
    home = await home_with_a_held_program(tmp_path, keymap='"warden.accept_program" = "A"\n')
    app = create_app(home, tmp_path / "workspace", switches=Switches())
    async with app.run_test(size=SIZE) as pilot:
        programs = app.query_one(ProgramList)
        await until(pilot, lambda: programs.row_count == 2, "both programs")
        await highlight(pilot, programs, HELD)
        await pilot.press("a")
        await pilot.pause()
        assert not isinstance(app.screen, ProgramDecisionScreen)
        await pilot.press("A")
        await until(pilot, lambda: isinstance(app.screen, ProgramDecisionScreen), "the remapped key's modal")
        await pilot.press("y")
        await until(pilot, lambda: status(home, HELD)[0][0] == "accepted", "the program to be accepted")

        await highlight(pilot, programs, SHIPPED_ID)
        await pilot.press("ctrl+p")
        await pilot.press(*"Discard the selected program")
        await pilot.pause()
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, ProgramDecisionScreen), "the palette's discard modal")
        assert f"id     {SHIPPED_ID}" in decision(app)
        await pilot.press("enter")
        await until(pilot, lambda: SHIPPED_ID not in programs.rows, "the shipped program to go")
        assert query(home, "SELECT id FROM programs") == [(HELD,)]
