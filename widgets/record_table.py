"""A pane of records: their rows, the `/` filter under them, and a subtitle counting them all.

A small pane holds every record (`show`, `upsert`, `remove_row`) and filters them where they are. A
large one (`PAGED`) holds only the stretch around what is on screen and reads the rest from the
database as the view or the cursor reaches it, so a journal of 10,000 receipts opens as fast as one
of 10 and every record stays reachable; its filter is a query, so it finds records never loaded.
Either way the cursor stays on its record as rows arrive or leave, and the subtitle counts the
true total (`12,000 receipts`, or `filtered: "abc" · 3 of 12,000`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.content import Content
from textual.message import Message
from textual.reactive import var
from textual.timer import Timer
from textual.widget import Widget
from textual.widgets import Input

from engine.reader import Records
from widgets.filter_bar import FilterBar
from widgets.record_rows import Cell, Column, RecordRows, Row
from widgets.record_text import shown

Given = str | Cell
"""A cell as a pane is given it: text (shown as plain text, hidden characters visible) or a row's own cell."""
FILTER_PAUSE = 0.15
"""Seconds of no typing before the filter is applied."""
HELD_AT_MOST = 600
"""Rows a paged pane holds at most: those around the view and the cursor."""
RECOUNT_AFTER = 1.0
"""Seconds after the last arrival before a paged pane checks its count against the database."""


class RecordTable(Widget):
    """Subclasses name their `COLUMNS`; a paged one sets `PAGED` and answers `fetch_page`, `fetch_place` and
    `fetch_count` over the records it was attached to (`attach`), and gives live changes to `update_row`."""

    DEFAULT_CSS = """
    RecordTable {
        layout: vertical;
        height: 1fr;
    }
    """
    COLUMNS: tuple[Column | str | tuple[str, int], ...] = ()
    """A bare label is a text column; `(label, width)` a fixed one."""
    EMPTY = "nothing yet"
    NOUNS = ("record", "records")
    NEWEST_FIRST = False
    PAGED = False
    MARGIN = 60
    """Rows held beyond each edge of the view, so small moves need no query."""
    BINDINGS = [
        Binding("slash", "filter", "Filter", id="warden.filter"),
        Binding("escape", "clear_filter", "Clear filter", show=False, id="warden.clear_filter_pane"),
    ]

    filter_text: var[str] = var("", init=False)
    """Only records containing this text (in any column, any case) are listed."""

    @dataclass
    class RowHighlighted(Message):
        """The cursor is on another record (`key` is None when the pane is empty)."""

        table: RecordTable
        key: str | None

        @property
        def control(self) -> RecordTable:
            return self.table

    @dataclass
    class RevealRequested(Message):
        """A key was pressed for the highlighted record while its line was out of sight: the app brings the pane
        forward (its tab, below 100 columns) and its rows scroll to the cursor; nothing is done to the record."""

        table: RecordTable

        @property
        def control(self) -> RecordTable:
            return self.table

    @dataclass
    class RowSelected(Message):
        """The operator chose the highlighted record (Enter, or a second click)."""

        table: RecordTable
        key: str

        @property
        def control(self) -> RecordTable:
            return self.table

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.body = RecordRows(tuple(_column(column) for column in self.COLUMNS), self.EMPTY)
        self.bar = FilterBar()
        self.records: Records | None = None
        self.overall = 0
        self._all: list[Row] = []
        self._fetching = False
        self._reload_wanted = False
        self._around: tuple[int, int] | None = None
        self._arrived_during: list[tuple[Row, bool]] | None = None
        self._filter_timer: Timer | None = None
        self._recount_timer: Timer | None = None

    def compose(self) -> ComposeResult:
        if self.PAGED:
            self.body.most = HELD_AT_MOST
        yield self.body
        yield self.bar

    def on_mount(self) -> None:
        self._caption()

    @property
    def row_count(self) -> int:
        """How many records are listed (under the filter), loaded or not."""
        return self.body.total

    @property
    def rows(self) -> dict[str, Row]:
        """The loaded rows, by key."""
        return {row.key: row for row in self.body.held}

    def get_row(self, key: str) -> list[Cell]:
        row = self.body.row(key)
        if row is None:
            raise KeyError(key)
        return list(row.cells)

    def get_row_at(self, place: int) -> list[Cell]:
        row = self.body.row_at(place)
        if row is None:
            raise IndexError(place)
        return list(row.cells)

    def get_row_index(self, key: str) -> int:
        place = self.body.place_of(key)
        if place is None:
            raise KeyError(key)
        return place

    def move_cursor(self, *, row: int, animate: bool = False) -> None:
        self.body.move_cursor(row)

    @property
    def selected_key(self) -> str | None:
        return self.body.cursor_key

    def focus(self, scroll_visible: bool = True) -> RecordTable:
        self.body.focus(scroll_visible)
        return self

    def request(self, message) -> bool:
        """Post the message built for the highlighted record; False when there is none. A record whose line is
        out of sight is not acted on: it is scrolled into view (`in_sight`) and the key must be pressed again."""
        if self.selected_key is None:
            return False
        if self.in_sight():
            self.post_message(message(self.selected_key))
        return True

    def in_sight(self) -> bool:
        """True when the highlighted record's line is on screen (or nothing is highlighted). Otherwise it is
        brought into view, the person told to press the key again, and False: keys never act on a record the
        person cannot see."""
        if self.selected_key is None or self.body.cursor_in_view:
            return True
        self.post_message(self.RevealRequested(self))
        self.body.scroll_to_cursor()
        self.call_after_refresh(self.body.scroll_to_cursor)
        self.notify("The highlighted row was out of sight; it is shown now. Press the key again to act on it.",
                    severity="warning")
        return False

    def show(self, rows: Iterable[Row | tuple[str, tuple[Given, ...], Any]]) -> None:
        """Replace every row, given in display order."""
        self._all = [self._row(row) for row in rows]
        self._show_held()

    def upsert(self, key: str, cells: tuple[Given, ...], order: Any = None) -> None:
        """Add the record's row, or change its cells in place; nothing else is redrawn."""
        row = self._row((key, cells, order))
        for index, old in enumerate(self._all):
            if old.key == key:
                self._all[index] = row
                if not self.body.put(row) and self.filter_text and row.matches(self.filter_text):
                    self._show_held()
                return
        at = len(self._all)
        if self.NEWEST_FIRST:
            at = next((i for i, old in enumerate(self._all) if old.order < row.order), len(self._all))
        self._all.insert(at, row)
        if self.filter_text:
            self._show_held()
            return
        self.overall = len(self._all)
        self.body.insert(at, row)
        self._caption()

    def remove_row(self, key: str) -> None:
        self._all = [row for row in self._all if row.key != key]
        self.overall = len(self._all)
        self.body.drop(key)
        self._caption()

    def _show_held(self) -> None:
        shown = [row for row in self._all if row.matches(self.filter_text)] if self.filter_text else self._all
        self.overall = len(self._all)
        self.body.hold(0, list(shown), len(shown))
        self._caption()

    @staticmethod
    def _row(row: Row | tuple[str, tuple[Given, ...], Any]) -> Row:
        if isinstance(row, Row):
            return row
        key, cells, order = row
        return Row(key, tuple(shown(cell) if isinstance(cell, str) else cell for cell in cells), order or 0.0)

    def attach(self, records: Records) -> None:
        """Read this pane's records through `records` from now on, starting with the newest."""
        self.records = records
        self._ask(reload=True)

    async def fetch_page(self, records: Records, offset: int, limit: int, text: str) -> tuple[list[Row], int]:
        raise NotImplementedError

    async def fetch_place(self, records: Records, key: str, text: str) -> int | None:
        raise NotImplementedError

    async def fetch_count(self, records: Records, text: str) -> int:
        raise NotImplementedError

    def update_row(self, row: Row, new: bool) -> None:
        """A record changed (`new`: it was just created, so it is the newest): redraw its line if it is
        loaded, or count it in and place it at the top."""
        if self._arrived_during is not None:
            self._arrived_during.append((row, new))
            return
        if self.body.put(row) or not new:
            return
        if self.filter_text:
            self._ask(reload=True)
            return
        self.body.insert(self._place_for(row), row)
        self.overall += 1
        self._caption()
        self._recount_later()

    def _place_for(self, row: Row) -> int:
        """Where a new row stands, newest first: among the held rows by its order, else above them."""
        held = self.body.held
        if not held or (self.body.start > 0 and row.order >= held[0].order):
            return 0 if self.body.start == 0 else self.body.start - 1
        for index, other in enumerate(held):
            if other.order < row.order:
                return self.body.start + index
        return self.body.start + len(held)

    def _recount_later(self) -> None:
        """Counting an arrival and the page it raced with can disagree by one: once arrivals pause, the
        count is checked against the database, and the pane reloaded if it is off."""
        if self._recount_timer is None:
            self._recount_timer = self.set_timer(RECOUNT_AFTER, self._recount)
        else:
            self._recount_timer.reset()

    def _recount(self) -> None:
        self._recount_timer = None
        self._check_count()

    def _ask(self, reload: bool = False, around: tuple[int, int] | None = None) -> None:
        if self.records is None:
            return
        self._reload_wanted |= reload
        if around is not None:
            self._around = around
        if not self._fetching:
            self._fetching = True
            self._fetch()

    @work(group="recount", exit_on_error=False)
    async def _check_count(self) -> None:
        records = self.records
        if records is None or self._fetching:
            return
        text = self.filter_text
        total = await self.fetch_count(records, text)
        if total != self.body.total and text == self.filter_text:
            self._ask(reload=True)

    def on_record_rows_needed(self, message: RecordRows.Needed) -> None:
        message.stop()
        if self.PAGED:
            self._ask(around=(message.first, message.last))

    @work(group="rows", exit_on_error=False)
    async def _fetch(self) -> None:
        """Run on the app's loop: one query at a time, the latest wish first; changes that arrive meanwhile
        are applied to what the query brought."""
        try:
            records = self.records
            while records is not None and (self._reload_wanted or self._around is not None):
                reload, self._reload_wanted = self._reload_wanted, False
                around, self._around = self._around, None
                self._arrived_during = []
                try:
                    if reload:
                        await self._reload(records)
                    elif around is not None:
                        await self._load(records, *around)
                finally:
                    arrived, self._arrived_during = self._arrived_during, None
                for row, new in arrived:
                    self.update_row(row, new)
        finally:
            self._fetching = False

    def _margin(self) -> int:
        return max(self.MARGIN, self.body.body_height)

    async def _load(self, records: Records, first: int, last: int) -> None:
        text = self.filter_text
        start = max(0, first - self._margin())
        rows, total = await self.fetch_page(records, start, last - start + 1 + self._margin(), text)
        if text == self.filter_text:
            self.body.hold(start, rows, total)
            self._caption()

    async def _reload(self, records: Records) -> None:
        """Count again and reload the stretch in view, keeping the cursor on its record (at the same height
        on screen) if the filter still lists it, else at the top."""
        body, text = self.body, self.filter_text
        if body.following:
            body.cursor, body.cursor_key = 0, None  # still on the newest: it opens there, and stays there
        key = body.cursor_key
        height = max(1, body.body_height)
        on_screen = max(0, min(body.cursor - body.scroll_top, height - 1))
        place = await self.fetch_place(records, key, text) if key is not None else None
        if place is None and key is not None:
            on_screen = 0
        target = place if place is not None else (body.cursor if key is None else 0)
        top = max(0, target - on_screen)
        start = max(0, top - self._margin())
        rows, total = await self.fetch_page(records, start, top - start + height + self._margin(), text)
        overall = await self.fetch_count(records, "") if text else total
        if text != self.filter_text:
            return
        body.cursor = target
        if place is None:
            body.cursor_key = None
        body.hold(start, rows, total)
        body.scroll_to(y=min(top, max(0, total - height)), animate=False)
        self.overall = overall
        self._caption()

    def action_filter(self) -> None:
        self.bar.display = True
        self.bar.value = self.filter_text
        self.screen.set_focus(self.bar)  # at once, so keys typed right after `/` land in the filter

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "clear_filter":
            return bool(self.filter_text)
        return True

    def action_clear_filter(self) -> None:
        self._set_filter("")
        self.bar.display = False

    def on_input_changed(self, event: Input.Changed) -> None:
        event.stop()
        if self._filter_timer is not None:
            self._filter_timer.stop()
        self._filter_timer = self.set_timer(FILTER_PAUSE, lambda: self._set_filter(self.bar.value))

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self._set_filter(self.bar.value)
        self.bar.display = bool(self.filter_text)
        self.body.focus()

    def on_filter_bar_cleared(self, message: FilterBar.Cleared) -> None:
        message.stop()
        self._set_filter("")
        self.bar.display = False
        self.body.focus()

    def _set_filter(self, text: str) -> None:
        if self._filter_timer is not None:
            self._filter_timer.stop()
            self._filter_timer = None
        self.filter_text = text.strip()

    def watch_filter_text(self) -> None:
        self.refresh_bindings()
        if self.PAGED:
            self._ask(reload=True)
        else:
            self._show_held()

    def on_record_rows_highlighted(self, message: RecordRows.Highlighted) -> None:
        message.stop()
        self.post_message(self.RowHighlighted(self, message.key))

    def on_record_rows_chosen(self, message: RecordRows.Chosen) -> None:
        message.stop()
        self.post_message(self.RowSelected(self, message.key))

    def _caption(self) -> None:
        total = self.body.total
        one, many = self.NOUNS
        if self.filter_text:
            self.border_subtitle = Content.assemble('filtered: "', shown(self.filter_text),
                                                    f'" · {total:,} of {self.overall:,}')
        else:
            self.border_subtitle = f"{total:,} {one if total == 1 else many}"


def _column(column: Column | str | tuple[str, int]) -> Column:
    if isinstance(column, Column):
        return column
    if isinstance(column, tuple):
        return Column(column[0], column[1])
    return Column(column)
