"""The operator console: four live panes over a runtime that runs on its own thread.

The app talks to the engine only through `Runtime`'s public methods (scheduled on the
engine's loop) and the events every process writes to the database: each event updates
just the rows it changed, and `StateChecked` lights up the program graph. Below 100
columns the panes become tabs; `z` zooms one pane; the status line says whether the
engine runs and keeps the last error in sight.
"""

from __future__ import annotations

import asyncio
import gc
import os
import threading
import time
from collections import deque
from collections.abc import Callable
import tomllib
from pathlib import Path

from rich.text import Text
from textual import on, work
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Grid
from textual.notifications import SeverityLevel
from textual.widget import Widget
from textual.widgets import Footer, Header, Tab, Tabs
from textual.worker import Worker, WorkerState

from app import confirmations
from app import keymap as keymaps
from app.changes import Changes, Fetched, everything
from app.messages import EngineReported, EngineStopped, WatchEnded
from app.palette import WardenCommands
from app.record_actions import RecordActions
from app.screens.approval_detail import ApprovalDetailScreen
from app.screens.details import detail_screen
from app.screens.error_log import ErrorLogScreen, LoggedError
from app.screens.grants import GrantsScreen
from app.screens.help import HelpScreen
from app.screens.policy import PolicyScreen
from engine.demo import demo_tasks, seed_policy, seed_workspace, web_demo
from engine.demo_site import DemoSite
from engine.envs.web import browser_problem
from engine.errors import WardenError, one_line
from engine.events.records import (ActionCompleted, ApprovalDecided, ApprovalRequested, ProgramRejected, ReplayStarted,
                                   StateChecked)
from engine.gate.policy import Policy
from engine.reader import Reader
from engine.runtime import Runtime, Switches, warden_home
from engine.thread import EngineThread
from engine.visible import visible
from themes import STYLESHEET, THEMES
from widgets.approval_list import ApprovalList
from widgets.grant_list import GrantList
from widgets.program_graph import ProgramGraph
from widgets.program_list import ProgramList
from widgets.programs_pane import ProgramsPane
from widgets.receipt_journal import ReceiptJournal
from widgets.record_table import RecordTable
from widgets.status_line import EngineState, StatusLine
from widgets.task_queue import TaskQueue

PANES = ("tasks", "approvals", "journal", "programs")
RECORD_ACTIONS = frozenset({"approve", "deny", "approve_task", "approve_pattern", "undo", "undo_task", "force_undo",
                            "cancel_task", "raise_budget", "zoom",
                            "accept_program", "discard_program", "verify_program", "new_task", "show_pane"})
TITLES = {"tasks": "Tasks", "approvals": "Approvals", "journal": "Journal", "programs": "Programs"}
KEYS = {"tasks": (("warden.cancel", "cancel"), ("warden.undo_task", "undo task")),
        "approvals": ((("warden.approve", "warden.approve_task", "warden.approve_pattern"), "approve"),
                      ("warden.deny", "deny")),
        "journal": (("warden.undo", "undo"), ("warden.undo_task", "undo task")),
        "programs": (("warden.accept_program", "accept"), ("warden.discard_program", "discard"))}
"""The keys each pane's title names, by binding id: the title shows them as mapped now (`keymap.toml`). Ids given
together share a word (`a/T/P approve`: once, for the task, for the session)."""


REDRAW_EVERY = 0.1
"""Seconds between two rounds of pane changes while events stream in (`warden bench console`)."""
GATHER = 0.03
"""Seconds the panes wait after a change before redrawing: the events of one step come within a few ms of
each other, and gathered they cost one round of redraws instead of several."""
NUDGE_AFTER = 0.02
"""Seconds after the reader is woken before it is woken again: the events written meanwhile are read together."""


class WardenApp(RecordActions, App[int]):
    TITLE = "Warden"
    CSS_PATH = STYLESHEET
    COMMANDS = App.COMMANDS | {WardenCommands}
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (100, "-wide")]
    BINDINGS = [
        Binding("a", "approve", "Approve", id="warden.approve"),
        Binding("d", "deny", "Deny", id="warden.deny"),
        Binding("T", "approve_task", "Approve for the task", id="warden.approve_task", show=False),
        Binding("P", "approve_pattern", "Approve for the session", id="warden.approve_pattern", show=False),
        Binding("G", "show_grants", "Grants", id="warden.grants", show=False),
        Binding("u", "undo", "Undo", id="warden.undo"),
        Binding("U", "undo_task", "Undo task", id="warden.undo_task"),
        Binding("ctrl+u", "force_undo", "Force undo", id="warden.force_undo", show=False),
        Binding("c", "cancel_task", "Cancel task", id="warden.cancel"),
        Binding("n", "new_task", "New task", id="warden.new_task"),
        Binding("b", "raise_budget", "Raise budget", id="warden.raise_budget", show=False),
        Binding("z", "zoom", "Zoom", id="warden.zoom"),
        Binding("f", "toggle_follow", "Follow replays", id="warden.follow", show=False),
        Binding("tab", "next_pane(1)", "Next pane", id="warden.next_pane", show=False, priority=True),
        Binding("shift+tab", "next_pane(-1)", "Previous pane", id="warden.previous_pane", show=False, priority=True),
        *(Binding(str(n), f"show_pane('{pane}')", TITLES[pane], id=f"warden.pane.{pane}", show=False)
          for n, pane in enumerate(PANES, 1)),
        Binding("p", "show_policy", "Policy", id="warden.policy"),
        Binding("exclamation_mark", "show_errors", "Errors", id="warden.errors", show=False),
        Binding("t", "next_theme", "Theme", id="warden.theme"),
        Binding("question_mark", "show_help", "Help", id="warden.help"),
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
        self.errors: list[LoggedError] = []
        self._changes = Changes()
        self._applying = False
        self._applied_at = 0.0
        self._nudging = False
        self._nudge_again = False
        self._nudge_lock = threading.Lock()
        self.clock: Callable[[], float] = time.monotonic
        """The clock `a` and `d` measure how long a call has been on screen by (tests inject their own)."""
        self.follow_replays = False
        """`f`: the graph shows each live replay as it starts; off, it stays on the selected program."""
        self.replaying: str | None = None
        """The program replayed last (by this process or any other)."""
        self.approval_seen: tuple[str | None, float] = (None, 0.0)
        """The approval highlighted in the Approvals pane and since when (by `clock`)."""
        self.decided: tuple[str, int] | None = None
        """The approval decided last, and the count of cursor moves in the Approvals pane then."""
        self.remapped: dict[str, str] = {}
        """The keymap applied (`keymap.toml` less any remap that clashed): binding id to keys."""
        for theme in THEMES:
            self.register_theme(theme)
        self.theme = THEMES[0].name

    def compose(self) -> ComposeResult:
        yield Header()
        tabs = Tabs(*(Tab(TITLES[pane], id=f"tab-{pane}") for pane in PANES), id="pane-tabs")
        tabs.can_focus = False  # tab and the number keys switch panes; a click on a tab still does
        yield tabs
        with Grid(id="panes"):
            yield self._pane(TaskQueue(id="tasks"), "tasks")
            yield self._pane(ApprovalList(id="approvals"), "approvals")
            yield self._pane(ReceiptJournal(id="journal"), "journal")
            with ProgramsPane(id="programs-pane", classes="pane") as pane:
                pane.border_title = self._title("programs")
                yield ProgramList(id="programs")
                yield ProgramGraph(id="graph")
        yield StatusLine(id="status")
        yield Footer()

    def _pane(self, table: RecordTable, name: str) -> RecordTable:
        table.add_class("pane")
        table.border_title = self._title(name)
        return table

    def _title(self, pane: str, count: str = "") -> str:
        """A pane's title: its name, what it counts, and its keys as mapped now."""
        keys = " · ".join(f"{'/'.join(self.key_for(one) for one in ((ids,) if isinstance(ids, str) else ids))} {word}"
                          for ids, word in KEYS[pane])
        return f"{TITLES[pane]}{count} — {keys}"

    def key_for(self, binding_id: str) -> str:
        """The key a binding id is on now (`keymap.toml`), as the footer writes it."""
        return self.get_key_display(Binding(self._key_of(binding_id), ""))

    def _key_of(self, binding_id: str) -> str:
        keys = keymaps.keys_of(self.remapped, binding_id, KEYMAP_DEFAULTS)
        return keys[0] if keys else "?"

    def pane_of(self, widget: Widget | None) -> str | None:
        """Which of the four panes holds the widget, if any."""
        for node in (widget, *(widget.ancestors if widget is not None else ())):
            if isinstance(node, Widget) and node.id in PANES:
                return node.id
            if isinstance(node, Widget) and node.id == "programs-pane":
                return "programs"
        return None

    def _pane_widget(self, pane: str) -> Widget:
        return self.query_one("#programs-pane" if pane == "programs" else f"#{pane}")

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Keys that act on a pane's highlighted record work only on the main screen: under a confirmation, a
        form or a detail view they would act on a record out of sight."""
        if action in RECORD_ACTIONS and len(self.screen_stack) > 1:
            return False
        return True

    def on_mount(self) -> None:
        self.watch(self.query_one(ProgramList), "summary", self._programs_summary)
        self._load_keymap(self.home / "keymap.toml")
        self.action_show_pane("tasks")
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
        scopes = [(WardenApp, *chain) for chain in KEYMAP_CHAINS]
        self.remapped, clashes = keymaps.checked({str(k): str(v) for k, v in keymap.items()}, scopes)
        if clashes:
            self.notify(f"{path}: {'; '.join(clashes)}. Those keep their default keys.", title="keymap clash",
                        severity="error", timeout=15)
        self.set_keymap(self.remapped)
        for pane in ("tasks", "journal", "programs"):
            self._pane_widget(pane).border_title = self._title(pane)
        waiting = self.query_one(StatusLine).waiting
        self.query_one(ApprovalList).border_title = self._title("approvals", f" ({waiting} waiting)" if waiting else "")

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
            runtime.on_publish(lambda: self._published(loop))
            return runtime

        engine = EngineThread(open_runtime)
        try:
            runtime = await engine.start()
        except WardenError as exc:
            self.failure = f"warden: {visible(str(exc))}"
            self.exit(2, return_code=2, message=Text(self.failure))
            return
        self.engine = engine
        self.query_one(StatusLine).engine = EngineState.RUNNING
        self.policy = runtime.policy
        self.sub_title = visible(str(runtime.workspace.root))
        self.reader = await Reader.open(self.home)
        self.check_database(self.reader)
        after, approvals, programs = await everything(self.reader)
        self.query_one(TaskQueue).attach(self.reader)
        self._show_approvals(approvals)
        self.query_one(ReceiptJournal).attach(self.reader)
        self.query_one(ProgramList).show_programs(programs)
        if programs:
            self.show_graph(self.query_one(ProgramList).selected_key)
        self._settle_collector()
        self.follow_events(self.reader, after)
        engine.spawn(lambda rt: rt.watch_programs()).add_done_callback(self._watch_ended)
        engine.spawn(lambda rt: rt.serve()).add_done_callback(self._served)
        if self.demo:
            for spec in demo_tasks():
                await engine.call(lambda rt: rt.submit(spec))  # awaited: runs before `spec` moves on
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

    @work(group="integrity", exit_on_error=False)
    async def check_database(self, reader: Reader) -> None:
        """A database with damaged pages reads as empty tables in places: if it has any, the status line says so
        first, and every pane says why it may be empty, rather than a running engine over "no tasks"."""
        problem = await reader.problem()
        if problem is None:
            return
        self.query_one(StatusLine).database_damaged(problem)
        for table in self.query(RecordTable):
            table.body.empty = "cannot be read: the database is damaged (see the status line)"
            table.body.refresh()
        self.report_error("database", f"{problem}; restore the home from a backup, or move the file aside")

    @staticmethod
    def _settle_collector() -> None:
        """Full garbage collections walk every object of the process, the engine's too, and stalled the
        panes for ~110 ms each (`warden bench console`). What exists once the console has loaded is
        frozen out of them, and young collections run less often, so the full ones stay rare and short."""
        gc.freeze()
        gc.set_threshold(10_000, 10, 10)

    def _served(self, job) -> None:
        """Serving ended (called on the engine's thread, or on this one if it ended before the callback was set):
        unless the console is closing, the engine has stopped."""
        if job.cancelled() or not self.is_running:
            return
        error = job.exception()
        why = "it finished serving" if error is None else (
            str(error) if isinstance(error, WardenError) else f"{type(error).__name__}: {error}")
        self.post_message(EngineStopped(why))  # thread-safe, and this may run on either thread

    def _watch_ended(self, job) -> None:
        """Following the program files ended (on the engine's thread): unless the console is closing, say so
        where it stays in sight, since edits of program files are no longer picked up."""
        if job.cancelled() or not self.is_running:
            return
        error = job.exception()
        why = "it ended" if error is None else one_line(error)
        self.post_message(WatchEnded(why))  # thread-safe, and this may run on either thread

    def on_watch_ended(self, message: WatchEnded) -> None:
        self.report_error("programs", f"program files are no longer followed: {message.why}; restart the console "
                                      "to follow them again")

    def on_engine_stopped(self, message: EngineStopped) -> None:
        self.query_one(StatusLine).stopped(message.why)
        self.report_error("engine", f"the engine stopped: {message.why}; nothing runs until the console restarts")

    def notify(self, message: str, *, title: str = "", severity: SeverityLevel = "information",
               timeout: float | None = None, markup: bool = False) -> None:
        """Every toast of the console, the widgets' and screens' included, is raised here. Its words come from
        records (a goal, a summary, an event's reason), so it is shown as plain text, never as markup (`markup`
        is accepted for Textual's signature and ignored), every hidden character written visible."""
        super().notify(visible(str(message)), title=visible(str(title)), severity=severity, timeout=timeout,
                       markup=False)

    def report_error(self, where: str, message: str) -> None:
        """An error stays in the status line and the error log (`!`), and is raised as a toast."""
        self.errors.append(LoggedError(time.time(), where, message))
        self.query_one(StatusLine).error(message)
        self.notify(message, title=f"{where} failed", severity="error", timeout=8)

    def _published(self, loop: asyncio.AbstractEventLoop) -> None:
        """On the engine's thread, after each event it writes. The reader's tail is woken at once for the
        first event, then at most once per `NUDGE_AFTER` for those that follow it: each wake is a query and
        a hop between threads, and a task writes a dozen events."""
        with self._nudge_lock:
            if self._nudging:
                self._nudge_again = True
                return
            self._nudging = True
        loop.call_soon_threadsafe(self._nudge_reader)

    def _nudge_reader(self) -> None:
        """On the console's loop: the reader's tail reads what was written since it last looked."""
        if self.reader is not None:
            self.reader.nudge()
        asyncio.get_running_loop().call_later(NUDGE_AFTER, self._nudge_held)

    def _nudge_held(self) -> None:
        with self._nudge_lock:
            again, self._nudge_again = self._nudge_again, False
            self._nudging = again
        if again:
            self._nudge_reader()

    @work(exclusive=True, group="events", exit_on_error=False)
    async def follow_events(self, reader: Reader, after: int) -> None:
        """Every event written after `after`, by any process, read on the console's own connection."""
        async for recorded in reader.tail(after):
            self.post_message(EngineReported(recorded.event, recorded.at))

    def on_engine_reported(self, message: EngineReported) -> None:
        """Each event marks the records it changed; one worker fetches and redraws just those rows. Events
        still queued once the console is closing (its panes are being removed) are dropped."""
        if not self.is_running:
            return
        event = message.event
        if isinstance(event, ReplayStarted):
            self.query_one(ProgramGraph).begin(event.program_id)
            self.replaying = event.program_id
            if self.follow_replays:
                self.show_graph(event.program_id)
        elif isinstance(event, StateChecked):
            self._follow_replay(event)
        elif isinstance(event, ProgramRejected):
            self.notify(event.reason, title="program not stored", severity="warning", timeout=8)
        elif isinstance(event, ApprovalRequested):
            self.bell()
            self.notify(f"{event.task_id} waits for approval: {event.reason}", title="approval needed",
                        severity="warning", timeout=8)
        elif isinstance(event, (ApprovalDecided, ActionCompleted)):
            self.grants_changed()  # a grant's uses, or a grant given from another process
        self._changes.note(event, message.at)
        if not self._changes.empty and not self._applying:
            self.apply_changes()

    def _programs_summary(self, summary: str) -> None:
        """The Programs pane's subtitle: how many programs, and how many wait for a person."""
        self.query_one("#programs-pane").border_subtitle = summary

    def _follow_replay(self, event: StateChecked) -> None:
        """A replay's check is marked on its program's graph. It never moves the Programs selection (the record
        `x` would discard); with `f` on, the graph shows the replayed program."""
        graph = self.query_one(ProgramGraph)
        graph.mark(event.program_id, event.state_id, event.passed,
                   observed=event.observed, expected=event.expected, waited_s=event.waited_s)
        self.replaying = event.program_id
        if self.follow_replays and (graph.program is None or graph.program.id != event.program_id):
            self.show_graph(event.program_id)

    def _graph_target(self) -> str | None:
        """The program the graph shows: the live replay's while following, else the selected one."""
        programs = self.query_one(ProgramList)
        if self.follow_replays and self.replaying is not None and self.replaying in programs.rows:
            return self.replaying
        return programs.selected_key

    def action_toggle_follow(self) -> None:
        """`f`: follow live replays in the graph, or keep it on the selected program."""
        self.follow_replays = not self.follow_replays
        self.notify("The graph follows each live replay." if self.follow_replays
                    else "The graph stays on the selected program.")
        if (target := self._graph_target()) is not None:
            self.show_graph(target)

    @work(group="refresh", exit_on_error=False)
    async def apply_changes(self) -> None:
        """Fetch the changed records from the engine and update their rows; events arriving meanwhile
        are picked up by the same loop, so there is never more than one of these at work. Under a stream of
        events the panes change at most every `REDRAW_EVERY` seconds, each time with all that arrived; a lone
        change waits `GATHER` for those that come with it."""
        if self._applying or self.reader is None:
            return
        self._applying = True
        try:
            while not self._changes.empty:
                await asyncio.sleep(max(GATHER, self._applied_at + REDRAW_EVERY - time.monotonic()))
                self._applied_at = time.monotonic()
                batch = self._changes.take()
                fetched = await batch.fetch(self.reader)
                if not self.is_running:
                    return
                self._apply(fetched)
                self.latencies.extend(time.time() - at for at in batch.times)
        finally:
            self._applying = False

    def _apply(self, fetched: Fetched) -> None:
        tasks = self.query_one(TaskQueue)
        for task in fetched.tasks:
            tasks.update_task(task, new=task.id in fetched.new_tasks)
        if fetched.approvals is not None:
            self._show_approvals(fetched.approvals)
        journal = self.query_one(ReceiptJournal)
        for receipt in fetched.receipts:
            journal.update_receipt(receipt, new=receipt.id in fetched.new_receipts)
        programs = self.query_one(ProgramList)
        for program in fetched.programs:
            programs.update_program(program)
        graph = self.query_one(ProgramGraph)
        for program_id in fetched.removed_programs:
            programs.remove_row(program_id)
            if graph.program is not None and graph.program.id == program_id:
                graph.show_program(None)
        shown = graph.program.id if graph.program is not None else None
        target = self._graph_target()
        if target and (shown is None or shown in {p.id for p in fetched.programs}):
            self.show_graph(target)

    def _show_approvals(self, approvals) -> None:
        """The approvals pane, its title counting what waits, and the status line's count."""
        pane = self.query_one(ApprovalList)
        pane.show_approvals(approvals)
        waiting = f" ({len(approvals)} waiting)" if approvals else ""
        pane.border_title = self._title("approvals", waiting)
        self.query_one("#tab-approvals", Tab).label = f"{TITLES['approvals']}{waiting}"
        self.query_one(StatusLine).waiting = len(approvals)

    @on(RecordTable.RowSelected)
    def _open_detail(self, event: RecordTable.RowSelected) -> None:
        """Enter on a row shows its record in full (`app/screens/details.py` says which screen)."""
        screen = detail_screen(event.table, event.key)
        if screen is not None:
            self.push_screen(screen)

    @on(RecordTable.RowHighlighted, "#programs")
    def _program_highlighted(self, event: RecordTable.RowHighlighted) -> None:
        if event.key is not None:
            self.show_graph(event.key)

    @on(RecordTable.RowHighlighted, "#approvals")
    def _approval_highlighted(self, event: RecordTable.RowHighlighted) -> None:
        """When the call under the Approvals cursor came into view: `a` waits a moment after a decision."""
        if event.key != self.approval_seen[0]:
            self.approval_seen = (event.key, self.clock())

    @on(RecordTable.RevealRequested)
    def _reveal(self, event: RecordTable.RevealRequested) -> None:
        """A key met a highlighted record out of sight: bring its pane forward; its rows scroll to the cursor."""
        pane = self.pane_of(event.table)
        if pane is not None and self.screen is self.screen_stack[0]:
            if self.screen.maximized is not None and self.pane_of(self.screen.maximized) != pane:
                self.screen.minimize()
            self.action_show_pane(pane)

    @work(exclusive=True, group="graph", exit_on_error=False)
    async def show_graph(self, program_id: str) -> None:
        if self.reader is not None:
            self.query_one(ProgramGraph).show_program(await self.reader.program(program_id))

    async def action_focus(self, widget_id: str) -> None:
        self.action_show_pane(self.pane_of(self.query_one(f"#{widget_id}")) or "tasks")
        self.query_one(f"#{widget_id}").focus()

    def action_show_pane(self, pane: str) -> None:
        """Show a pane (below 100 columns only the shown one is on screen, as a tab) and move focus into it."""
        for name in PANES:
            self._pane_widget(name).set_class(name == pane, "-shown")
        tabs = self.query_one(Tabs)
        if tabs.active != f"tab-{pane}":
            tabs.active = f"tab-{pane}"
        target = self.query_one("#programs" if pane == "programs" else f"#{pane}", RecordTable)
        if self.pane_of(self.focused) != pane:
            self.screen.set_focus(target.body)  # at once: a key typed right after (`3/`) must land in this pane

    def action_next_pane(self, step: int) -> None:
        """Tab moves between panes (inside the Programs pane, between the list and the graph first)."""
        if self.screen is not self.screen_stack[0]:
            self.screen.focus_next() if step > 0 else self.screen.focus_previous()
            return
        current = self.pane_of(self.focused)
        if current == "programs" and not self.screen.has_class("-narrow"):
            inside = ("programs", "graph")
            here = self.focused.id if self.focused is not None and self.focused.id in inside else None
            if here is not None and 0 <= inside.index(here) + step < len(inside):
                self.query_one(f"#{inside[inside.index(here) + step]}").focus()
                return
        index = PANES.index(current) if current in PANES else -1
        pane = PANES[(index + step) % len(PANES)]
        self.action_show_pane(pane)
        if pane == "programs" and step < 0 and not self.screen.has_class("-narrow"):
            self.query_one("#graph").focus()

    @on(Tabs.TabActivated, "#pane-tabs")
    def _tab_activated(self, event: Tabs.TabActivated) -> None:
        if event.tab is not None and event.tab.id:
            self.action_show_pane(event.tab.id.removeprefix("tab-"))

    def on_descendant_focus(self, event) -> None:
        """Focus that lands in a pane (a click, a palette command) shows that pane's tab."""
        pane = self.pane_of(event.widget)
        if pane is not None and not self._pane_widget(pane).has_class("-shown"):
            self.action_show_pane(pane)

    def action_zoom(self) -> None:
        """Zoom the focused pane to the whole screen, or restore the panes."""
        screen = self.screen
        if screen.maximized is not None:
            screen.minimize()
        elif (pane := self.pane_of(self.focused)) is not None:
            screen.maximized = self._pane_widget(pane)

    def action_show_policy(self) -> None:
        if self.policy is not None:
            self.push_screen(PolicyScreen(self.policy))

    def action_show_errors(self) -> None:
        self.push_screen(ErrorLogScreen(self.errors))

    def action_show_help(self) -> None:
        keys = [(binding.key_display or self.get_key_display(binding), binding.description)
                for binding in (active.binding for active in self.screen.active_bindings.values())
                if binding.description]
        self.push_screen(HelpScreen(sorted(set(keys))))

    def action_next_theme(self) -> None:
        names = [theme.name for theme in THEMES]
        self.theme = names[(names.index(self.theme) + 1) % len(names)] if self.theme in names else names[0]

    async def action_quit(self) -> None:
        """`q`: quits at once, unless this console's engine is running tasks; then it asks first, naming them."""
        if any(screen.id == confirmations.QUIT_QUESTION for screen in self.screen_stack):
            return
        running = []
        if self.engine is not None:
            try:
                running = await self.engine.call(confirmations.running_here)
            except Exception:  # an engine that cannot say (stopped, its database failing) runs nothing to lose
                running = []
        if not running:
            self.exit()
            return
        self.push_screen(confirmations.quit_while_running(running), lambda yes: self.exit() if yes else None)

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        """The one place a failed worker becomes a visible, one-line error: in a toast, the status line and the log."""
        if event.state is WorkerState.ERROR:
            error = event.worker.error
            self.report_error(event.worker.group,
                              str(error) if isinstance(error, WardenError) else f"{type(error).__name__}: {error}")


KEYMAP_CHAINS: tuple[tuple[type, ...], ...] = (
    (), (TaskQueue,), (ApprovalList,), (ReceiptJournal,), (ProgramList,), (ProgramGraph,), (ApprovalDetailScreen,),
    (GrantsScreen, GrantList),
)
"""What is active together with the app's own bindings (the focused pane, or a detail screen): a remap is
checked for clashes within each."""
KEYMAP_DEFAULTS = keymaps.default_keys(dict.fromkeys((WardenApp, *(cls for chain in KEYMAP_CHAINS for cls in chain))))
"""Each binding id's default keys."""


def create_app(home: Path | None = None, workspace: Path | None = None, demo: bool = False, pace: float = 0.0,
               switches: Switches | None = None, web_demo: bool = True) -> WardenApp:
    """The factory tests and commands use; `home` defaults to `$WARDEN_HOME`; `web_demo=False` leaves the demo's
    web tasks out."""
    home = Path(home) if home else warden_home()
    if demo:
        seed_workspace(workspace or home / "workspace")
        seed_policy(home)
    return WardenApp(home, workspace, demo=demo, pace=pace, switches=switches, web_demo=web_demo)


def run_console() -> int:
    return create_app().run() or 0
