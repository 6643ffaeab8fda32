"""Approvals: persisted, single-use, bound to the exact call and to the code it runs, and expiring.

An approval is bound to its call's digest and, when the call runs files as code, to the digest of
what those files held when the person was asked (`binding`, `engine/tools/pins.py`); it keeps the
start of each file's text (`code`, redacted) so the person decides on what it pins. Only an approval
with the binding read again at dispatch is usable; asking afresh withdraws one bound to other contents.

A screen call's approval is also given on a scene (`engine/envs/scene.py`): the page and the element
the call would act on. It is kept (redacted) with the approval; before the approved call runs, a
different scene means the approval does not cover it (`moved`), and it is retired and asked afresh.
"""

from __future__ import annotations

import json
import time
import uuid
from dataclasses import dataclass, replace
from enum import StrEnum

import aiosqlite

from engine.envs.scene import Scene
from engine.errors import WardenError
from engine.gate.verdict import Verdict
from engine.redaction.calls import recorded_call
from engine.store import Store
from engine.tools.call import ToolCall
from engine.tools.pins import Pin, binding, changed as changed_paths


class ApprovalError(WardenError):
    """An approval cannot be decided or used as asked."""


class ApprovalStatus(StrEnum):
    PENDING = "pending"
    APPROVED = "approved"
    DENIED = "denied"
    USED = "used"
    EXPIRED = "expired"
    WITHDRAWN = "withdrawn"


@dataclass(frozen=True)
class Approval:
    id: str
    task_id: str
    step_idx: int
    call: ToolCall
    call_hash: str
    level: str
    tier: str
    rules: tuple[str, ...]
    reason: str
    status: ApprovalStatus
    created_at: float
    expires_at: float
    decided_at: float | None
    decided_by: str | None
    used_at: float | None
    binding: str = ""
    code: tuple[Pin, ...] = ()
    scene: Scene | None = None
    route: str = ""  # why the gate asked, in words ("sends data to api.example.com")

    @classmethod
    def from_row(cls, row) -> "Approval":
        return cls(
            id=row["id"], task_id=row["task_id"], step_idx=row["step_idx"],
            call=ToolCall.from_json(json.loads(row["call"])), call_hash=row["call_hash"],
            level=row["level"], tier=row["tier"], rules=tuple(json.loads(row["rules"])), reason=row["reason"],
            status=ApprovalStatus(row["status"]), created_at=row["created_at"], expires_at=row["expires_at"],
            decided_at=row["decided_at"], decided_by=row["decided_by"], used_at=row["used_at"],
            binding=row["binding"], code=tuple(Pin.from_json(pin) for pin in json.loads(row["code"] or "[]")),
            scene=Scene.from_json(json.loads(row["scene"])) if row["scene"] else None, route=row["route"],
        )


class ApprovalBook:
    """Every approval Warden ever asked for; `consume` is the only way one is spent."""

    def __init__(self, store: Store, ttl_seconds: int, clock=time.time) -> None:
        self._store = store
        self._ttl = ttl_seconds
        self._clock = clock

    async def request(self, task_id: str, idx: int, call: ToolCall, verdict: Verdict,
                      code: tuple[Pin, ...] = (), scene: Scene | None = None, why: str = "") -> Approval:
        """Ask about `call` as its code files hold `code` now, where it would act on the screen (`scene`); an
        undecided or unspent approval of this step bound to other contents is withdrawn (nobody may approve,
        or spend, what would no longer run)."""
        bound = binding(code)
        existing = await self._store.fetchone(
            "SELECT * FROM approvals WHERE task_id = ? AND step_idx = ? AND call_hash = ? AND binding = ?"
            " AND status = ?",
            (task_id, idx, call.digest(), bound, ApprovalStatus.PENDING.value),
        )
        if existing is not None:
            return Approval.from_row(existing)
        now = self._clock()
        approval_id = uuid.uuid4().hex[:12]
        shown = [replace(pin, text=self._store.redactor.text(pin.text)).as_json() for pin in code]
        async with self._store.transaction() as db:
            await db.execute(
                "UPDATE approvals SET status = ? WHERE task_id = ? AND step_idx = ? AND binding != ?"
                " AND status IN (?, ?)",
                (ApprovalStatus.WITHDRAWN.value, task_id, idx, bound, ApprovalStatus.PENDING.value,
                 ApprovalStatus.APPROVED.value),
            )
            await db.execute(
                "INSERT INTO approvals (id, task_id, step_idx, call, call_hash, level, tier, rules, reason, status,"
                " created_at, expires_at, binding, code, scene, route)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    approval_id, task_id, idx, recorded_call(self._store.redactor, call).canonical(), call.digest(),
                    verdict.level.label, verdict.tier.value, json.dumps(list(verdict.rules)),
                    self._store.redactor.text(verdict.reason), ApprovalStatus.PENDING.value, now, now + self._ttl,
                    bound, json.dumps(shown) if shown else None, self._scene_json(scene),
                    self._store.redactor.text(why or verdict.reason),
                ),
            )
        return await self.get(approval_id)

    def _scene_json(self, scene: Scene | None) -> str | None:
        return None if scene is None else json.dumps(self._store.redactor.scrub(scene.as_json()))

    def moved(self, approval: Approval, now: Scene | None) -> str | None:
        """How the screen differs from the scene `approval` was given on, in words; None when it is the same (or
        the approval was given on no scene). Compared as recorded, secrets redacted on both sides."""
        if approval.scene is None:
            return None
        recorded = self._scene_json(now)
        return (Scene.from_json(json.loads(recorded)) if recorded else Scene("")).change_from(approval.scene)

    async def retire(self, approval: Approval) -> None:
        """An approved approval that no longer covers its call (the screen changed under it) can never be spent."""
        await self._store.execute(
            "UPDATE approvals SET status = ? WHERE id = ? AND status = ?",
            (ApprovalStatus.WITHDRAWN.value, approval.id, ApprovalStatus.APPROVED.value),
        )

    async def get(self, approval_id: str) -> Approval:
        row = await self._store.fetchone("SELECT * FROM approvals WHERE id = ?", (approval_id,))
        if row is None:
            raise ApprovalError(f"no approval {approval_id}")
        return Approval.from_row(row)

    async def decide(self, approval_id: str, approved: bool, by: str) -> Approval:
        approval = await self.get(approval_id)
        now = self._clock()
        if approval.status is ApprovalStatus.PENDING and approval.expires_at <= now:
            raise ApprovalError(f"approval {approval_id} expired before it was decided")
        status = ApprovalStatus.APPROVED if approved else ApprovalStatus.DENIED
        changed = await self._store.execute(
            "UPDATE approvals SET status = ?, decided_at = ?, decided_by = ? WHERE id = ? AND status = ?",
            (status.value, now, by, approval_id, ApprovalStatus.PENDING.value),
        )
        if changed != 1:
            now_status = (await self.get(approval_id)).status.value
            raise ApprovalError(f"approval {approval_id} is already {now_status}, not pending")
        return await self.get(approval_id)

    async def usable(self, task_id: str, idx: int, call: ToolCall, code: tuple[Pin, ...] = ()) -> Approval | None:
        """An approved, unused, unexpired approval for exactly this call at this step, given on its code files
        holding what they hold now (`code`), if any."""
        row = await self._store.fetchone(
            "SELECT * FROM approvals WHERE task_id = ? AND step_idx = ? AND call_hash = ? AND binding = ?"
            " AND status = ? AND expires_at > ? ORDER BY created_at DESC",
            (task_id, idx, call.digest(), binding(code), ApprovalStatus.APPROVED.value, self._clock()),
        )
        return Approval.from_row(row) if row else None

    async def outdated(self, task_id: str, idx: int, call: ToolCall, code: tuple[Pin, ...]) -> Approval | None:
        """An approved, unspent approval for this call at this step that was given on other contents of its
        code files than `code` (the person approved code that would no longer run), if any."""
        row = await self._store.fetchone(
            "SELECT * FROM approvals WHERE task_id = ? AND step_idx = ? AND call_hash = ? AND binding != ?"
            " AND status = ? AND expires_at > ? ORDER BY created_at DESC",
            (task_id, idx, call.digest(), binding(code), ApprovalStatus.APPROVED.value, self._clock()),
        )
        return Approval.from_row(row) if row else None

    async def latest(self, task_id: str, idx: int | None = None) -> Approval | None:
        """The newest approval of a task (at one step, if given)."""
        sql = "SELECT * FROM approvals WHERE task_id = ?"
        params: list[str | int] = [task_id]
        if idx is not None:
            sql, params = sql + " AND step_idx = ?", params + [idx]
        row = await self._store.fetchone(sql + " ORDER BY created_at DESC, rowid DESC", params)
        return Approval.from_row(row) if row else None

    async def consume(self, db: aiosqlite.Connection, approval: Approval, call: ToolCall,
                      code: tuple[Pin, ...] = ()) -> None:
        """Spend the approval on the caller's transaction; a second spend, another call or other code fails."""
        if approval.call_hash != call.digest():
            raise ApprovalError(f"approval {approval.id} was given for a different call")
        if approval.binding != binding(code):
            raise ApprovalError(f"approval {approval.id} was given on other contents of {_paths(approval.code, code)}")
        cursor = await db.execute(
            "UPDATE approvals SET status = ?, used_at = ? WHERE id = ? AND status = ? AND expires_at > ?",
            (ApprovalStatus.USED.value, self._clock(), approval.id, ApprovalStatus.APPROVED.value, self._clock()),
        )
        if cursor.rowcount != 1:
            raise ApprovalError(f"approval {approval.id} is no longer usable")

    async def expire_due(self) -> list[Approval]:
        """Mark every pending approval past its time as expired; returns them."""
        rows = await self._store.fetchall(
            "SELECT * FROM approvals WHERE status = ? AND expires_at <= ?", (ApprovalStatus.PENDING.value, self._clock())
        )
        expired = []
        for row in rows:
            changed = await self._store.execute(
                "UPDATE approvals SET status = ? WHERE id = ? AND status = ?",
                (ApprovalStatus.EXPIRED.value, row["id"], ApprovalStatus.PENDING.value),
            )
            if changed:
                expired.append(await self.get(row["id"]))
        return expired

    async def withdraw(self, task_id: str) -> None:
        """Nobody needs to decide for a cancelled task any more."""
        await self._store.execute(
            "UPDATE approvals SET status = ? WHERE task_id = ? AND status IN (?, ?)",
            (ApprovalStatus.WITHDRAWN.value, task_id, ApprovalStatus.PENDING.value, ApprovalStatus.APPROVED.value),
        )

    async def withdraw_one(self, approval_id: str) -> bool:
        """Nobody may decide one undecided approval any more (its caller stopped waiting); whether it was pending."""
        return await self._store.execute(
            "UPDATE approvals SET status = ? WHERE id = ? AND status = ?",
            (ApprovalStatus.WITHDRAWN.value, approval_id, ApprovalStatus.PENDING.value),
        ) == 1

    async def pending(self) -> list[Approval]:
        rows = await self._store.fetchall(
            "SELECT * FROM approvals WHERE status = ? ORDER BY created_at", (ApprovalStatus.PENDING.value,)
        )
        return [Approval.from_row(row) for row in rows]


def _paths(before: tuple[Pin, ...], now: tuple[Pin, ...]) -> str:
    """The code files whose contents differ between two readings, in a phrase."""
    return ", ".join(changed_paths(before, now)) or "its code files"
