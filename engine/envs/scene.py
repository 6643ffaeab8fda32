"""Where a screen action would act: the page it is on and the element it names, as a person approving it sees it.

An approval covers a call's arguments, but `browser.click {"text": "Reply"}` means one thing in an
opened email and another on a fresh inbox. So an environment with a screen says, before the call
runs, where it would act (`Scene`): the page (its URL) and the element its target resolves to, by
role and accessible name. The approval is given on that scene and keeps it; before the approved call
runs the scene is taken again, and a different one is a different question, asked afresh.

An environment that cannot tell (a workspace, whose calls name their own paths) has no scene.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from engine.errors import WardenError, one_line
from engine.tools.call import ToolCall


@dataclass(frozen=True)
class Element:
    """An element as a program and a person name it: its role, its accessible name, and a selector for it alone."""

    role: str
    name: str
    selector: str = ""

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> "Element":
        return cls(str(obj.get("role", "")), str(obj.get("name", "")), str(obj.get("selector", "")))

    def as_json(self) -> dict[str, str]:
        return {"role": self.role, "name": self.name, "selector": self.selector}

    def same(self, other: "Element | Mapping[str, Any] | None") -> bool:
        """The same element to a person: the same role and accessible name (a selector may be rebuilt)."""
        if other is None:
            return False
        other = other if isinstance(other, Element) else Element.from_json(other)
        return (self.role, self.name) == (other.role, other.name)

    def __str__(self) -> str:
        return f'{self.role} "{self.name}"' if self.name else self.role


@dataclass(frozen=True)
class Scene:
    """The page a call would act on (`url`) and the element it would act on (None when the call names none,
    or when none matches: then `problem` says why)."""

    url: str
    element: Element | None = None
    problem: str = ""

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> "Scene":
        element = obj.get("element")
        return cls(str(obj.get("url", "")), Element.from_json(element) if isinstance(element, Mapping) else None,
                   str(obj.get("problem", "")))

    def as_json(self) -> dict[str, Any]:
        return {"url": self.url, "element": self.element.as_json() if self.element else None,
                "problem": self.problem}

    def phrase(self) -> str:
        """Where the call acts, in words: `acts on button "Reply" at http://…/mail/3`."""
        if self.element is not None:
            return f"acts on {self.element} at {self.url}"
        if self.problem:
            return f"acts on nothing at {self.url} now: {self.problem}"
        return f"acts on the page at {self.url}"

    def change_from(self, given: "Scene") -> str | None:
        """What differs from the scene an approval was `given` on, in words, or None when it is the same."""
        if self.url != given.url:
            return f"it was given on {given.url}, and the page is now {self.url or 'not open'}"
        if given.element is None and self.element is None:
            return None
        if given.element is None or not given.element.same(self.element):
            was = str(given.element) if given.element else "nothing"
            now = str(self.element) if self.element else f"nothing ({self.problem})" if self.problem else "nothing"
            return f"it was given for {was}, and the call would now act on {now}"
        return None


@runtime_checkable
class ShowsScenes(Protocol):
    async def scene(self, call: ToolCall) -> Scene | None: ...


async def scene_of(env: object, call: ToolCall) -> Scene | None:
    """Where `call` would act in `env` now; None when `env` has no screen or the call acts on none of it.
    A screen that cannot be looked at is a scene too (with its problem), never an unbound approval."""
    if not isinstance(env, ShowsScenes):
        return None
    try:
        return await env.scene(call)
    except WardenError as exc:
        return Scene("", None, f"the screen could not be looked at: {one_line(exc)}")
