"""The confirmations the console asks before an undo, a whole task's undo, a cancel, a scoped grant, revoking
a grant, or quitting mid-task.

Each names its target from the record as stored now (not from the row that was highlighted) and previews
what will happen, so a row that moved can never turn `u` into an undo of something else. Every word taken
from a record is shown through `visible`, as plain text.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from textual.content import Content

from app.screens.confirm import ConfirmScreen
from engine.gate.approvals import Approval
from engine.gate.grants import Grant, Scope
from engine.gate.patterns import Pattern
from engine.journal.diff import ReceiptDetail
from engine.journal.receipt import Receipt
from engine.journal.task_undo import TaskUndo
from engine.tasks.task import Task, TaskStatus
from engine.visible import visible
from widgets.record_text import shown

if TYPE_CHECKING:
    from engine.runtime import Runtime


DIFF_LINES = 40


def _field(name: str, value: str) -> Content:
    return Content.from_markup("[b]$name[/b] $value", name=f"{name:<8}", value=visible(value))


def undo_receipt(detail: ReceiptDetail, force: bool) -> ConfirmScreen:
    """The receipt, the paths its snapshot puts back, later receipts in the way, and the change being undone."""
    receipt = detail.receipt
    lines = [
        _field("receipt", receipt.id),
        _field("effect", receipt.summary),
        _field("task", f"{receipt.task_id or '—'} · step {receipt.step_idx if receipt.step_idx is not None else '—'}"
                       + (f" · {detail.task_goal}" if detail.task_goal else "")),
        _field("tier", f"{receipt.tier.value} · {receipt.reversal.value}"),
        _field("compensates", f"{receipt.compensation.call.tool} {receipt.compensation.noun} {receipt.compensation.key}"
                              f" in {receipt.compensation.system} (through the gate; you approve it)")
        if receipt.compensation else
        _field("restores", ", ".join(entry.path for entry in detail.snapshot) or "(the snapshot lists no paths)"),
        Content(""),
    ]
    for conflict in detail.later:
        lines.append(Content.from_markup("[b $warning]In the way:[/] $id $summary — $why", id=visible(conflict.receipt_id),
                                         summary=visible(conflict.summary), why=visible(conflict.why)))
    if force:
        lines.append(Content.from_markup(
            "[b $error]Force:[/] a later call that left no snapshot may have changed these paths; that change is lost."))
    lines.append(Content("Undo puts these paths back exactly as they were before the effect, which was:"))
    for change in detail.changes:
        lines.append(Content.from_markup("[b]$path[/b] $note", path=visible(change.path), note=visible(change.note)))
        if change.binary:
            lines += [Content(f"  {side}: {content.size} bytes, sha256 {content.sha256[:16]}…")
                      for side, content in (("before", change.before), ("after", change.after)) if content]
        lines += [_diff_line(line) for line in change.lines[:DIFF_LINES]]
        if len(change.lines) > DIFF_LINES:
            lines.append(Content(f"… {len(change.lines) - DIFF_LINES} more lines (Enter on the receipt shows them all)"))
    verb = "force undo" if force else "undo"
    return ConfirmScreen(f"{verb.capitalize()} {visible(receipt.summary)}?", lines, verb=verb, danger=force)


def undo_task(task: Task, receipts: Sequence[Receipt], planned: TaskUndo) -> ConfirmScreen:
    """`receipts` are the ones the undo will try, newest first; `planned` says where it would stop."""
    lines = [_field("task", task.id), _field("goal", task.goal), _field("status", task.status.value), Content("")]
    if receipts:
        lines.append(Content(f"Undoes {len(receipts)} receipt(s), newest first:"))
        lines += [Content.from_markup("  ↺ $id $summary", id=visible(r.id), summary=visible(r.summary)) for r in receipts]
    else:
        lines.append(Content("Nothing of this task can be undone now."))
    if planned.stopped_at is not None:
        lines.append(Content.from_markup("[b $warning]Stops at[/] $id: $why", id=visible(planned.stopped_at.receipt_id),
                                         why=visible(planned.stopped_at.reason)))
    lines.append(Content.from_markup("[$text-muted]A receipt whose paths a later call changed stops the undo there.[/]"))
    return ConfirmScreen(f"Undo task {visible(task.id)}?", lines, verb="undo the task")


def cancel_task(task: Task) -> ConfirmScreen:
    lines = [_field("task", task.id), _field("goal", task.goal), _field("status", task.status.value), Content(""),
             Content("Cancelling stops it before its next step; a call waiting for approval is dropped."),
             Content("What it already did stays, with its receipts in the journal (U undoes the task).")]
    return ConfirmScreen(f"Cancel task {visible(task.id)}?", lines, verb="cancel it", danger=True)


SCOPE_WORDS = {Scope.TASK: "for the rest of this task", Scope.PATTERN: "for this session"}
"""How the console names a scope past once, in the approval view and its confirmation."""


def grant_scope(approval: Approval, scope: Scope, pattern: Pattern, until: str) -> ConfirmScreen:
    """Approving `approval` for `scope`: the exact pattern the grant covers, where, and until when."""
    where = f"in task {approval.task_id} only" if scope is Scope.TASK else "in any task"
    lines = [_field("approval", approval.id), _field("task", approval.task_id),
             _field("call", approval.call.canonical()), _field("covers", f"{pattern.describe()} {where}"),
             _field("until", until), Content(""),
             Content.from_markup("[b]Calls of this pattern run without asking[/b] $where until then, or until the "
                                 "grant is revoked (G lists grants, r revokes). A call outside the pattern, or that "
                                 "fires another rule, still asks; a catastrophic call is always blocked.",
                                 where=where)]
    return ConfirmScreen(f"Approve {SCOPE_WORDS[scope]}: {visible(pattern.describe())}?", lines,
                         verb=f"approve {SCOPE_WORDS[scope]}")


def revoke_grant(grant: Grant) -> ConfirmScreen:
    lines = [_field("grant", grant.id), _field("covers", grant.describe()), _field("scope", grant.scope.value),
             _field("by", grant.granted_by), _field("uses", str(grant.uses)), Content(""),
             Content("Once revoked, the next call of this pattern asks a person again. Calls it already let run "
                     "stay done, with their receipts in the journal.")]
    return ConfirmScreen(f"Revoke grant {visible(grant.id)}: {visible(grant.describe())}?", lines,
                         verb="revoke it", danger=True)


def _diff_line(line: str) -> Content:
    if line.startswith("+") and not line.startswith("+++"):
        return shown(line, "$success")
    if line.startswith("-") and not line.startswith("---"):
        return shown(line, "$error")
    return shown(line)


QUIT_QUESTION = "quit-question"
"""The id of the quit confirmation, so a second `q` under it does not ask again."""


async def running_here(runtime: "Runtime") -> list[Task]:
    """The tasks this runtime's runner is running now (claimed by it); another process's are not counted."""
    return [task for task in await runtime.queue.all()
            if task.status is TaskStatus.RUNNING and task.claimed_by == runtime.runner.identity]


def quit_while_running(tasks: Sequence[Task]) -> ConfirmScreen:
    count = f"{len(tasks)} task is" if len(tasks) == 1 else f"{len(tasks)} tasks are"
    lines: list[Content | str] = [_field("task", f"{task.id}  {task.goal}") for task in tasks]
    lines += [Content(""),
              Content("Quitting stops this console's engine in the middle of its step. The task stays running "
                      "until its lease runs out (about 30 s); then `warden worker` or the next console takes it "
                      "up again, settling a step left half-done by its evidence, as after a crash.")]
    screen = ConfirmScreen(f"Quit while {count} running?", lines, verb="quit", danger=True)
    screen.id = QUIT_QUESTION
    return screen
