"""A DataTable of records that keeps the operator's selection across live refreshes."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from textual.content import Content
from textual.message import Message
from textual.widgets import DataTable

Cell = str | Content


class RecordTable(DataTable):
    """Rows are keyed by record id; while the operator works in the table the cursor stays on
    the same record as rows change, otherwise it rests on the first row (the newest, or the
    oldest waiting). `KEEP_SELECTION` keeps it on its record even unfocused.

    A column given as `(label, width)` has a fixed width: styled cells need one, since
    the table sizes other columns from plain text.
    """

    COLUMNS: tuple[str | tuple[str, int], ...] = ()
    EMPTY = "nothing yet"
    KEEP_SELECTION = False

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id, cursor_type="row", zebra_stripes=True)

    def on_mount(self) -> None:
        for column in self.COLUMNS:
            label, width = column if isinstance(column, tuple) else (column, None)
            self.add_column(label, width=width)
        self.border_subtitle = self.EMPTY

    def show(self, rows: Iterable[tuple[str, tuple[Cell, ...]]]) -> None:
        selected = self.selected_key
        self.clear()
        for key, cells in rows:
            self.add_row(*cells, key=key)
        self.border_subtitle = f"{self.row_count}" if self.row_count else self.EMPTY
        if (self.has_focus or self.KEEP_SELECTION) and selected is not None and selected in self.rows:
            self.move_cursor(row=self.get_row_index(selected), animate=False)

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
