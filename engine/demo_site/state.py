"""The demo site's whole state, behind one lock, in memory only.

Request threads read and change it through these methods alone; each takes the lock
for the whole of its change, so a page never sees half an edit and `snapshot` is a
consistent copy an evaluator can trust. Nothing is written to disk.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field, replace
from typing import Any

from engine.demo_site import seed
from engine.demo_site.dialog import DialogSchedule
from engine.demo_site.figures import figures
from engine.demo_site.model import Contact, Note, Report, Settings
from engine.demo_site.perturbation import Perturbation

WRONG_STATE = ("replaced_clicks", "behind_modal", "stale_actions")


@dataclass(frozen=True)
class Start:
    """A known starting point: what `reset` puts the site back to."""

    dialog: DialogSchedule
    contacts: tuple[Contact, ...] = seed.CONTACTS
    notes: tuple[Note, ...] = seed.NOTES
    settings: Settings = field(default_factory=Settings)
    perturb: Perturbation = field(default_factory=Perturbation)


@dataclass
class _Data:
    start: Start
    contacts: dict[int, Contact] = field(default_factory=dict)
    notes: dict[int, Note] = field(default_factory=dict)
    settings: Settings = field(default_factory=Settings)
    reports: dict[int, Report] = field(default_factory=dict)
    visits: int = 0
    shown: int = 0
    last_ids: dict[str, int] = field(default_factory=dict)
    modal_open: bool = False
    counts: dict[str, int] = field(default_factory=lambda: dict.fromkeys((*WRONG_STATE, "modal_closed"), 0))

    def new_id(self, kind: str) -> int:
        """A fresh id of `kind`: never one in use, nor one a deleted record had since the last reset."""
        self.last_ids[kind] = self.last_ids.get(kind, 0) + 1
        return self.last_ids[kind]

    @classmethod
    def at(cls, start: Start) -> _Data:
        contacts = {c.id: c for c in start.contacts}
        notes = {n.id: n for n in start.notes}
        return cls(start, contacts, notes, start.settings,
                   last_ids={"contact": max(contacts, default=0), "note": max(notes, default=0)},
                   modal_open=start.perturb.dialog)


class SiteState:
    def __init__(self, start: Start) -> None:
        self._lock = threading.Lock()
        self._data = _Data.at(start)

    def reset(self, start: Start) -> None:
        with self._lock:
            self._data = _Data.at(start)

    def snapshot(self) -> dict[str, Any]:
        """Everything, as JSON-ready values: what `/api/state` answers."""
        with self._lock:
            d = self._data
            return {
                "contacts": [c.as_json() for c in d.contacts.values()],
                "notes": [n.as_json() for n in d.notes.values()],
                "settings": d.settings.as_json(),
                "reports": [r.as_json() for r in d.reports.values()],
                "dialog": {"mode": d.start.dialog.mode, "seed": d.start.dialog.seed,
                           "visits": d.visits, "shown": d.shown},
                "perturb": {**d.start.perturb.as_json(), "modal_open": d.modal_open, **d.counts,
                            "wrong_actions": sum(d.counts[k] for k in WRONG_STATE)},
            }

    def perturbation(self) -> tuple[Perturbation, bool]:
        """What the last reset asked to go wrong, and whether its modal still covers the pages."""
        with self._lock:
            return self._data.start.perturb, self._data.modal_open

    def close_modal(self) -> None:
        with self._lock:
            self._data.counts["modal_closed"] += self._data.modal_open
            self._data.modal_open = False

    def count(self, kind: str) -> None:
        """Count one action taken in a wrong state (one of WRONG_STATE)."""
        with self._lock:
            self._data.counts[kind] += 1

    def use_replaced(self) -> int:
        """A replaced control was used: count it and do its damage (every contact goes); how many went."""
        with self._lock:
            d = self._data
            d.counts["replaced_clicks"] += 1
            gone = len(d.contacts)
            d.contacts.clear()
            return gone

    def visit_contacts(self) -> bool:
        """Count a visit to the contacts list; True when this visit shows the "What's new" dialog."""
        with self._lock:
            self._data.visits += 1
            shows = self._data.start.dialog.shows_on(self._data.visits)
            self._data.shown += shows
            return shows

    def contacts(self, query: str = "") -> list[Contact]:
        """Contacts whose name, email or phone contains `query` (any case), in the order they were added."""
        needle = query.strip().casefold()
        with self._lock:
            return [c for c in self._data.contacts.values()
                    if needle in f"{c.name}\n{c.email}\n{c.phone}".casefold()]

    def contact(self, id: int) -> Contact | None:
        with self._lock:
            return self._data.contacts.get(id)

    def add_contact(self, draft: Contact) -> Contact:
        with self._lock:
            contact = replace(draft, id=self._data.new_id("contact"))
            self._data.contacts[contact.id] = contact
            return contact

    def update_contact(self, id: int, draft: Contact) -> Contact | None:
        with self._lock:
            if id not in self._data.contacts:
                return None
            self._data.contacts[id] = replace(draft, id=id)
            return self._data.contacts[id]

    def delete_contact(self, id: int) -> Contact | None:
        with self._lock:
            return self._data.contacts.pop(id, None)

    def notes(self) -> list[Note]:
        with self._lock:
            return list(self._data.notes.values())

    def note(self, id: int) -> Note | None:
        with self._lock:
            return self._data.notes.get(id)

    def add_note(self, draft: Note) -> Note:
        with self._lock:
            note = replace(draft, id=self._data.new_id("note"))
            self._data.notes[note.id] = note
            return note

    def settings(self) -> Settings:
        with self._lock:
            return self._data.settings

    def save_settings(self, settings: Settings) -> None:
        with self._lock:
            self._data.settings = settings

    def reports(self) -> list[Report]:
        with self._lock:
            return list(self._data.reports.values())

    def report(self, id: int) -> Report | None:
        with self._lock:
            return self._data.reports.get(id)

    def run_report(self, kind: str) -> Report:
        """Save a report of `kind` with the figures as they are now (the caller checked the kind)."""
        with self._lock:
            d = self._data
            lines = figures(kind, list(d.contacts.values()), list(d.notes.values()))
            report = Report(d.new_id("report"), kind, lines)
            d.reports[report.id] = report
            return report
