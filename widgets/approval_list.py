"""The approvals pane: calls the gate held for a person, with the rule and the reason."""

from __future__ import annotations

from dataclasses import dataclass

from textual.message import Message

from engine.gate.approvals import Approval
from engine.tools.call import ToolCall
from widgets.record_table import RecordTable


def brief(call: ToolCall, limit: int = 60) -> str:
    """A call on one line: the tool and its arguments, cut to `limit` characters."""
    text = call.tool + " " + " ".join(f"{key}={value!r}" for key, value in call.args.items())
    return text if len(text) <= limit else text[: limit - 1] + "…"


class ApprovalList(RecordTable):
    COLUMNS = ("task", "call", "level", "rules", "reason")
    EMPTY = "nothing waiting"

    @dataclass
    class Decided(Message):
        """The operator approved or denied the highlighted call."""

        approval_id: str
        approved: bool

    def decide(self, approved: bool) -> bool:
        """Post `Decided` for the highlighted approval; False when nothing is waiting."""
        return self.request(lambda approval_id: self.Decided(approval_id, approved))

    def show_approvals(self, approvals: list[Approval]) -> None:
        self.show(
            (
                approval.id,
                (
                    approval.task_id,
                    brief(approval.call),
                    approval.level,
                    ", ".join(approval.rules),
                    approval.reason,
                ),
                approval.created_at,
            )
            for approval in approvals
        )
