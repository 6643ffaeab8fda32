"""The records a fresh demo site starts with, so every task family has someone to act on."""

from __future__ import annotations

from engine.demo_site.model import Contact, Note

CONTACTS: tuple[Contact, ...] = (
    Contact(1, "Grace Hopper", "grace@example.org", "555-0101", False),
    Contact(2, "Alan Turing", "alan@example.org", "555-0102", False),
    Contact(3, "Katherine Johnson", "katherine@example.org", "555-0103", True),
    Contact(4, "Edsger Dijkstra", "edsger@example.org", "", False),
)

NOTES: tuple[Note, ...] = (
    Note(1, "Welcome", "This is the demo notebook. Notes have a title, a body and a category.", "General"),
    Note(2, "Quarterly planning", "Draft the roadmap and book the meeting room.", "Work"),
)
