"""The database: WAL, durable across reopen, and a file it cannot use is refused untouched."""

from __future__ import annotations

import asyncio
import sqlite3
import subprocess
import sys

import pytest

from engine.demo import demo_tasks
from engine.runtime import Runtime, Switches
from engine.store import Store, StoreError
from engine.store.database import APPLICATION_ID
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


async def test_an_older_database_is_migrated_forward_keeping_its_rows(tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    with sqlite3.connect(home / "warden.db") as old:
        old.executescript(MIGRATIONS[0])
        old.execute(
            "INSERT INTO tasks (id, goal, spec, status, created_at, updated_at) VALUES ('t-old', 'g', ?, 'queued', 1, 1)",
            ('{"goal": "Publish the release note for version 0.9"}',),
        )
        old.execute("PRAGMA user_version = 1")
    runtime = await Runtime.open(home, tmp_path / "ws", Switches())
    await runtime.close()
    with sqlite3.connect(home / "warden.db") as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == len(MIGRATIONS) >= 8
        assert db.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
        columns = {row[1] for row in db.execute("PRAGMA table_info(tasks)")}
        assert "heartbeat_at" in columns
        assert {"binding", "code"} <= {row[1] for row in db.execute("PRAGMA table_info(approvals)")}
        assert db.execute("SELECT id, status FROM tasks").fetchall() == [("t-old", "queued")]


async def test_a_read_cancelled_half_way_does_not_pin_an_old_snapshot(tmp_path):
    """A console worker replaced mid-read must not leave its connection seeing the past."""
    writer = await Store.open(tmp_path / "warden.db")
    reader = await Store.open_readonly(tmp_path / "warden.db")
    try:
        for value in range(40):
            await writer.execute("INSERT INTO task_events (task_id, kind, payload, at) VALUES (NULL, 'X', '{}', 0)")
        for yields in range(12):
            read = asyncio.create_task(reader.fetchone("SELECT id FROM task_events ORDER BY id"))
            for _ in range(yields):
                await asyncio.sleep(0)
            read.cancel()
            await asyncio.gather(read, return_exceptions=True)
            await writer.execute("INSERT INTO task_events (task_id, kind, payload, at) VALUES (NULL, 'X', '{}', 0)")
            newest = await writer.fetchone("SELECT MAX(id) AS n FROM task_events")
            seen = await reader.fetchone("SELECT MAX(id) AS n FROM task_events")
            assert seen["n"] == newest["n"], f"after a read cancelled at yield {yields}"
    finally:
        await reader.close()
        await writer.close()


async def test_a_second_connection_keeps_the_wal_safe_from_another_process(tmp_path):
    """Opening the reader must not drop this process's locks: another process closing would delete the WAL."""
    path = tmp_path / "warden.db"
    writer = await Store.open(path)
    reader = await Store.open_readonly(path)
    try:
        insert = "INSERT INTO task_events (task_id, kind, payload, at) VALUES (NULL, 'X', '{}', 0)"
        await writer.execute(insert)
        other = f"import sqlite3; c = sqlite3.connect({str(path)!r}); c.execute({insert!r}); c.commit(); c.close()"
        subprocess.run([sys.executable, "-c", other], check=True, timeout=30)
        assert path.with_name("warden.db-wal").exists()
        assert (await reader.fetchone("SELECT COUNT(*) AS n FROM task_events"))["n"] == 2
        with sqlite3.connect(path) as fresh:
            assert fresh.execute("SELECT COUNT(*) FROM task_events").fetchone() == (2,)
    finally:
        await reader.close()
        await writer.close()
