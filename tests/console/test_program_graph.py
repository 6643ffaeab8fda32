"""The program graph during real replays in the console: the state being checked is highlighted, each check is
marked, the path walked is traced, keys move between states, and a fallback's spliced branch appears and is walked."""

from __future__ import annotations

from pathlib import Path

from textual.content import Content

from app.console import create_app
from engine.runtime import Switches
from engine.tasks.task import TaskSpec, scripted
from engine.tools.call import ToolCall
from tests.console.test_demo_flow import SIZE, asking, query, until
from tests.console.test_program_graph_snapshot import GraphApp, branched
from widgets.program_graph import ProgramGraph
from widgets.program_list import ProgramList


def retire(name: str, *steps: ToolCall) -> TaskSpec:
    return TaskSpec(goal=f"Retire the file {name}", agent=scripted(steps), evaluator={"absent": name})


def attic_then_delete(name: str) -> tuple[ToolCall, ...]:
    """The family's run: make the attic (safe), then delete the file (dangerous: it waits for a person)."""
    return ToolCall("fs.mkdir", {"path": "attic"}), ToolCall("fs.delete", {"path": name})


def line(content: Content, text: str) -> Content:
    """The drawn line that holds `text`, with its styles."""
    return next(drawn for drawn in content.split("\n") if text in drawn.plain)


def style_of(content: Content, text: str) -> str:
    """The style of `text` where it is drawn (the spans that cover its first character)."""
    drawn = line(content, text)
    start = drawn.plain.index(text)
    return " ".join(str(span.style) for span in drawn.spans if span.start <= start < span.end)


def details(graph: ProgramGraph) -> list[str]:
    return graph.details().plain.splitlines()


class Console:
    """The console over a home whose corpus learns the "Retire the file {file}" family (verify gate off, so
    a learned or extended program is served at once), with helpers to run tasks and answer approvals."""

    def __init__(self, tmp_path: Path) -> None:
        self.home, self.workspace = tmp_path / "home", tmp_path / "workspace"
        self.workspace.mkdir()
        for name in ("a", "b", "c", "d"):
            (self.workspace / f"{name}.txt").write_text(name)
        asking(self.home)
        self.app = create_app(self.home, self.workspace, switches=Switches(verify_gate=False))

    def pending(self) -> list[tuple]:
        return query(self.home, "SELECT id FROM approvals WHERE status = 'pending'")

    async def submit(self, spec: TaskSpec) -> str:
        task = await self.app.engine.call(lambda rt: rt.submit(spec))
        return task.id

    async def approve(self, pilot) -> None:
        await until(pilot, self.pending, "a call waiting for approval")
        [(approval_id,)] = self.pending()
        await self.app.engine.call(lambda rt: rt.approve(approval_id))

    def status(self, task_id: str) -> tuple:
        return query(self.home, "SELECT status, mode FROM tasks WHERE id = ?", (task_id,))[0]

    async def learn(self, pilot) -> None:
        programs = self.app.query_one(ProgramList)
        await until(pilot, lambda: programs.row_count == 1, "the shipped program")
        first = await self.submit(retire("a.txt", *attic_then_delete("a.txt")))
        await self.approve(pilot)
        await until(pilot, lambda: programs.row_count == 2, "the family's program learned from the first run")
        assert self.status(first) == ("succeeded", "agent")


async def test_a_replay_lights_up_the_graph_and_keys_walk_its_states(tmp_path: Path) -> None:
    console = Console(tmp_path)
    async with console.app.run_test(size=SIZE) as pilot:
        graph = console.app.query_one(ProgramGraph)
        await console.learn(pilot)
        await pilot.press("f")  # the graph follows each live replay (it never moves the Programs selection)

        task = await console.submit(retire("b.txt", *attic_then_delete("b.txt")))
        await until(pilot, console.pending, "the replay to stop at its dangerous step")
        await until(pilot, lambda: "◉ s1" in graph.drawing().plain, "the graph to follow the replay")
        await until(pilot, lambda: console.status(task) == ("paused", "replay"), "the task to wait for a person")
        drawn = graph.drawing()
        assert graph.program.goal_template == "Retire the file {file}"
        assert "✔ s0" in drawn.plain and "○ s2" in drawn.plain
        assert style_of(drawn, "s1  before fs.delete").startswith("reverse $success"), "the current state is lit"
        assert style_of(drawn, "✔ s0") == "$success"
        assert style_of(line(drawn, "fs.mkdir attic"), "│") == "b $success", "the step taken is traced"
        assert style_of(line(drawn, "fs.delete {file}"), "│") == "$text-muted", "the step not yet taken is not"
        assert details(graph)[:3] == [
            "s1 · before fs.delete  ✔ held (checked last)",
            "  ✔ exists attic",
            "  ✔ exists b.txt",
        ]

        graph.focus()
        await pilot.press("j")
        assert graph.selected == "s2"
        assert details(graph) == ["s2 · goal reached  not checked in this replay", "  ? absent {file}",
                                  "  terminal: the goal is reached here"]
        await pilot.press("k", "k")
        assert graph.selected == "s0" and details(graph)[0] == "s0 · start  ✔ held"
        assert details(graph)[-2:] == ["  then", "  → s1 fs.mkdir attic"]
        await pilot.press("down", "e")
        assert details(graph)[1:5] == [
            "  expected: exists attic and exists b.txt",
            "    expected      observed",
            "  ✔ exists attic  held",
            "  ✔ exists b.txt  held",
        ]
        assert style_of(graph.drawing(), "╭─▼──") == "b $accent", "the cursor's box is drawn in the accent"
        await pilot.press("e")
        assert details(graph)[1] == "  ✔ exists attic"

        await console.approve(pilot)
        await until(pilot, lambda: "◉ s2" in graph.drawing().plain, "the replay's last check")
        await until(pilot, lambda: console.status(task) == ("succeeded", "replay"), "the replay to finish")
        assert not (console.workspace / "b.txt").exists() and (console.workspace / "attic").is_dir()
        drawn = graph.drawing()
        assert "✔ s0" in drawn.plain and "✔ s1" in drawn.plain
        assert style_of(line(drawn, "fs.delete {file}"), "│") == "b $success"
        assert graph.selected == "s1", "the cursor a person moved stays where they put it"


async def test_a_fallback_splices_a_guarded_branch_that_the_next_replay_walks(tmp_path: Path) -> None:
    console = Console(tmp_path)
    async with console.app.run_test(size=SIZE) as pilot:
        graph = console.app.query_one(ProgramGraph)
        await console.learn(pilot)
        await pilot.press("f")  # the graph follows each live replay (it never moves the Programs selection)

        (console.workspace / "c.txt").unlink()
        recreate = ToolCall("fs.write", {"path": "c.txt", "content": "c"})
        fell_back = await console.submit(retire("c.txt", recreate, ToolCall("fs.delete", {"path": "c.txt"})))
        await until(pilot, lambda: "✖ did not hold" in graph.details().plain, "the replay's failed check")
        assert details(graph)[1:3] == ["  ✔ exists attic", "  ✖ exists c.txt"]
        assert style_of(graph.drawing(), "s1  before fs.delete").startswith("reverse $error")
        await console.approve(pilot)
        await until(pilot, lambda: console.status(fell_back)[0] == "succeeded", "the agent to finish the task")
        await until(pilot, lambda: "revision 2" in graph.drawing().plain, "the extended program to be drawn")
        drawn = graph.drawing()
        assert "↻ if its check fails" in drawn.plain and "fs.write {file}" in drawn.plain
        assert style_of(drawn, "↻ if its check fails") == "italic $text-warning"
        assert "  ↻ s1 if its check fails · fs.write {file}" in details(graph)

        (console.workspace / "d.txt").unlink()
        looped = await console.submit(retire("d.txt", *attic_then_delete("d.txt")))
        await until(pilot, console.pending, "the replay to reach the delete, by way of the branch")
        await until(pilot, lambda: style_of(line(graph.drawing(), "↻ if its check"), "╰") == "b $success",
                    "the loop traced as walked")
        await until(pilot, lambda: console.status(looped) == ("paused", "replay"), "the branch to serve the task")
        assert (console.workspace / "d.txt").read_text() == "c", "the branch's step ran"
        assert style_of(graph.drawing(), "s1  before fs.delete").startswith("reverse $success")
        await console.approve(pilot)
        await until(pilot, lambda: console.status(looped) == ("succeeded", "replay"), "the replay to finish")
        assert not (console.workspace / "d.txt").exists()


async def test_keys_and_clicks_move_between_the_states_of_a_wide_graph() -> None:
    app = GraphApp(branched())
    async with app.run_test(size=(80, 24)) as pilot:
        graph = app.query_one(ProgramGraph)
        graph.focus()
        await pilot.pause()
        drawn = graph.drawing().plain.splitlines()
        assert max(len(text) for text in drawn) > 80, "the graph is wider than the terminal"
        scroll = app.query_one("#graph-scroll")
        assert scroll.max_scroll_x > 0, "and scrolls sideways instead of breaking"

        assert graph.selected == "s0"
        await pilot.press("j", "j")
        assert graph.selected == "s2"
        await pilot.press("l")
        assert graph.selected == "s1b2_1" and scroll.scroll_x == 0
        await pilot.press("l")
        assert graph.selected == "s1b1_1"
        assert scroll.scroll_x > 0, "the selected box is scrolled into view"
        assert details(graph)[0] == "s1b1_1 · branch: before fs.write"
        await pilot.press("h", "h")
        assert graph.selected == "s2"
        await pilot.press("end")
        assert graph.selected == graph.laid_out.order[-1]
        await pilot.press("home")
        assert graph.selected == "s0" and scroll.scroll_x == 0

        box = graph.laid_out.boxes["s1"]
        await pilot.click("#graph-drawing", offset=(box.x + 4, box.y + 1 + 2))
        assert graph.selected == "s1"
        assert details(graph)[-4:] == [
            "  then",
            "  → s1b2_1 if its check fails · fs.write {file}",
            "  → s1b1_1 if its check fails · fs.write {file}",
            "  → s2 fs.move {file} → archive/{file}",
        ]
        await pilot.press("j", "j")
        assert graph.selected == "s1b2_1"
        assert details(graph)[-1] == "  ↑ s1 fs.write archive/log.txt", "the loop back is named as such"
