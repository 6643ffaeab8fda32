"""The operator console: four live panes over a runtime that runs on its own thread.

The app talks to the engine only through `Runtime`'s public methods (scheduled on the
engine's loop) and the events every process writes to the database: each event updates
just the rows it changed, and `StateChecked` lights up the program graph.
"""

from __future__ import annotations

import asyncio
import gc
import os
import time
from collections import deque
import tomllib
from pathlib import Path

from textual import on, work
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.widgets import DataTable, Footer, Header
from textual.worker import Worker, WorkerState

from app.changes import Changes, Fetched, everything
from app.messages import EngineReported, ProgramAccepted, ProgramDiscarded
from app.palette import WardenCommands
from app.screens.policy import PolicyScreen
from app.screens.program_decision import ProgramDecisionScreen
from engine.demo import demo_tasks, seed_workspace, web_demo
from engine.demo_site import DemoSite
from engine.envs.web import browser_problem
from engine.errors import WardenError
from engine.events.records import ProgramRejected, ReplayStarted, StateChecked
from engine.gate.policy import Policy
from engine.programs.program import Program
from engine.runtime import Runtime, Switches, warden_home
from engine.reader import Reader
from engine.thread import EngineThread
from themes import STYLESHEET, THEMES
from widgets.approval_list import ApprovalList
from widgets.program_graph import ProgramGraph
from widgets.program_list import ProgramList
from widgets.receipt_journal import ReceiptJournal
from widgets.task_queue import TaskQueue


class WardenApp(App[int]):
    TITLE = "Warden"
    CSS_PATH = STYLESHEET
    COMMANDS = App.COMMANDS | {WardenCommands}
    BINDINGS = [
        Binding("a", "approve", "Approve", id="warden.approve"),
        Binding("d", "deny", "Deny", id="warden.deny"),
        Binding("u", "undo", "Undo", id="warden.undo"),
        Binding("U", "force_undo", "Force undo", id="warden.force_undo", show=False),
        Binding("c", "cancel_task", "Cancel task", id="warden.cancel"),
        Binding("b", "raise_budget", "Raise budget", id="warden.raise_budget", show=False),
        Binding("p", "show_policy", "Policy", id="warden.policy"),
        Binding("t", "toggle_theme", "Theme", id="warden.theme"),
        Binding("q", "quit", "Quit", id="warden.quit"),
    ]

    def __init__(self, home: Path, workspace: Path | None = None, demo: bool = False, pace: float = 0.0,
                 switches: Switches | None = None, web_demo: bool = True) -> None:
        super().__init__()
        self.home = home
        self.workspace = workspace
        self.demo = demo
        self.web_demo = web_demo
        self.site: DemoSite | None = None
        self.pace = pace
        self.switches = switches
        self.engine: EngineThread | None = None
        self.reader: Reader | None = None
        self.policy: Policy | None = None
        self.failure: str | None = None
        self.latencies: deque[float] = deque(maxlen=10_000)
        self._changes = Changes()
        self._applying = False
        for theme in THEMES:
            self.register_theme(theme)
        self.theme = THEMES[0].name

    def compose(self) -> ComposeResult:
        yield Header()
        yield self._pane(TaskQueue(id="tasks"), "Tasks")
        yield self._pane(ApprovalList(id="approvals"), "Approvals — a approve · d deny")
        yield self._pane(ReceiptJournal(id="journal"), "Journal — u undo")
        with Horizontal(id="programs-pane", classes="pane") as pane:
            pane.border_title = "Programs — a accept · x discard"
            yield ProgramList(id="programs")
            yield ProgramGraph(id="graph")
        yield Footer()

    @staticmethod
    def _pane(table: DataTable, title: str) -> DataTable:
        table.add_class("pane")
        table.border_title = title
        return table

    def on_mount(self) -> None:
        self.watch(self.query_one(ProgramList), "summary", self._programs_summary)
        self._load_keymap(self.home / "keymap.toml")
        self.start_engine()

    def _load_keymap(self, path: Path) -> None:
        """`keymap.toml` maps binding ids to keys, e.g. `"warden.approve" = "y"`."""
        if not path.exists():
            return
        try:
            keymap = tomllib.loads(path.read_text(encoding="utf-8"))
        except (OSError, tomllib.TOMLDecodeError) as exc:
            self.notify(f"{path}: {exc}", title="keymap ignored", severity="error")
            return
        self.set_keymap({str(k): str(v) for k, v in keymap.items()})

    async def on_unmount(self) -> None:
        self.workers.cancel_group(self, "events")
        if self.site is not None:
            self.site.stop()
        if self.reader is not None:
            await self.reader.close()
        if self.engine is not None:
            await self.engine.stop()

    @work(exclusive=True, group="engine", exit_on_error=False)
    async def start_engine(self) -> None:
        """Open the runtime on its own thread, show what it holds, then follow every process's events."""
        loop = asyncio.get_running_loop()

        async def open_runtime() -> Runtime:
            runtime = await Runtime.open(self.home, self.workspace, self.switches, pace=self.pace)
            runtime.on_publish(lambda: loop.call_soon_threadsafe(self._nudge_reader))
            return runtime

        engine = EngineThread(open_runtime)
        try:
            runtime = await engine.start()
        except WardenError as exc:
            self.failure = f"warden: {exc}"
            self.exit(2, return_code=2, message=self.failure)
            return
        self.engine = engine
        self.policy = runtime.policy
        self.sub_title = str(runtime.workspace.root)
        self.reader = await Reader.open(self.home)
        after, tasks, approvals, receipts, programs = await everything(self.reader)
        self.query_one(TaskQueue).show_tasks(tasks)
        self.query_one(ApprovalList).show_approvals(approvals)
        self.query_one(ReceiptJournal).show_receipts(receipts)
        self.query_one(ProgramList).show_programs(programs)
        if programs:
            self.show_graph(self.query_one(ProgramList).selected_key)
        self._settle_collector()
        self.follow_events(after)
        engine.spawn(lambda rt: rt.watch_programs())
        engine.spawn(lambda rt: rt.serve())
        if self.demo:
            for spec in demo_tasks():
                await engine.call(lambda rt, spec=spec: rt.submit(spec))
            if self.web_demo:
                self.start_web_demo(engine)

    def start_web_demo(self, engine: EngineThread) -> None:
        """With a browser, serve the demo site and queue its two web tasks; without one, say what was skipped."""
        problem = browser_problem(os.environ.get("WARDEN_BROWSER") or None)
        if problem is not None:
            self.notify(f"Web demo skipped: {problem}", severity="warning", timeout=10)
            return
        self.site = DemoSite(dialog="never")
        url = self.site.start()
        engine.spawn(lambda rt: web_demo(rt, url))

    @staticmethod
    def _settle_collector() -> None:
        """Full garbage collections walk every object of the process, the engine's too, and stalled the
        panes for ~110 ms each (`warden bench console`). What exists once the console has loaded is
        frozen out of them, and young collections run less often, so the full ones stay rare and short."""
        gc.freeze()
        gc.set_threshold(10_000, 10, 10)

    def _nudge_reader(self) -> None:
        """The engine just wrote an event: the reader's tail looks now rather than at its next poll."""
        if self.reader is not None:
            self.reader.nudge()

    @work(exclusive=True, group="events", exit_on_error=False)
    async def follow_events(self, after: int) -> None:
        """Every event written after `after`, by any process, read on the console's own connection."""
        async for recorded in self.reader.tail(after):
            self.post_message(EngineReported(recorded.event, recorded.at))

    def on_engine_reported(self, message: EngineReported) -> None:
        """Each event marks the records it changed; one worker fetches and redraws just those rows."""
        event = message.event
        if isinstance(event, ReplayStarted):
            self.query_one(ProgramGraph).begin(event.program_id)
        elif isinstance(event, StateChecked):
            self._follow_replay(event)
        elif isinstance(event, ProgramRejected):
            self.notify(event.reason, title="program not stored", severity="warning", timeout=8)
        self._changes.note(event, message.at)
        if not self._changes.empty:
            self.apply_changes()

    def _programs_summary(self, summary: str) -> None:
        """The Programs pane's subtitle: how many programs, and how many wait for a person."""
        self.query_one("#programs-pane").border_subtitle = summary

    def _follow_replay(self, event: StateChecked) -> None:
        graph = self.query_one(ProgramGraph)
        graph.mark(event.program_id, event.state_id, event.passed,
                   observed=event.observed, expected=event.expected, waited_s=event.waited_s)
        programs = self.query_one(ProgramList)
        if event.program_id in programs.rows:
            programs.move_cursor(row=programs.get_row_index(event.program_id), animate=False)
        self.show_graph(event.program_id)

    @work(group="refresh", exit_on_error=False)
    async def apply_changes(self) -> None:
        """Fetch the changed records from the engine and update their rows; events arriving meanwhile
        are picked up by the same loop, so there is never more than one of these at work."""
        if self._applying or self.reader is None:
            return
        self._applying = True
        try:
            while not self._changes.empty:
                batch = self._changes.take()
                fetched = await batch.fetch(self.reader)
                self._apply(fetched)
                self.latencies.extend(time.time() - at for at in batch.times)
        finally:
            self._applying = False

    def _apply(self, fetched: Fetched) -> None:
        tasks = self.query_one(TaskQueue)
        for task in fetched.tasks:
            tasks.update_task(task)
        if fetched.approvals is not None:
            self.query_one(ApprovalList).show_approvals(fetched.approvals)
        journal = self.query_one(ReceiptJournal)
        for receipt in fetched.receipts:
            journal.update_receipt(receipt)
        programs = self.query_one(ProgramList)
        for program in fetched.programs:
            programs.update_program(program)
        graph = self.query_one(ProgramGraph)
        for program_id in fetched.removed_programs:
            programs.remove(program_id)
            if graph.program is not None and graph.program.id == program_id:
                graph.show_program(None)
        shown = graph.program.id if graph.program is not None else None
        if programs.selected_key and (shown is None or shown in {p.id for p in fetched.programs}):
            self.show_graph(programs.selected_key)

    @on(DataTable.RowHighlighted, "#programs")
    def _program_highlighted(self, event: DataTable.RowHighlighted) -> None:
        self.show_graph(event.row_key.value)

    @work(exclusive=True, group="graph", exit_on_error=False)
    async def show_graph(self, program_id: str) -> None:
        if self.reader is not None:
            self.query_one(ProgramGraph).show_program(await self.reader.program(program_id))

    def action_approve(self) -> None:
        if not self.query_one(ApprovalList).decide(approved=True):
            self.notify("No call is waiting for approval.", severity="warning")

    def action_deny(self) -> None:
        if not self.query_one(ApprovalList).decide(approved=False):
            self.notify("No call is waiting for approval.", severity="warning")

    def action_undo(self, force: bool = False) -> None:
        if not self.query_one(ReceiptJournal).request_undo(force):
            self.notify("Select a receipt in the journal first.", severity="warning")

    def action_force_undo(self) -> None:
        self.action_undo(force=True)

    def action_cancel_task(self) -> None:
        if not self.query_one(TaskQueue).request_cancel():
            self.notify("Select a task first.", severity="warning")

    def action_raise_budget(self) -> None:
        if not self.query_one(TaskQueue).request_budget_raise():
            self.notify("Select a task first.", severity="warning")

    @work(group="budget", exit_on_error=False)
    async def on_task_queue_budget_raise_requested(self, message: TaskQueue.BudgetRaiseRequested) -> None:
        task = await self.reader.task(message.task_id)
        budget = (await self.reader.queue.budget(task)).doubled()
        if not budget.as_json():
            self.notify(f"{task.id} has no budget to raise.", severity="warning")
            return
        await self.engine.call(lambda rt: rt.raise_budget(message.task_id, budget))
        self.notify(f"Doubled the budget of {task.id}: {budget.as_json()}.")

    @work(group="decide", exit_on_error=False)
    async def on_approval_list_decided(self, message: ApprovalList.Decided) -> None:
        if message.approved:
            await self.engine.call(lambda rt: rt.approve(message.approval_id))
        else:
            await self.engine.call(lambda rt: rt.deny(message.approval_id))
        self.notify(f"{'Approved' if message.approved else 'Denied'} {message.approval_id}.")

    @work(group="undo", exit_on_error=False)
    async def on_receipt_journal_undo_requested(self, message: ReceiptJournal.UndoRequested) -> None:
        receipt = await self.engine.call(lambda rt: rt.undo(message.receipt_id, message.force))
        self.notify(f"Undid {receipt.summary}.")

    @work(group="cancel", exit_on_error=False)
    async def on_task_queue_cancel_requested(self, message: TaskQueue.CancelRequested) -> None:
        await self.engine.call(lambda rt: rt.cancel(message.task_id))
        self.notify(f"Cancelled {message.task_id}.")

    def action_accept_program(self) -> None:
        if not self.query_one(ProgramList).request_accept():
            self.notify("Select a program first.", severity="warning")

    def action_discard_program(self) -> None:
        if not self.query_one(ProgramList).request_discard():
            self.notify("Select a program first.", severity="warning")

    @work(group="programs", exit_on_error=False)
    async def on_program_list_accept_requested(self, message: ProgramList.AcceptRequested) -> None:
        """Only an unverified program waits to be accepted; the person confirms, then the engine serves it."""
        program = await self._program_to_decide(message.program_id)
        if program is None:
            return
        if program.status != "unverified":
            self.notify(f"{program.id} is {program.status}: only an unverified program waits to be accepted.",
                        severity="warning")
            return
        if await self.push_screen_wait(ProgramDecisionScreen(program, "accept", self._program_file(program.id))):
            accepted = await self.engine.call(lambda rt: rt.accept_program(program.id))
            self.post_message(ProgramAccepted(accepted))

    @work(group="programs", exit_on_error=False)
    async def on_program_list_discard_requested(self, message: ProgramList.DiscardRequested) -> None:
        """The person confirms, then the engine forgets the program: its row and its file."""
        program = await self._program_to_decide(message.program_id)
        if program is None:
            return
        if await self.push_screen_wait(ProgramDecisionScreen(program, "discard", self._program_file(program.id))):
            await self.engine.call(lambda rt: rt.remove_program(program.id))
            self.post_message(ProgramDiscarded(program.id))

    async def _program_to_decide(self, program_id: str) -> Program | None:
        """The program as stored now (another process may have changed it), or None, said in one line."""
        if self.reader is None or self.engine is None:
            self.notify("The engine has not started yet.", severity="warning")
            return None
        program = await self.reader.program(program_id)
        if program is None:
            self.notify(f"{program_id} is no longer stored.", severity="warning")
        return program

    def _program_file(self, program_id: str) -> Path:
        return self.home / "programs" / f"{program_id}.json"

    def on_program_accepted(self, message: ProgramAccepted) -> None:
        self.query_one(ProgramList).update_program(message.program)
        graph = self.query_one(ProgramGraph)
        if graph.program is not None and graph.program.id == message.program.id:
            graph.show_program(message.program)
        self.notify(f"Accepted {message.program.id}: it is served from now on.")

    def on_program_discarded(self, message: ProgramDiscarded) -> None:
        self.query_one(ProgramList).remove(message.program_id)
        graph = self.query_one(ProgramGraph)
        if graph.program is not None and graph.program.id == message.program_id:
            graph.show_program(None)
        self.notify(f"Discarded {message.program_id}; its file is removed.")

    def action_focus(self, widget_id: str) -> None:
        self.query_one(f"#{widget_id}").focus()

    def action_show_policy(self) -> None:
        if self.policy is not None:
            self.push_screen(PolicyScreen(self.policy))

    def action_toggle_theme(self) -> None:
        self.theme = THEMES[1].name if self.theme == THEMES[0].name else THEMES[0].name

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        """The one place a failed worker becomes a visible, one-line error."""
        if event.state is WorkerState.ERROR:
            error = event.worker.error
            self.notify(str(error) if isinstance(error, WardenError) else f"{type(error).__name__}: {error}",
                        title=f"{event.worker.group} failed", severity="error", timeout=8)


def create_app(home: Path | None = None, workspace: Path | None = None, demo: bool = False, pace: float = 0.0,
               switches: Switches | None = None, web_demo: bool = True) -> WardenApp:
    """The factory tests and commands use; `home` defaults to `$WARDEN_HOME`; `web_demo=False` leaves the demo's
    web tasks out."""
    home = Path(home) if home else warden_home()
    if demo:
        seed_workspace(workspace or home / "workspace")
    return WardenApp(home, workspace, demo=demo, pace=pace, switches=switches, web_demo=web_demo)


def run_console() -> int:
    return create_app().run() or 0
