"""A receipt: what one dispatched call did, and whether that can still be undone."""

from __future__ import annotations

import json
from dataclasses import dataclass
from enum import StrEnum

from engine.tier import Tier
from engine.tools.call import ToolCall
from engine.tools.compensator import Compensation


class SnapshotKind(StrEnum):
    REFLINK = "reflink"
    COPY = "copy"
    INVERSE = "inverse"
    NONE = "none"


class Reversal(StrEnum):
    REVERSIBLE = "reversible"
    COMPENSABLE = "compensable"
    AUDIT_ONLY = "audit_only"
    REVERSING = "reversing"
    REVERSED = "reversed"
    IRRECOVERABLE = "irrecoverable"


@dataclass(frozen=True)
class Receipt:
    id: str
    task_id: str | None
    step_idx: int | None
    call: ToolCall
    tier: Tier
    snapshot_kind: SnapshotKind
    snapshot_path: str | None
    reversal: Reversal
    summary: str
    created_at: float
    reversed_at: float | None = None
    env: str | None = None
    compensation: Compensation | None = None  # how a compensable receipt is undone, and until when
    undoes: str | None = None  # on an undo's own receipt: the receipt it undid

    @property
    def undoable(self) -> bool:
        if self.reversal is Reversal.COMPENSABLE:
            return self.compensation is not None
        return self.reversal is Reversal.REVERSIBLE and self.snapshot_path is not None

    @classmethod
    def from_row(cls, row) -> "Receipt":
        return cls(
            id=row["id"],
            task_id=row["task_id"],
            step_idx=row["step_idx"],
            call=ToolCall.from_json(json.loads(row["call"])),
            tier=Tier(row["tier"]),
            snapshot_kind=SnapshotKind(row["snapshot_kind"]),
            snapshot_path=row["snapshot_path"],
            reversal=Reversal(row["reversal"]),
            summary=row["summary"],
            created_at=row["created_at"],
            reversed_at=row["reversed_at"],
            env=row["env"],
            compensation=Compensation.from_json(json.loads(row["compensation"])) if row["compensation"] else None,
            undoes=row["undoes"],
        )
