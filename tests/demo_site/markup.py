"""What an agent would find on a page: headings, links, buttons, labelled controls and dialogs, read with html.parser."""

from __future__ import annotations

from dataclasses import dataclass, field
from html.parser import HTMLParser

CONTROLS = ("input", "select", "textarea")


@dataclass
class Page:
    headings: list[str] = field(default_factory=list)
    links: dict[str, str] = field(default_factory=dict)
    buttons: list[str] = field(default_factory=list)
    labels: dict[str, str] = field(default_factory=dict)
    controls: dict[str, dict[str, str | None]] = field(default_factory=dict)
    options: dict[str, list[str]] = field(default_factory=dict)
    dialogs: list[str] = field(default_factory=list)
    status: list[str] = field(default_factory=list)
    alerts: list[str] = field(default_factory=list)

    def control(self, label: str) -> dict[str, str | None]:
        """The control a `<label for>` with this text points at (fails when none does)."""
        ids = [for_ for for_, text in self.labels.items() if text == label]
        assert ids, f"no label {label!r} among {sorted(self.labels.values())}"
        assert ids[0] in self.controls, f"label {label!r} points at no control"
        return self.controls[ids[0]]


class _Reader(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.page = Page()
        self._open: list[tuple[str, dict[str, str | None], list[str]]] = []
        self._select = ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if tag in CONTROLS and found.get("id"):
            self.page.controls[str(found["id"])] = {"tag": tag, **found}
        if tag == "select":
            self._select = str(found.get("id"))
            self.page.options[self._select] = []
        if tag == "option":
            self.page.options[self._select].append(str(found.get("value")))
        if tag == "dialog":
            self.page.dialogs.append(str(found.get("aria-labelledby")))
        if tag in ("h1", "h2", "a", "button", "label", "p"):
            self._open.append((tag, found, []))

    def handle_data(self, data: str) -> None:
        for _, _, text in self._open:
            text.append(data)

    def handle_endtag(self, tag: str) -> None:
        if not self._open or self._open[-1][0] != tag:
            return
        _, found, parts = self._open.pop()
        text = " ".join("".join(parts).split())
        if tag in ("h1", "h2"):
            self.page.headings.append(text)
        elif tag == "a":
            self.page.links[text] = str(found.get("href"))
        elif tag == "button":
            self.page.buttons.append(text)
        elif tag == "label":
            self.page.labels[str(found.get("for"))] = text
        elif found.get("role") == "status":
            self.page.status.append(text)
        elif found.get("role") == "alert":
            self.page.alerts.append(text)


def read(html: str) -> Page:
    reader = _Reader()
    reader.feed(html)
    return reader.page
