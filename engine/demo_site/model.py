"""The demo site's records: contacts, notes, settings and saved reports, as plain values.

Each record knows its JSON form, which is exactly what `/api/state` shows evaluators,
so what a task's evaluator reads and what the pages render come from one definition.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

THEMES = ("light", "dark")
CATEGORIES = ("General", "Work", "Personal", "Ideas")
REPORT_KINDS = ("Contacts overview", "Notes by category")


@dataclass(frozen=True)
class Contact:
    id: int
    name: str
    email: str = ""
    phone: str = ""
    favourite: bool = False

    def as_json(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class Note:
    id: int
    title: str
    body: str = ""
    category: str = CATEGORIES[0]

    def as_json(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class Settings:
    display_name: str = "Alex Morgan"
    theme: str = THEMES[0]
    newsletter: bool = False

    def as_json(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class Report:
    """A report someone ran: which kind, and the figures it found at the time."""

    id: int
    kind: str
    lines: tuple[str, ...] = ()

    def as_json(self) -> dict[str, Any]:
        return {"id": self.id, "kind": self.kind, "lines": list(self.lines)}
