"""During a replay the program graph's detail area shows the state checked last predicate by predicate: each leaf
with ✔ or ✖, what it expected, and what the screen showed when it did not hold; an engine that reports no leaves
leaves the check shown as it is written."""

from __future__ import annotations

from pathlib import Path

from textual.app import App, ComposeResult

from app.console import create_app
from engine.events.records import ReplayStarted, StateChecked
from engine.programs.describe import describe
from engine.programs.program import Program
from engine.runtime import Switches
from programs import SHIPPED
from tests.console.test_demo_flow import SIZE, until
from tests.console.test_program_graph import details, style_of
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
        await until(pilot, lambda: "saw" in graph.details().plain, "the failed check's leaves")

        assert details(graph) == [
            "s1 · before fs.move  ✖ did not hold (checked last) · waited 0.5s",
            "  ✔ exists archive",
            "  ✖ exists report.txt",
            "    saw no report.txt; the workspace holds notes/, todo.txt",
            "  ✔ absent archive/report.txt",
            "  then",
            "  → s2 fs.move {file} → archive/{file}",
        ]
        shown = graph.details()
        assert style_of(shown, "✖ exists report.txt") == "b $error"
        assert style_of(shown, "exists report.txt") == "$error"
        assert style_of(shown, "no report.txt") == "$text-warning"
        assert style_of(shown, "✔ exists archive") == "$success"
        drawn = graph.drawing()
        assert style_of(drawn, "s1  before fs.move").startswith("reverse $error")
        assert "✔ s0" in drawn.plain and "○ s2" in drawn.plain

        graph.focus()
        await pilot.press("k")
        assert details(graph)[:3] == [
            "s0 · start  ✔ held",
            "  no leaves were reported; the check as written:",
            "  ? always (the check is empty)",
        ], "a check reported without leaves is shown as written"

        await publish(ReplayStarted(None, PROGRAM, {"file": "report.txt"}))
        await publish(StateChecked(None, PROGRAM, "s0", True))
        await publish(StateChecked(None, PROGRAM, "s1", True, {}, [], 0.0))
        # The last replay's s1 was checked last too (and failed): wait for this replay's own, passing, check.
        await until(pilot, lambda: (check := graph.replays[PROGRAM].checks.get("s1")) is not None and check.passed,
                    "the next replay's check of s1")
        assert "◉ s1" in graph.drawing().plain
        assert graph.selected == "s1", "a new replay is followed again"
        assert "saw" not in graph.details().plain, "a new replay forgets the last one's leaves"
        assert details(graph)[:5] == [
            "s1 · before fs.move  ✔ held (checked last)",
            "  no leaves were reported; the check as written:",
            "  ? exists archive",
            "  ? exists {file}",
            "  ? absent archive/{file}",
        ]
        assert style_of(graph.drawing(), "s1  before fs.move").startswith("reverse $success")


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
        graph = app.query_one(ProgramGraph)
        assert details(graph) == [
            "s1-b0 · not a state of this revision  ✖ did not hold (checked last) · waited 1.5s",
            f"  expects {describe(expected)}",
            f"  ✖ {describe(save)}",
            "    saw button 'Cancel'",
            f"  ✔ {describe(login)}",
            '  ✖ "not a leaf"',
        ]
        await pilot.press("e")
        assert details(graph)[1:3] == [f"  expected: {describe(expected)}", "    expected              observed"]
        assert details(graph)[-1] == '  ✖ "not a leaf"          nothing reported'


def test_a_failed_check_drawn_leaf_by_leaf(snap_compare) -> None:
    assert snap_compare(GraphApp("s1", S1_EXPECTED, S1_OBSERVED), terminal_size=(80, 28))
