"""The grants view (`G`): the live scoped grants, and `r` to revoke the highlighted one after a confirmation.

A grant lets the calls of its pattern run without asking; revoking it makes the next such call ask again.
The list is read from the engine (through the loader the app gives) when the view opens, after each revoke,
and whenever a call is decided or done meanwhile (a grant's uses change as its calls run).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static

from engine.gate.grants import Grant
from widgets.grant_list import GrantList

Loader = Callable[[], Awaitable[list[Grant]]]


class GrantsScreen(ModalScreen[None]):
    BINDINGS = [Binding("escape,G,q", "dismiss", "Close", id="warden.grants.close")]

    def __init__(self, load: Loader) -> None:
        super().__init__(id="grants-view")
        self._load = load
        self.loaded = False
        """True once the list shows the grants as the engine held them (tests wait on it)."""

    def compose(self) -> ComposeResult:
        with Vertical(id="grants-box") as box:
            box.border_title = "Scoped grants"
            yield GrantList(id="grants")
            yield Static("r/delete revoke the highlighted grant (asks first) · / filter · escape close",
                         id="grants-keys")

    def on_mount(self) -> None:
        self.query_one(GrantList).focus()
        self.reload()

    @work(exclusive=True, group="grants", exit_on_error=False)
    async def reload(self) -> None:
        """Read the live grants again and show them; the cursor stays on its grant."""
        grants = await self._load()
        if not self.is_attached:
            return
        listed = self.query_one(GrantList)
        listed.show_grants(grants)
        self.query_one("#grants-box").border_title = f"Scoped grants ({listed.row_count} live)"
        self.loaded = True
