"""The `/` filter line under a record pane: what is typed narrows the pane, across every record it has.

The pane applies the text as it is typed (after a short pause, so a burst of keys costs one query);
Enter goes back to the rows keeping the filter, Escape clears it.
"""

from __future__ import annotations

from dataclasses import dataclass

from textual.binding import Binding
from textual.message import Message
from textual.widgets import Input


class FilterBar(Input):
    DEFAULT_CSS = """
    FilterBar {
        height: 1;
        border: none;
        padding: 0 1;
        background: $boost;
        display: none;
        &:focus { border: none; background-tint: $foreground 5%; }
    }
    """
    BINDINGS = [Binding("escape", "clear", "Clear filter", id="warden.clear_filter")]

    @dataclass
    class Cleared(Message):
        """The operator cleared the filter (Escape)."""

        bar: FilterBar

    def __init__(self) -> None:
        super().__init__(placeholder="filter: any text of a row (id, goal, call, status…)", compact=True)

    def action_clear(self) -> None:
        self.value = ""
        self.post_message(self.Cleared(self))
