"""Turning submitted values (a form's fields or a reset's JSON) into records, or saying why not.

One set of rules serves both the pages and `/api/reset`, so a state an evaluator can
set up is always one a person could have reached through the forms.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from engine.demo_site.model import CATEGORIES, THEMES, Contact, Note, Settings

MAX_TEXT = 200
MAX_BODY = 5000
_EMAIL = re.compile(r"[^@\s]+@[^@\s]+\.[^@\s]+")
_PHONE = re.compile(r"[0-9+()\- .]*")


class Invalid(ValueError):
    """Submitted values that cannot become a record; the message says which and why, for a person."""


def contact_from(values: Mapping[str, Any], id: int = 0) -> Contact:
    """A contact from `name`, `email`, `phone` and `favourite`; only the name is required."""
    _only(values, {"id", "name", "email", "phone", "favourite"}, "contact")
    name = _text(values, "name", "Name", required=True)
    email = _text(values, "email", "Email")
    phone = _text(values, "phone", "Phone")
    if email and not _EMAIL.fullmatch(email):
        raise Invalid(f"Email must look like name@example.org, not {email!r}.")
    if not _PHONE.fullmatch(phone):
        raise Invalid(f"Phone may hold only digits, spaces and + - ( ) ., not {phone!r}.")
    return Contact(id, name, email, phone, _flag(values, "favourite", "Favourite"))


def note_from(values: Mapping[str, Any], id: int = 0) -> Note:
    """A note from `title`, `body` and `category`; the title is required, the category one of CATEGORIES."""
    _only(values, {"id", "title", "body", "category"}, "note")
    title = _text(values, "title", "Title", required=True)
    body = _text(values, "body", "Body", limit=MAX_BODY)
    category = _text(values, "category", "Category") or CATEGORIES[0]
    if category not in CATEGORIES:
        raise Invalid(f"Category must be one of {', '.join(CATEGORIES)}, not {category!r}.")
    return Note(id, title, body, category)


def settings_from(values: Mapping[str, Any]) -> Settings:
    """Settings from `display_name`, `theme` and `newsletter`; a field left out takes its default."""
    base = Settings()
    _only(values, {"display_name", "theme", "newsletter"}, "settings")
    name = _text(values, "display_name", "Display name", required=True) if "display_name" in values else base.display_name
    theme = _text(values, "theme", "Theme") if "theme" in values else base.theme
    if theme not in THEMES:
        raise Invalid(f"Theme must be one of {', '.join(THEMES)}, not {theme!r}.")
    newsletter = _flag(values, "newsletter", "Newsletter") if "newsletter" in values else base.newsletter
    return Settings(name, theme, newsletter)


def _only(values: Mapping[str, Any], known: set[str], what: str) -> None:
    unknown = sorted(set(values) - known)
    if unknown:
        raise Invalid(f"A {what} has no field {', '.join(map(repr, unknown))}.")


def _text(values: Mapping[str, Any], key: str, label: str, *, required: bool = False, limit: int = MAX_TEXT) -> str:
    value = values.get(key, "")
    if not isinstance(value, str):
        raise Invalid(f"{label} must be text.")
    value = value.strip()
    if required and not value:
        raise Invalid(f"{label} is required.")
    if len(value) > limit:
        raise Invalid(f"{label} is longer than {limit} characters.")
    return value


def _flag(values: Mapping[str, Any], key: str, label: str) -> bool:
    value = values.get(key, False)
    if not isinstance(value, bool):
        raise Invalid(f"{label} must be true or false.")
    return value
