"""The program graph: a program's states top to bottom, lit up check by check during a replay."""

from __future__ import annotations

from textual.content import Content
from textual.reactive import reactive
from textual.widget import Widget

from engine.programs.describe import describe, target
from engine.programs.program import Program


class ProgramGraph(Widget):
    """Shows one program; the checks of each program's latest replay are kept, so switching back shows them."""

    program: reactive[Program | None] = reactive(None)

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.checks: dict[str, dict[str, bool]] = {}
        self.current: dict[str, str] = {}

    def show_program(self, program: Program | None) -> None:
        self.program = program

    def begin(self, program_id: str) -> None:
        """A new replay of the program starts: forget the previous one's path."""
        self.checks[program_id] = {}
        self.current.pop(program_id, None)
        self.refresh()

    def mark(self, program_id: str, state_id: str, passed: bool) -> None:
        self.checks.setdefault(program_id, {})[state_id] = passed
        self.current[program_id] = state_id
        self.refresh()

    def render(self) -> Content:
        program = self.program
        if program is None:
            return Content.from_markup("[$text-muted]Select a program to see its states.[/]")
        lines = [Content.from_markup("[b]$goal[/b]", goal=program.goal_template)]
        path = program.path()
        for position, state_id in enumerate(path):
            state = program.state(state_id)
            lines.append(self._node(program.id, state_id, state.description))
            lines.append(Content.from_markup("[$text-muted]│   ? $check[/]", check=describe(state.check)))
            if position + 1 < len(path):
                transition = next(t for t in program.leaving(state_id) if t.target == path[position + 1])
                action = transition.action
                lines.append(Content.from_markup("│ [$accent]▼ $tool[/] $target", tool=action.tool, target=target(action.args)))
        return Content("\n").join(lines)

    def _node(self, program_id: str, state_id: str, description: str) -> Content:
        passed = self.checks.get(program_id, {}).get(state_id)
        if state_id == self.current.get(program_id):
            style = "$success" if passed else "$error"
            return Content.from_markup(f"[reverse {style}] ◉ $id [/] $text", id=state_id, text=description)
        if passed is True:
            return Content.from_markup("[$success]✔ $id[/] $text", id=state_id, text=description)
        if passed is False:
            return Content.from_markup("[$error]✖ $id[/] $text", id=state_id, text=description)
        return Content.from_markup("[$text-muted]○ $id[/] $text", id=state_id, text=description)
