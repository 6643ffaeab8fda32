"""What the console must redraw: the records engine events changed, gathered until they are fetched.

Events only name records; the rows are fetched fresh from the engine, so a burst of events
about one task costs one fetch of that task, and nothing else is reloaded. Tasks and receipts
are read in one query each however many changed, and the ones just created are told apart:
they are counted into their pane's total and placed at its top.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.events.records import (
    ActionBlocked, ActionCompleted, ApprovalDecided, ApprovalRequested, Event, ProgramRemoved, ProgramStored,
    ReceiptUndone, ReplayFellBack, TaskCancelled, TaskFailed, TaskPaused, TaskQueued, TaskResumed, TaskStarted,
    TaskSucceeded,
)
from engine.gate.approvals import Approval
from engine.journal.receipt import Receipt
from engine.programs.program import Program
from engine.reader import Reader
from engine.tasks.task import Task

CREATED_RECEIPT = (ActionCompleted, ActionBlocked)
TASK_EVENTS = (TaskQueued, TaskStarted, TaskPaused, TaskResumed, TaskSucceeded, TaskFailed, TaskCancelled, ReplayFellBack)
APPROVAL_EVENTS = (ApprovalRequested, ApprovalDecided, TaskCancelled, TaskFailed)


@dataclass(frozen=True)
class Fetched:
    tasks: list[Task]
    approvals: list[Approval] | None
    receipts: list[Receipt]
    programs: list[Program]
    removed_programs: list[str]
    new_tasks: frozenset[str] = frozenset()
    new_receipts: frozenset[str] = frozenset()


@dataclass
class Batch:
    """One round of changes, fetched through the console's own reader."""

    tasks: set[str] = field(default_factory=set)
    new_tasks: set[str] = field(default_factory=set)
    approvals: bool = False
    receipts: set[str] = field(default_factory=set)
    new_receipts: set[str] = field(default_factory=set)
    programs: set[str] = field(default_factory=set)
    removed_programs: set[str] = field(default_factory=set)
    times: list[float] = field(default_factory=list)

    async def fetch(self, reader: Reader) -> Fetched:
        tasks = sorted(await reader.listed_tasks(sorted(self.tasks)), key=lambda task: task.created_at)
        receipts = sorted(await reader.listed_receipts(sorted(self.receipts)), key=lambda receipt: receipt.created_at)
        found = [await reader.program(program_id) for program_id in sorted(self.programs)]
        programs = [program for program in found if program is not None]
        approvals = await reader.pending_approvals() if self.approvals else None
        return Fetched(tasks, approvals, receipts, programs, sorted(self.removed_programs),
                       frozenset(self.new_tasks), frozenset(self.new_receipts))


class Changes:
    def __init__(self) -> None:
        self._batch = Batch()

    @property
    def empty(self) -> bool:
        batch = self._batch
        return not (batch.tasks or batch.approvals or batch.receipts or batch.programs or batch.removed_programs)

    def note(self, event: Event, at: float) -> None:
        """Mark what the event changed; `at` is when it was written (for the latency the bench reports)."""
        batch = self._batch
        marked = False
        if isinstance(event, TASK_EVENTS) and event.task_id:
            batch.tasks.add(event.task_id)
            if isinstance(event, TaskQueued):
                batch.new_tasks.add(event.task_id)
            marked = True
        if isinstance(event, APPROVAL_EVENTS):
            batch.approvals = marked = True
        if isinstance(event, (ActionCompleted, ActionBlocked, ReceiptUndone)) and event.receipt_id:
            batch.receipts.add(event.receipt_id)
            if isinstance(event, CREATED_RECEIPT):
                batch.new_receipts.add(event.receipt_id)
            marked = True
        if isinstance(event, ProgramStored):
            batch.programs.add(event.program_id)
            batch.removed_programs.discard(event.program_id)
            marked = True
        elif isinstance(event, ProgramRemoved):
            batch.programs.discard(event.program_id)
            batch.removed_programs.add(event.program_id)
            marked = True
        if marked:
            batch.times.append(at)

    def take(self) -> Batch:
        batch, self._batch = self._batch, Batch()
        return batch


async def everything(reader: Reader) -> tuple[int, list[Approval], list[Program]]:
    """The console's first load of its small panes, and the event number to follow from (taken first, so
    nothing falls between); the task and journal panes page through `reader` themselves."""
    after = await reader.last_event_seq()
    return after, await reader.pending_approvals(), await reader.programs()
