"""The program graph, drawn: a replay half-way through, the current state highlighted (an SVG snapshot)."""

from __future__ import annotations

from textual.app import App, ComposeResult

from engine.programs.program import Program
from programs import SHIPPED
from themes import THEMES
from widgets.program_graph import ProgramGraph


class GraphApp(App[None]):
    def compose(self) -> ComposeResult:
        yield ProgramGraph(id="graph")

    def on_mount(self) -> None:
        for theme in THEMES:
            self.register_theme(theme)
        self.theme = THEMES[0].name
        graph = self.query_one(ProgramGraph)
        graph.show_program(Program.load(SHIPPED / "archive-file.json"))
        graph.begin("p-e6204d372a")
        graph.mark("p-e6204d372a", "s0", True)
        graph.mark("p-e6204d372a", "s1", False)


def test_graph_shows_a_failed_check_where_the_replay_stopped(snap_compare) -> None:
    assert snap_compare(GraphApp(), terminal_size=(72, 14))
