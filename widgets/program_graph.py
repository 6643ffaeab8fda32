"""The program graph: a program's states top to bottom, lit up check by check during a replay."""

from __future__ import annotations

from textual.content import Content
from textual.reactive import reactive
from textual.widget import Widget

from engine.programs.program import Program


def describe(predicate: dict) -> str:
    """A predicate in a few words, as the graph prints it under a state."""
    (form, body), = predicate.items()
    if form in ("all", "any"):
        joiner = " and " if form == "all" else " or "
        return joiner.join(describe(part) for part in body) if body else "always"
    if form == "not":
        return f"not ({describe(body)})"
    if form == "text":
        relation = "=" if "equals" in body else "∋"
        value = body.get("equals", body.get("contains", ""))
        shown = value if len(value) <= 24 else value[:23] + "…"
        return f"{body['path']} {relation} {shown!r}"
    return f"{form} {body}"


class ProgramGraph(Widget):
    """Shows one program; `mark` records a live check so the current state is highlighted."""

    program: reactive[Program | None] = reactive(None)
    current: reactive[str | None] = reactive(None)

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.checks: dict[str, bool] = {}

    def show_program(self, program: Program | None) -> None:
        if program is None or self.program is None or program.id != self.program.id:
            self.checks = {}
            self.current = None
        self.program = program

    def mark(self, state_id: str, passed: bool) -> None:
        self.checks[state_id] = passed
        self.current = state_id
        self.refresh()

    def render(self) -> Content:
        program = self.program
        if program is None:
            return Content.from_markup("[$text-muted]Select a program to see its states.[/]")
        lines = [Content.from_markup("[b]$goal[/b]", goal=program.goal_template)]
        path = program.path()
        for position, state_id in enumerate(path):
            state = program.state(state_id)
            lines.append(self._node(state_id, state.description))
            lines.append(Content.from_markup("[$text-muted]│   check: $check[/]", check=describe(state.check)))
            if position + 1 < len(path):
                transition = next(t for t in program.leaving(state_id) if t.target == path[position + 1])
                action = " ".join(f"{k}={str(v)[:28]!r}" for k, v in transition.action.args.items())
                lines.append(Content.from_markup("│ [$accent]▼ $tool[/] $action", tool=transition.action.tool, action=action))
        return Content("\n").join(lines)

    def _node(self, state_id: str, description: str) -> Content:
        passed = self.checks.get(state_id)
        if state_id == self.current:
            style = "$success" if passed else "$error"
            return Content.from_markup(f"[reverse {style}] ◉ $id [/] $text", id=state_id, text=description)
        if passed is True:
            return Content.from_markup("[$success]✔ $id[/] $text", id=state_id, text=description)
        if passed is False:
            return Content.from_markup("[$error]✖ $id[/] $text", id=state_id, text=description)
        return Content.from_markup("[$text-muted]○ $id[/] $text", id=state_id, text=description)
