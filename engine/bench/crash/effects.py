"""The effect log the bench's operators append to, independent of the journal, and what it shows.

Each line is one application of an operator: `{key, op, before, after}`, where `key` names the plan's
step and `before`/`after` hash what the operator's targets held. A step applied twice on top of itself
shows as two lines of one key whose `before` differ; a retry after a rollback sees the same `before`.
"""

from __future__ import annotations

import json
import os
from collections import defaultdict
from collections.abc import Iterable, Mapping
from pathlib import Path

LOG = "effects.jsonl"


def append(control: Path, record: Mapping) -> None:
    """One line, appended in one write and synced before the operator returns."""
    line = (json.dumps(dict(record), sort_keys=True) + "\n").encode()
    handle = os.open(control / LOG, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_CLOEXEC, 0o644)
    try:
        os.write(handle, line)
        os.fsync(handle)
    finally:
        os.close(handle)


def read(control: Path) -> list[dict]:
    """Every whole line of the log (a line torn by a kill mid-write is not an effect on record)."""
    path = control / LOG
    if not path.exists():
        return []
    lines = []
    for raw in path.read_text(encoding="utf-8").splitlines():
        try:
            lines.append(json.loads(raw))
        except json.JSONDecodeError:
            continue
    return lines


def by_key(lines: Iterable[Mapping]) -> dict[str, list[Mapping]]:
    grouped: dict[str, list[Mapping]] = defaultdict(list)
    for line in lines:
        grouped[line["key"]].append(line)
    return dict(grouped)


def duplicates(lines: Iterable[Mapping]) -> int:
    """Applications on top of a state that was not the step's original one: per key, each `before`
    beyond the first distinct one."""
    return sum(len({line["before"] for line in group}) - 1 for group in by_key(lines).values())


def missing(reference: Iterable[Mapping], lines: Iterable[Mapping]) -> list[str]:
    """Keys the crash-free run applied that this run never did."""
    seen = {line["key"] for line in lines}
    return sorted({line["key"] for line in reference} - seen)
