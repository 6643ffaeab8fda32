"""The error log: every error the console met this session, oldest first, so none is lost with its toast."""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Static

from engine.visible import visible


@dataclass(frozen=True)
class LoggedError:
    """One error: when (seconds since the epoch), what failed (a worker group or a command), and the message."""

    at: float
    where: str
    message: str


def log_lines(errors: Sequence[LoggedError]) -> Content:
    if not errors:
        return Content.from_markup("[$text-muted]No errors this session.[/]")
    return Content("\n").join(
        Content.from_markup("[$text-muted]$at[/] [b]$where[/]  $message",
                            at=time.strftime("%H:%M:%S", time.localtime(error.at)), where=visible(error.where),
                            message=visible(error.message))
        for error in errors)


class ErrorLogScreen(ModalScreen[None]):
    BINDINGS = [Binding("escape,exclamation_mark,q", "dismiss", "Close", id="errors.close")]
    DEFAULT_CSS = """
    ErrorLogScreen { align: center middle; }
    ErrorLogScreen > VerticalScroll {
        width: 90%; height: 70%; border: round $error; background: $surface; padding: 0 1;
    }
    """

    def __init__(self, errors: Sequence[LoggedError]) -> None:
        super().__init__()
        self.errors = list(errors)

    def compose(self) -> ComposeResult:
        with VerticalScroll() as scroll:
            scroll.border_title = f"Errors this session ({len(self.errors)})"
            yield Static(log_lines(self.errors), id="error-log")
