"""Program files are followed while the console runs: an edit reloads, a broken file is refused, a deletion forgets."""

from __future__ import annotations

import json
from pathlib import Path

from app.console import create_app
from engine.runtime import Switches
from tests.console.test_demo_flow import SIZE, query, until
from widgets.program_list import ProgramList


async def test_f17_program_files_are_followed_and_cannot_vouch_for_themselves(tmp_path: Path) -> None:
    home = tmp_path / "home"
    app = create_app(home, tmp_path / "workspace", switches=Switches())
    async with app.run_test(size=SIZE) as pilot:
        programs = app.query_one(ProgramList)
        await until(pilot, lambda: programs.row_count == 1, "the shipped program")
        await until(pilot, lambda: app.engine is not None and app.engine.runtime.corpus.following.is_set(),
                    "the program files to be followed (an edit made before is never seen)")
        [path] = (home / "programs").glob("*.json")
        program = json.loads(path.read_text())
        program["description"] = "Archive a file (reworded by hand)"
        path.write_text(json.dumps(program))
        stored_body = lambda: json.loads(query(home, "SELECT body FROM programs")[0][0])  # noqa: E731
        await until(pilot, lambda: stored_body()["description"] == program["description"], "the reload")
        assert stored_body()["verification"]["status"] == "verified"
        await until(pilot, lambda: json.loads(path.read_text()) == stored_body(),
                    "the reload written back to its file (after its row), so it cannot overwrite the next edit")

        refusals = lambda: query(home, "SELECT payload FROM task_events WHERE kind = 'ProgramRejected'")  # noqa: E731
        program["goal_template"] = "Put the file {file} in the archive"
        program["verification"] = {"status": "verified", "passed": True, "how": "says the file"}
        path.write_text(json.dumps(program))
        await until(pilot, lambda: any("kept" in row[0] for row in refusals()), "the behavioural edit held back")
        stored = json.loads(query(home, "SELECT body FROM programs")[0][0])
        assert stored["goal_template"] == "Archive the file {file}", "a file cannot vouch for itself"
        assert "✔" in str(programs.get_row_at(0)), "the served version goes on serving"
        await until(pilot, lambda: "edit refused" in str(programs.get_row_at(0)),
                    "the row to say the file is not what is served")

        (home / "programs" / "broken.json").write_text('{"id": "p-broken", "states": [')
        await until(pilot, lambda: any("broken.json" in row[0] for row in refusals()), "the refusal")
        assert len(query(home, "SELECT id FROM programs")) == 1

        path.unlink()
        await until(pilot, lambda: programs.row_count == 0, "the deleted file's program to go")
        assert query(home, "SELECT id FROM programs") == []
