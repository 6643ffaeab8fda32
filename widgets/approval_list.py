"""The approvals pane: calls the gate held for a person, oldest first (they expire in that order), with
when each began to wait, its level, the call, the rules and the reason.

The call shows its tool, then where it acts (`path=`, `command=`, `url=`), then the rest: a long
`content=` cannot hide the path. A call too long for its column loses its middle, never its end, so a
shell command's redirection stays in sight; Enter shows the whole call.
"""

from __future__ import annotations

from dataclasses import dataclass

from textual.content import Content
from textual.message import Message

from engine.gate.approvals import Approval
from engine.tools.call import ToolCall
from engine.visible import visible
from widgets.record_rows import Column, Row
from widgets.record_table import RecordTable
from widgets.record_text import shown
from widgets.record_time import clock

FIRST = ("path", "command", "url")
LONGEST = 4000
"""Characters of a call kept for its line (its middle goes first)."""
SHORTEST = 9
"""Characters an argument's value keeps at least, quotes and `…` included."""
LEVEL = {"catastrophic": "[$error]catastrophic[/]", "dangerous": "[$warning]dangerous[/]"}


def call_line(call: ToolCall, width: int | None = None) -> str:
    """The call on one line: its tool, then `path=`, `command=` and `url=`, then the other arguments. Given a
    `width`, the longest values lose their middle first, the other arguments' before those three. Values are
    written as Python literals and the tool and names through `visible`, so nothing in the call is hidden."""
    names = [name for name in FIRST if name in call.args] + [name for name in call.args if name not in FIRST]
    values = {name: repr(call.args[name]) for name in names}
    labels = {name: visible(name) for name in names}

    def joined() -> str:
        return " ".join([visible(call.tool), *(f"{labels[name]}={values[name]}" for name in names)])

    limit = LONGEST if width is None else width

    def shorten(group: list[str]) -> None:
        excess = len(joined()) - limit
        for name in sorted(group, key=lambda name: -len(values[name])):
            keep = max(SHORTEST, len(values[name]) - excess)
            if excess > 0 and keep < len(values[name]):
                excess -= len(values[name]) - keep
                values[name] = middle(values[name], keep)

    first = [name for name in names if name in FIRST]
    shorten([name for name in names if name not in FIRST])
    if len(joined()) > limit and len(first) < len(names):
        names = first + ["…"]
        values["…"], labels["…"] = "", "…"
    shorten(first)
    text = joined().replace(" …=", " …")
    return text if len(text) <= limit else middle(text, limit)


def middle(text: str, keep: int) -> str:
    """`text` in `keep` characters, its middle replaced by `…` (the end of a command is where it writes)."""
    if len(text) <= keep:
        return text
    head = (keep - 1) // 2
    return text[:head] + "…" + text[len(text) - (keep - 1 - head):] if keep > 1 else "…"[:keep]


@dataclass(frozen=True)
class CallCell:
    """The call as a cell: laid out again for each width it is drawn at."""

    call: ToolCall

    @property
    def plain(self) -> str:
        return call_line(self.call)

    def fit(self, width: int) -> Content:
        return shown(call_line(self.call, width))


class ApprovalList(RecordTable):
    COLUMNS = (
        Column("task", 10),
        Column("since", 8, shown_from=90),
        Column("level", 12),
        Column("call", share=3, least=16),
        Column("rules", share=1, least=8, shown_from=120),
        Column("reason", share=2, least=10),
    )
    EMPTY = "nothing waiting"
    NOUNS = ("waiting", "waiting")

    @dataclass
    class Decided(Message):
        """The operator approved or denied the highlighted call."""

        approval_id: str
        approved: bool

    def decide(self, approved: bool) -> bool:
        """Post `Decided` for the highlighted approval; False when nothing is waiting."""
        return self.request(lambda approval_id: self.Decided(approval_id, approved))

    def show_approvals(self, approvals: list[Approval]) -> None:
        self.show(self.row_of(approval) for approval in approvals)

    @staticmethod
    def row_of(approval: Approval) -> Row:
        level = LEVEL.get(approval.level)
        return Row(approval.id, (
            shown(approval.task_id),
            Content(clock(approval.created_at)),
            Content.from_markup(level) if level else shown(approval.level),
            CallCell(approval.call),
            shown(", ".join(approval.rules)),
            shown(approval.reason),
        ), approval.created_at, words=f"{approval.tier} {approval.call.canonical()}")
