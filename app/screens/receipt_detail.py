"""A receipt in full: what the call changed (a diff, or size and hash), what its snapshot holds, its tier
and reversal, its task and step, and the later receipts an undo of it would meet."""

from __future__ import annotations

import time
from typing import Any

from textual.content import Content
from textual.widget import Widget

from app.screens.record_detail import DetailScreen, blocked_lines, call_lines, diff_lines, labelled, section
from engine.journal.diff import ReceiptDetail
from engine.journal.receipt import Reversal
from engine.tools.compensator import Compensation
from engine.visible import visible

SNAPSHOT_STATES = {
    "kept": "kept: undo restores it",
    "none": "none was taken",
    "removed": "removed when it was undone",
    "missing": "missing: this receipt can no longer be undone",
}


class ReceiptDetailScreen(DetailScreen[ReceiptDetail]):
    KIND = "receipt"

    async def fetch(self, reader: Any) -> ReceiptDetail:
        return await reader.receipt_detail(self.record_id)

    def title_line(self, detail: ReceiptDetail) -> Content:
        receipt = detail.receipt
        return Content.assemble(("Receipt ", "bold"), visible(receipt.id), " · ", visible(receipt.summary), " · ",
                                (receipt.reversal.value, _tone(receipt.reversal)))

    def render_detail(self, detail: ReceiptDetail) -> list[Widget]:
        receipt = detail.receipt
        step = "—" if receipt.step_idx is None else f"{receipt.step_idx}" + (
            f" ({detail.step_status})" if detail.step_status else "")
        facts = [
            labelled("task", f"{receipt.task_id}: {detail.task_goal}" if receipt.task_id else "— (no task)"),
            labelled("step", step),
            labelled("tier", receipt.tier.value),
            labelled("reversal", receipt.reversal.value, _tone(receipt.reversal)),
            labelled("snapshot", f"{receipt.snapshot_kind.value}, {SNAPSHOT_STATES[detail.snapshot_state]}"),
        ]
        if receipt.compensation is not None:
            facts.append(labelled("window", window(receipt.compensation, time.time())))
        widgets: list[Widget] = []
        if blocked(detail):
            widgets += blocked_lines(receipt.summary.removeprefix(f"BLOCKED {receipt.call.tool}: "))
        widgets += section("Receipt", facts)
        widgets += section("Call", call_lines(receipt.call))
        changes = [line for change in detail.changes for line in diff_lines(change)]
        widgets += section("Change", changes or [Content.styled("No file change to show: the call acted outside "
                                                                "the files, or left nothing to compare.", "$text-muted")])
        if detail.snapshot:
            widgets += section("Snapshot", [
                Content.assemble((visible(entry.path), "bold"), f"  {visible(entry.kind)}",
                                 _size(entry.kind, entry.size, entry.files))
                for entry in detail.snapshot])
        widgets += section("Later receipts an undo would meet", self._later(detail))
        return widgets

    @staticmethod
    def _later(detail: ReceiptDetail) -> list[Content]:
        if detail.receipt.reversal is not Reversal.REVERSIBLE:
            return [Content.styled(f"None weighed: the receipt is {detail.receipt.reversal.value}.", "$text-muted")]
        if not detail.later:
            return [Content.styled("None: undoing it discards no later change.", "$text-success")]
        return [Content.assemble(("● ", "$text-error"), (visible(later.receipt_id), "bold"), f"  {visible(later.summary)}  ",
                                 (visible(f"{later.why}" + (f": {', '.join(later.paths)}" if later.paths else "")),
                                  "$text-warning"), f"  ({visible(str(later.reversal))})")
                for later in detail.later]


def window(compensation: Compensation, now: float) -> str:
    """Until when a compensable effect can still be taken back, and by what: what a person needs to decide in time."""
    until = time.strftime("%H:%M:%S", time.localtime(compensation.deadline))
    left = compensation.deadline - now
    if left <= 0:
        return f"closed at {until}: {compensation.remains()}"
    return (f"{compensation.call.tool} can take {compensation.noun} {compensation.key} back in {compensation.system} "
            f"until {until} ({_left(left)} left)")


def _left(seconds: float) -> str:
    return f"{seconds / 3600:.1f} h" if seconds >= 3600 else f"{seconds / 60:.0f} min" if seconds >= 90 else f"{seconds:.0f} s"


def blocked(detail: ReceiptDetail) -> bool:
    """The receipt records a call the gate blocked (an audit of it, not an effect)."""
    return detail.step_status == "blocked" or detail.receipt.summary.startswith("BLOCKED ")


def _size(kind: str, size: int, files: int) -> str:
    if kind == "file":
        return f"  {size} bytes"
    if kind == "directory":
        return f"  {files} files, {size} bytes"
    return ""


def _tone(reversal: Reversal) -> str:
    return {Reversal.REVERSIBLE: "$text-success", Reversal.REVERSED: "$text-accent",
            Reversal.IRRECOVERABLE: "$text-error"}.get(reversal, "$text-muted")
