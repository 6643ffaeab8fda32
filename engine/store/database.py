"""The database: one aiosqlite connection, WAL, migrations and serialised writes.

Each engine package keeps its own SQL; this module only opens, migrates and
guards the file, so a corrupt or newer database is refused, never overwritten.
"""

from __future__ import annotations

import asyncio
import os
import sqlite3
from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import aiosqlite

from engine.errors import DiskFull, WardenError
from engine.redaction.redactor import Redactor
from engine.store.migrations import MIGRATIONS

SQLITE_HEADER = b"SQLite format 3\x00"
APPLICATION_ID = 0x57415244  # "WARD": marks the file as Warden's, so no other program's database is taken for one
_OWN_TABLES = {"tasks", "steps", "receipts", "task_events", "approvals", "programs"}
_LOW_SPACE = 1 << 20  # an I/O error with less than this left on the disk is taken for a full disk


class StoreError(WardenError):
    """The database cannot be used as it is; nothing was written to it."""


class DatabaseDamaged(StoreError):
    """The database's file has damaged pages (SQLite reports it malformed): unlike a busy database, waiting
    cannot mend it, so a runner stops on it rather than retrying, and no task is failed for it."""


_DAMAGED = {sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB}


def _damaged(exc: sqlite3.Error) -> bool:
    return ((getattr(exc, "sqlite_errorcode", None) or 0) & 0xFF) in _DAMAGED or "malformed" in str(exc)


def failure(path: Path, exc: sqlite3.Error, what: str) -> WardenError:
    """The error a failed statement is raised as: `DiskFull` when the disk holding the database is full
    (SQLite says so, or an I/O error on a disk with no space left), which no retry can mend; else a
    `StoreError` saying `what` (busy, damaged: the callers that retry, retry those)."""
    code = (getattr(exc, "sqlite_errorcode", None) or 0) & 0xFF
    if code == sqlite3.SQLITE_FULL or code == sqlite3.SQLITE_IOERR and _no_space(path):
        return DiskFull(f"the disk holding {path} is full ({exc}): nothing was written")
    if _damaged(exc):
        return DatabaseDamaged(f"database {path} is damaged ({exc}); {what}")
    return StoreError(f"database {path}: {exc}; {what}")


def _no_space(path: Path) -> bool:
    try:
        stat = os.statvfs(path.parent)
    except OSError:
        return False
    return stat.f_bavail * stat.f_frsize < _LOW_SPACE


class Store:
    """A migrated database; writes are serialised so a transaction never swallows another's statement."""

    def __init__(self, path: Path, db: aiosqlite.Connection) -> None:
        self.path = path
        self._db = db
        self._write = asyncio.Lock()
        self.fresh = False
        self.redactor = Redactor(path.parent)  # the home's: every write of text a secret may be in goes through it

    @classmethod
    async def open(cls, path: Path) -> "Store":
        path = Path(path)
        _refuse_foreign_file(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            db = await aiosqlite.connect(path, isolation_level=None)
        except sqlite3.Error as exc:
            raise StoreError(f"cannot open database {path}: {exc}") from None
        db.row_factory = aiosqlite.Row
        store = cls(path, db)
        try:
            await db.execute("PRAGMA busy_timeout = 5000")
            version = await store._refuse_newer()
            await store._refuse_foreign(version)
            store.fresh = version == 0
            await db.execute("PRAGMA journal_mode = WAL")
            await db.execute("PRAGMA foreign_keys = ON")
            await store._migrate(version)
        except sqlite3.DatabaseError as exc:
            await db.close()
            raise failure(path, exc, "it is unusable") from None
        except StoreError:
            await db.close()
            raise
        return store

    @classmethod
    async def open_readonly(cls, path: Path) -> "Store":
        """A second connection that refuses to write (`query_only`); the file must exist and be migrated.

        It is not opened `mode=ro`: such a connection may keep a private WAL index and miss
        what other processes commit. Nor is the file's header read with a plain `open`:
        closing that descriptor would drop this process's SQLite locks on the file, and
        another process would then take itself for the last user and delete the WAL.
        """
        path = Path(path)
        if not path.exists():
            raise StoreError(f"no database at {path} to read")
        try:
            db = await aiosqlite.connect(path, isolation_level=None)
            db.row_factory = aiosqlite.Row
            await db.execute("PRAGMA busy_timeout = 5000")
            await db.execute("PRAGMA query_only = ON")
        except sqlite3.Error as exc:
            raise StoreError(f"cannot open database {path} to read: {exc}") from None
        store = cls(path, db)
        try:
            await store._refuse_newer()
        except (sqlite3.DatabaseError, StoreError):
            await db.close()
            raise
        return store

    async def _refuse_newer(self) -> int:
        """The schema version, checked before anything (even the switch to WAL) writes to the file."""
        async with self._db.execute("PRAGMA user_version") as cursor:
            row = await cursor.fetchone()
        if row is None:
            raise StoreError(f"database {self.path} reports no schema version")
        version = row[0]
        if version > len(MIGRATIONS):
            raise StoreError(
                f"database {self.path} has schema version {version}, newer than this Warden "
                f"understands ({len(MIGRATIONS)}); upgrade Warden to open it"
            )
        return version

    async def _refuse_foreign(self, version: int) -> None:
        """Refuse another program's SQLite file before anything writes to it; mark a Warden one as Warden's.

        A file with another application id is foreign. One with none is Warden's only if it is
        empty, or if it is a database an older Warden made (its version and tables say so).
        """
        application = (await self.fetchrow("PRAGMA application_id"))[0]
        if application == APPLICATION_ID:
            return
        tables = {row[0] for row in await self.fetchall("SELECT name FROM sqlite_master WHERE type = 'table'")}
        ours = application == 0 and (not tables if version == 0 else _OWN_TABLES <= tables)
        if not ours:
            raise StoreError(f"{self.path} is another program's SQLite database (application id {application:#x}, "
                             f"{len(tables)} tables); refusing to touch it")
        await self._db.execute(f"PRAGMA application_id = {APPLICATION_ID}")

    async def _migrate(self, version: int) -> None:
        for number, script in enumerate(MIGRATIONS[version:], start=version + 1):
            statements = [s.strip() for s in script.split(";") if s.strip()]
            async with self.transaction():
                for statement in statements:
                    await self._db.execute(statement)
                await self._db.execute(f"PRAGMA user_version = {number}")

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        """One atomic unit of writes; every write in the engine goes through here."""
        async with self._write:
            try:
                await self._db.execute("BEGIN IMMEDIATE")
            except sqlite3.OperationalError as exc:
                raise StoreError(f"database {self.path} is busy: {exc}") from None
            try:
                yield self._db
            except sqlite3.DatabaseError as exc:  # busy, full, or damaged pages: the transaction is undone whole
                await self._rollback()
                raise failure(self.path, exc, "nothing was written") from None
            except BaseException:
                await self._rollback()
                raise
            else:
                try:
                    await self._db.execute("COMMIT")
                except sqlite3.DatabaseError as exc:
                    await self._rollback()
                    raise failure(self.path, exc, "nothing was written") from None

    async def _rollback(self) -> None:
        """Undo the open transaction; SQLite may have undone it already (a full disk, an I/O error)."""
        try:
            await self._db.execute("ROLLBACK")
        except sqlite3.DatabaseError:
            pass

    async def execute(self, sql: str, params: Iterable[Any] = ()) -> int:
        """A single write in its own transaction; returns the number of rows changed."""
        async with self.transaction() as db:
            cursor = await db.execute(sql, tuple(params))
            return cursor.rowcount

    async def fetchall(self, sql: str, params: Iterable[Any] = ()) -> list[aiosqlite.Row]:
        """Run, fetch and finish the query in one step on the connection's thread.

        A caller cancelled mid-read (a console worker replaced by a newer one) must not
        leave a half-read statement behind: it would hold a read transaction open, and the
        connection would go on seeing the database as it was at that moment.
        """
        try:
            return list(await self._db.execute_fetchall(sql, tuple(params)))
        except sqlite3.DatabaseError as exc:
            if _damaged(exc):
                raise DatabaseDamaged(f"database {self.path} is damaged and cannot be read: {exc}") from None
            raise StoreError(f"database {self.path} cannot be read: {exc}") from None

    async def fetchone(self, sql: str, params: Iterable[Any] = ()) -> aiosqlite.Row | None:
        rows = await self.fetchall(sql, params)
        return rows[0] if rows else None

    async def fetchrow(self, sql: str, params: Iterable[Any] = ()) -> aiosqlite.Row:
        """The first row of a query that always yields one (an aggregate, a PRAGMA, a row known to exist)."""
        row = await self.fetchone(sql, params)
        if row is None:
            raise StoreError(f"database {self.path} returned no row for: {sql[:80]}")
        return row

    async def close(self) -> None:
        await self._db.close()


def _refuse_foreign_file(path: Path) -> None:
    if not path.exists() or path.stat().st_size == 0:
        return
    with path.open("rb") as handle:
        header = handle.read(len(SQLITE_HEADER))
    if header != SQLITE_HEADER:
        raise StoreError(f"{path} is not a Warden database (not SQLite); refusing to touch it")
