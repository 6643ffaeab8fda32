"""What the console does to records: approve (once, for the rest of a task, or for a pattern this session) and
deny, revoke a grant, undo a receipt or a whole task, cancel, raise a budget, queue a task, and accept, discard
or verify a program.

Each asks first where the effect cannot be taken back by another key, reading the record as stored now,
and then calls the engine through its public API on the engine's thread. A mixin of `WardenApp`, kept
apart so the app module holds the frame (panes, events, layout) and this one what keys do to records.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from textual import work

from app import confirmations
from app.messages import ProgramAccepted, ProgramDiscarded
from app.screens.approval_detail import ApprovalDetailScreen
from app.screens.grants import GrantsScreen
from app.screens.new_task import NewTask, NewTaskScreen
from app.screens.program_decision import ProgramDecisionScreen
from engine import specfile
from engine.demo_site import DemoSite
from engine.errors import WardenError
from engine.gate.approvals import ApprovalStatus
from engine.gate.grants import Grant, GrantError, Scope, scoped_pattern
from engine.gate.policy import Policy
from engine.journal.journal import UndoError
from engine.journal.task_undo import plan
from engine.programs.program import Program
from engine.tasks.task import TaskSpec
from widgets.approval_list import ApprovalList
from widgets.grant_list import GrantList
from widgets.program_graph import ProgramGraph
from widgets.program_list import ProgramList
from widgets.receipt_journal import ReceiptJournal
from widgets.task_queue import TaskQueue

SEEN_FOR = 0.5
"""Seconds the next call must have been on screen before `a` or `d` decides it, after a decision (unless the
person moved the cursor): a key pressed twice decides one call, never a second one nobody has seen."""


def no_scope(approval_id: str, error: Exception) -> str:
    """The one line a person reads when a scope cannot be given: why, and what is left to do."""
    return f"{approval_id} takes no scope: {error}. It stays pending: approve it once or deny it."


if TYPE_CHECKING:
    from textual.app import App
    from textual.widget import Widget

    from engine.reader import Reader
    from engine.thread import EngineThread

    _AppBase = App[int]
else:
    _AppBase = object  # at run time the App comes after this mixin in `WardenApp`'s bases


class RecordActions(_AppBase):
    """Needs the app's `engine`, `reader`, `home`, `site`, `pane_of` and `report_error`, declared here for the
    type checker; `WardenApp` sets and defines them."""

    home: Path
    site: DemoSite | None
    engine: EngineThread | None
    reader: Reader | None
    clock: Callable[[], float]
    approval_seen: tuple[str | None, float]
    decided: tuple[str, int] | None

    if TYPE_CHECKING:
        def pane_of(self, widget: Widget | None) -> str | None: ...

        def action_show_pane(self, pane: str) -> None: ...

        def report_error(self, where: str, message: str) -> None: ...

    def _started(self) -> tuple[EngineThread, Reader] | None:
        """The engine and the console's reader once both are open, or None, said in one line."""
        if self.engine is None or self.reader is None:
            self.notify("The engine has not started yet.", severity="warning")
            return None
        return self.engine, self.reader

    def action_approve(self) -> None:
        self._decide(approved=True)

    def action_deny(self) -> None:
        self._decide(approved=False)

    def action_approve_task(self) -> None:
        self._choose_scope(Scope.TASK)

    def action_approve_pattern(self) -> None:
        self._choose_scope(Scope.PATTERN)

    def _decide(self, approved: bool) -> None:
        """`a`/`d` decide only the call the person sees (`_seen_approval`)."""
        key = self._seen_approval("approve" if approved else "deny")
        if key is not None and self.query_one(ApprovalList).decide(approved):
            self.decided = (key, self.query_one(ApprovalList).body.moves)

    def _choose_scope(self, scope: Scope) -> None:
        """The scoped keys act on the call the person sees, as `a` does; the grant is confirmed before it is given."""
        if self._seen_approval("approve") is not None:
            self.query_one(ApprovalList).choose_scope(scope.value)

    def _seen_approval(self, verb: str) -> str | None:
        """The approval a deciding key may act on: the one highlighted in the focused Approvals pane (an
        approval's detail screen has its own keys), or None, said in one line. From any other pane the key brings
        the Approvals pane forward, its call highlighted, and decides nothing. After a decision, the next call is
        decided only once it has been on screen for `SEEN_FOR` seconds, or the person moved the cursor."""
        approvals = self.query_one(ApprovalList)
        key = approvals.selected_key
        if key is None:
            self.notify("No call is waiting for approval.", severity="warning")
            return None
        if self.pane_of(self.focused) != "approvals" or not approvals.body.cursor_in_view:
            self.action_show_pane("approvals")
            approvals.body.scroll_to_cursor()
            self.call_after_refresh(approvals.body.scroll_to_cursor)
            self.notify(f"Here are the calls waiting; press the key again to {verb} the highlighted one.",
                        severity="warning")
            return None
        if self.decided is not None:
            decided, moves = self.decided
            if key == decided:
                return None  # the decision is on its way; the row leaves once the engine has it
            seen, since = self.approval_seen
            if moves == approvals.body.moves and (seen != key or self.clock() - since < SEEN_FOR):
                self.notify(f"Another call just came into view; look at it, then press the key again to {verb} it.",
                            severity="warning")
                return None
        return key

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
        if (started := self._started()) is None:
            return
        engine, reader = started
        task = await reader.task(message.task_id)
        budget = (await reader.queue.budget(task)).doubled()
        if not budget.as_json():
            self.notify(f"{task.id} has no budget to raise.", severity="warning")
            return
        await engine.call(lambda rt: rt.raise_budget(message.task_id, budget))
        self.notify(f"Doubled the budget of {task.id}: it may now use {budget.said()}.")

    @work(group="decide", exit_on_error=False)
    async def on_approval_list_decided(self, message: ApprovalList.Decided) -> None:
        if (started := self._started()) is None:
            return
        engine, _ = started
        self.decided = (message.approval_id, self.query_one(ApprovalList).body.moves)
        if message.approved:
            await engine.call(lambda rt: rt.approve(message.approval_id))
        else:
            await engine.call(lambda rt: rt.deny(message.approval_id))
        self.notify(f"{'Approved' if message.approved else 'Denied'} {message.approval_id}.")

    @work(group="decide", exit_on_error=False)
    async def on_approval_list_scope_chosen(self, message: ApprovalList.ScopeChosen) -> None:
        """Approve for a scope past once: the approval as stored now, the exact pattern the grant would cover,
        and a confirmation naming it; a scope that cannot be given is said in one line and nothing is decided."""
        if (started := self._started()) is None:
            return
        engine, reader = started
        scope = Scope(message.scope)
        approval = await reader.approvals.get(message.approval_id)
        if approval.status is not ApprovalStatus.PENDING:
            self.notify(f"{approval.id} is {approval.status.value}, not pending.", severity="warning")
            return
        try:
            pattern = scoped_pattern(approval)
        except GrantError as exc:
            self.notify(no_scope(approval.id, exc), title="no scope", severity="warning", timeout=10)
            return
        if not await self.push_screen_wait(confirmations.grant_scope(approval, scope, pattern, self._until(scope))):
            return
        self.decided = (approval.id, self.query_one(ApprovalList).body.moves)
        try:
            grant = await engine.call(lambda rt: rt.approve(approval.id, scope=scope))
        except GrantError as exc:
            self.decided = None
            self.notify(no_scope(approval.id, exc), title="no scope", severity="warning", timeout=10)
            return
        if isinstance(self.screen, ApprovalDetailScreen) and self.screen.record_id == approval.id:
            self.screen.dismiss(True)
        covered = f": grant {grant.id} covers {grant.describe()}" if grant is not None else ""
        self.notify(f"Approved {approval.id} {confirmations.SCOPE_WORDS[scope]}{covered}.")
        self.grants_changed()

    def _until(self, scope: Scope) -> str:
        """Until when a grant given now would cover calls, in words."""
        policy = getattr(self, "policy", None)
        ttl = (policy if isinstance(policy, Policy) else Policy()).grant_ttl_seconds
        expiry = time.strftime("%H:%M", time.localtime(time.time() + ttl))
        if scope is Scope.TASK:
            return f"the end of this task, or {expiry} ({ttl / 3600:g} h) if it runs longer"
        return f"{expiry} ({ttl / 3600:g} h from now), or until revoked"

    def action_show_grants(self) -> None:
        """`G`: the live scoped grants, to see what runs unasked and revoke any of it."""
        if any(isinstance(screen, GrantsScreen) for screen in self.screen_stack):
            return
        if self.engine is None:
            self.notify("The engine has not started yet.", severity="warning")
            return
        self.push_screen(GrantsScreen(self._live_grants))

    async def _live_grants(self) -> list[Grant]:
        if self.engine is None:
            raise WardenError("the engine has not started yet")
        return await self.engine.call(lambda rt: rt.grants.listed())

    def grants_changed(self) -> None:
        """A grant was given, revoked or used: an open grants view reads them again."""
        for screen in self.screen_stack:
            if isinstance(screen, GrantsScreen):
                screen.reload()

    @work(group="grants", exit_on_error=False)
    async def on_grant_list_revoke_requested(self, message: GrantList.RevokeRequested) -> None:
        """The grant as stored now is named in the confirmation; nothing is revoked unless confirmed."""
        if (started := self._started()) is None:
            return
        engine, _ = started
        grant = await engine.call(lambda rt: rt.grants.get(message.grant_id))
        if not grant.live(time.time()):
            self.notify(f"{grant.id} is already {'revoked' if grant.revoked_at else 'expired'}: it covers nothing.",
                        severity="warning")
            self.grants_changed()
            return
        if await self.push_screen_wait(confirmations.revoke_grant(grant)):
            revoked = await engine.call(lambda rt: rt.revoke_grant(grant.id))
            self.notify(f"Revoked {revoked.id}: {revoked.describe()} asks a person again.")
            self.grants_changed()

    @work(group="undo", exit_on_error=False)
    async def on_receipt_journal_undo_requested(self, message: ReceiptJournal.UndoRequested) -> None:
        """The receipt is read as stored now and named in the confirmation; nothing is undone unless confirmed."""
        if (started := self._started()) is None:
            return
        engine, reader = started
        receipt = await reader.receipt(message.receipt_id)
        if not receipt.undoable:
            self.notify(f"{receipt.id} ({receipt.summary}) is {receipt.reversal.value}: there is nothing to undo.",
                        severity="warning")
            return
        detail = await reader.receipt_detail(receipt.id)
        if await self.push_screen_wait(confirmations.undo_receipt(detail, message.force)):
            undone = await engine.call(lambda rt: rt.undo(receipt.id, message.force))
            self.notify(f"Undid {undone.summary}.")

    def action_undo_task(self) -> None:
        """`U`: the task highlighted in the focused pane (a receipt's task in the journal), else in Tasks; a
        highlighted row out of sight is shown, not acted on."""
        journal = self.query_one(ReceiptJournal)
        if self.pane_of(self.focused) == "journal" and (receipt_id := journal.selected_key):
            if journal.in_sight():
                self.undo_task(receipt_id=receipt_id)
            return
        tasks = self.query_one(TaskQueue)
        task_id = tasks.selected_key
        if task_id is None:
            self.notify("Select a task (or one of its receipts) first.", severity="warning")
            return
        if tasks.in_sight():
            self.undo_task(task_id=task_id)

    @work(group="undo", exit_on_error=False)
    async def undo_task(self, task_id: str | None = None, receipt_id: str | None = None) -> None:
        """Undo the task `task_id`, or the task of the receipt `receipt_id`: one of the two is given."""
        if (started := self._started()) is None:
            return
        engine, reader = started
        if receipt_id is not None:
            task_id = (await reader.receipt(receipt_id)).task_id
            if task_id is None:
                self.notify(f"{receipt_id} belongs to no task.", severity="warning")
                return
        elif task_id is None:
            raise ValueError("undo_task needs a task_id or a receipt_id")
        task = await reader.task(task_id)
        journal = reader.journal
        if journal is None:
            raise UndoError("recovery is switched off: there is no journal to undo from")
        tried, planned = plan(task.id, await journal.for_task(task.id), await journal.blocked(task.id))
        if not await self.push_screen_wait(confirmations.undo_task(task, tried, planned)):
            return
        result = await engine.call(lambda rt: rt.undo_task(task.id))
        undone = f"Undid {len(result.undone)} receipt(s) of {task.id}"
        if result.stopped_at is None:
            self.notify(f"{undone}.")
        else:
            self.report_error("undo task", f"{undone}; stopped at {result.stopped_at.receipt_id}: "
                                           f"{result.stopped_at.reason}")

    @work(group="cancel", exit_on_error=False)
    async def on_task_queue_cancel_requested(self, message: TaskQueue.CancelRequested) -> None:
        if (started := self._started()) is None:
            return
        engine, reader = started
        task = await reader.task(message.task_id)
        if task.status.finished:
            self.notify(f"{task.id} is {task.status.value}: there is nothing to cancel.", severity="warning")
            return
        if await self.push_screen_wait(confirmations.cancel_task(task)):
            await engine.call(lambda rt: rt.cancel(task.id))
            self.notify(f"Cancelled {task.id}.")

    def action_new_task(self) -> None:
        if self.engine is None:
            self.notify("The engine has not started yet.", severity="warning")
            return
        self.new_task()

    @work(group="submit", exit_on_error=False)
    async def new_task(self) -> None:
        queued = await self.push_screen_wait(NewTaskScreen(self._queue))
        if queued is not None:
            self.notify(f"Queued {queued}.")

    async def _queue(self, new: NewTask) -> str:
        """Submit what the form produced; a spec naming `{demo}` gets the bundled demo site started for it."""
        engine = self.engine
        if engine is None:  # the form is opened only once it has started (`action_new_task`)
            raise WardenError("the engine has not started yet")
        raw = new.raw
        if new.needs_demo_site:
            if self.site is None:
                self.site = DemoSite()
                self.site.start()
            raw = specfile.with_demo(raw, self.site.url)
        spec = TaskSpec.from_json(raw)
        task = await engine.call(lambda rt: rt.submit(spec))
        return task.id

    def action_accept_program(self) -> None:
        if not self.query_one(ProgramList).request_accept():
            self.notify("Select a program first.", severity="warning")

    def action_discard_program(self) -> None:
        if not self.query_one(ProgramList).request_discard():
            self.notify("Select a program first.", severity="warning")

    def action_verify_program(self) -> None:
        self.query_one(ProgramList).action_verify()

    @work(group="programs", exit_on_error=False)
    async def on_program_list_accept_requested(self, message: ProgramList.AcceptRequested) -> None:
        """Only an unverified program waits to be accepted; the person confirms, then the engine serves it."""
        if (decided := await self._program_to_decide(message.program_id)) is None:
            return
        engine, program = decided
        if program.status != "unverified":
            self.notify(f"{program.id} is {program.status}: only an unverified program waits to be accepted.",
                        severity="warning")
            return
        if await self.push_screen_wait(ProgramDecisionScreen(program, "accept", self._program_file(program.id))):
            accepted = await engine.call(lambda rt: rt.accept_program(program.id))
            self.post_message(ProgramAccepted(accepted))

    @work(group="programs", exit_on_error=False)
    async def on_program_list_discard_requested(self, message: ProgramList.DiscardRequested) -> None:
        """The person confirms, then the engine forgets the program: its row and its file."""
        if (decided := await self._program_to_decide(message.program_id)) is None:
            return
        engine, program = decided
        if await self.push_screen_wait(ProgramDecisionScreen(program, "discard", self._program_file(program.id))):
            await engine.call(lambda rt: rt.remove_program(program.id))
            self.post_message(ProgramDiscarded(program.id))

    @work(group="verify", exit_on_error=False)
    async def on_program_list_verify_requested(self, message: ProgramList.VerifyRequested) -> None:
        """The verify gate replays the program where nothing real is touched (a fork, a reset, a read-only page)."""
        if (decided := await self._program_to_decide(message.program_id)) is None:
            return
        engine, program = decided
        self.notify(f"Verifying {program.id} again…")
        offered = await engine.call(lambda rt: rt.verify_program(program.id))
        verdict = offered.verification
        if offered.stored:
            self.notify(f"{program.id}: {verdict.verdict.value} — {verdict.how or verdict.reason}")
        else:
            self.report_error("verify", f"{program.id} not stored again: {verdict.reason}"
                                        + (f"; {offered.kept} keeps serving" if offered.kept else ""))

    async def _program_to_decide(self, program_id: str) -> tuple[EngineThread, Program] | None:
        """The engine and the program as stored now (another process may have changed it), or None, said in one
        line."""
        if (started := self._started()) is None:
            return None
        engine, reader = started
        program = await reader.program(program_id)
        if program is None:
            self.notify(f"{program_id} is no longer stored.", severity="warning")
            return None
        return engine, program

    def _program_file(self, program_id: str) -> Path:
        return self.home / "programs" / f"{program_id}.json"

    def on_program_accepted(self, message: ProgramAccepted) -> None:
        self.query_one(ProgramList).update_program(message.program)
        graph = self.query_one(ProgramGraph)
        if graph.program is not None and graph.program.id == message.program.id:
            graph.show_program(message.program)
        self.notify(f"Accepted {message.program.id}: it is served from now on.")

    def on_program_discarded(self, message: ProgramDiscarded) -> None:
        self.query_one(ProgramList).remove_row(message.program_id)
        graph = self.query_one(ProgramGraph)
        if graph.program is not None and graph.program.id == message.program_id:
            graph.show_program(None)
        self.notify(f"Discarded {message.program_id}; its file is removed.")
