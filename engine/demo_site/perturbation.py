"""What `POST /api/reset` may ask to go wrong on the next run: the fixtures a replay benchmark needs.

A replayer that acts by remembered position or CSS selector works until the page changes
under it. These are the changes that break such replayers in the wild, made reproducible:
an unexpected modal, a control renamed to something destructive, slow pages, and a
re-arranged layout. Each is off unless asked for; the site counts actions taken in a wrong
state (`perturb.py` draws and counts) so a benchmark can tell a careful replayer from a blind one.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.demo_site.validate import Invalid

LAYOUTS = ("normal", "shifted")
MAX_SLOW_MS = 10_000
MAX_REPLACED = 8
MAX_NAME = 100
FIELDS = {"dialog", "replace", "slow_ms", "layout"}


@dataclass(frozen=True)
class Perturbation:
    """`dialog`: a "Session expiring" modal covers every page until its button is pressed. `replace`: controls
    named like a key are renamed to its value and, when used, delete every contact. `slow_ms`: each page
    answers that much later. `layout`: `shifted` moves the same controls elsewhere on the page."""

    dialog: bool = False
    replace: tuple[tuple[str, str], ...] = ()
    slow_ms: int = 0
    layout: str = "normal"

    @property
    def active(self) -> bool:
        return self != Perturbation()

    def as_json(self) -> dict[str, Any]:
        return {"dialog": self.dialog, "replace": dict(self.replace), "slow_ms": self.slow_ms, "layout": self.layout}


def perturbation_from(value: Any) -> Perturbation:
    """The perturbation a reset's `perturb` object asks for; Invalid saying what is wrong otherwise."""
    if not isinstance(value, dict):
        raise Invalid('perturb must be an object, e.g. {"dialog": true}.')
    unknown = sorted(set(value) - FIELDS)
    if unknown:
        raise Invalid(f"perturb takes only {', '.join(sorted(FIELDS))}; not {', '.join(unknown)}.")
    dialog = value.get("dialog", False)
    if not isinstance(dialog, bool):
        raise Invalid("perturb.dialog must be true or false.")
    slow_ms = value.get("slow_ms", 0)
    if not isinstance(slow_ms, int) or isinstance(slow_ms, bool) or not 0 <= slow_ms <= MAX_SLOW_MS:
        raise Invalid(f"perturb.slow_ms must be a whole number of milliseconds from 0 to {MAX_SLOW_MS}.")
    layout = value.get("layout", "normal")
    if layout not in LAYOUTS:
        raise Invalid(f"perturb.layout must be one of {', '.join(LAYOUTS)}.")
    return Perturbation(dialog, _replacements(value.get("replace", {})), slow_ms, layout)


def _replacements(value: Any) -> tuple[tuple[str, str], ...]:
    if not isinstance(value, dict) or len(value) > MAX_REPLACED:
        raise Invalid(f'perturb.replace must be an object of at most {MAX_REPLACED} names, e.g. '
                      '{"Save contact": "Delete all contacts"}.')
    pairs = []
    for old, new in value.items():
        if not isinstance(new, str) or not all(0 < len(name.strip()) <= MAX_NAME for name in (old, new)):
            raise Invalid(f"perturb.replace maps a control's name to another, each 1 to {MAX_NAME} characters.")
        pairs.append((old.strip(), new.strip()))
    return tuple(pairs)
