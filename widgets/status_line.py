"""The status line: whether the engine is running, and if it stopped, why; what waits for a person; the last error.

It is always on screen, so a console whose engine died never looks like one that is merely idle, and an
error outlives its toast (`!` opens the whole error log).
"""

from __future__ import annotations

from enum import StrEnum

from textual.content import Content
from textual.reactive import reactive
from textual.widget import Widget

from engine.visible import visible


class EngineState(StrEnum):
    STARTING = "starting"
    RUNNING = "running"
    STOPPED = "stopped"


class StatusLine(Widget):
    DEFAULT_CSS = """
    StatusLine { height: 1; padding: 0 1; background: $panel; color: $text; }
    StatusLine.-stopped { background: $error 30%; }
    """

    engine: reactive[EngineState] = reactive(EngineState.STARTING)
    why: reactive[str] = reactive("")
    waiting: reactive[int] = reactive(0)
    errors: reactive[int] = reactive(0)
    last_error: reactive[str] = reactive("")
    damaged: reactive[str] = reactive("")

    def database_damaged(self, problem: str) -> None:
        """The database cannot be read whole: said before anything else, since the panes look empty for it."""
        self.damaged = problem
        self.set_class(True, "-stopped")

    def stopped(self, why: str) -> None:
        self.why = why
        self.engine = EngineState.STOPPED

    def error(self, message: str) -> None:
        self.last_error = message
        self.errors += 1

    def watch_engine(self, state: EngineState) -> None:
        self.set_class(state is EngineState.STOPPED or bool(self.damaged), "-stopped")

    def render(self) -> Content:
        if self.damaged:
            parts = [Content.from_markup("[b $error]✖ database damaged:[/] $why", why=visible(self.damaged))]
        elif self.engine is EngineState.RUNNING:
            parts = [Content.from_markup("[$success]● engine running[/]")]
        elif self.engine is EngineState.STARTING:
            parts = [Content.from_markup("[$text-muted]○ engine starting[/]")]
        else:
            why = visible(self.why or "(no reason given)")
            parts = [Content.from_markup("[b $error]■ engine stopped[/] $why", why=why)]
        if self.waiting:
            calls = "call waits" if self.waiting == 1 else "calls wait"
            parts.append(Content.from_markup(f"[b $warning]$n {calls} for approval[/]", n=str(self.waiting)))
        if self.errors:
            parts.append(Content.from_markup("[$error]$n error$s[/] · last: $last · [b]![/] log",
                                             n=str(self.errors), s="" if self.errors == 1 else "s",
                                             last=visible(self.last_error)))
        return Content(" · ").join(parts)
