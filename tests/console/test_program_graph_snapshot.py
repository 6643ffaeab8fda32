"""The program graph, drawn (SVG snapshots): a replay half-way through a branched program at 120×40, the detail
beside the graph; and a spliced program with a branch of its own and a branch that loops back, at 80×24."""

from __future__ import annotations

import tempfile
from pathlib import Path

from textual.app import App, ComposeResult

from engine.envs.workspace import WorkspaceEnv
from engine.programs.compiler import Recorded
from engine.programs.program import Program
from engine.programs.splice import extend
from engine.runtime import build_registry
from engine.tools.call import ToolCall
from programs import SHIPPED
from themes import THEMES
from widgets.program_graph import ProgramGraph

PARAMS = {"file": "report.txt"}


def write(path: str) -> Recorded:
    return Recorded(ToolCall("fs.write", {"path": path, "content": "restored"}))


def branched() -> Program:
    """The shipped archive program after two fallbacks at s1 were spliced in: one whose continuation ends
    on its own (a branch with its own terminal state), one that rejoins s1 (a loop back, drawn returning)."""
    archive = Program.load(SHIPPED / "archive-file.json")
    failed = archive.state("s1").check
    with tempfile.TemporaryDirectory() as scratch:
        registry = build_registry([WorkspaceEnv(Path(scratch))])
        own = extend(archive, "s1", failed, [write("report.txt"), write("archive/index.txt")], PARAMS, registry)
        move = Recorded(ToolCall("fs.move", {"src": "report.txt", "dst": "archive/report.txt"}))
        return extend(own, "s1", failed, [write("report.txt"), write("archive/log.txt"), move], PARAMS, registry)


class GraphApp(App[None]):
    def __init__(self, program: Program, marks: tuple = ()) -> None:
        super().__init__()
        self.program, self.marks = program, marks

    def compose(self) -> ComposeResult:
        yield ProgramGraph(id="graph")

    def on_mount(self) -> None:
        for theme in THEMES:
            self.register_theme(theme)
        self.theme = THEMES[0].name
        graph = self.query_one(ProgramGraph)
        graph.show_program(self.program)
        if self.marks:
            graph.begin(self.program.id)
        for state_id, passed, observed in self.marks:
            expected = {"all": [leaf["predicate"] for leaf in observed]}
            graph.mark(self.program.id, state_id, passed, observed=observed, expected=expected, waited_s=0.4)


MID_REPLAY = (
    ("s0", True, []),
    ("s1", True, [{"predicate": {"not": {"exists": "report.txt"}}, "holds": True, "saw": ""},
                  {"predicate": {"exists": "archive"}, "holds": True, "saw": "archive/ is a folder"}]),
    ("s1b2_1", False, [{"predicate": {"exists": "archive"}, "holds": True, "saw": ""},
                       {"predicate": {"exists": "report.txt"}, "holds": False, "saw": "no report.txt; notes/, todo.txt"},
                       {"predicate": {"absent": "archive/report.txt"}, "holds": True, "saw": ""}]),
)


def test_graph_mid_replay_at_120x40(snap_compare) -> None:
    assert snap_compare(GraphApp(branched(), MID_REPLAY), terminal_size=(120, 40))


def test_branched_program_at_80x24(snap_compare) -> None:
    assert snap_compare(GraphApp(branched()), terminal_size=(80, 24))
