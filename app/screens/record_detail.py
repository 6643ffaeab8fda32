"""What every detail screen shares: a title line, a scrollable body filled by a worker, and the ways
records are drawn there (a call in full, a diff, labelled lines). Every word of a record is drawn through
`engine.visible.visible` (`widgets.record_text.shown`), so it shows exactly what the record holds.

A detail screen reads through the app's read-only `reader` (its own connection) in a worker, so
opening one never waits behind the engine. It is a full screen, not a modal over the panes: what
a person checks before deciding is all there is on it.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any, Generic, TypeVar

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.content import Content
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Footer, Static

from engine.errors import WardenError
from engine.gate.explain import spans
from engine.journal.diff import Content as Side
from engine.journal.diff import FileDiff
from engine.tools.call import ToolCall
from engine.visible import visible
from widgets.record_text import shown

Detail = TypeVar("Detail")
MARK = "bold $text-warning on $warning-muted"
PANE_KEYS = "a,d,T,P,u,U,ctrl+u,c,b,z"  # keys that act on a pane's highlighted row: not while a detail is shown
FIRST_KEYS = ("path", "src", "dst", "url", "method", "command", "target", "selector", "key", "label", "name")


def ordered(args: dict[str, Any]) -> list[tuple[str, Any]]:
    """Arguments with what the call acts on first (`path`, `src`, `url`, `command`, …), then the rest
    shortest first: a long `content` never pushes `path` out of view."""
    first = [(key, args[key]) for key in FIRST_KEYS if key in args]
    rest = sorted(((key, value) for key, value in args.items() if key not in FIRST_KEYS),
                  key=lambda item: (len(json.dumps(item[1], default=str)), item[0]))
    return first + rest


def call_lines(call: ToolCall, words: Iterable[str] = ()) -> list[Content]:
    """The call pretty-printed, every argument in full (long strings wrap, text with newlines is a
    block), with each of `words` marked wherever it occurs."""
    marked = [visible(word, newlines=True) for word in words if word]
    lines = [Content("{"), _pair("tool", call.tool, marked, 1, last=not call.args)]
    if call.args:
        lines.append(Content('  "args": {'))
        lines.extend(_object(call.args, marked, 2))
        lines.append(Content("  }"))
    lines.append(Content("}"))
    return lines


def _object(values: dict[str, Any], marked: list[str], depth: int) -> list[Content]:
    items = ordered(values)
    lines: list[Content] = []
    for number, (key, value) in enumerate(items):
        last = number == len(items) - 1
        if isinstance(value, dict) and value:
            lines.append(Content("  " * depth + f"{json.dumps(key)}: {{"))
            lines.extend(_object(value, marked, depth + 1))
            lines.append(Content("  " * depth + "}" + ("" if last else ",")))
        else:
            lines.extend(_value_lines(key, value, marked, depth, last))
    return lines


def _pair(key: str, value: Any, marked: list[str], depth: int, last: bool) -> Content:
    return _value_lines(key, value, marked, depth, last)[0]


def _value_lines(key: str, value: Any, marked: list[str], depth: int, last: bool) -> list[Content]:
    indent, comma = "  " * depth, "" if last else ","
    head = f"{indent}{visible(json.dumps(key, ensure_ascii=False))}: "
    if isinstance(value, str) and "\n" in value.rstrip("\n"):
        body = _marked(visible(value, newlines=True), marked)
        block = [Content(indent + "  ") + line for line in body.split("\n", allow_blank=True)]
        return [Content(head + '"""'), *block, Content(indent + '"""' + comma)]
    if isinstance(value, str):
        return [Content(head + '"') + _marked(visible(value), marked) + Content('"' + comma)]
    text = json.dumps(value, ensure_ascii=False, default=str)
    return [Content(head) + _marked(visible(text), marked) + Content(comma)]


def _marked(text: str, marked: list[str]) -> Content:
    content = Content(text)
    for start, end in spans(text, marked):
        content = content.stylize(MARK, start, end)
    return content


def diff_lines(change: FileDiff) -> list[Content]:
    """One file's change: its unified diff coloured, or both sides' size and hash, and any note."""
    lines = [Content.from_markup("[b]$path[/b]  $sides", path=visible(change.path), sides=_sides(change))]
    for line in change.lines:
        if line.startswith(("+++", "---")):
            lines.append(shown(line, "bold"))
        elif line.startswith("@@"):
            lines.append(shown(line, "$text-accent"))
        elif line.startswith("+"):
            lines.append(shown(line, "$text-success"))
        elif line.startswith("-"):
            lines.append(shown(line, "$text-error"))
        else:
            lines.append(shown(line))
    if change.note:
        lines.append(shown(change.note, "$text-muted"))
    return lines


def _sides(change: FileDiff) -> str:
    if change.before is None and change.after is None:
        return ""
    return f"{_side(change.before)} → {_side(change.after)}"


def _side(side: Side | None) -> str:
    if side is None:
        return "no file"
    kind = " binary" if side.binary else ""
    return f"{side.size} bytes{kind} sha256 {side.sha256[:12]}"


def labelled(label: str, value: str, style: str = "") -> Content:
    """`label  value`, the label bold; `style` colours the value, which is a record's and so shown plain."""
    return Content.assemble((label, "bold"), "  ", shown(value, style))


def section(title: str, lines: Sequence[Content | str], classes: str = "") -> list[Widget]:
    """A heading and its lines as one block of text (so a long section scrolls as one); a line given as a
    string is a record's words, shown plain."""
    body = Content("\n").join(line if isinstance(line, Content) else shown(line) for line in lines)
    return [Static(title, classes="detail-heading"), Static(body, classes=("detail-text " + classes).strip())]


NO_SCOPE = "takes no scope: a blocked call is never asked about, and no approval or grant covers it"


def blocked_lines(why: str) -> list[Widget]:
    """A blocked call's route, first in its detail view: `blocked: <why>`, and that no scope can be given."""
    return [Static(Content.assemble(("blocked: ", "bold $text-error"), (visible(why), "bold"), "\n",
                                    (NO_SCOPE, "$text-muted")),
                   id="route", classes="route-line -blocked")]


class DetailScreen(Screen[Any], Generic[Detail]):
    """Shows one record, fetched by `fetch` and drawn by `render_detail`; `escape` closes it."""

    KIND = "record"
    BINDINGS = [
        Binding("escape", "close", "Close", id="warden.detail.close"),
        Binding(PANE_KEYS, "pane_key", show=False, id="warden.detail.pane_keys"),
    ]
    DEFAULT_CSS = """
    DetailScreen { background: $background; }
    DetailScreen #detail-title { height: 1; padding: 0 1; background: $panel; color: $text; text-style: bold; }
    DetailScreen #detail-body { padding: 0 1; }
    DetailScreen .detail-heading { margin-top: 1; color: $text-accent; text-style: bold; }
    DetailScreen .detail-error { color: $text-error; }
    DetailScreen .detail-muted { color: $text-muted; }
    """

    def __init__(self, record_id: str) -> None:
        super().__init__()
        self.record_id = record_id
        self.detail: Detail | None = None

    def compose(self) -> ComposeResult:
        yield Static(shown(f"{self.KIND} {self.record_id}"), id="detail-title")
        with VerticalScroll(id="detail-body"):
            yield Static("Loading…", classes="detail-muted")
        yield Footer()

    def on_mount(self) -> None:
        self.load()

    @work(exclusive=True, group="detail", exit_on_error=False)
    async def load(self) -> None:
        """Read the record and draw it; a record that cannot be read says why, in the body."""
        reader = getattr(self.app, "reader", None)
        if reader is None:
            await self._fill([Static("The engine has not started yet.", classes="detail-error")])
            return
        try:
            detail = await self.fetch(reader)
        except (WardenError, LookupError, OSError, ValueError) as exc:
            await self._fill([Static(shown(f"Cannot show {self.KIND} {self.record_id}: {exc}"),
                                     classes="detail-error")])
            return
        self.detail = detail
        self.query_one("#detail-title", Static).update(self.title_line(detail))
        await self._fill(self.render_detail(detail))
        self.shown(detail)

    async def _fill(self, widgets: list[Widget]) -> None:
        body = self.query_one("#detail-body", VerticalScroll)
        await body.remove_children()
        await body.mount_all(widgets)
        body.focus()

    async def fetch(self, reader: Any) -> Detail:
        raise NotImplementedError

    def title_line(self, detail: Detail) -> Content:
        return shown(f"{self.KIND} {self.record_id}")

    def render_detail(self, detail: Detail) -> list[Widget]:
        raise NotImplementedError

    def shown(self, detail: Detail) -> None:
        """Called once the detail's widgets are mounted (for widgets fed after mounting)."""

    def action_pane_key(self) -> None:
        """A key that acts on a pane's highlighted row would act on a record out of sight: it waits."""
        self.notify("That key acts on the panes: close this view (esc) first.", severity="warning")

    def action_close(self) -> None:
        self.dismiss(None)
