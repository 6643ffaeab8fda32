"""`n` queues a task from a form or a spec file; `v` runs a stored program through the verify gate again."""

from __future__ import annotations

import json
from pathlib import Path

from textual.widgets import Input, Static

from app.console import create_app
from app.screens.new_task import NewTaskScreen
from engine.runtime import Switches
from engine.tasks.task import TaskSpec
from tests.console.test_demo_flow import SIZE, query, until
from widgets.program_list import ProgramList


async def test_n_queues_a_task_from_a_spec_file_and_says_what_is_wrong_first(tmp_path: Path) -> None:
    home, ws = tmp_path / "home", tmp_path / "ws"
    spec = tmp_path / "hello.json"
    spec.write_text(json.dumps({"goal": "Write hello.txt", "learn": False, "agent": {"kind": "scripted", "steps": [
        {"tool": "fs.write", "args": {"path": "hello.txt", "content": "hello\n"}}]}}))
    app = create_app(home, ws, switches=Switches())
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: app.engine is not None, "the engine to start")
        await pilot.press("n")
        await until(pilot, lambda: isinstance(app.screen, NewTaskScreen), "the form")
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert "goal" in str(app.screen.query_one("#new-task-error", Static).render())
        assert isinstance(app.screen, NewTaskScreen), "an empty goal keeps the form open"
        assert query(home, "SELECT count(*) FROM tasks") == [(0,)]

        app.screen.query_one("#spec-file", Input).value = str(tmp_path / "missing.json")
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert "cannot read" in str(app.screen.query_one("#new-task-error", Static).render())

        app.screen.query_one("#spec-file", Input).value = str(spec)
        await pilot.press("ctrl+s")
        await until(pilot, lambda: not isinstance(app.screen, NewTaskScreen), "the form to close")
        await until(pilot, lambda: query(home, "SELECT status FROM tasks") == [("succeeded",)], "the queued task to finish")
        assert query(home, "SELECT goal FROM tasks") == [("Write hello.txt",)]
        assert (ws / "hello.txt").read_text() == "hello\n"


async def test_n_says_in_the_form_when_the_agent_cannot_serve_and_queues_nothing(tmp_path: Path,
                                                                               monkeypatch) -> None:
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    home = tmp_path / "home"
    app = create_app(home, tmp_path / "ws", switches=Switches())
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: app.engine is not None, "the engine to start")
        await pilot.press("n")
        await until(pilot, lambda: isinstance(app.screen, NewTaskScreen), "the form")
        await pilot.press(*"Tidy the notes", "enter")
        error = lambda: str(app.screen.query_one("#new-task-error", Static).render())  # noqa: E731
        await until(pilot, lambda: "ANTHROPIC_API_KEY" in error(), "the refusal in the form")
        assert isinstance(app.screen, NewTaskScreen) and query(home, "SELECT count(*) FROM tasks") == [(0,)]
        await pilot.press("escape")
        await until(pilot, lambda: not isinstance(app.screen, NewTaskScreen), "the form to close")


async def test_v_verifies_a_learned_program_again(tmp_path: Path) -> None:
    home, ws = tmp_path / "home", tmp_path / "ws"
    app = create_app(home, ws, switches=Switches())
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: app.engine is not None, "the engine to start")
        spec = TaskSpec.from_json({"goal": "Write the greeting hello into greeting.txt",
                                   "evaluate": {"text": {"path": "greeting.txt", "equals": "hello\n"}},
                                   "plan": [{"tool": "fs.write", "args": {"path": "greeting.txt", "content": "hello\n"}}]})
        [task] = await app.engine.call(lambda rt: rt.submit_all([spec]))
        learned = lambda: query(home, "SELECT id, body FROM programs WHERE body LIKE '%greeting%'")  # noqa: E731
        await until(pilot, lambda: learned() != [], "the task's program")
        [(program_id, body)] = learned()
        assert json.loads(body)["verification"]["status"] == "verified"
        result = await app.engine.call(lambda rt: rt.undo_task(task.id))
        assert result.ok and not (ws / "greeting.txt").exists()

        programs = app.query_one(ProgramList)
        await until(pilot, lambda: program_id in programs.rows, "the program's row")
        programs.focus()
        programs.move_cursor(row=programs.get_row_index(program_id))
        before = json.loads(body)["verification"]
        await pilot.press("v")
        verification = lambda: json.loads(learned()[0][1])["verification"]  # noqa: E731
        await until(pilot, lambda: verification() != before, "the program verified again")
        assert verification()["status"] == "verified" and verification()["how"].startswith("replayed in a fork")
        assert not (ws / "greeting.txt").exists(), "verifying replays in a fork, never in the workspace"
