"""A DataTable of records, updated row by row as the engine reports changes.

Rows are keyed by record id. While the operator works in the table the cursor stays on
the same record as rows come and go; otherwise it rests on the first row (the newest,
or the oldest waiting). `KEEP_SELECTION` keeps it on its record even unfocused.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from textual.content import Content
from textual.message import Message
from textual.widgets import DataTable

Cell = str | Content


class RecordTable(DataTable):
    """A column given as `(label, width)` has a fixed width: styled cells need one, since
    the table sizes other columns from plain text.

    `NEWEST_FIRST` tables order rows by a sort value given with each row, largest first
    (their first column holds the record id); `LIMIT` bounds how many rows are kept (the
    ones that sort last are dropped).
    """

    COLUMNS: tuple[str | tuple[str, int], ...] = ()
    EMPTY = "nothing yet"
    KEEP_SELECTION = False
    NEWEST_FIRST = False
    LIMIT: int | None = None

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id, cursor_type="row", zebra_stripes=True)
        self._order: dict[str, Any] = {}

    def on_mount(self) -> None:
        for column in self.COLUMNS:
            label, width = column if isinstance(column, tuple) else (column, None)
            self.add_column(label, width=width, key=label)
        self._caption()

    def show(self, rows: Iterable[tuple[str, tuple[Cell, ...], Any]]) -> None:
        """Replace every row with `(key, cells, order)` rows given in display order."""
        selected = self.selected_key
        self.clear()
        self._order.clear()
        for key, cells, order in rows:
            self.add_row(*cells, key=key)
            self._order[key] = order
        self._settle(selected)

    def upsert(self, key: str, cells: tuple[Cell, ...], order: Any = None) -> None:
        """Add the record's row, or change its cells in place; nothing else is redrawn."""
        selected = self.selected_key
        if key in self.rows:
            for column, cell in zip(self.columns, cells):
                self.update_cell(key, column, cell, update_width=True)
            return
        self.add_row(*cells, key=key)
        self._order[key] = order
        if self.NEWEST_FIRST:
            order_of = self._order
            self.sort(next(iter(self.columns)), key=lambda first: order_of.get(str(first)) or 0, reverse=True)
        if self.LIMIT is not None:
            while self.row_count > self.LIMIT:
                oldest = self.coordinate_to_cell_key((self.row_count - 1, 0)).row_key.value
                self.remove(oldest)
        self._settle(selected)

    def remove(self, key: str) -> None:
        selected = self.selected_key
        if key in self.rows:
            self.remove_row(key)
            self._order.pop(key, None)
        self._settle(selected if selected != key else None)

    def _settle(self, selected: str | None) -> None:
        self._caption()
        if (self.has_focus or self.KEEP_SELECTION) and selected is not None and selected in self.rows:
            self.move_cursor(row=self.get_row_index(selected), animate=False)

    def _caption(self) -> None:
        self.border_subtitle = f"{self.row_count}" if self.row_count else self.EMPTY

    def request(self, message: Callable[[str], Message]) -> bool:
        """Post the message built for the highlighted record; False when there is none."""
        if self.selected_key is None:
            return False
        self.post_message(message(self.selected_key))
        return True

    @property
    def selected_key(self) -> str | None:
        if not self.row_count:
            return None
        row_key, _ = self.coordinate_to_cell_key(self.cursor_coordinate)
        return row_key.value
