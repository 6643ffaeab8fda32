"""`b` on a task paused on its budget doubles its limits, and the console's runner takes it up again."""

from __future__ import annotations

import json
from pathlib import Path

from app.console import create_app
from engine.runtime import Switches
from engine.tasks.task import TaskSpec
from tests.console.test_demo_flow import SIZE, query, until
from widgets.task_queue import TaskQueue


async def test_b_raises_the_budget_of_a_paused_task_and_it_finishes(tmp_path: Path) -> None:
    home = tmp_path / "home"
    app = create_app(home, tmp_path / "workspace", switches=Switches())
    async with app.run_test(size=SIZE) as pilot:
        tasks = app.query_one(TaskQueue)
        steps = [{"tool": "fs.write", "args": {"path": f"{n}.txt", "content": str(n)}} for n in range(3)]
        spec = {"goal": "Write three files", "budget": {"steps": 2}, "learn": False,
                "agent": {"kind": "scripted", "steps": steps}}
        await until(pilot, lambda: app.engine is not None, "the engine to start")
        [task] = await app.engine.call(lambda rt: rt.submit_all([TaskSpec.from_json(spec)]))
        await until(pilot, lambda: task.id in tasks.rows and "paused" in str(tasks.get_row(task.id)[1]),
                    "the task paused on its budget")
        assert sorted(p.name for p in (tmp_path / "workspace").iterdir()) == ["0.txt", "1.txt"]

        tasks.focus()
        tasks.move_cursor(row=tasks.get_row_index(task.id))
        await pilot.press("b")
        await until(pilot, lambda: "unchecked" in str(tasks.get_row(task.id)[1]), "the task to finish after the raise")
        [(budget,)] = query(home, "SELECT budget FROM tasks WHERE id = ?", (task.id,))
        assert json.loads(budget) == {"steps": 4}
        assert (tmp_path / "workspace" / "2.txt").read_text() == "2"
