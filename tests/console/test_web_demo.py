"""`warden demo` with a browser: a contact is added on the demo site by the agent, its run becomes a program,
and the second contact is added by replaying that program, state by state, in the Programs pane."""

from __future__ import annotations

from pathlib import Path

from app.console import create_app
from engine.runtime import Switches
from tests.console.test_demo_flow import SIZE, query, until
from widgets.program_graph import ProgramGraph
from widgets.program_list import ProgramList


async def test_the_web_demo_runs_cold_then_replays(tmp_path: Path) -> None:
    home = tmp_path / "home"
    app = create_app(home, tmp_path / "workspace", demo=True, switches=Switches())
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: app.engine is not None, "the engine to start")

        def web_tasks():
            return query(home, "SELECT goal, status, mode FROM tasks WHERE env = 'web' ORDER BY created_at")

        await until(pilot, lambda: len(web_tasks()) == 2 and all(row[1] == "succeeded" for row in web_tasks()),
                    "both web tasks to succeed", attempts=6000)
        (first, cold, cold_mode), (second, replayed, mode) = web_tasks()
        assert "Ada Lovelace" in first and cold_mode == "agent"
        assert "Grace Hopper" in second and mode == "replay"
        [(program_id, status, how)] = query(
            home, "SELECT id, json_extract(body, '$.verification.status'), json_extract(body, '$.verification.how')"
            " FROM programs WHERE json_extract(body, '$.env.kind') = 'web'")
        assert status == "verified" and "reset" in how, "the demo site resets, so its program is verified, not accepted"
        checked = query(home, "SELECT COUNT(*) FROM task_events WHERE kind = 'StateChecked'"
                              " AND json_extract(payload, '$.program_id') = ?", (program_id,))
        assert checked[0][0] >= 3
        assert app.site is not None and any(c["name"] == "Grace Hopper" for c in app.site.state()["contacts"])
        programs = app.query_one(ProgramList)
        await until(pilot, lambda: program_id in programs.rows, "the web program in the Programs pane")
