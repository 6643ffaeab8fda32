"""`b` says what it raised a budget to in words ("4 steps"), not as a Python dict."""

from __future__ import annotations

from pathlib import Path

from app.console import create_app
from engine.runtime import Switches
from engine.tasks.task import TaskSpec
from tests.console.test_demo_flow import SIZE, until
from widgets.task_queue import TaskQueue


async def test_the_budget_raise_toast_is_a_sentence(tmp_path: Path) -> None:
    app = create_app(tmp_path / "home", tmp_path / "workspace", switches=Switches())
    async with app.run_test(size=SIZE) as pilot:
        tasks = app.query_one(TaskQueue)
        steps = [{"tool": "fs.write", "args": {"path": f"{n}.txt", "content": str(n)}} for n in range(3)]
        spec = {"goal": "Write three files", "budget": {"steps": 2, "tokens": 100_000}, "learn": False,
                "agent": {"kind": "scripted", "steps": steps}}
        await until(pilot, lambda: app.engine is not None, "the engine to start")
        [task] = await app.engine.call(lambda rt: rt.submit_all([TaskSpec.from_json(spec)]))
        await until(pilot, lambda: task.id in tasks.rows and "paused" in str(tasks.get_row(task.id)[1]),
                    "the task paused on its budget")
        tasks.focus()
        tasks.move_cursor(row=tasks.get_row_index(task.id))
        await pilot.press("b")

        def said() -> list[str]:
            return [n.message for n in app._notifications if "budget" in n.message]

        await until(pilot, lambda: bool(said()), "the toast")
        [toast] = said()
        assert toast == f"Doubled the budget of {task.id}: it may now use 4 steps, 200,000 tokens.", toast
