"""What each kind of report says about the records: a few lines of counts."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from engine.demo_site.model import CATEGORIES, Contact, Note


def figures(kind: str, contacts: Sequence[Contact], notes: Sequence[Note]) -> tuple[str, ...]:
    """The lines of a `kind` report (one of REPORT_KINDS) on these records."""
    if kind == "Notes by category":
        counts = Counter(n.category for n in notes)
        return tuple(f"{category}: {counts[category]}" for category in CATEGORIES)
    return (f"Contacts: {len(contacts)}",
            f"Favourites: {sum(c.favourite for c in contacts)}",
            f"Without a phone number: {sum(not c.phone for c in contacts)}")
