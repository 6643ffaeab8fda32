"""The new-task form serves a task with no model: scripted steps typed in the form, or replay only (a stored
program serves it, or it fails at once), with no API key set."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from textual.widgets import Input, Select, Static

from app.console import create_app
from app.screens.new_task import NewTaskScreen
from engine.runtime import Switches
from engine.tasks.task import TaskSpec
from tests.console.test_demo_flow import SIZE, query, until

GOAL = "Write the greeting hello into greeting.txt"


async def _fill(pilot, app, goal: str, agent: str, steps: str = "") -> None:
    await pilot.press("n")
    await until(pilot, lambda: isinstance(app.screen, NewTaskScreen), "the form")
    app.screen.query_one("#goal", Input).value = goal
    app.screen.query_one("#agent", Select).value = agent
    if steps:
        app.screen.query_one("#steps", Input).value = steps
    await pilot.pause()
    await pilot.press("ctrl+s")


def _error(app) -> str:
    return str(app.screen.query_one("#new-task-error", Static).render()) if isinstance(app.screen, NewTaskScreen) else ""


async def test_scripted_steps_from_the_form_run_without_a_key(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    monkeypatch.delenv("GEMINI_API_KEY", raising=False)
    home, ws = tmp_path / "home", tmp_path / "ws"
    app = create_app(home, ws, switches=Switches())
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: app.engine is not None, "the engine to start")
        await _fill(pilot, app, "Write hello.txt", "scripted", "not json")
        await until(pilot, lambda: "steps" in _error(app), "the steps refused in the form")
        assert query(home, "SELECT count(*) FROM tasks") == [(0,)]

        app.screen.query_one("#steps", Input).value = '[{"tool": "fs.nope", "args": {}}]'
        await pilot.press("ctrl+s")
        await until(pilot, lambda: "step 1" in _error(app), "the unknown tool refused in the form")
        assert query(home, "SELECT count(*) FROM tasks") == [(0,)]

        steps = [{"tool": "fs.write", "args": {"path": "hello.txt", "content": "hello\n"}}]
        app.screen.query_one("#steps", Input).value = json.dumps(steps)
        await pilot.press("ctrl+s")
        await until(pilot, lambda: not isinstance(app.screen, NewTaskScreen), "the form to close")
        await until(pilot, lambda: query(home, "SELECT status FROM tasks") == [("succeeded",)], "the task to finish")
        [(raw,)] = query(home, "SELECT spec FROM tasks")
        assert json.loads(raw)["agent"] == {"kind": "scripted", "steps": steps}
        assert (ws / "hello.txt").read_text() == "hello\n"


async def test_replay_only_is_served_by_a_learned_program_or_fails_at_once(tmp_path: Path,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    monkeypatch.delenv("GEMINI_API_KEY", raising=False)
    home, ws = tmp_path / "home", tmp_path / "ws"
    app = create_app(home, ws, switches=Switches())
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: app.engine is not None, "the engine to start")
        spec = TaskSpec.from_json({"goal": GOAL, "evaluate": {"text": {"path": "greeting.txt", "equals": "hello\n"}},
                                   "plan": [{"tool": "fs.write", "args": {"path": "greeting.txt", "content": "hello\n"}}]})
        [learned] = await app.engine.call(lambda rt: rt.submit_all([spec]))
        await until(pilot, lambda: query(home, "SELECT status FROM tasks") == [("succeeded",)], "the first task")
        verified = lambda: [json.loads(body)["verification"]["status"]  # noqa: E731
                            for (body,) in query(home, "SELECT body FROM programs WHERE body LIKE '%greeting%'")]
        await until(pilot, lambda: verified() == ["verified"], "the learned program, verified")
        assert query(home, "SELECT mode FROM tasks") == [("agent",)]
        (ws / "greeting.txt").unlink()

        await _fill(pilot, app, GOAL, "none")
        await until(pilot, lambda: not isinstance(app.screen, NewTaskScreen), "the form to close")
        served = lambda: query(home, "SELECT status, mode FROM tasks WHERE id != ?", (learned.id,))  # noqa: E731
        await until(pilot, lambda: served() == [("succeeded", "replay")], "the replay to serve it")
        assert (ws / "greeting.txt").read_text() == "hello\n"
        [(raw,)] = query(home, "SELECT spec FROM tasks WHERE id != ?", (learned.id,))
        assert json.loads(raw).get("agent") is None

        await _fill(pilot, app, "Tidy the notes", "none")
        await until(pilot, lambda: not isinstance(app.screen, NewTaskScreen), "the form to close")
        tidy = lambda: query(home, "SELECT status, error FROM tasks WHERE goal = 'Tidy the notes'")  # noqa: E731
        await until(pilot, lambda: tidy() and tidy()[0][0] == "failed", "the unserved task to fail")
        assert "no stored program" in tidy()[0][1]
