"""The approvals pane: calls the gate held for a person, with the rule and the reason."""

from __future__ import annotations

from engine.gate.approvals import Approval
from widgets.record_table import RecordTable


class ApprovalList(RecordTable):
    COLUMNS = ("task", "call", "level", "rules", "reason")
    EMPTY = "nothing waiting"

    def show_approvals(self, approvals: list[Approval]) -> None:
        self.show(
            (
                approval.id,
                (
                    approval.task_id,
                    f"{approval.call.tool} {approval.call.canonical()[len(approval.call.tool) + 20:][:48]}",
                    approval.level,
                    ", ".join(approval.rules),
                    approval.reason,
                ),
            )
            for approval in approvals
        )
