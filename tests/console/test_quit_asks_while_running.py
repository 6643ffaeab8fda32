"""`q` quits at once when this console's engine runs nothing, and asks first, naming how many, when it does."""

from __future__ import annotations

from pathlib import Path

from app.console import create_app
from app.screens.confirm import ConfirmScreen
from engine.runtime import Switches
from engine.tasks.task import TaskSpec
from tests.console.test_demo_flow import SIZE, query, until


def _title(app) -> str:
    return app.screen.title_text if isinstance(app.screen, ConfirmScreen) else ""


async def test_q_with_a_task_running_asks_and_n_keeps_the_console(tmp_path: Path) -> None:
    home, ws = tmp_path / "home", tmp_path / "ws"
    app = create_app(home, ws, switches=Switches(), pace=3.0)  # a pause after each step keeps the task running
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: app.engine is not None, "the engine to start")
        spec = TaskSpec.from_json({"goal": "Write two files", "learn": False, "plan": [
            {"tool": "fs.write", "args": {"path": "one.txt", "content": "1\n"}},
            {"tool": "fs.write", "args": {"path": "two.txt", "content": "2\n"}}]})
        await app.engine.call(lambda rt: rt.submit_all([spec]))
        await until(pilot, lambda: query(home, "SELECT status FROM tasks") == [("running",)], "the task to run")

        await pilot.press("q")
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen), "the question")
        assert "1 task is running" in _title(app)
        await pilot.press("n")
        await until(pilot, lambda: not isinstance(app.screen, ConfirmScreen), "the question to close")
        await pilot.pause(0.2)
        assert app.return_code is None, "n keeps the console open"
        assert query(home, "SELECT status FROM tasks") == [("running",)]

        await pilot.press("q")
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen), "the question again")
        await pilot.press("y")
        await until(pilot, lambda: app.return_code is not None, "the console to quit")
    assert app.return_code == 0


async def test_q_with_nothing_running_quits_at_once(tmp_path: Path) -> None:
    home, ws = tmp_path / "home", tmp_path / "ws"
    app = create_app(home, ws, switches=Switches())
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: app.engine is not None, "the engine to start")
        spec = TaskSpec.from_json({"goal": "Write one file", "learn": False, "plan": [
            {"tool": "fs.write", "args": {"path": "one.txt", "content": "1\n"}}]})
        await app.engine.call(lambda rt: rt.submit_all([spec]))
        await until(pilot, lambda: query(home, "SELECT status FROM tasks") == [("succeeded",)], "the task to end")
        await pilot.press("q")
        await until(pilot, lambda: app.return_code is not None, "the console to quit")
        assert not isinstance(app.screen, ConfirmScreen)
    assert app.return_code == 0
