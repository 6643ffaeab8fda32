"""Scoped grants: a person's approval that covers more than one call, recorded and revocable.

Approving a held call, a person chooses its scope: `once` (the approval alone, spent on that call),
`task` (calls of its pattern for the rest of that task) or `pattern` (calls of its pattern in any task
for this session: `approvals.grant_ttl_seconds`, eight hours by default). The pattern is drawn from the
call the person saw (`engine/gate/patterns.py`); a catastrophic call takes no scope, and no grant ever
covers one. Each grant is a row: who, when, scope, pattern, expiry, how often it was used, and who
revoked it when. A revoked or expired grant covers nothing, so the next matching call asks again.
"""

from __future__ import annotations

import json
import time
import uuid
from dataclasses import dataclass
from enum import StrEnum

from engine.errors import WardenError
from engine.gate.approvals import Approval
from engine.gate.patterns import Pattern, PatternError, pattern_of
from engine.gate.verdict import Level, Verdict
from engine.store import Store
from engine.tools.call import ToolCall


class GrantError(WardenError):
    """A grant cannot be made or revoked as asked."""


class Scope(StrEnum):
    ONCE = "once"
    TASK = "task"
    PATTERN = "pattern"


@dataclass(frozen=True)
class Grant:
    id: str
    scope: Scope
    task_id: str | None
    pattern: Pattern
    shown: str
    approval_id: str | None
    granted_by: str
    granted_at: float
    expires_at: float
    revoked_at: float | None
    revoked_by: str | None
    uses: int

    @classmethod
    def from_row(cls, row) -> "Grant":
        return cls(row["id"], Scope(row["scope"]), row["task_id"], Pattern.from_json(row["pattern"]), row["shown"],
                   row["approval_id"], row["granted_by"], row["granted_at"], row["expires_at"], row["revoked_at"],
                   row["revoked_by"], row["uses"])

    def live(self, now: float) -> bool:
        return self.revoked_at is None and self.expires_at > now

    def describe(self) -> str:
        where = f"task {self.task_id}" if self.scope is Scope.TASK else "any task"
        return f"{self.shown} in {where}"

    def as_json(self) -> dict:
        return {"id": self.id, "scope": self.scope.value, "task_id": self.task_id, "pattern": self.pattern.as_json(),
                "shown": self.shown, "approval_id": self.approval_id, "granted_by": self.granted_by,
                "granted_at": self.granted_at, "expires_at": self.expires_at, "revoked_at": self.revoked_at,
                "revoked_by": self.revoked_by, "uses": self.uses}


def scoped_pattern(approval: Approval, glob: str | None = None) -> Pattern:
    """The pattern a scoped grant on an approval's call would cover; `GrantError` for a catastrophic call or
    a call with no pattern. The console and the CLI show it before the person grants it."""
    if approval.level == Level.CATASTROPHIC.label:
        raise GrantError("a catastrophic call takes no scope: it is blocked, and no grant covers it")
    try:
        return pattern_of(approval.call, approval.rules, glob, approval.call_hash)
    except PatternError as exc:
        raise GrantError(str(exc)) from None


class GrantBook:
    """Every grant ever given; `covering` is the only way the gate's runner finds one."""

    def __init__(self, store: Store, ttl_seconds: int, clock=time.time) -> None:
        self._store = store
        self._ttl = ttl_seconds
        self._clock = clock

    async def grant(self, scope: Scope, pattern: Pattern, shown: str, by: str, task_id: str | None,
                    approval_id: str | None) -> Grant:
        if scope is Scope.ONCE:
            raise GrantError("a grant for once is an approval: nothing to record")
        now = self._clock()
        grant_id = "g" + uuid.uuid4().hex[:11]
        await self._store.execute(
            "INSERT INTO grants (id, scope, task_id, pattern, shown, approval_id, granted_by, granted_at, expires_at,"
            " uses) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 0)",
            (grant_id, scope.value, task_id if scope is Scope.TASK else None, json.dumps(pattern.as_json()),
             self._store.redactor.text(shown), approval_id, by, now, now + self._ttl),
        )
        return await self.get(grant_id)

    async def get(self, grant_id: str) -> Grant:
        row = await self._store.fetchone("SELECT * FROM grants WHERE id = ?", (grant_id,))
        if row is None:
            raise GrantError(f"no grant {grant_id}")
        return Grant.from_row(row)

    async def listed(self, everything: bool = False) -> list[Grant]:
        """The live grants, newest first (with `everything`, revoked and expired ones too)."""
        rows = await self._store.fetchall("SELECT * FROM grants ORDER BY granted_at DESC, rowid DESC")
        grants = [Grant.from_row(row) for row in rows]
        now = self._clock()
        return grants if everything else [grant for grant in grants if grant.live(now)]

    async def revoke(self, grant_id: str, by: str) -> Grant:
        grant = await self.get(grant_id)
        if grant.revoked_at is not None:
            raise GrantError(f"grant {grant_id} was already revoked by {grant.revoked_by}")
        await self._store.execute("UPDATE grants SET revoked_at = ?, revoked_by = ? WHERE id = ? AND revoked_at IS NULL",
                                  (self._clock(), by, grant_id))
        return await self.get(grant_id)

    async def covering(self, task_id: str, call: ToolCall, verdict: Verdict) -> Grant | None:
        """A live grant of this task or of any task whose pattern covers the call, if any; never for catastrophic."""
        if verdict.level is Level.CATASTROPHIC:
            return None
        rows = await self._store.fetchall(
            "SELECT * FROM grants WHERE revoked_at IS NULL AND expires_at > ? AND (task_id IS NULL OR task_id = ?)"
            " ORDER BY granted_at", (self._clock(), task_id))
        for row in rows:
            grant = Grant.from_row(row)
            if grant.pattern.covers(call, verdict):
                return grant
        return None

    async def used(self, grant: Grant) -> None:
        await self._store.execute("UPDATE grants SET uses = uses + 1 WHERE id = ?", (grant.id,))
