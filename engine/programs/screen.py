"""What a step's trace says about the screen, as predicates a program can check again.

A trace (kept per agent step) holds what the screen showed before the action, the element
the action touched (role, accessible name, selector) and what the screen showed after.
From it the compiler takes three things: a target that names the touched element the way a
person would (so a pixel click replays as a click on `link "New contact"`), stable facts
about the page (its URL path without record ids, the foreground app), and what changed at
the end. Facts that would differ between two tasks of one family (ports, record numbers)
are left out: a check must hold on the next task, not only on this one.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from engine.programs.predicates import PredicateError, conjoin, validate

# Roles whose accessible name a check can match again (from content or a label); a `status` or a
# `paragraph` is named by nothing a role query sees, so an element of such a role is left to its own target.
NAMED_ROLES = frozenset({
    "button", "link", "checkbox", "radio", "switch", "tab", "menuitem", "menuitemcheckbox", "menuitemradio",
    "option", "treeitem", "heading", "textbox", "searchbox", "combobox", "listbox", "spinbutton", "slider",
    "cell", "gridcell", "columnheader", "rowheader", "row", "img",
})
_WORD = r"(?<![\w@.-]){}(?![\w@-])"


def element_target(identity: dict | None) -> dict | None:
    """A target naming the touched element by role and name, or None when it has no usable name."""
    if not isinstance(identity, dict):
        return None
    role, name = identity.get("role"), identity.get("name")
    if role in NAMED_ROLES and isinstance(name, str) and name.strip():
        return {"role": role, "name": name.strip()}
    return None


def page_facts(seen: dict | None, kind: str) -> dict | None:
    """Facts of a screen that hold for every task of the family: on the web the URL's path up to
    its first segment with a digit (no origin, no query); on a phone the foreground app."""
    if not isinstance(seen, dict):
        return None
    url = seen.get("url")
    if kind == "web" and isinstance(url, str) and url.startswith(("http://", "https://")):
        kept = []
        for segment in urlsplit(url).path.split("/")[1:]:
            if not segment or re.search(r"\d", segment):
                break
            kept.append(segment)
        return {"url": {"contains": "/" + "/".join(kept)}} if kept else None
    package = seen.get("package")
    if kind == "android" and isinstance(package, str) and package:
        return {"package": package}
    return None


def changed(before: dict | None, after: dict | None, params: dict[str, str], kind: str) -> list[dict]:
    """What the last action made appear that names a parameter: `{"text": "{name}"}` for each value
    shown after it and not before (a saved record's name in its heading), where the kind reads text so."""
    if not isinstance(after, dict) or not speaks({"text": "x"}, kind):
        return []
    shown_before = before.get("text", "") if isinstance(before, dict) else ""
    shown_after = after.get("text", "")
    found = []
    for name, value in params.items():
        pattern = _WORD.format(re.escape(value))
        if re.search(pattern, shown_after) and not re.search(pattern, shown_before or ""):
            found.append({"text": "{" + name + "}"})
    return found


def screen_check(kind: str, seen: dict | None, target: dict | None, needs: dict | None) -> dict:
    """A state's check before an action: the page facts, and the element it acts on, by role and name."""
    acted_on = {"exists": target} if target else None
    return conjoin(page_facts(seen, kind), acted_on if acted_on and speaks(acted_on, kind) else None, needs)


def speaks(predicate: dict, kind: str) -> bool:
    """Whether an environment of this kind reads the predicate (a trace's fact in another kind's words is dropped)."""
    try:
        validate(predicate, kind)
    except PredicateError:
        return False
    return True
