"""During a replay the program graph shows the state checked last predicate by predicate: each leaf with ✔ or ✖,
what it expected, and what the screen showed when it did not hold; an engine that reports no leaves changes nothing."""

from __future__ import annotations

from pathlib import Path

from textual.app import App, ComposeResult
from textual.content import Content

from app.console import create_app
from engine.events.records import ReplayStarted, StateChecked
from engine.programs.describe import describe
from engine.programs.program import Program
from engine.runtime import Switches
from programs import SHIPPED
from tests.console.test_demo_flow import SIZE, until
from themes import THEMES
from widgets.program_graph import ProgramGraph
from widgets.program_list import ProgramList

PROGRAM = "p-e6204d372a"
S1_EXPECTED = {"all": [{"exists": "archive"}, {"exists": "report.txt"}, {"absent": "archive/report.txt"}]}
S1_OBSERVED = [
    {"predicate": {"exists": "archive"}, "holds": True, "saw": "archive/ is a folder"},
    {"predicate": {"exists": "report.txt"}, "holds": False, "saw": "no report.txt;\nthe workspace holds notes/, todo.txt"},
    {"predicate": {"absent": "archive/report.txt"}, "holds": True, "saw": ""},
]


def shown(graph: ProgramGraph) -> list[str]:
    return graph.render().plain.splitlines()


def line(graph: ProgramGraph, text: str) -> Content:
    """The drawn line that holds `text`, with its styles."""
    return next(drawn for drawn in graph.render().split("\n") if text in drawn.plain)


def styles(content: Content) -> set[str]:
    return {str(span.style) for span in content.spans}


async def test_a_replay_is_shown_leaf_by_leaf(tmp_path: Path) -> None:
    app = create_app(tmp_path / "home", tmp_path / "workspace", switches=Switches())
    async with app.run_test(size=SIZE) as pilot:
        programs, graph = app.query_one(ProgramList), app.query_one(ProgramGraph)
        await until(pilot, lambda: programs.row_count == 1 and graph.program is not None, "the shipped program drawn")

        async def publish(event) -> None:
            await app.engine.call(lambda rt: rt.bus.publish(event))

        await publish(ReplayStarted(None, PROGRAM, {"file": "report.txt"}))
        await publish(StateChecked(None, PROGRAM, "s0", True, {"all": []}, [], 0.0))
        await publish(StateChecked(None, PROGRAM, "s1", False, S1_EXPECTED, S1_OBSERVED, 0.5))
        await until(pilot, lambda: any("saw" in text for text in shown(graph)), "the failed check's leaves")

        drawn = shown(graph)
        assert drawn[drawn.index(" ◉ s1  before fs.move · waited 0.5s") + 1:][:4] == [
            "│   ✔ exists archive",
            "│   ✖ exists report.txt",
            "│     saw no report.txt; the workspace holds notes/, todo.txt",
            "│   ✔ absent archive/report.txt",
        ]
        assert "✔ s0 start" in drawn and "│   ? always" in drawn, "a check reported without leaves is drawn as written"
        assert not any("? exists archive" in text for text in drawn), "the checked state shows its leaves instead"
        assert {"b $error", "$error"} <= styles(line(graph, "✖ exists report.txt"))
        assert "$text-warning" in styles(line(graph, "saw no report.txt"))
        assert "$success" in styles(line(graph, "✔ exists archive"))
        assert "reverse $error" in styles(line(graph, "◉ s1"))

        await publish(ReplayStarted(None, PROGRAM, {"file": "report.txt"}))
        await publish(StateChecked(None, PROGRAM, "s0", True))
        await publish(StateChecked(None, PROGRAM, "s1", True, {}, [], 0.0))
        await until(pilot, lambda: " ◉ s1  before fs.move" in shown(graph), "the next replay's check of s1")
        drawn = shown(graph)
        assert not any("saw" in text for text in drawn), "a new replay forgets the last one's leaves"
        assert "│   ? exists archive and exists {file} and absent archive/{file}" in drawn
        assert "reverse $success" in styles(line(graph, "◉ s1"))


class GraphApp(App[None]):
    """The graph alone, one check reported as a screen engine would: a compound predicate, a branch state."""

    def __init__(self, state_id: str, expected: dict, observed: list) -> None:
        super().__init__()
        self.check = (state_id, expected, observed)

    def compose(self) -> ComposeResult:
        yield ProgramGraph(id="graph")

    def on_mount(self) -> None:
        for theme in THEMES:
            self.register_theme(theme)
        self.theme = THEMES[0].name
        graph = self.query_one(ProgramGraph)
        graph.show_program(Program.load(SHIPPED / "archive-file.json"))
        graph.begin(PROGRAM)
        graph.mark(PROGRAM, "s0", True)
        state_id, expected, observed = self.check
        graph.mark(PROGRAM, state_id, False, expected=expected, observed=observed, waited_s=1.5)


async def test_compound_checks_branch_states_and_odd_reports() -> None:
    save, login = {"exists": {"role": "button", "name": "Save"}}, {"url": {"contains": "/login"}}
    expected = {"all": [save, {"not": login}]}
    observed = [
        {"predicate": save, "holds": False, "saw": "button 'Cancel'"},
        {"predicate": login, "holds": True, "saw": "http://127.0.0.1:8000/login"},
        "not a leaf",
    ]
    app = GraphApp("s1-b0", expected, observed)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        drawn = shown(app.query_one(ProgramGraph))
        assert drawn[-6:] == [
            "✖ checked s1-b0 · waited 1.5s",
            f"    expects {describe(expected)}",
            f"    ✖ {describe(save)}",
            "      saw button 'Cancel'",
            f"    ✔ {describe(login)}",
            '    ✖ "not a leaf"',
        ]


def test_a_failed_check_drawn_leaf_by_leaf(snap_compare) -> None:
    assert snap_compare(GraphApp("s1", S1_EXPECTED, S1_OBSERVED), terminal_size=(72, 16))
