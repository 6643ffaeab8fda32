"""The database: WAL, durable across reopen, and a file it cannot use is refused untouched."""

from __future__ import annotations

import sqlite3

import pytest

from engine.demo import demo_tasks
from engine.runtime import Runtime, Switches
from engine.store import StoreError
from engine.store.migrations import MIGRATIONS


async def _refused(tmp_path, prepare) -> str:
    home = tmp_path / "home"
    home.mkdir()
    path = home / "warden.db"
    prepare(path)
    before = path.read_bytes()
    with pytest.raises(StoreError) as caught:
        await Runtime.open(home, tmp_path / "ws", Switches())
    assert path.read_bytes() == before
    assert sorted(p.name for p in home.iterdir()) == ["warden.db"]
    message = str(caught.value)
    assert "\n" not in message and str(path) in message
    return message


async def test_a_file_that_is_not_a_database_is_refused_untouched(tmp_path):
    await _refused(tmp_path, lambda path: path.write_bytes(b"not a database" * 100))


async def test_a_newer_database_is_refused_untouched(tmp_path):
    def newer(path):
        con = sqlite3.connect(path)
        con.execute("CREATE TABLE kept (x)")
        con.execute(f"PRAGMA user_version = {len(MIGRATIONS) + 1}")
        con.commit()
        con.close()

    assert "newer" in await _refused(tmp_path, newer)


async def test_database_is_wal_migrated_and_durable(tmp_path, db):
    runtime = await Runtime.open(tmp_path / "home", tmp_path / "ws", Switches())
    task = await runtime.submit(demo_tasks()[0])
    await runtime.close()
    assert db("PRAGMA journal_mode") == [{"journal_mode": "wal"}]
    assert db("PRAGMA user_version") == [{"user_version": len(MIGRATIONS)}]

    runtime = await Runtime.open(tmp_path / "home", tmp_path / "ws", Switches())
    try:
        assert [t.id for t in await runtime.tasks()] == [task.id]
        assert db("SELECT status FROM tasks") == [{"status": "queued"}]
    finally:
        await runtime.close()
