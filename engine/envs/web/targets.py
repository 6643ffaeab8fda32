"""Targets: how a tool call or a predicate names one element of a page, and finding it.

A target is exactly one of `{role, name?}`, `{text}`, `{label}`, `{placeholder}`, `{css}`,
`{xpath}` or `{x, y}` (viewport pixels). Only visible elements count, so a name shared by a
hidden template and the live control names the control.

Two ways of finding differ on purpose. A predicate (`probe`) looking for text may accept a loose
match: the page says "Saved" whether it reads "Saved" or "saved Ada." But an action (`exact`)
takes only an exact match: a role's accessible name or a text whole and in its case, a label's
own words whole (not the text of the control it wraps), a placeholder whole; a loose fallback
once landed an approved click on "Reply" on a sentence holding "reply". Which one of several
exact matches an action means is not guessed either: the caller refuses unless there is one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, TypeGuard

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


def is_target(target: Any) -> TypeGuard[dict[str, Any]]:
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


_LABELLED_AS = """
(elements, wanted) => {
  const squash = (text) => (text || '').replace(/\\s+/g, ' ').trim();
  const ownWords = (label, control) => {  // a label's words, not those of the control it wraps (a select's options)
    const words = [];
    const walker = document.createTreeWalker(label, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (!control.contains(node)) words.push(node.textContent);
    }
    return squash(words.join(' '));
  };
  return elements.map((element) => {
    const by = (element.getAttribute('aria-labelledby') || '').split(/\\s+/).filter(Boolean)
      .map((id) => document.getElementById(id)).filter(Boolean).map((node) => node.innerText ?? node.textContent);
    const names = [squash(element.getAttribute('aria-label')), squash(by.join(' '))];
    for (const label of element.labels || []) names.push(ownWords(label, element));
    return names.includes(wanted);
  });
}
"""


@dataclass(frozen=True)
class Matches:
    """The visible elements an action's target names exactly: how many, and the first (None when there are none)."""

    count: int
    first: Locator | None


async def exact(page: Page, target: dict) -> Matches:
    """The visible elements a (non-point) target names exactly, for an action (see the module's note)."""
    if "label" in target:
        wanted = _squash(target["label"])
        around = page.get_by_label(wanted).filter(visible=True)
        named = [index for index, same in enumerate(await around.evaluate_all(_LABELLED_AS, wanted)) if same]
        return Matches(len(named), around.nth(named[0]) if named else None)
    visible = candidates(page, target)[0].filter(visible=True)
    count = await visible.count()
    return Matches(count, visible.first if count else None)


async def loosely(page: Page, target: dict) -> int:
    """How many visible elements only a loose match of the target's name or text finds (another case, or within
    a longer text): said when an action refuses, so the refusal explains itself."""
    if not any(kind in target for kind in ("name", "text", "label", "placeholder")):
        return 0
    loose = await candidates(page, target)[-1].filter(visible=True).count()
    return max(0, loose - (await exact(page, target)).count)


def _squash(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()
