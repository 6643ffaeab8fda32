"""Receipts as versioned JSON lines, for another tool to read without knowing Warden's database.

Each line is one receipt with `schema` naming the record's version; docs/journal.md lists the
fields and what changes bump it.
"""

from __future__ import annotations

import json
import math
from datetime import UTC, datetime

from engine.errors import WardenError
from engine.journal.receipt import Receipt
from engine.store import Store

RECEIPT_SCHEMA = "warden.receipt/1"


class BadTime(WardenError):
    """A time bound that is neither ISO-8601 nor a Unix timestamp."""


def parse_time(text: str) -> float:
    """A Unix timestamp from `text`: seconds since the epoch, or an ISO-8601 date or date-time
    (one without a zone is UTC, so the same text means the same instant on every machine)."""
    try:
        seconds = float(text)
    except ValueError:
        pass
    else:
        if math.isfinite(seconds):
            return seconds
    try:
        moment = datetime.fromisoformat(text.strip())
    except ValueError:
        raise BadTime(f"not a time: {text!r} (give ISO-8601, e.g. 2026-11-23T10:00:00Z, or Unix seconds)") from None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.timestamp()


def receipt_record(receipt: Receipt) -> dict:
    """One receipt as a `warden.receipt/1` record."""
    return {"schema": RECEIPT_SCHEMA, "id": receipt.id, "task_id": receipt.task_id, "step_idx": receipt.step_idx,
            "env": receipt.env, "tool": receipt.call.tool, "call": receipt.call.as_json(),
            "tier": receipt.tier.value, "reversal": receipt.reversal.value, "undoable": receipt.undoable,
            "summary": receipt.summary, "snapshot_kind": receipt.snapshot_kind.value,
            "snapshot_path": receipt.snapshot_path, "created_at": receipt.created_at,
            "reversed_at": receipt.reversed_at, **undo_fields(receipt)}


def undo_fields(receipt: Receipt) -> dict:
    """What a receipt says about compensating it (`compensation`: system, key, deadline, call) and, on an undo's
    own receipt, which receipt it undid (`undoes`): added to `warden.receipt/1` compatibly."""
    return {"compensation": receipt.compensation.as_json() if receipt.compensation else None,
            "undoes": receipt.undoes}


async def exported(store: Store, since: float | None = None, until: float | None = None,
                   task_id: str | None = None) -> list[Receipt]:
    """Receipts created in [since, until] (either bound open), of one task or all, oldest first."""
    rows = await store.fetchall(
        "SELECT * FROM receipts WHERE (? IS NULL OR created_at >= ?) AND (? IS NULL OR created_at <= ?)"
        " AND (? IS NULL OR task_id = ?) ORDER BY created_at, rowid",
        (since, since, until, until, task_id, task_id))
    return [Receipt.from_row(row) for row in rows]


def jsonl(receipts: list[Receipt]) -> str:
    """The receipts as JSON lines, each ending in a newline."""
    return "".join(json.dumps(receipt_record(receipt)) + "\n" for receipt in receipts)
