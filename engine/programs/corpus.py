"""The corpus: programs in the database, mirrored as JSON files a person can read and ship.

Besides the rows, it keeps a full-text index (`program_index`, FTS5) of each program's
description and goal template, so choosing a program for a goal reads the few that share
its words instead of parsing every stored one; per-program run statistics; and expiry.
"""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections.abc import AsyncIterator, Collection
from dataclasses import dataclass
from pathlib import Path

from watchfiles import Change, awatch

from engine.events.records import ProgramRejected, ProgramRemoved
from engine.programs.program import Program, ProgramError
from engine.programs.selector import match_query
from engine.programs.template import GOAL_LIMIT
from engine.store import Store
from programs import SHIPPED

DAY = 86400.0
HELD = ("queued", "running", "paused")  # an unfinished task may still replay the program it was given
QUIET_MS = 500
"""How long the watch of program files waits for a change before it says it is still there: its first word, a
change or this silence, proves it is following (`Corpus.following`); idle, it wakes this often."""


@dataclass(frozen=True)
class Run:
    """One recorded replay: how it ended and, for one that did not complete, why."""

    outcome: str
    detail: str
    at: float


@dataclass(frozen=True)
class ProgramStats:
    """How a program has served: every recorded replay is one of success ("completed"),
    fallback ("fell back": the agent took over) or failure (any other outcome)."""

    replays: int = 0
    successes: int = 0
    fallbacks: int = 0
    failures: int = 0
    last_used: float | None = None
    last_failure: Run | None = None  # the latest replay that did not complete (a fallback included)


@dataclass(frozen=True)
class Expiry:
    """A program expiry removes (or, dry, would remove), and why."""

    program_id: str
    goal_template: str
    last_used: float  # its latest replay, or when it was stored if later
    reason: str


_STATS = """
SELECT p.id AS id, count(r.id) AS replays, coalesce(sum(r.outcome = 'completed'), 0) AS successes,
       coalesce(sum(r.outcome = 'fell back'), 0) AS fallbacks, max(r.at) AS last_used,
       f.outcome AS failed, f.detail AS detail, f.at AS failed_at
FROM programs p
LEFT JOIN program_runs r ON r.program_id = p.id
LEFT JOIN (SELECT program_id, outcome, detail, max(at) AS at FROM program_runs
           WHERE outcome != 'completed' {only} GROUP BY program_id) f ON f.program_id = p.id
{where} GROUP BY p.id
"""


class Corpus:
    """At most one program per signature: storing a new one replaces the old."""

    def __init__(self, store: Store, directory: Path) -> None:
        self._store = store
        self.directory = directory
        self._parsed: dict[str, tuple[tuple, Program]] = {}
        self.following = threading.Event()
        """Set while `watch` is sure to see every change made to the directory from now on (any thread may ask,
        e.g. before editing a file it expects to be reloaded); cleared when the watch ends."""
        # The project's shipped programs are only ever read: a home whose programs folder is that
        # folder (WARDEN_HOME at a checkout) keeps its programs in the database alone.
        self._mirrored = directory.resolve() != SHIPPED.resolve()

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
        """Store a program (row, index entry and file), replacing any of the same signature or id."""
        body = json.dumps(program.to_json(), indent=2, ensure_ascii=False)
        replaced = await self._store.fetchall(
            "SELECT id FROM programs WHERE signature = ? AND id != ?", (program.signature, program.id)
        )
        async with self._store.transaction() as db:
            await db.execute("DELETE FROM program_index WHERE program_id = ? OR program_id IN "
                             "(SELECT id FROM programs WHERE signature = ?)", (program.id, program.signature))
            await db.execute("DELETE FROM programs WHERE signature = ? OR id = ?", (program.signature, program.id))
            await db.execute(
                "INSERT INTO programs (id, signature, body, created_at) VALUES (?, ?, ?, ?)",
                (program.id, program.signature, body, time.time()),
            )
            await db.execute(
                "INSERT INTO program_index (program_id, kind, status, description, goal_template) "
                "VALUES (?, ?, ?, ?, ?)",
                (program.id, program.kind, program.status, program.description, program.goal_template),
            )
        for row in replaced:
            self._parsed.pop(row["id"], None)
        if not self._mirrored:
            return
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

    async def candidates(self, goal: str, kind: str, limit: int = 20,
                         statuses: Collection[str] | None = None) -> list[Program]:
        """Programs of `kind` (and, if given, of those statuses) whose description or goal template
        shares a word with the goal, best BM25 rank first, at most `limit`.

        Only these are parsed (once per version), so choosing among thousands stays cheap. A goal
        with no word, or longer than any template matches (4,096 characters), has no candidates.
        The goal template weighs more than the description: its words are what a goal must repeat.
        """
        query = match_query(goal)
        if query is None or limit <= 0 or len(goal) > GOAL_LIMIT:
            return []
        wanted = sorted(statuses) if statuses is not None else None
        if wanted == []:
            return []
        only = f" AND f.status IN ({', '.join('?' * len(wanted))})" if wanted else ""
        rows = await self._store.fetchall(
            "SELECT p.id AS id, p.created_at AS created_at, length(p.body) AS size "
            "FROM program_index f JOIN programs p ON p.id = f.program_id "
            f"WHERE program_index MATCH ? AND f.kind = ?{only} "
            "ORDER BY bm25(program_index, 0, 0, 0, 1, 3), p.id LIMIT ?",
            (query, kind, *(wanted or ()), limit),
        )
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

    async def note_refused_edit(self, program_id: str, file: Path, reason: str) -> Program | None:
        """Record, in the database alone, that the program's file holds an edit the verify gate refused: the
        stored version goes on serving, and whoever lists it sees that the file is not what is served. The file
        is left as the person wrote it; a later edit that passes replaces the record."""
        program = await self.get(program_id)
        if program is None:
            return None
        noted = program.with_verification({**program.verification, "file_edit": {
            "file": str(file), "refused": reason, "at": time.time()}})
        body = json.dumps(noted.to_json(), indent=2, ensure_ascii=False)
        await self._store.execute("UPDATE programs SET body = ?, created_at = ? WHERE id = ?",
                                  (body, time.time(), program_id))
        self._parsed.pop(program_id, None)
        return noted

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

    async def record_run(self, program_id: str, task_id: str, outcome: str, detail: str = "") -> None:
        """One replay of a program: its outcome ("completed", "fell back", or how it failed) and why."""
        await self._store.execute(
            "INSERT INTO program_runs (program_id, task_id, outcome, at, detail) VALUES (?, ?, ?, ?, ?)",
            (program_id, task_id, outcome, time.time(), detail),
        )

    async def stats(self, program_id: str) -> ProgramStats:
        """A stored program's replays; all zero for one never replayed (or not stored)."""
        rows = await self._store.fetchall(_STATS.format(only="AND program_id = ?", where="WHERE p.id = ?"),
                                          (program_id, program_id))
        return _stats(rows[0]) if rows else ProgramStats()

    async def all_stats(self) -> dict[str, ProgramStats]:
        """Every stored program's statistics, in one query (the listing shows them all)."""
        rows = await self._store.fetchall(_STATS.format(only="", where=""))
        return {row["id"]: _stats(row) for row in rows}

    async def expiring(self, now: float, unused_days: float, keep_at_most: int) -> list[Expiry]:
        """What `expire` would remove, least recently used first; nothing is changed.

        A program's last use is its latest replay, or when it was stored if that is later.
        First go the programs not used within `unused_days` (0: none expire by age); then, while
        more than `keep_at_most` remain (0: no limit), the least recently used of the rest, even
        ones used within the window. A program an unfinished task was given is never removed.
        """
        if unused_days < 0 or keep_at_most < 0:
            raise ProgramError("expiry takes unused_days >= 0 and keep_at_most >= 0")
        rows = await self._store.fetchall(
            "SELECT p.id AS id, json_extract(p.body, '$.goal_template') AS template, "
            "max(p.created_at, coalesce(max(r.at), 0)) AS used, "
            f"EXISTS (SELECT 1 FROM tasks t WHERE t.program_id = p.id AND t.status IN {HELD}) AS held "
            "FROM programs p LEFT JOIN program_runs r ON r.program_id = p.id GROUP BY p.id ORDER BY used, p.id")
        cutoff = now - unused_days * DAY if unused_days else None
        gone = [Expiry(row["id"], row["template"], row["used"], f"not used in the last {unused_days:g} days")
                for row in rows if cutoff is not None and row["used"] < cutoff and not row["held"]]
        expired = {expiry.program_id for expiry in gone}
        excess = len(rows) - len(expired) - keep_at_most if keep_at_most else 0
        over = f"beyond the {keep_at_most} most recently used"
        for row in rows:
            if excess <= 0:
                break
            if row["id"] not in expired and not row["held"]:
                gone.append(Expiry(row["id"], row["template"], row["used"], over))
                excess -= 1
        return gone

    async def expire(self, now: float, unused_days: float, keep_at_most: int) -> list[str]:
        """Remove (row, index entry and file) what `expiring` names; returns the ids removed."""
        return [expiry.program_id for expiry in await self.expiring(now, unused_days, keep_at_most)
                if await self.remove(expiry.program_id)]

    async def remove(self, program_id: str) -> bool:
        """Forget a program: its row, its index entry and its file. False when there was none."""
        async with self._store.transaction() as db:
            await db.execute("DELETE FROM program_index WHERE program_id = ?", (program_id,))
            removed = (await db.execute("DELETE FROM programs WHERE id = ?", (program_id,))).rowcount
        self._parsed.pop(program_id, None)
        if self._mirrored:
            (self.directory / f"{program_id}.json").unlink(missing_ok=True)
        return removed == 1

    async def watch(self, stop: asyncio.Event | None = None) -> AsyncIterator[Program | ProgramRemoved | ProgramRejected]:
        """Follow the program files: a deletion forgets the program, a broken file is refused in one line
        (the stored version goes on serving), and an edited program is yielded, unstored, for the verify
        gate to judge: verification is the database's word, never a file's.

        A file whose program equals the stored one is skipped, so Warden's own writes cause no loop. A change
        made before the watcher is set up is not seen: `following` says when it is.
        """
        self.directory.mkdir(parents=True, exist_ok=True)
        try:
            async for changes in awatch(self.directory, stop_event=stop, debounce=200, step=50,
                                        rust_timeout=QUIET_MS, yield_on_timeout=True):
                self.following.set()
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
                        yield ProgramRejected(None, "", f"{exc}; the stored version, if any, is unchanged")
                        continue
                    stored = await self.get(program.id)
                    if stored is not None and stored.same_as(program):
                        continue
                    yield program.with_verification({
                        "status": "unverified", "when": time.time(), "passed": False,
                        "how": f"loaded from {path.name}, edited outside Warden"})
        finally:
            self.following.clear()


def _stats(row) -> ProgramStats:
    replays, successes, fallbacks = row["replays"], row["successes"], row["fallbacks"]
    failure = Run(row["failed"], row["detail"], row["failed_at"]) if row["failed"] is not None else None
    return ProgramStats(replays, successes, fallbacks, replays - successes - fallbacks, row["last_used"], failure)
