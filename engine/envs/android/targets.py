"""Targets: how a tool or predicate names one element of a phone screen.

A target is an object with exactly one key: `xpath` (evaluated on the dump), `text`,
`resource_id` (the full `package:id/name`, or just `name`) or `description` (the
content description), each matched exactly. The first match in document order is the
one acted on; a tool reports which node that was, and how many matched.
"""

from __future__ import annotations

from typing import Any

from engine.envs.android.hierarchy import Node, Screen
from engine.tools.registry import ToolError

KEYS = ("xpath", "text", "resource_id", "description")
SHAPE = "{xpath|text|resource_id|description: s}"


class TargetError(ToolError):
    """A target is malformed, or no element of the screen matches it; one line."""


def is_target(body: Any) -> bool:
    return (isinstance(body, dict) and len(body) == 1 and next(iter(body)) in KEYS
            and isinstance(next(iter(body.values())), str) and bool(next(iter(body.values()))))


def describe(target: Any) -> str:
    """A target in words, for messages and summaries: `text "Wi‑Fi"`."""
    if not is_target(target):
        return repr(target)[:80]
    (key, value), = target.items()
    return f"{key.replace('_', '-')} {value!r:.80}"


def matches(screen: Screen, target: dict[str, str]) -> list[Node]:
    """Every node the target names, in document order."""
    if not is_target(target):
        raise TargetError(f"a target is {SHAPE}, got {target!r:.80}")
    (key, value), = target.items()
    if key == "xpath":
        return _by_xpath(screen, value)
    if key == "text":
        return [node for node in screen.nodes if node.text == value]
    if key == "description":
        return [node for node in screen.nodes if node.description == value]
    return [node for node in screen.nodes
            if node.resource_id == value or ("/" not in value and node.resource_id.endswith(f":id/{value}"))]


def resolve(screen: Screen, target: dict[str, str]) -> tuple[Node, int]:
    """The node a tool acts on (the first match) and how many matched; one line when none can be."""
    found = matches(screen, target)
    if not found:
        raise TargetError(f"no element matches {describe(target)} on this screen")
    node = found[0]
    if not node.has_area:
        raise TargetError(f"the element matching {describe(target)} has no area on screen (bounds {node.bounds})")
    return node, len(found)


def _by_xpath(screen: Screen, path: str) -> list[Node]:
    """Elements an XPath selects; lxml's full XPath 1.0, else ElementTree's subset."""
    root = screen.root
    if hasattr(root, "xpath"):
        from lxml import etree

        try:
            selected = root.xpath(path)
        except etree.XPathError as exc:
            raise TargetError(f"not a usable xpath {path!r:.80}: {exc}") from None
    else:
        try:
            selected = root.findall("." + path if path.startswith("//") else path)
        except (SyntaxError, KeyError, TypeError) as exc:
            raise TargetError(f"not a usable xpath {path!r:.80}: {exc}") from None
    if not isinstance(selected, list):
        raise TargetError(f"xpath {path!r:.80} must select elements, not compute a value")
    nodes = [screen.node_of(element) for element in selected]
    if any(node is None for node in nodes):
        raise TargetError(f"xpath {path!r:.80} must select node elements, not attributes, text or the root")
    return [node for node in nodes if node is not None]
