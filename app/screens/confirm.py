"""A confirmation before anything that cannot be taken back by another key: it names the target and
previews the effect, so the person decides about what they see, not about what a row index held."""

from __future__ import annotations

from collections.abc import Sequence

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Static

from widgets.record_text import shown


class ConfirmScreen(ModalScreen[bool]):
    """Dismissed with True when the person confirms (Enter or y), False when they cancel (Escape or n).

    `danger` draws the box in the error colour, for effects that destroy (discarding, cancelling). The title
    and text lines name records, so they are shown as plain text with hidden characters visible."""

    BINDINGS = [
        Binding("enter,y", "confirm", "Confirm", id="confirm.yes"),
        Binding("escape,n", "cancel", "Cancel", id="confirm.no"),
    ]
    DEFAULT_CSS = """
    ConfirmScreen { align: center middle; }
    ConfirmScreen > Vertical {
        width: 90%; max-width: 110; height: auto; max-height: 90%;
        border: round $warning; background: $surface; padding: 0 1;
    }
    ConfirmScreen.-danger > Vertical { border: round $error; }
    ConfirmScreen VerticalScroll { height: auto; max-height: 1fr; }
    ConfirmScreen #confirm-keys { color: $text-muted; margin-top: 1; dock: bottom; }
    """

    def __init__(self, title: str, lines: Sequence[Content | str], *, verb: str = "confirm",
                 danger: bool = False) -> None:
        super().__init__(classes="-danger" if danger else "")
        self.title_text = title
        self.lines = [line if isinstance(line, Content) else shown(line) for line in lines]
        self.verb = verb

    def compose(self) -> ComposeResult:
        with Vertical() as box:
            box.border_title = shown(self.title_text)
            with VerticalScroll():
                yield Static(Content("\n").join(self.lines), id="confirm-preview")
            yield Static(f"enter/y {self.verb} · escape/n cancel", id="confirm-keys")

    def action_confirm(self) -> None:
        self.dismiss(True)

    def action_cancel(self) -> None:
        self.dismiss(False)
