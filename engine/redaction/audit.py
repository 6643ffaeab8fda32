"""Where a secret was recorded: the auditor's side of the keyed hash.

Given a value, the home's redactor names its placeholder, and every record holding that
placeholder is listed by table. The value is never stored or printed: only its tag is searched for.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.store import Store

_WHERE: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("tasks", "id", ("goal", "spec", "error")),
    ("steps", "task_id || ':' || idx", ("call", "output", "pending", "trace")),
    ("approvals", "id", ("call", "reason")),
    ("receipts", "id", ("call", "summary")),
    ("task_events", "COALESCE(task_id, '-') || ':' || kind", ("payload",)),
)


@dataclass(frozen=True)
class Sightings:
    """The placeholder a value is recorded as, and the records (by table) that hold it."""

    placeholder: str
    found: dict[str, list[str]]

    @property
    def anywhere(self) -> bool:
        return any(self.found.values())

    def as_json(self) -> dict:
        return {"placeholder": self.placeholder, "found": self.found}


async def sightings(store: Store, value: str) -> Sightings:
    placeholder = store.redactor.placeholder(value)
    found: dict[str, list[str]] = {}
    for table, key, columns in _WHERE:
        condition = " OR ".join(f"instr(COALESCE({column}, ''), ?) > 0" for column in columns)
        rows = await store.fetchall(f"SELECT DISTINCT {key} AS record FROM {table} WHERE {condition} ORDER BY 1",
                                    (placeholder,) * len(columns))
        found[table] = [row["record"] for row in rows]
    return Sightings(placeholder, found)
