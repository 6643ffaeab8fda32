"""Targets: how a tool call or a predicate names one element of a page, and finding it.

A target is exactly one of `{role, name?}`, `{text}`, `{label}`, `{placeholder}`, `{css}`,
`{xpath}` or `{x, y}` (viewport pixels). Finding prefers an exact accessible-name or text
match to a loose one, and a visible element to a hidden one, so a name shared by a hidden
template and the live control acts on the control.
"""

from __future__ import annotations

from typing import Any

from playwright.async_api import Locator, Page

TARGET_SHAPE = "one of {role, name?}, {text}, {label}, {placeholder}, {css}, {xpath}, {x, y}"
NAMED_KINDS = ("text", "label", "placeholder", "css", "xpath")


def target_problem(target: Any) -> str | None:
    """Why a value is not a target (one line naming it), or None when it is one."""
    if isinstance(target, dict):
        keys = set(target)
        if keys == {"x", "y"} and all(type(target[k]) is int and target[k] >= 0 for k in keys):
            return None
        if "role" in keys and keys <= {"role", "name"} and all(isinstance(v, str) and v for v in target.values()):
            return None
        if len(keys) == 1:
            (kind, value), = target.items()
            if kind in NAMED_KINDS and isinstance(value, str) and value:
                return None
    return f"not a target: {target!r:.120}; a target is {TARGET_SHAPE}"


def is_target(target: Any) -> bool:
    return target_problem(target) is None


def is_point(target: dict) -> bool:
    return "x" in target


def describe(target: Any) -> str:
    """A target as a person reads it: `button "Save"`, `text "Done"`, `at (120, 340)`."""
    if not is_target(target):
        return f"{target!r:.60}"
    if is_point(target):
        return f"at ({target['x']}, {target['y']})"
    if "role" in target:
        return f'{target["role"]} "{target["name"]}"' if "name" in target else target["role"]
    (kind, value), = target.items()
    return f'{kind} "{value}"'


def candidates(page: Page, target: dict) -> list[Locator]:
    """Locators for a (non-point) target, most exact first."""
    if "role" in target:
        role: Any = target["role"]
        if "name" not in target:
            return [page.get_by_role(role)]
        return [page.get_by_role(role, name=target["name"], exact=True), page.get_by_role(role, name=target["name"])]
    (kind, value), = target.items()
    if kind == "css":
        return [page.locator(f"css={value}")]
    if kind == "xpath":
        return [page.locator(f"xpath={value}")]
    by = {"text": page.get_by_text, "label": page.get_by_label, "placeholder": page.get_by_placeholder}[kind]
    return [by(value, exact=True), by(value)]


async def probe(page: Page, target: dict, exact: bool = False) -> Locator | None:
    """The element a target names right now, without waiting: the first visible match of the most exact locator.

    With `exact`, a role's name or a text must match whole: a program's check of `button "Save"`
    must not be satisfied by a "Save and delete all" button that a loose match would accept.
    (A label stays loose: a `<label>` wrapping its control also holds the control's text.)
    """
    found = candidates(page, target)
    if exact and ("name" in target or "text" in target):
        found = found[:1]
    for locator in found:
        visible = locator.filter(visible=True)
        if await visible.count():
            return visible.first
    return None
