"""Answers to the web forms (`forms.py`) on a live page, quickly: no check waits for an element to appear.

A target that names nothing makes a check false, never an error, and so does one behind an open
modal dialog (it is on the page, but no click reaches it); a target's name or text must
match whole (case-sensitive) for `exists`, `text` and `value`, so a check never passes on a
look-alike control, while `absent` is false while a look-alike is shown; text is compared with
runs of whitespace squashed to one space (a page's rendered text breaks lines where the
HTML did not), a field's value exactly as it is.
"""

from __future__ import annotations

from typing import Any

from playwright.async_api import Locator, Page

from engine.envs.web import targets
from engine.envs.web.elements import element
from engine.envs.web.identity import identify
from engine.errors import WardenError

QUICK_MS = 1000

_VALUES = """
(element) => {
  if (element instanceof HTMLSelectElement) {
    return [element.value, ...Array.from(element.selectedOptions, (option) => option.label)];
  }
  if (element instanceof HTMLInputElement || element instanceof HTMLTextAreaElement) return [element.value];
  return [];
}
"""

_PAGE_TEXT = "() => document.body ? document.body.innerText : ''"

_REACHABLE = """
(element) => Array.from(document.querySelectorAll('dialog:modal, [aria-modal="true"]')).every((modal) => {
  const box = modal.getBoundingClientRect();
  const style = getComputedStyle(modal);
  const shown = box.width > 0 && box.height > 0 && style.display !== 'none' && style.visibility !== 'hidden';
  return !shown || modal.contains(element);
})
"""


_COVERING = """
(element) => {
  const shown = (modal) => {
    const box = modal.getBoundingClientRect();
    const style = getComputedStyle(modal);
    return box.width > 0 && box.height > 0 && style.display !== 'none' && style.visibility !== 'hidden';
  };
  const modal = Array.from(document.querySelectorAll('dialog:modal, [aria-modal="true"]'))
    .find((modal) => shown(modal) && !modal.contains(element));
  if (!modal) return null;
  const named = modal.getAttribute('aria-label') || (modal.getAttribute('aria-labelledby') || '').split(/\\s+/)
    .map((id) => document.getElementById(id)).filter(Boolean).map((label) => label.innerText).join(' ');
  return (named || modal.innerText || '').trim();
}
"""


def _squash(text: str) -> str:
    return " ".join(text.split())


def _compare(actual: str, body: dict, squash: bool) -> bool:
    if squash:
        actual = _squash(actual)
    if "equals" in body:
        return actual == (_squash(body["equals"]) if squash else body["equals"])
    return (_squash(body["contains"]) if squash else body["contains"]) in actual


async def check(page: Page, form: str, body: Any) -> bool:
    if form == "exists":
        found = await element(page, body, exact=True)
        if found is None:
            return False
        return bool(await (found.evaluate(_REACHABLE, timeout=QUICK_MS) if isinstance(found, Locator)
                           else found.evaluate(_REACHABLE)))
    if form == "absent":
        return await targets.probe(page, body) is None  # loose: a look-alike still counts as present
    if form in ("url", "title"):
        actual = page.url if form == "url" else await page.title()
        return _compare(actual, {"contains": body} if isinstance(body, str) else body, squash=False)
    if form == "text":
        return await _text(page, {"contains": body} if isinstance(body, str) else body)
    if form == "value":
        found = await element(page, body["target"], exact=True)
        if found is None:
            return False
        values = await (found.evaluate(_VALUES, timeout=QUICK_MS) if isinstance(found, Locator)
                        else found.evaluate(_VALUES))
        return any(_compare(value, body, squash=False) for value in values)
    raise WardenError(f"a web page cannot check {form!r}")


async def _text(page: Page, body: dict) -> bool:
    if "target" not in body:
        return _compare(await page.evaluate(_PAGE_TEXT), body, squash=True)
    found = await element(page, body["target"], exact=True)
    if found is None:
        return False
    text = await (found.inner_text(timeout=QUICK_MS) if isinstance(found, Locator) else found.inner_text())
    return _compare(text, body, squash=True)


async def seen(page: Page, form: str, body: Any) -> str:
    """What the page shows where a leaf looked: the URL or title, the target's value or text, that it is missing,
    or the open dialog that keeps it out of reach."""
    if form in ("url", "title"):
        return page.url if form == "url" else await page.title()
    target = body.get("target") if isinstance(body, dict) and form in ("text", "value") else body
    if form == "text" and not isinstance(target, dict):
        return _squash(await page.evaluate(_PAGE_TEXT))[:200]
    found = await element(page, target, exact=True) if isinstance(target, dict) else None
    if found is None:
        loose = await element(page, target) if isinstance(target, dict) and not targets.is_point(target) else None
        if loose is None:
            return "nothing like it on the page"
        return f"only a look-alike: {await _name(loose)}"
    if form == "value":
        values = await (found.evaluate(_VALUES, timeout=QUICK_MS) if isinstance(found, Locator) else found.evaluate(_VALUES))
        return " / ".join(values)
    if form == "absent":
        return "still shown"
    if form == "exists":  # found, so it failed because an open modal dialog keeps every click from it
        covering = await (found.evaluate(_COVERING, timeout=QUICK_MS) if isinstance(found, Locator)
                          else found.evaluate(_COVERING))
        if covering is not None:
            return f'behind an open dialog: dialog "{_squash(str(covering))[:80]}"'
    text = await (found.inner_text(timeout=QUICK_MS) if isinstance(found, Locator) else found.inner_text())
    return _squash(text)[:200]


async def _name(found: Any) -> str:
    who = await identify(found)
    return f'{who["role"]} "{who["name"]}"'
