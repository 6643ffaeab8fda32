"""Approvals: persisted, single-use, bound to the exact call, and expiring."""

from __future__ import annotations

import json
import time
import uuid
from dataclasses import dataclass
from enum import StrEnum

import aiosqlite

from engine.errors import WardenError
from engine.gate.verdict import Verdict
from engine.redaction.calls import recorded_call
from engine.store import Store
from engine.tools.call import ToolCall


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

    @classmethod
    def from_row(cls, row) -> "Approval":
        return cls(
            id=row["id"], task_id=row["task_id"], step_idx=row["step_idx"],
            call=ToolCall.from_json(json.loads(row["call"])), call_hash=row["call_hash"],
            level=row["level"], tier=row["tier"], rules=tuple(json.loads(row["rules"])), reason=row["reason"],
            status=ApprovalStatus(row["status"]), created_at=row["created_at"], expires_at=row["expires_at"],
            decided_at=row["decided_at"], decided_by=row["decided_by"], used_at=row["used_at"],
        )


class ApprovalBook:
    """Every approval Warden ever asked for; `consume` is the only way one is spent."""

    def __init__(self, store: Store, ttl_seconds: int, clock=time.time) -> None:
        self._store = store
        self._ttl = ttl_seconds
        self._clock = clock

    async def request(self, task_id: str, idx: int, call: ToolCall, verdict: Verdict) -> Approval:
        existing = await self._store.fetchone(
            "SELECT * FROM approvals WHERE task_id = ? AND step_idx = ? AND call_hash = ? AND status = ?",
            (task_id, idx, call.digest(), ApprovalStatus.PENDING.value),
        )
        if existing is not None:
            return Approval.from_row(existing)
        now = self._clock()
        approval_id = uuid.uuid4().hex[:12]
        await self._store.execute(
            "INSERT INTO approvals (id, task_id, step_idx, call, call_hash, level, tier, rules, reason, status,"
            " created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                approval_id, task_id, idx, recorded_call(self._store.redactor, call).canonical(), call.digest(),
                verdict.level.label, verdict.tier.value, json.dumps(list(verdict.rules)),
                self._store.redactor.text(verdict.reason), ApprovalStatus.PENDING.value, now, now + self._ttl,
            ),
        )
        return await self.get(approval_id)

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

    async def usable(self, task_id: str, idx: int, call: ToolCall) -> Approval | None:
        """An approved, unused, unexpired approval for exactly this call at this step, if any."""
        row = await self._store.fetchone(
            "SELECT * FROM approvals WHERE task_id = ? AND step_idx = ? AND call_hash = ? AND status = ?"
            " AND expires_at > ? ORDER BY created_at DESC",
            (task_id, idx, call.digest(), ApprovalStatus.APPROVED.value, self._clock()),
        )
        return Approval.from_row(row) if row else None

    async def latest(self, task_id: str, idx: int | None = None) -> Approval | None:
        """The newest approval of a task (at one step, if given)."""
        sql, params = "SELECT * FROM approvals WHERE task_id = ?", [task_id]
        if idx is not None:
            sql, params = sql + " AND step_idx = ?", params + [idx]
        row = await self._store.fetchone(sql + " ORDER BY created_at DESC, rowid DESC", params)
        return Approval.from_row(row) if row else None

    async def consume(self, db: aiosqlite.Connection, approval: Approval, call: ToolCall) -> None:
        """Spend the approval on the caller's transaction; a second spend or another call fails."""
        if approval.call_hash != call.digest():
            raise ApprovalError(f"approval {approval.id} was given for a different call")
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

    async def pending(self) -> list[Approval]:
        rows = await self._store.fetchall(
            "SELECT * FROM approvals WHERE status = ? ORDER BY created_at", (ApprovalStatus.PENDING.value,)
        )
        return [Approval.from_row(row) for row in rows]
