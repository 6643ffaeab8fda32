"""Compensation: undoing a call's effect on a cooperating system by the call its compensator declared.

A `runtime_compensable` call's result is bound to its compensator when its receipt is written
(`bound`); the receipt keeps the system, the key, the compensating call and the deadline. Within
the window an undo runs that call, through the gate, as an action of its own; past it, nothing
runs, the receipt becomes `irrecoverable`, and the refusal says what remains.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime

from engine.envs.environment import Environment
from engine.errors import one_line
from engine.gate.gate import Decision, Gate
from engine.gate.verdict import Level
from engine.journal.journal import UndoError
from engine.journal.receipt import Receipt, Reversal
from engine.store import Store
from engine.tier import Tier
from engine.tools.call import ToolCall
from engine.tools.compensator import Compensation, CompensatorError
from engine.tools.registry import Tool, ToolError, ToolOutput, ToolRegistry


def bound(tool: Tool, call: ToolCall, tier: Tier, output: ToolOutput | None, now: float) -> Compensation | None:
    """The compensation of a call that ran under `runtime_compensable`, read from its result; None when the call
    has no compensator, ran under a stricter tier, or its result holds no usable key (its receipt is then
    audit only: there is nothing to compensate by)."""
    if tier is not Tier.RUNTIME_COMPENSABLE or output is None:
        return None
    compensator = tool.compensator(call.args)
    if compensator is None:
        return None
    try:
        return compensator.bind(output.data, now)
    except CompensatorError:
        return None


@dataclass(frozen=True)
class Compensated:
    """A compensation that ran: the call, what the gate said of it, and who approved it when it asked;
    `compensation` is the receipt's, which it ran."""

    call: ToolCall
    tier: Tier
    decision: Decision
    approved_by: str | None
    output: str
    compensation: Compensation


class Compensations:
    """Runs compensations through the gate, once each (claimed by compare-and-swap), within their windows."""

    def __init__(self, store: Store, gate: Gate, registry: ToolRegistry,
                 clock: Callable[[], float] = time.time) -> None:
        self._store = store
        self._gate = gate
        self._registry = registry
        self.clock = clock

    async def run(self, receipt: Receipt, env: Environment, by: str) -> Compensated:
        """Run the receipt's compensating call in `env`, leaving the receipt `reversing` for the caller to settle
        as `reversed` with its own receipt. Past the deadline the receipt becomes `irrecoverable`; a gate that
        blocks the call refuses the undo with its reason; an ask is approved by `by`, the person undoing."""
        compensation = receipt.compensation
        if receipt.reversal is not Reversal.COMPENSABLE or compensation is None:
            raise UndoError(f"receipt {receipt.id} is {receipt.reversal.value}: it has no compensation to run")
        if self.clock() > compensation.deadline:
            await self._store.execute("UPDATE receipts SET reversal = ? WHERE id = ? AND reversal = ?",
                                      (Reversal.IRRECOVERABLE.value, receipt.id, Reversal.COMPENSABLE.value))
            raise UndoError(f"receipt {receipt.id} is irrecoverable: its compensation window closed at "
                            f"{_when(compensation.deadline)}; {compensation.remains()}")
        call = compensation.call
        try:
            tool = self._registry.check(call)
        except ToolError as exc:
            raise UndoError(f"receipt {receipt.id}: its compensation {call.tool} cannot run here ({exc}); "
                            f"{compensation.remains()}") from None
        ruling = self._gate.rule(call, tool.tier_for(call.args), tool)
        if ruling.decision is Decision.BLOCK:
            raise UndoError(f"receipt {receipt.id}: the gate blocks its compensation {call.tool} "
                            f"({ruling.verdict.reason}); {compensation.remains()}")
        claimed = await self._store.execute("UPDATE receipts SET reversal = ? WHERE id = ? AND reversal = ?",
                                            (Reversal.REVERSING.value, receipt.id, Reversal.COMPENSABLE.value))
        if claimed != 1:
            raise UndoError(f"receipt {receipt.id} is being undone by another process (or was undone already)")
        try:
            output = await tool.run(env, call.args)
        except Exception as exc:
            await self._store.execute("UPDATE receipts SET reversal = ? WHERE id = ? AND reversal = ?",
                                      (Reversal.COMPENSABLE.value, receipt.id, Reversal.REVERSING.value))
            raise UndoError(f"receipt {receipt.id}: its compensation {call.tool} failed ({one_line(exc)}); "
                            f"{compensation.remains()}") from None
        held = ruling.decision is Decision.ASK or ruling.verdict.level is not Level.SAFE
        approved_by = by if held else None  # a person undoing what is not safe approves it by undoing
        return Compensated(call, ruling.verdict.tier, ruling.decision, approved_by, output.text, compensation)


def _when(moment: float) -> str:
    return datetime.fromtimestamp(moment, UTC).isoformat(timespec="seconds").replace("+00:00", "Z")
