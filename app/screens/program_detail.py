"""A program in full: its graph, each state with its check and the transitions out of it, its parameters,
how it has served (replays, successes, fallbacks, the last failure) and its verification record."""

from __future__ import annotations

from typing import Any

from textual.content import Content
from textual.widget import Widget
from textual.widgets import Static

from app.screens.record_detail import DetailScreen, labelled, section
from engine.programs.detail import ProgramDetail, param_lines, record_lines, state_lines, stats_lines
from engine.visible import visible
from widgets.program_graph import ProgramGraph

GRAPH_ROWS = (10, 24)  # the graph is given about four rows a state, within these bounds
STATUS_TONES = {"verified": "$text-success", "accepted": "$text-success", "unverified": "$text-warning"}


class ProgramDetailScreen(DetailScreen[ProgramDetail]):
    KIND = "program"

    async def fetch(self, reader: Any) -> ProgramDetail:
        detail = await reader.program_detail(self.record_id)
        if detail is None:
            raise LookupError("it is no longer stored")
        return detail

    def title_line(self, detail: ProgramDetail) -> Content:
        program = detail.program
        return Content.assemble(("Program ", "bold"), visible(program.id), " · ",
                                (visible(program.status), STATUS_TONES.get(program.status, "")),
                                f" · {visible(program.kind)} · revision {program.revision}")

    def render_detail(self, detail: ProgramDetail) -> list[Widget]:
        program = detail.program
        facts = [labelled("goal", program.goal_template), labelled("description", program.description or "—"),
                 labelled("signature", program.signature),
                 labelled("status", program.status, STATUS_TONES.get(program.status, "$text-muted"))]
        widgets = section("Program", facts)
        graph = ProgramGraph(id="detail-graph")
        graph.styles.height = min(max(4 * len(program.states) + 4, GRAPH_ROWS[0]), GRAPH_ROWS[1])
        widgets += [Static("Graph", classes="detail-heading"), graph]
        states: list[Content] = []
        for state in state_lines(program):
            role = f" ({state.role})" if state.role else ""
            states.append(Content.assemble((visible(state.id), "bold"), role, "  ",
                                           (visible(state.description), "$text-muted")))
            states.append(Content.assemble("    check  ", visible(state.check)))
            states.extend(Content.assemble("    ", visible(line)) for line in state.leaving)
        widgets += section("States", states)
        widgets += section("Parameters", list(param_lines(program)) or [Content.styled("none", "$text-muted")])
        widgets += section("Statistics", list(stats_lines(detail.stats)))
        widgets += section("Verification", list(record_lines(program.verification))
                           or [Content.styled("no verification recorded", "$text-muted")])
        widgets += section("Provenance", list(record_lines(program.provenance))
                           or [Content.styled("no provenance recorded", "$text-muted")])
        return widgets

    def shown(self, detail: ProgramDetail) -> None:
        self.query_one("#detail-graph", ProgramGraph).show_program(detail.program)
