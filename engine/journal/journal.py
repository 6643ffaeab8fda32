"""The journal: snapshot before a call, a receipt after it, undo on request.

Snapshots and restores are the environment's own capabilities; a receipt records the
identity of the environment it was taken in, so undo acts in that one and no other.
"""

from __future__ import annotations

import asyncio
import json
import shutil
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import aiosqlite

from engine.envs.environment import Environment, SnapshotDeclined
from engine.envs.workspace import blobs, overlay
from engine.journal import deferred
from engine.errors import WardenError, one_line
from engine.journal.receipt import Receipt, Reversal, SnapshotKind
from engine.journal.reversers import Invertible
from engine.redaction import sealed
from engine.redaction.calls import recorded_call
from engine.tools.abridge import abridged
from engine.redaction.redactor import Redactor
from engine.store import Store
from engine.store.matching import containing
from engine.tier import Tier
from engine.tools.call import ToolCall
from engine.tools.compensator import Compensation
from engine.tools.registry import Tool


AFTER = "after.json"
RECEIPT_WORDS = ("r.id", "r.summary", "r.call", "r.tier", "r.reversal", "r.task_id", "r.env")


class UndoError(WardenError):
    """This receipt cannot be undone (already reversed, audit only, or its snapshot is gone)."""


@dataclass(frozen=True)
class Prepared:
    """What `prepare` captured before a call; `commit` turns it into a receipt."""

    receipt_id: str
    env: str
    snapshot_kind: SnapshotKind
    snapshot_path: str | None
    note: str = ""  # why no snapshot was kept where one would have been (past a cap); the receipt's summary says it
    deferred: bool = False  # the tool fills the snapshot directory itself, before it touches anything (`deferred`)

    def as_json(self) -> dict:
        return {"receipt_id": self.receipt_id, "env": self.env, "snapshot_kind": self.snapshot_kind.value,
                "snapshot_path": self.snapshot_path, "note": self.note, "deferred": self.deferred}

    @classmethod
    def from_json(cls, raw: dict) -> "Prepared":
        """What a write-ahead left, read back by whoever settles its step."""
        return cls(raw["receipt_id"], raw["env"], SnapshotKind(raw["snapshot_kind"]), raw["snapshot_path"],
                   raw.get("note", ""), bool(raw.get("deferred", False)))


class Journal:
    def __init__(self, store: Store, snapshots: Path) -> None:
        self._store = store
        self._snapshots = snapshots

    async def prepare(self, env: Environment, tool: Tool, call: ToolCall, tier: Tier) -> Prepared:
        """Snapshot what the call will touch, when its tier says the effect is local and reversible."""
        receipt_id = uuid.uuid4().hex[:12]
        targets = tool.touches(call.args)
        if tier is not Tier.LOCAL_REVERSIBLE or tool.reverser is None or not targets:
            return Prepared(receipt_id, env.identity, SnapshotKind.NONE, None)
        target = self._snapshots / receipt_id
        if tool.snapshots_itself:  # an empty directory the tool fills once it knows what it changed (`deferred`)
            await asyncio.to_thread(target.mkdir, 0o700, True)
            return Prepared(receipt_id, env.identity, SnapshotKind.COPY, str(target), deferred=True)
        try:
            if isinstance(env, Invertible) and await env.record_inverse(tool.reverser, call.args, target):
                return Prepared(receipt_id, env.identity, SnapshotKind.INVERSE, str(target))
            kind = await env.snapshot(targets, target)
        except SnapshotDeclined as declined:
            shutil.rmtree(target, ignore_errors=True)
            return Prepared(receipt_id, env.identity, SnapshotKind.NONE, None, str(declined))
        except BaseException:
            shutil.rmtree(target, ignore_errors=True)
            raise
        return Prepared(receipt_id, env.identity, SnapshotKind(kind or SnapshotKind.COPY), str(target))

    async def sweep(self, older_than: float) -> list[str]:
        """Remove snapshots that no receipt and no written-ahead step refers to, once older than
        `older_than` seconds: a runner died after taking one and before writing ahead."""
        receipts = await self._store.fetchall("SELECT snapshot_path FROM receipts WHERE snapshot_path IS NOT NULL")
        pending = await self._store.fetchall("SELECT pending FROM steps WHERE pending IS NOT NULL")
        kept = {Path(row["snapshot_path"]).name for row in receipts}
        for row in pending:
            prepared = json.loads(row["pending"]).get("prepared") or {}
            if prepared.get("snapshot_path"):
                kept.add(Path(prepared["snapshot_path"]).name)

        def sweep() -> list[str]:
            if not self._snapshots.is_dir():
                return []
            cutoff, removed = time.time() - older_than, []
            for entry in self._snapshots.iterdir():
                if entry.name not in kept and entry.lstat().st_mtime < cutoff:
                    if entry.name.startswith(overlay.LAYER_PREFIX):  # a dead runner's layer: its work dir is locked
                        overlay.remove_layer(entry)
                    else:
                        shutil.rmtree(entry, ignore_errors=True)
                    removed.append(entry.name)
            blobs.collect(blobs.location(self._snapshots))
            return removed

        return await asyncio.to_thread(sweep)

    async def seal(self, env: Environment, prepared: Prepared) -> None:
        """Record what the snapshotted targets hold right after the call (`after.json`), so an undo can tell
        a change nobody journaled (a person's edit) from the state the call left. Best effort: a seal that
        cannot be written leaves the receipt as receipts were before seals, undone without that check."""
        if not prepared.snapshot_path:
            return
        saved = Path(prepared.snapshot_path)
        try:
            held = await env.fingerprint(env.snapshot_targets(saved))
            if held is not None:  # its keys are paths: a secret in one is sealed, as in the manifest
                await asyncio.to_thread(sealed.dump, self._store.redactor, saved / AFTER, held)
        except (OSError, WardenError, ValueError):
            pass

    async def _edited(self, env: Environment, receipt: Receipt, saved: Path) -> list[str]:
        """Paths whose content, type or mode differ from what the call left: changed since, by no receipt."""
        try:
            left = await asyncio.to_thread(sealed.load, self._store.redactor, saved / AFTER)
        except FileNotFoundError:
            return []
        now = await env.fingerprint(env.snapshot_targets(saved)) or {}
        return sorted(path for path in left.keys() | now.keys() if left.get(path) != now.get(path))

    async def rollback(self, env: Environment, prepared: Prepared) -> bool:
        """Undo whatever an interrupted call did to its snapshotted targets, so it can run again as if
        never started; False when there is nothing to put back (no snapshot, or one the call never
        got to use), or when its inverse refuses (the paths are not as the call could have left them:
        a person judges). A tool that snapshots itself and wrote no manifest yet never touched the workspace, so
        there is nothing to put back and it may run again, unless it declined to keep one (past a cap) and went
        on. Only the runner holding the task's fence may call it: nothing else acts there."""
        if not prepared.snapshot_path:
            return False
        if not (Path(prepared.snapshot_path) / "manifest.json").exists():
            return prepared.deferred and not deferred.declined(Path(prepared.snapshot_path))
        try:
            await _reverse(env, Path(prepared.snapshot_path), self._store.redactor)
        except UndoError:
            return False
        return True

    @staticmethod
    def discard(prepared: Prepared) -> None:
        """Drop the snapshot of a call whose receipt was never written."""
        if prepared.snapshot_path:
            shutil.rmtree(prepared.snapshot_path, ignore_errors=True)

    async def commit(
        self, db: aiosqlite.Connection, prepared: Prepared, task_id: str | None, idx: int | None,
        call: ToolCall, tier: Tier, summary: str, compensation: Compensation | None = None,
    ) -> Receipt:
        """Insert the receipt on the caller's transaction, so it lands with the step it belongs to; a
        `runtime_compensable` call is `compensable` only with the `compensation` its result was bound to."""
        reversal = Reversal.REVERSIBLE if prepared.snapshot_path else _reversal_without_snapshot(tier, compensation)
        summary = f"{summary} ({prepared.note})" if prepared.note else summary
        receipt = Receipt(
            id=prepared.receipt_id, task_id=task_id, step_idx=idx, call=call, tier=tier,
            snapshot_kind=prepared.snapshot_kind, snapshot_path=prepared.snapshot_path,
            reversal=reversal, summary=summary, created_at=time.time(), env=prepared.env,
            compensation=compensation if reversal is Reversal.COMPENSABLE else None,
        )
        await _insert(db, receipt, self._store.redactor)
        return receipt

    async def write(self, db: aiosqlite.Connection, receipt: Receipt) -> None:
        """Insert a receipt made elsewhere (an undo's own) on the caller's transaction."""
        await _insert(db, receipt, self._store.redactor)

    async def audit(self, env: str | None, task_id: str | None, idx: int | None, call: ToolCall, tier: Tier,
                    summary: str) -> Receipt:
        """A receipt for a call that never ran (blocked): kept for the record, nothing to undo."""
        receipt = Receipt(
            id=uuid.uuid4().hex[:12], task_id=task_id, step_idx=idx, call=call, tier=tier,
            snapshot_kind=SnapshotKind.NONE, snapshot_path=None, reversal=Reversal.AUDIT_ONLY,
            summary=summary, created_at=time.time(), env=env,
        )
        async with self._store.transaction() as db:
            await _insert(db, receipt, self._store.redactor)
        return receipt

    async def get(self, receipt_id: str) -> Receipt:
        row = await self._store.fetchone("SELECT * FROM receipts WHERE id = ?", (receipt_id,))
        if row is None:
            raise UndoError(f"no receipt {receipt_id}")
        return Receipt.from_row(row)

    async def receipts(self, limit: int = 200) -> list[Receipt]:
        rows = await self._store.fetchall("SELECT * FROM receipts ORDER BY created_at DESC, rowid DESC LIMIT ?", (limit,))
        return [Receipt.from_row(row) for row in rows]

    async def page(self, offset: int, limit: int, text: str = "") -> tuple[list[Receipt], int]:
        """Receipts newest first from `offset`, and how many match in all (one statement, so the two agree).
        `text` keeps only receipts whose id, summary, call, tier, reversal, task or environment contain it,
        in any case (ASCII)."""
        matching, params = containing(text, RECEIPT_WORDS)
        rows = await self._store.fetchall(
            f"SELECT r.*, (SELECT COUNT(*) FROM receipts r WHERE {matching}) AS total FROM receipts r"
            f" WHERE {matching} ORDER BY r.created_at DESC, r.rowid DESC LIMIT ? OFFSET ?",
            (*params, *params, limit, offset))
        if not rows:
            return [], await self.count(text)
        return [Receipt.from_row(row) for row in rows], rows[0]["total"]

    async def count(self, text: str = "") -> int:
        """How many receipts `page` would list for `text`."""
        matching, params = containing(text, RECEIPT_WORDS)
        row = await self._store.fetchrow(f"SELECT COUNT(*) AS n FROM receipts r WHERE {matching}", params)
        return row["n"]

    async def place(self, receipt_id: str, text: str = "") -> int | None:
        """Where the receipt stands in `page`'s order (0 is the newest); None when it is not listed."""
        matching, params = containing(text, RECEIPT_WORDS)
        row = await self._store.fetchone(
            f"SELECT (SELECT COUNT(*) FROM receipts r WHERE {matching} AND (r.created_at > me.created_at"
            " OR r.created_at = me.created_at AND r.rowid > me.rowid)) AS n,"
            f" (SELECT COUNT(*) FROM receipts r WHERE r.id = me.id AND {matching}) AS listed"
            " FROM receipts me WHERE me.id = ?", (*params, *params, receipt_id))
        return row["n"] if row is not None and row["listed"] else None

    async def listed(self, receipt_ids: list[str]) -> list[Receipt]:
        """These receipts, in no particular order (one query however many)."""
        if not receipt_ids:
            return []
        marks = ", ".join("?" * len(receipt_ids))
        rows = await self._store.fetchall(f"SELECT * FROM receipts WHERE id IN ({marks})", receipt_ids)
        return [Receipt.from_row(row) for row in rows]

    async def for_task(self, task_id: str) -> list[Receipt]:
        rows = await self._store.fetchall("SELECT * FROM receipts WHERE task_id = ? ORDER BY step_idx", (task_id,))
        return [Receipt.from_row(row) for row in rows]

    async def later(self, receipt: Receipt, identity: str | None = None) -> list[Receipt]:
        """Receipts written after this one in its environment (`identity`, default the receipt's own; a
        receipt that names none counts as that one's) that an undo must weigh: reversible ones with a
        snapshot, and audit-only ones of calls that ran. Newest first, the order undo meets them in."""
        identity = identity if identity is not None else receipt.env or ""
        rows = await self._store.fetchall(
            "SELECT * FROM receipts r WHERE rowid > (SELECT rowid FROM receipts WHERE id = ?) AND COALESCE(env, ?) = ?"
            " AND (reversal IN (?, ?) AND snapshot_path IS NOT NULL OR reversal = ?"
            " AND r.undoes IS NULL AND NOT EXISTS (SELECT 1 FROM steps s WHERE s.receipt_id = r.id AND s.status = 'blocked'))"
            " ORDER BY rowid DESC",
            (receipt.id, identity, identity, Reversal.REVERSIBLE.value, Reversal.REVERSING.value,
             Reversal.AUDIT_ONLY.value),
        )
        return [Receipt.from_row(row) for row in rows]

    async def blocked(self, task_id: str) -> set[str]:
        """The task's audit receipts for calls the gate blocked: they record a call that never ran."""
        rows = await self._store.fetchall(
            "SELECT receipt_id FROM steps WHERE task_id = ? AND status = 'blocked' AND receipt_id IS NOT NULL",
            (task_id,))
        return {row["receipt_id"] for row in rows}

    async def _later_changes(self, env: Environment, receipt: Receipt, covered: list[str], force: bool) -> list[str]:
        """Later receipts in the same environment that undoing this one would silently discard.

        A reversible one counts when its targets overlap this one's. An audit-only one (a call
        that ran with no snapshot, such as an unconfined shell command) counts whatever it
        touched, since nobody knows what that was, unless the operator forces the undo.
        """
        blockers = []
        for later in await self.later(receipt, env.identity):
            if later.reversal is Reversal.AUDIT_ONLY or later.snapshot_path is None:
                if not force:
                    blockers.append(f"{later.id} (ran with no snapshot: what it changed is unknown)")
                continue
            saved = Path(later.snapshot_path)
            try:
                theirs = env.snapshot_targets(saved) if (saved / "manifest.json").exists() else []
            except (OSError, ValueError):  # its snapshot went while this undo looked: gc took it, or an undo
                if (await self.get(later.id)).reversal is not Reversal.REVERSED and not force:
                    blockers.append(f"{later.id} (its snapshot went as this undo looked: what it changed is unknown)")
                continue
            if any(env.overlaps(mine, path) for mine in covered for path in theirs):
                blockers.append(later.id)
        return blockers

    async def _cut_off(self, env: Environment, covered: list[str]) -> str | None:
        """A step of an unfinished task in this environment left written ahead (its runner died, or it waits
        for a person after that) whose snapshot overlaps `covered`: resuming it may restore that snapshot,
        putting back what an undo now would remove. Steps acting now are kept out by the environment's fence."""
        rows = await self._store.fetchall(
            "SELECT s.task_id, s.idx, s.pending FROM steps s JOIN tasks t ON t.id = s.task_id"
            " WHERE s.status = 'dispatching' AND s.pending IS NOT NULL AND t.env = ? AND t.status IN (?, ?, ?)",
            (env.identity, "queued", "running", "paused"))
        for row in rows:
            saved = (json.loads(row["pending"]).get("prepared") or {}).get("snapshot_path")
            if not saved or not (Path(saved) / "manifest.json").exists():
                continue
            try:
                theirs = env.snapshot_targets(Path(saved))
            except (OSError, ValueError):
                continue  # settled and dropped meanwhile
            if any(env.overlaps(mine, path) for mine in covered for path in theirs):
                return f"step {row['idx']} of task {row['task_id']}"
        return None

    async def undo(self, receipt_id: str, env_for: Callable[[Receipt], Environment], force: bool = False,
                   resuming: bool = False) -> Receipt:
        """Restore the snapshot into the receipt's own environment and mark the receipt reversed.

        Refuses a receipt that is not reversible, one taken in an environment that cannot be
        opened, and one whose targets a later, still reversible receipt changed, or that a
        later audit-only call may have changed, or that differ from what the call left with no
        receipt to say why (`force` accepts that risk): undoing it would silently discard that
        later change. The receipt is claimed by
        compare-and-swap (`reversing`) before anything is touched, so two undos of one
        receipt at the same time restore once. `resuming` finishes an undo that stopped after its claim (the
        caller knows it died): the paths may be half restored, so they are not compared with the seal.
        """
        receipt = await self.get(receipt_id)
        if receipt.reversal is Reversal.COMPENSABLE:
            raise UndoError(f"receipt {receipt_id} is compensable: its compensator runs through the gate (Runtime.undo)")
        if not (resuming and receipt.reversal is Reversal.REVERSING and receipt.snapshot_path):
            resuming = False
            self._refuse(receipt)
        if receipt.snapshot_path is None:  # `_refuse` lets only a receipt with a snapshot through
            raise UndoError(f"receipt {receipt_id} kept no snapshot to restore")
        env = env_for(receipt)
        path = Path(receipt.snapshot_path)
        try:
            await self._check(env, receipt, path, force, resuming)
        except (OSError, ValueError) as exc:  # the snapshot went while it was read: gc took it, most likely
            self._refuse(await self.get(receipt_id))
            await self._missing(receipt, path)
            raise UndoError(f"receipt {receipt_id}: its snapshot could not be read ({one_line(exc)})") from None
        claimed = resuming or await self._store.execute(
            "UPDATE receipts SET reversal = ? WHERE id = ? AND reversal = ?",
            (Reversal.REVERSING.value, receipt_id, Reversal.REVERSIBLE.value),
        ) == 1
        if not claimed:
            self._refuse(await self.get(receipt_id))
        try:
            await _reverse(env, path, self._store.redactor)
        except BaseException:
            await self._store.execute("UPDATE receipts SET reversal = ? WHERE id = ? AND reversal = ?",
                                      (Reversal.REVERSIBLE.value, receipt_id, Reversal.REVERSING.value))
            raise
        await self._store.execute(
            "UPDATE receipts SET reversal = ?, reversed_at = ? WHERE id = ?",
            (Reversal.REVERSED.value, time.time(), receipt_id),
        )
        await asyncio.to_thread(shutil.rmtree, path, True)
        return await self.get(receipt_id)

    async def _check(self, env: Environment, receipt: Receipt, path: Path, force: bool, resuming: bool) -> None:
        """Refuse (UndoError) an undo whose snapshot is gone, that would discard a later change, that a step cut
        off mid-dispatch would put back, or (unless forced or resuming) that would discard a person's edit."""
        await self._missing(receipt, path)
        covered = env.snapshot_targets(path)
        blockers = await self._later_changes(env, receipt, covered, force)
        if blockers:
            hint = "undo those first" if force or "unknown" not in " ".join(blockers) else "undo those first, or force"
            raise UndoError(
                f"receipt {receipt.id}: later receipt(s) {', '.join(blockers[:3])} may have changed the same paths;"
                f" {hint}"
            )
        if cut_off := await self._cut_off(env, covered):
            raise UndoError(
                f"receipt {receipt.id}: {cut_off} was cut off mid-dispatch holding a snapshot of the same paths, and"
                " resuming it may roll them back to that snapshot; let its task resume (or cancel it) first"
            )
        if not force and not resuming and (edited := await self._edited(env, receipt, path)):
            more = f" and {len(edited) - 3} more" if len(edited) > 3 else ""
            raise UndoError(
                f"receipt {receipt.id}: {', '.join(edited[:3])}{more} changed since the call, by no receipt (a"
                " person's edit?); undoing would discard that change; force to restore the snapshot anyway"
            )

    async def _missing(self, receipt: Receipt, path: Path) -> None:
        """Mark the receipt irrecoverable and refuse when its snapshot (`path`) is gone, unless something else
        changed it first (gc demoted it, another undo claimed it): then refuse for that reason, keeping its record."""
        if await asyncio.to_thread((path / "manifest.json").exists):
            return
        marked = await self._store.execute("UPDATE receipts SET reversal = ? WHERE id = ? AND reversal = ?",
                                           (Reversal.IRRECOVERABLE.value, receipt.id, receipt.reversal.value))
        if marked != 1:
            self._refuse(await self.get(receipt.id))
        raise UndoError(f"snapshot of receipt {receipt.id} is missing; marked irrecoverable")

    @staticmethod
    def _refuse(receipt: Receipt) -> None:
        """Raise the reason a receipt cannot be undone now, if there is one."""
        if receipt.reversal is Reversal.REVERSED:
            raise UndoError(f"receipt {receipt.id} was already undone")
        if receipt.reversal is Reversal.REVERSING:
            raise UndoError(f"receipt {receipt.id} is being undone by another process (or that undo was interrupted)")
        if not receipt.undoable:
            raise UndoError(f"receipt {receipt.id} is {receipt.reversal.value}: Warden claims no undo for it")

async def _reverse(env: Environment, saved: Path, redactor: Redactor) -> None:
    """Put back what a snapshot directory says the call changed: the one place undo and rollback act.
    An inverse snapshot runs its inverse (refused, as an `UndoError`, when its precondition fails)."""
    if isinstance(env, Invertible):
        try:
            left = await asyncio.to_thread(sealed.load, redactor, saved / AFTER)
        except (OSError, ValueError):
            left = None
        try:
            if await env.invert(saved, left) is not None:
                return
        except WardenError as exc:
            raise UndoError(str(exc)) from None
    await env.restore(saved)


def _reversal_without_snapshot(tier: Tier, compensation: Compensation | None) -> Reversal:
    if tier is Tier.RUNTIME_COMPENSABLE and compensation is not None:
        return Reversal.COMPENSABLE
    return Reversal.AUDIT_ONLY


async def _insert(db: aiosqlite.Connection, receipt: Receipt, redactor: Redactor) -> None:
    """Write the receipt with its call's secrets sealed away, its long text abridged (its step keeps the call
    whole: `engine/tools/abridge.py`) and its summary redacted."""
    await db.execute(
        "INSERT INTO receipts (id, task_id, step_idx, call, tier, snapshot_kind, snapshot_path, reversal,"
        " summary, created_at, env, system, system_key, deadline, compensation, undoes)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            receipt.id, receipt.task_id, receipt.step_idx, abridged(recorded_call(redactor, receipt.call)).canonical(),
            receipt.tier.value, receipt.snapshot_kind.value, receipt.snapshot_path, receipt.reversal.value,
            redactor.text(receipt.summary),
            receipt.created_at, receipt.env, *_compensation_columns(receipt.compensation), receipt.undoes,
        ),
    )


def _compensation_columns(compensation: Compensation | None) -> tuple:
    if compensation is None:
        return None, None, None, None
    return (compensation.system, compensation.key, compensation.deadline,
            json.dumps(compensation.as_json(), sort_keys=True))
