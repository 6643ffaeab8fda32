"""The help screen (`?`): what each pane is for, and every key live where the person pressed `?`.

Keys are read from the bindings active at that moment, so a remapped key shows as remapped and a pane's own
keys (accept and discard in Programs) show when that pane has focus.
"""

from __future__ import annotations

from collections.abc import Iterable

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Static

PANES = (
    ("Tasks", "every task of the home, newest first: status, what serves it, where it acts, how long it took"),
    ("Approvals", "calls the gate held for a person; Enter shows the whole call, the rules and a diff"),
    ("Journal", "one receipt per effect: its tier and whether it can be undone; Enter shows its diff"),
    ("Programs", "stored programs and the selected one's graph; during a replay each check lights up"),
)

MOVING = (
    ("tab / shift+tab", "next / previous pane (below 100 columns the panes are tabs)"),
    ("1 2 3 4", "jump to Tasks, Approvals, Journal, Programs"),
    ("↑ ↓ pgup pgdn home end", "move within a pane"),
    ("enter", "details of the highlighted record"),
    ("/", "filter the pane; escape clears the filter"),
    ("z", "zoom the pane to the whole screen; z or escape again restores it"),
    ("ctrl+p", "command palette: every action by name"),
)


def help_text(keys: Iterable[tuple[str, str]]) -> Content:
    lines = [Content.from_markup("[b]Panes[/b]")]
    lines += [Content.from_markup("  [b $accent]$pane[/]  $what", pane=f"{pane:<10}", what=what) for pane, what in PANES]
    lines += [Content(""), Content.from_markup("[b]Moving[/b]")]
    lines += [Content.from_markup("  [b]$key[/]  $what", key=f"{key:<22}", what=what) for key, what in MOVING]
    lines += [Content(""), Content.from_markup("[b]Keys here[/b] (as mapped now; remap them by id in $WARDEN_HOME/keymap.toml)")]
    lines += [Content.from_markup("  [b]$key[/]  $what", key=f"{key:<22}", what=what) for key, what in keys]
    return Content("\n").join(lines)


class HelpScreen(ModalScreen[None]):
    BINDINGS = [Binding("escape,question_mark,q", "dismiss", "Close", id="help.close")]
    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    HelpScreen > VerticalScroll {
        width: 90%; max-width: 110; height: 85%; border: round $accent; background: $surface; padding: 0 1;
    }
    """

    def __init__(self, keys: Iterable[tuple[str, str]]) -> None:
        super().__init__()
        self.keys = list(keys)

    def compose(self) -> ComposeResult:
        with VerticalScroll() as scroll:
            scroll.border_title = "Warden — help"
            yield Static(help_text(self.keys), id="help")
