"""A task's life as a person reads it: every event it recorded, timed from when it was queued, and its budget use.

It is built from the events table alone (events are facts), so it reads the same in any
process and after any restart. Times are offsets from the task's queueing, which keeps two
views of one task comparable and keeps wall-clock times out of the picture.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from engine.events import records as ev
from engine.events.bus import Recorded
from engine.programs.describe import describe, target
from engine.tasks.budget import LIMITS, Budget, Spent
from engine.tasks.task import Task

OUTPUT_LINES = 12


@dataclass(frozen=True)
class Entry:
    """One event: seconds since the task was queued, its kind, a line, further lines (a step's output,
    a check's predicates), and its tone: `good`, `bad`, `wait` or `` (plain), which the view colours."""

    at: float
    kind: str
    text: str
    detail: tuple[str, ...] = ()
    tone: str = ""


@dataclass(frozen=True)
class Use:
    """One budget limit: what the task used and what it may (None: unlimited)."""

    limit: str
    used: float
    allowed: float | None


@dataclass(frozen=True)
class TaskDetail:
    task: Task
    entries: tuple[Entry, ...]
    budget: tuple[Use, ...]


def build(task: Task, recorded: Iterable[Recorded], spent: Spent, budget: Budget) -> TaskDetail:
    """The timeline of `task` from its recorded events (oldest first), with its budget use."""
    entries: list[Entry] = []
    shown: str | None = None  # the state whose failed check was just listed leaf by leaf
    for item in recorded:
        event, at = item.event, item.at - task.created_at
        if isinstance(event, ev.ReplayFellBack) and event.end == "mismatch" and event.state_id == shown:
            # the reason names the failed leaves again, without what was seen: the check above says it once
            entries.append(Entry(at, event.kind, f"fell back at {event.state_id} (mismatch): its check above did not hold",
                                 (), "wait"))
        else:
            entries.append(_entry(at, event))
        if isinstance(event, ev.StateChecked):
            shown = event.state_id if not event.passed and event.observed else None
    use = tuple(Use(limit, spent.measure(limit), getattr(budget, limit)) for limit in LIMITS)
    return TaskDetail(task, tuple(entries), use)


def _entry(at: float, event: ev.Event) -> Entry:
    line = _LINES.get(type(event))
    if line is None:
        fields = ", ".join(f"{key}={value!r:.60}" for key, value in event.payload().items())
        return Entry(at, event.kind, f"{event.kind} {fields}".strip())
    text, detail, tone = line(event)
    return Entry(at, event.kind, text, tuple(detail), tone)


def call_line(call: dict[str, Any]) -> str:
    """A call in a few words: its tool and what it acts on (the approval view shows it in full)."""
    args = call.get("args") or {}
    acts_on = target(args) if isinstance(args, dict) else ""
    return f"{call.get('tool', '?')} {acts_on}".strip()


def _output(text: str) -> list[str]:
    lines = text.rstrip("\n").splitlines()
    if len(lines) <= OUTPUT_LINES:
        return lines
    return [*lines[:OUTPUT_LINES], f"… {len(lines) - OUTPUT_LINES} more lines"]


def _usage(usage: dict) -> str:
    tokens = int(usage.get("input_tokens", 0)) + int(usage.get("output_tokens", 0))
    if not tokens and not usage.get("cost_usd"):
        return ""
    cost = float(usage.get("cost_usd", 0.0))
    return f" ({tokens} tokens" + (f", ${cost:.4f})" if cost else ")")


def _check(event: ev.StateChecked) -> tuple[str, list[str], str]:
    detail = [f"{'✔' if leaf.get('holds') else '✘'} {_predicate(leaf.get('predicate'))}"
              + (f" — saw {leaf['saw']!s:.120}" if leaf.get("saw") not in (None, "") else "")
              for leaf in event.observed if isinstance(leaf, dict)]
    if not detail and event.expected:
        detail = [f"expected {_predicate(event.expected)}"]
    waited = f", waited {event.waited_s:.1f}s" if event.waited_s >= 0.05 else ""
    verdict = "passed" if event.passed else "failed"
    return f"check {event.state_id} {verdict}{waited}", detail, "good" if event.passed else "bad"


def _predicate(predicate: Any) -> str:
    try:
        return describe(predicate)
    except (ValueError, TypeError, AttributeError, KeyError):
        return str(predicate)


_LINES: dict[type, Callable[[Any], tuple[str, list[str], str]]] = {
    ev.TaskQueued: lambda e: (f"queued: {e.goal}", [], ""),
    ev.TaskStarted: lambda e: (f"started ({e.mode}{f' of {e.program_id}' if e.program_id else ''})", [], ""),
    ev.TaskPaused: lambda e: (f"paused: {e.reason}", [], "wait"),
    ev.TaskResumed: lambda e: (f"resumed: {e.reason}", [], ""),
    ev.BudgetExceeded: lambda e: (f"budget: {e.limit} used {e.used:g} of {e.allowed:g}", [], "wait"),
    ev.BudgetRaised: lambda e: (f"budget raised by {e.by}: {e.budget}", [], ""),
    ev.TaskSucceeded: lambda e: (f"succeeded ({e.mode})", [], "good"),
    ev.TaskFailed: lambda e: (f"failed: {e.error}", _output(e.detail) if e.detail else [], "bad"),
    ev.TaskCancelled: lambda e: (f"cancelled by {e.cancelled_by}", [], "bad"),
    ev.AgentStepped: lambda e: (f"step {e.idx} proposed: {call_line(e.call)}{_usage(e.usage)}", [], ""),
    ev.AgentConcluded: lambda e: (f"agent {e.outcome}{_usage(e.usage)}: {e.message}", [], ""),
    ev.ActionClassified: lambda e: (f"step {e.idx} rated {e.level} ({e.tier}): {e.reason}"
                                    + (f"; {e.route}: {e.why}" if e.route else ""), [],
                                    "wait" if e.route == "asks" or (not e.route and e.level != "safe") else ""),
    ev.ActionBlocked: lambda e: (f"step {e.idx} blocked: {call_line(e.call)}: {e.reason}", [], "bad"),
    ev.ApprovalRequested: lambda e: (f"approval {e.approval_id} asked: {call_line(e.call)}: {e.reason}", [], "wait"),
    ev.ApprovalDecided: lambda e: (f"approval {e.approval_id} {'approved' if e.approved else 'denied'} by {e.decided_by}",
                                   [], "good" if e.approved else "bad"),
    ev.ActionCompleted: lambda e: (f"step {e.idx} done ({e.source}): {call_line(e.call)}"
                                   + (f" → receipt {e.receipt_id}" if e.receipt_id else ""), _output(e.output), "good"),
    ev.ReceiptUndone: lambda e: (f"receipt {e.receipt_id} undone" + (f", forced by {e.by}" if e.forced else ""), [], ""),
    ev.ReplayStarted: lambda e: (f"replay of {e.program_id}"
                                 + (f" with {', '.join(f'{k}={v!r}' for k, v in e.params.items())}" if e.params else ""),
                                 [], ""),
    ev.StateChecked: _check,
    ev.ReplayFellBack: lambda e: (f"fell back at {e.state_id} ({e.end}): {e.reason}", [], "wait"),
    ev.ProgramExtended: lambda e: (f"program {e.program_id} gained a branch at {e.state_id} ({e.states} states)",
                                   [], ""),
    ev.ProgramStored: lambda e: (f"program {e.program_id} stored ({e.status})", [], "good"),
    ev.ProgramRejected: lambda e: (f"program not stored: {e.reason}", [], "bad"),
}
