"""A phone screen from its UI hierarchy dump: the nodes that matter, as lines a model can read.

The dump is XML the device sends (`uiautomator2.Device.dump_hierarchy`): untrusted text.
A document type is refused outright, so no entity can be declared, expanded or fetched,
before any parser sees it. lxml parses it when installed (uiautomator2 itself needs
lxml), so targets get full XPath; ElementTree's limited paths are the fallback.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from engine.errors import WardenError

MAX_LINES = 400
_DOCTYPE = re.compile(rb"<!DOCTYPE|<!ENTITY", re.IGNORECASE)
_BOUNDS = re.compile(r"\[(-?\d+),(-?\d+)\]\[(-?\d+),(-?\d+)\]")
FLAGS = ("clickable", "long-clickable", "checkable", "checked", "enabled", "focused", "selected", "scrollable",
         "password")


class HierarchyError(WardenError):
    """The device's hierarchy dump cannot be read; the message is one line."""


@dataclass(frozen=True)
class Node:
    """One element of the dump; `index` is its position in document order among all elements."""

    index: int
    cls: str
    text: str
    resource_id: str
    description: str
    hint: str
    package: str
    flags: frozenset[str]
    bounds: tuple[int, int, int, int]

    @property
    def short_class(self) -> str:
        return self.cls.rsplit(".", 1)[-1]

    @property
    def centre(self) -> tuple[int, int]:
        left, top, right, bottom = self.bounds
        return (left + right) // 2, (top + bottom) // 2

    @property
    def has_area(self) -> bool:
        left, top, right, bottom = self.bounds
        return right > left and bottom > top

    @property
    def meaningful(self) -> bool:
        """Whether a person would name it: it says something, has an id, or can be acted on."""
        return bool(self.text or self.description or self.resource_id or self.hint
                    or self.flags & {"clickable", "long-clickable", "checkable", "scrollable"})

    def as_dict(self) -> dict[str, Any]:
        return {"index": self.index, "class": self.cls, "text": self.text, "resource_id": self.resource_id,
                "description": self.description, "hint": self.hint, "package": self.package,
                **{flag.replace("-", "_"): flag in self.flags for flag in FLAGS}, "bounds": list(self.bounds)}

    def line(self) -> str:
        """`Button "Sign in" id=com.app:id/sign_in clickable [96,1210][984,1342]`: what it is, says and allows."""
        parts = [self.short_class or "node"]
        if self.text:
            parts.append(_quoted(self.text))
        if self.resource_id:
            parts.append(f"id={self.resource_id}")
        if self.description:
            parts.append(f"desc={_quoted(self.description)}")
        if self.hint and self.hint != self.text:
            parts.append(f"hint={_quoted(self.hint)}")
        parts.extend(_flag_words(self.flags))
        left, top, right, bottom = self.bounds
        parts.append(f"[{left},{top}][{right},{bottom}]")
        return " ".join(parts)


def _quoted(text: str) -> str:
    return '"' + " ".join(text.split()).replace('"', '\\"') + '"'


def _flag_words(flags: frozenset[str]) -> list[str]:
    words: list[str] = [flag for flag in ("clickable", "long-clickable", "scrollable", "focused", "selected", "password")
             if flag in flags]
    if "checkable" in flags:
        words.append("checked" if "checked" in flags else "unchecked")
    if "enabled" not in flags:
        words.append("disabled")
    return words


@dataclass(frozen=True)
class Screen:
    """A parsed dump: every element in document order, its nodes, and the root for XPath."""

    root: Any
    elements: tuple[Any, ...]
    nodes: tuple[Node, ...]
    positions: dict[int, int] = field(default_factory=dict, compare=False, repr=False)

    def node_of(self, element: Any) -> Node | None:
        """The node an element (from an XPath result) is; None for anything that is not one of ours.

        Elements are known by identity: the screen holds every one, so lxml hands back the
        same element objects from an XPath query rather than new ones.
        """
        position = self.positions.get(id(element))
        if position is None or self.elements[position] is not element:
            return None
        return self.nodes[position]

    @property
    def package(self) -> str:
        """The package of the first element that names one (the foreground app's, in a full dump)."""
        return next((node.package for node in self.nodes if node.package), "")

    def meaningful(self) -> list[Node]:
        return [node for node in self.nodes if node.meaningful]

    def text(self, limit: int = MAX_LINES) -> str:
        """One line per meaningful node, at most `limit`, then how many were left out."""
        shown = self.meaningful()
        lines = [node.line() for node in shown[:limit]]
        if len(shown) > limit:
            lines.append(f"… and {len(shown) - limit} more elements")
        return "\n".join(lines)


def parse(dump: str | bytes) -> Screen:
    """The screen a dump describes; a dump with a document type, or not XML, is a one-line error."""
    data = dump.encode("utf-8") if isinstance(dump, str) else dump
    if _DOCTYPE.search(data):
        raise HierarchyError("the device's hierarchy dump declares a document type; refusing to parse it")
    root = _parse_xml(data)
    elements = tuple(element for element in root.iter() if element.tag == "node")
    nodes = tuple(_node(number, element) for number, element in enumerate(elements))
    return Screen(root, elements, nodes, {id(element): number for number, element in enumerate(elements)})


def _parse_xml(data: bytes) -> Any:
    try:
        from lxml import etree
    except ImportError:
        import xml.etree.ElementTree as plain

        try:
            return plain.fromstring(data)
        except plain.ParseError as exc:
            raise HierarchyError(f"the device's hierarchy dump is not XML: {exc}") from None
    parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False, huge_tree=False)
    try:
        return etree.fromstring(data, parser)
    except etree.XMLSyntaxError as exc:
        raise HierarchyError(f"the device's hierarchy dump is not XML: {exc}") from None


def _node(index: int, element: Any) -> Node:
    get = element.get
    return Node(index, get("class", ""), get("text", ""), get("resource-id", ""), get("content-desc", ""),
                get("hint", ""), get("package", ""), frozenset(f for f in FLAGS if get(f) == "true"),
                _bounds(get("bounds", "")))


def _bounds(text: str) -> tuple[int, int, int, int]:
    found = _BOUNDS.fullmatch(text.strip())
    if found is None:
        return (0, 0, 0, 0)
    left, top, right, bottom = (int(number) for number in found.groups())
    return left, top, right, bottom


def words(nodes: Iterable[Node]) -> list[str]:
    """Everything the nodes say on screen: their texts and content descriptions."""
    return [said for node in nodes for said in (node.text, node.description) if said]
