"""The rows of a record pane, drawn a line at a time: only the lines on screen are rendered.

It holds a stretch of the pane's records (`start` onwards; all of them for a small pane), knows
how many there are in all, and asks for the stretch it lacks (`Needed`) when the view or the
cursor moves past what it holds. The cursor is a record, not a line: rows arriving above it or
leaving move its line, never the record it is on. Columns with a fixed width keep it; the others
carry text and share what the pane's width leaves, recomputed on resize. A column may let its cells wrap
(`lines`): then every row is as tall as the tallest of them needs at the width it has, so a place is still
a row, `row_height` lines of the view.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol

from textual import events
from textual.binding import Binding
from textual.content import Content
from textual.geometry import Region, Size
from textual.message import Message
from textual.scroll_view import ScrollView
from textual.strip import Strip

GAP = 1
"""Blank cells before each column."""


@dataclass(frozen=True)
class Column:
    """`width` fixes the column's width (ids, statuses, times); a column without one carries text and takes
    `share` parts of the width the fixed ones leave, never fewer than `least` cells. Below `shown_from`
    cells of pane width the column is left out. A cell that can wrap (`Wrapping`) takes up to `lines` lines."""

    label: str
    width: int | None = None
    share: int = 1
    least: int = 8
    shown_from: int = 0
    lines: int = 1


class Fitting(Protocol):
    """A cell that lays itself out for the width it gets (a call shortens its longest values first)."""

    @property
    def plain(self) -> str: ...

    def fit(self, width: int) -> Content: ...


class Wrapping(Fitting, Protocol):
    """A cell that can take several lines: at most `lines` of `width` (a long command wraps, never loses its
    middle while the lines hold it)."""

    def wrap(self, width: int, lines: int) -> list[Content]: ...


Cell = Content | Fitting


@dataclass(frozen=True, eq=False)
class Row:
    """One record's line: its key, its cells in column order, what newest-first orders it by, and any words
    beyond its cells that a filter over loaded rows should match."""

    key: str
    cells: tuple[Cell, ...]
    order: float = 0.0
    words: str = ""

    def matches(self, text: str) -> bool:
        needle = text.lower()
        return needle in self.key.lower() or needle in self.words.lower() or any(
            needle in cell.plain.lower() for cell in self.cells)


@dataclass(frozen=True)
class Layout:
    width: int
    columns: tuple[int, ...]
    widths: tuple[int, ...]


def cell_lines(cell: Cell, width: int, lines: int) -> list[Content]:
    """The cell's lines at `width`: up to `lines` for a cell that wraps, else one."""
    wrap = getattr(cell, "wrap", None) if lines > 1 else None
    return list(wrap(width, lines))[:lines] if wrap is not None else [cell if isinstance(cell, Content)
                                                                         else cell.fit(width)]


def fit(cell: Cell, width: int) -> Content:
    """The cell cut or padded to exactly `width` cells; what is cut is marked with `…` (a `Fitting` cell
    chooses what to cut itself)."""
    if not isinstance(cell, Content):
        cell = cell.fit(width)
    length = cell.cell_length
    if length < width:
        return cell.extend_right(width - length)
    return cell if length == width else cell.truncate(width, ellipsis=width > 1)


class RecordRows(ScrollView, can_focus=True):
    """Posts `Highlighted` when the cursor lands on another record, `Chosen` on Enter or a click on the
    highlighted row, and `Needed` when it lacks rows it must show."""

    DEFAULT_CSS = """
    RecordRows {
        height: 1fr;
        background: transparent;
        overflow-x: hidden;
        scrollbar-size-vertical: 1;
        & > .record-rows--header { text-style: bold; background: $panel; color: $foreground; }
        & > .record-rows--even { background: $surface-lighten-1 50%; }
        &:dark > .record-rows--even { background: $surface-darken-1 40%; }
        & > .record-rows--cursor {
            background: $block-cursor-blurred-background;
            color: $block-cursor-blurred-foreground;
            text-style: $block-cursor-blurred-text-style;
        }
        &:focus > .record-rows--cursor {
            background: $block-cursor-background;
            color: $block-cursor-foreground;
            text-style: $block-cursor-text-style;
        }
        & > .record-rows--waiting { color: $text-muted; }
    }
    """
    COMPONENT_CLASSES = {
        "record-rows--header", "record-rows--even", "record-rows--odd", "record-rows--cursor",
        "record-rows--waiting",
    }
    BINDINGS = [
        Binding("up", "cursor(-1)", "Up", show=False),
        Binding("down", "cursor(1)", "Down", show=False),
        Binding("pageup", "page(-1)", "Page up", show=False),
        Binding("pagedown", "page(1)", "Page down", show=False),
        Binding("home,ctrl+home", "first", "Newest", show=False),
        Binding("end,ctrl+end", "last", "Oldest", show=False),
        Binding("enter", "choose", "Details", show=False),
    ]

    @dataclass
    class Highlighted(Message):
        rows: RecordRows
        key: str | None

    @dataclass
    class Chosen(Message):
        rows: RecordRows
        key: str

    @dataclass
    class Needed(Message):
        """Rows from `first` to `last` (absolute places) are on screen or under the cursor but not held."""

        rows: RecordRows
        first: int
        last: int

    def __init__(self, columns: Sequence[Column], empty: str, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.columns = tuple(columns)
        self.empty = empty
        self.start = 0
        self.held: list[Row] = []
        self.places: dict[str, int] = {}
        self.total = 0
        self.cursor = 0
        self.cursor_key: str | None = None
        self.following = True
        """The cursor stays on the newest record (place 0) as records arrive, until it is moved elsewhere; moved
        back to the top, it follows again."""
        self.moves = 0
        """How many times the cursor was moved (by a key, a click or a caller), not by arrivals."""
        self.most: int | None = None
        """At most this many rows are held (None: all of them)."""
        self._layout: Layout | None = None
        self.row_height = 1
        """Lines each row takes: more than one only when a wrapping column's cell needs them."""
        self._lines: dict[tuple[Row, str, int, int], Strip] = {}
        self._asked: tuple[int, int] | None = None
        self._resize_pending = False

    def hold(self, start: int, rows: Iterable[Row], total: int) -> None:
        """Hold `rows` from place `start`, of `total` in all; the cursor stays on its record when it is among
        them, else on its place."""
        self.start, self.held, self.total = start, list(rows), total
        self._index()
        self._resize()
        self._asked = None
        self._settle()
        self.refresh()

    def row(self, key: str) -> Row | None:
        index = self.places.get(key)
        return self.held[index] if index is not None else None

    def row_at(self, place: int) -> Row | None:
        index = place - self.start
        return self.held[index] if 0 <= index < len(self.held) else None

    def place_of(self, key: str) -> int | None:
        index = self.places.get(key)
        return self.start + index if index is not None else None

    def put(self, row: Row) -> bool:
        """Change a held record's row in place (its line alone is redrawn); False when it is not held."""
        index = self.places.get(row.key)
        if index is None:
            return False
        self.held[index] = row
        self._refresh_place(self.start + index)
        if self._wraps():
            self._resize_soon()
        return True

    def insert(self, place: int, row: Row) -> None:
        """A record now stands at `place` (every record from there on moves down one). A place before the
        held stretch shifts it; one past its end is only counted. The view stays on what it shows, unless
        it was at the very top, where new rows are meant to be seen."""
        self.total += 1
        if place < self.start:
            self.start += 1
        elif place <= self.start + len(self.held):
            self.held.insert(place - self.start, row)
            self._index()
        if self.following and place == 0 and self.cursor == 0:
            self.cursor_key = None  # the newest is now the new record: `_settle` puts the cursor on it
        elif place <= self.cursor and self.total > 1:
            self.cursor += 1
        top = self.scroll_top
        if 0 < top and place <= top:
            self._resize()
            top += 1
            self.scroll_to(y=top * self.row_height, animate=False, immediate=True)
        else:
            self._resize_soon()
        if self.most is not None and len(self.held) > self.most:
            self._trim(top, self.most)
        self._settle()
        self.refresh()

    def _trim(self, top: int, most: int) -> None:
        """Let go of held rows far from both the view and the cursor (arrivals would grow the stretch forever)."""
        margin = most // 4
        first = max(self.start, min(top, self.cursor) - margin)
        last = min(self.start + len(self.held), max(top + self.body_height, self.cursor) + margin)
        self.held = self.held[first - self.start:last - self.start]
        self.start = first
        self._index()

    def drop(self, key: str) -> None:
        """The record is gone: the rows after it move up, and the cursor, if it was on it, rests on the next."""
        index = self.places.get(key)
        if index is None:
            return
        place = self.start + index
        del self.held[index]
        self.total -= 1
        self._index()
        if key == self.cursor_key:
            self.cursor_key = None
        elif place < self.cursor:
            self.cursor -= 1
        self._resize_soon()
        self._settle()
        self.refresh()

    def _index(self) -> None:
        self.places = {row.key: index for index, row in enumerate(self.held)}

    def _settle(self) -> None:
        """Keep the cursor on its record (or, if that is gone, in range on whatever is there) and say so when
        the record under it changed."""
        before = self.cursor_key
        if before is not None and before in self.places:
            self.cursor = self.start + self.places[before]
        else:
            self.cursor = max(0, min(self.cursor, self.total - 1))
            row = self.row_at(self.cursor)
            if row is not None:
                self.cursor_key = row.key
            elif before is not None and not self.total:
                self.cursor_key = None
        if self.cursor_key != before:
            self.post_message(self.Highlighted(self, self.cursor_key))
        self._want_around(self.cursor)

    def move_cursor(self, place: int, scroll: bool = True) -> None:
        """Put the cursor on the record at `place` (clamped)."""
        place = max(0, min(place, self.total - 1))
        old = self.cursor
        self.cursor = place
        self.following = place == 0
        self.moves += 1
        row = self.row_at(place)
        changed = (row.key if row else None) != self.cursor_key
        self.cursor_key = row.key if row else None
        self._refresh_place(old)
        self._refresh_place(place)
        if scroll:
            self.scroll_to_cursor()
        if changed and row is not None:
            self.post_message(self.Highlighted(self, self.cursor_key))
        self._want_around(place)

    @property
    def cursor_in_view(self) -> bool:
        """The cursor's line is drawn on screen: the rows are shown (not on a hidden tab, not behind a zoomed
        pane) and the cursor is within the lines scrolled into view."""
        region = self.region
        if not self.display or region.height < 2 or not self.screen.is_current:
            return False
        top = self.scroll_top
        return top <= self.cursor < top + self.body_height

    def scroll_to_cursor(self) -> None:
        top, height, lines = self.scroll_top, self.body_height, self.row_height
        if self.cursor < top:
            self.scroll_to(y=self.cursor * lines, animate=False, immediate=True)
        elif height > 0 and self.cursor >= top + height:
            self.scroll_to(y=(self.cursor - height + 1) * lines, animate=False, immediate=True)

    @property
    def scroll_top(self) -> int:
        """The place of the first row in view."""
        return round(self.scroll_offset.y) // self.row_height

    @property
    def body_height(self) -> int:
        """How many rows the view shows."""
        return max(0, self.scrollable_content_region.height - 1) // self.row_height

    def action_cursor(self, step: int) -> None:
        self.move_cursor(self.cursor + step)

    def action_page(self, step: int) -> None:
        self.move_cursor(self.cursor + step * max(1, self.body_height - 1))

    def action_first(self) -> None:
        self.move_cursor(0)

    def action_last(self) -> None:
        self.move_cursor(self.total - 1)

    def action_choose(self) -> None:
        if self.cursor_key is not None:
            self.post_message(self.Chosen(self, self.cursor_key))

    def on_click(self, event: events.Click) -> None:
        if event.y < 1:
            return
        place = (round(self.scroll_offset.y) + event.y - 1) // self.row_height
        if place >= self.total:
            return
        if place == self.cursor and event.chain > 1:
            self.action_choose()
        self.move_cursor(place)

    def _want_around(self, place: int) -> None:
        """The cursor's place, and a screen's worth either side, so the next keys need no query."""
        reach = max(10, self.body_height)
        self._want(place - reach, place + reach)

    def _want(self, first: int, last: int) -> None:
        """Ask for rows in `first..last` that are not held (once per stretch until something is held)."""
        if not self.total:
            return
        first, last = max(0, first), min(self.total - 1, last)
        if first > last:
            return
        end = self.start + len(self.held)
        if first >= self.start and last < end:
            return
        if self._asked is not None and self._asked[0] <= first and last <= self._asked[1]:
            return
        self._asked = (first, last)
        self.post_message(self.Needed(self, first, last))

    def _resize_soon(self) -> None:
        """Fit the scrollable height once for all the rows a round of changes adds (the scrollbar's update is
        what an arrival costs most)."""
        if not self._resize_pending:
            self._resize_pending = True
            self.call_later(self._resize)

    def _resize(self) -> None:
        """Fit the scrollable height to the count. The pane's own size does not depend on it, so this is set
        without the whole screen's layout being redone (a reactive `virtual_size` would redo it on every
        arrival); only the scrollbar is updated."""
        self._resize_pending = False
        taller = self._fit_row_height()
        size = Size(self.scrollable_content_region.width, self.total * self.row_height + 1)
        if size != self.virtual_size:
            self.set_reactive(RecordRows.virtual_size, size)
            self._scroll_update(size)
        if taller:
            self.scroll_to_cursor()

    def _wraps(self) -> bool:
        return any(column.lines > 1 for column in self.columns)

    def _fit_row_height(self) -> bool:
        """As many lines a row as the tallest held row's wrapping cells need at the width they have; True
        when that changed."""
        height = 1
        if self._wraps():
            layout = self.column_layout(self.scrollable_content_region.width)
            wrapping = [(i, w, self.columns[i].lines) for i, w in zip(layout.columns, layout.widths)
                        if self.columns[i].lines > 1]
            height = max([len(cell_lines(row.cells[i], w, most)) for row in self.held for i, w, most in wrapping
                          if i < len(row.cells)] or [1])
        if height == self.row_height:
            return False
        self.row_height = height
        self._lines.clear()
        self.refresh()
        return True

    def on_resize(self) -> None:
        self._resize()
        self.scroll_to_cursor()

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._lines.clear()

    def on_focus(self) -> None:
        self._lines.clear()
        self.refresh()

    def on_blur(self) -> None:
        self._lines.clear()
        self.refresh()

    def _refresh_place(self, place: int) -> None:
        first = place * self.row_height - round(self.scroll_offset.y) + 1
        for line in range(first, first + self.row_height):
            if 1 <= line < self.size.height:
                self.refresh(Region(0, line, self.size.width, 1))

    def column_layout(self, width: int) -> Layout:
        """Which columns are shown at this width, and how wide each is."""
        if self._layout is not None and self._layout.width == width:
            return self._layout
        shown = [i for i, column in enumerate(self.columns) if width >= column.shown_from]
        fixed = sum(self.columns[i].width or 0 for i in shown) + GAP * (len(shown) + 1)
        flexible = [i for i in shown if self.columns[i].width is None]
        shares = sum(self.columns[i].share for i in flexible) or 1
        spare = max(0, width - fixed)
        widths = {i: self.columns[i].width or 0 for i in shown}
        for i in flexible:
            widths[i] = max(self.columns[i].least, spare * self.columns[i].share // shares)
        if flexible:
            used = sum(widths.values()) + GAP * (len(shown) + 1)
            widths[flexible[0]] += max(0, width - used)
        self._layout = Layout(width, tuple(shown), tuple(widths[i] for i in shown))
        self._lines.clear()
        return self._layout

    def render_line(self, y: int) -> Strip:
        width = self.scrollable_content_region.width
        layout = self.column_layout(width)
        if y == 0:
            return self._header(layout)
        top = self.scroll_top
        place, part = divmod(round(self.scroll_offset.y) + y - 1, self.row_height)
        if place == top and not part:
            self._want(top - self.body_height // 2, top + self.body_height * 3 // 2)
        if place >= self.total:
            if place == 0 and not part:
                return self._strip(Content(" " + self.empty), "record-rows--waiting", width)
            return Strip.blank(width, self.rich_style)
        row = self.row_at(place)
        if row is None:
            self._want(top, top + self.body_height - 1)
            return self._strip(Content(" …" if not part else ""), "record-rows--waiting", width)
        kind = "record-rows--cursor" if place == self.cursor else (
            "record-rows--even" if place % 2 == 0 else "record-rows--odd")
        cached = self._lines.get((row, kind, width, part))
        if cached is None:
            cells = [fit(self._part(row.cells[i] if i < len(row.cells) else Content(""), w, self.columns[i], part),
                         w) for i, w in zip(layout.columns, layout.widths)]
            cached = self._strip(Content(" " * GAP).join(cells).pad_left(GAP), kind, width)
            if len(self._lines) > 4000:
                self._lines.clear()
            self._lines[(row, kind, width, part)] = cached
        return cached

    def _part(self, cell: Cell, width: int, column: Column, part: int) -> Cell:
        """The line `part` of the cell (its first for a cell that does not wrap; nothing below its last)."""
        if self.row_height == 1:
            return cell
        lines = cell_lines(cell, width, column.lines)
        return lines[part] if part < len(lines) else Content("")

    def _header(self, layout: Layout) -> Strip:
        key = (None, "record-rows--header", layout.width)
        cached = self._lines.get(key)  # type: ignore[arg-type]
        if cached is None:
            labels = [fit(Content(self.columns[i].label), w) for i, w in zip(layout.columns, layout.widths)]
            cached = self._strip(Content(" " * GAP).join(labels).pad_left(GAP), "record-rows--header", layout.width)
            self._lines[key] = cached  # type: ignore[index]
        return cached

    def _strip(self, line: Content, component: str, width: int) -> Strip:
        style = self.get_visual_style(component)
        segments = line.render_segments(style)
        strip = Strip(segments, line.cell_length)
        return strip.adjust_cell_length(width, style.rich_style)
