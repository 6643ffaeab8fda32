"""Reading the body of `POST /api/reset` into the start state it asks for.

Every field is optional: left out, contacts and notes are the seeded ones, settings
are the defaults, the dialog shows `sometimes`, the seed is a fresh random one
(so unforced runs vary while `state()["dialog"]["seed"]` still says how to repeat one),
and nothing is perturbed (`perturbation.py`).
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any, TypeVar

from engine.demo_site.dialog import MODES, DialogSchedule
from engine.demo_site.perturbation import perturbation_from
from engine.demo_site.state import Start
from engine.demo_site.validate import Invalid, contact_from, note_from, settings_from

FIELDS = {"seed", "dialog", "contacts", "notes", "settings", "perturb"}
R = TypeVar("R")


def fresh_seed() -> int:
    return random.SystemRandom().randrange(2**31)


def start_from(body: bytes) -> Start:
    """The start a reset body asks for; an empty body means all defaults. Raises Invalid saying what is wrong."""
    try:
        asked = json.loads(body.decode("utf-8")) if body.strip() else {}
    except (UnicodeDecodeError, ValueError) as exc:
        raise Invalid(f"The reset body is not JSON: {exc}") from None
    if not isinstance(asked, dict):
        raise Invalid("The reset body must be a JSON object, e.g. {\"dialog\": \"never\"}.")
    unknown = sorted(set(asked) - FIELDS)
    if unknown:
        raise Invalid(f"Reset takes only {', '.join(sorted(FIELDS))}; not {', '.join(unknown)}.")
    seed = asked.get("seed", fresh_seed())
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise Invalid("seed must be a whole number.")
    mode = asked.get("dialog", "sometimes")
    if mode not in MODES:
        raise Invalid(f"dialog must be one of {', '.join(MODES)}.")
    start = Start(DialogSchedule(mode, seed))
    if "contacts" in asked:
        start = replace(start, contacts=_records(asked["contacts"], "contacts", contact_from))
    if "notes" in asked:
        start = replace(start, notes=_records(asked["notes"], "notes", note_from))
    if "settings" in asked:
        if not isinstance(asked["settings"], dict):
            raise Invalid("settings must be an object.")
        start = replace(start, settings=settings_from(asked["settings"]))
    if "perturb" in asked:
        start = replace(start, perturb=perturbation_from(asked["perturb"]))
    return start


def _records(items: Any, what: str, make: Callable[..., R]) -> tuple[R, ...]:
    """Records numbered from 1 in the order given, unless an item names its own (unique, positive) id."""
    if not isinstance(items, list) or not all(isinstance(item, dict) for item in items):
        raise Invalid(f"{what} must be a list of objects.")
    ids = _ids(items, what)
    return tuple(make(item, id) for item, id in zip(items, ids, strict=True))


def _ids(items: Sequence[dict], what: str) -> list[int]:
    asked = [item.get("id") for item in items]
    if any(id is not None and (not isinstance(id, int) or isinstance(id, bool) or id < 1) for id in asked):
        raise Invalid(f"An id in {what} must be a positive whole number.")
    taken = [id for id in asked if id is not None]
    if len(taken) != len(set(taken)):
        raise Invalid(f"Two {what} have the same id.")
    free = (n for n in range(1, len(items) + len(taken) + 1) if n not in taken)
    return [id if id is not None else next(free) for id in asked]
