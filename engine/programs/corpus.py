"""The corpus: programs in the database, mirrored as JSON files a person can read and ship."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator
from pathlib import Path

from watchfiles import Change, awatch

from engine.events.records import ProgramRejected, ProgramRemoved, ProgramStored
from engine.programs.program import Program, ProgramError
from engine.store import Store


class Corpus:
    """At most one program per signature: storing a new one replaces the old."""

    def __init__(self, store: Store, directory: Path) -> None:
        self._store = store
        self.directory = directory
        self._parsed: dict[str, tuple[tuple, Program]] = {}

    async def _program(self, program_id: str, version: tuple) -> Program | None:
        """Parse (and validate) a stored body once per version: every write gives a row a new
        `created_at`, so `(created_at, length(body))` changes whenever the body does."""
        cached = self._parsed.get(program_id)
        if cached is not None and cached[0] == version:
            return cached[1]
        row = await self._store.fetchone("SELECT body, created_at, length(body) AS size FROM programs WHERE id = ?",
                                         (program_id,))
        if row is None:
            return None
        program = Program.from_json(json.loads(row["body"]), where=f"program {program_id}")
        self._parsed[program_id] = ((row["created_at"], row["size"]), program)
        return program

    async def upsert(self, program: Program) -> None:
        body = json.dumps(program.to_json(), indent=2, ensure_ascii=False)
        replaced = await self._store.fetchall(
            "SELECT id FROM programs WHERE signature = ? AND id != ?", (program.signature, program.id)
        )
        async with self._store.transaction() as db:
            await db.execute("DELETE FROM programs WHERE signature = ? OR id = ?", (program.signature, program.id))
            await db.execute(
                "INSERT INTO programs (id, signature, body, created_at) VALUES (?, ?, ?, ?)",
                (program.id, program.signature, body, time.time()),
            )
        self.directory.mkdir(parents=True, exist_ok=True)
        for row in replaced:
            (self.directory / f"{row['id']}.json").unlink(missing_ok=True)
        staging = self.directory / f".{program.id}.json.tmp"
        staging.write_text(body + "\n", encoding="utf-8")
        staging.replace(self.directory / f"{program.id}.json")

    async def all(self) -> list[Program]:
        rows = await self._store.fetchall("SELECT id, created_at, length(body) AS size FROM programs ORDER BY created_at")
        found = [await self._program(row["id"], (row["created_at"], row["size"])) for row in rows]
        return [program for program in found if program is not None]

    async def get(self, program_id: str) -> Program | None:
        row = await self._store.fetchone("SELECT created_at, length(body) AS size FROM programs WHERE id = ?",
                                         (program_id,))
        return await self._program(program_id, (row["created_at"], row["size"])) if row else None

    async def accept(self, program_id: str, by: str) -> Program:
        """A person vouches for a program that could not be verified by replay; it is served from now on."""
        program = await self.get(program_id)
        if program is None:
            raise ProgramError(f"no program {program_id}; `warden programs` lists them")
        if program.status != "unverified":
            raise ProgramError(f"program {program_id} is {program.status}, not waiting to be accepted")
        accepted = program.with_verification(
            {**program.verification, "status": "accepted", "accepted_by": by, "accepted_at": time.time()})
        await self.upsert(accepted)
        return accepted

    async def import_files(self, directory: Path) -> list[str]:
        """Load every `*.json` program in a directory; returns one line per file that was refused."""
        problems = []
        for path in sorted(directory.glob("*.json")):
            try:
                program = Program.load(path)
            except ProgramError as exc:
                problems.append(str(exc))
                continue
            existing = await self.get(program.id)
            if existing is None:
                await self.upsert(program)
        return problems

    async def record_run(self, program_id: str, task_id: str, outcome: str) -> None:
        await self._store.execute(
            "INSERT INTO program_runs (program_id, task_id, outcome, at) VALUES (?, ?, ?, ?)",
            (program_id, task_id, outcome, time.time()),
        )

    async def remove(self, program_id: str) -> bool:
        """Forget a program: its row and its file. False when there was none."""
        removed = await self._store.execute("DELETE FROM programs WHERE id = ?", (program_id,))
        self._parsed.pop(program_id, None)
        (self.directory / f"{program_id}.json").unlink(missing_ok=True)
        return removed == 1

    async def watch(self, stop: asyncio.Event | None = None) -> AsyncIterator[ProgramStored | ProgramRemoved | ProgramRejected]:
        """Follow the program files: an edit reloads the program, a deletion forgets it, a broken file is refused.

        A file whose program equals the stored one is skipped, so Warden's own writes cause no loop.
        An edited program is stored `unverified` whatever its file says: verification is the
        database's word, never a file's, and a person accepts the edit before it is served.
        """
        self.directory.mkdir(parents=True, exist_ok=True)
        async for changes in awatch(self.directory, stop_event=stop, debounce=200, step=50):
            for change, name in sorted(changes):
                path = Path(name)
                if path.suffix != ".json" or path.name.startswith("."):
                    continue
                if change is Change.deleted:
                    if not path.exists() and await self.remove(path.stem):
                        yield ProgramRemoved(None, path.stem)
                    continue
                try:
                    program = Program.load(path)
                except ProgramError as exc:
                    yield ProgramRejected(None, "", str(exc))
                    continue
                stored = await self.get(program.id)
                if stored is not None and stored.same_as(program):
                    continue
                program = program.with_verification({
                    "status": "unverified", "when": time.time(), "passed": False,
                    "how": f"loaded from {path.name}, edited outside Warden: accept it to serve it"})
                await self.upsert(program)
                yield ProgramStored(None, program.id, program.signature, program.status)
