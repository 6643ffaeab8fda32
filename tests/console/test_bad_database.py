"""A console pointed at a file that is not a Warden database says so in one line and touches nothing."""

from __future__ import annotations

from pathlib import Path

from app.console import create_app


async def test_console_refuses_a_foreign_database(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    foreign = b"these are somebody's notes, not a database\n" * 50
    (home / "warden.db").write_bytes(foreign)
    app = create_app(home)
    async with app.run_test(size=(120, 30)) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
    assert app.return_code == 2
    assert app.failure is not None and "not a Warden database" in app.failure and "\n" not in app.failure
    assert (home / "warden.db").read_bytes() == foreign
