"""The approvals pane: calls the gate held for a person, oldest first (they expire in that order), with
when each began to wait, its level, the call, the rules and the reason.

A shell call shows as the command itself (`$ mv old.txt new.txt`); any other call shows its tool, then
where it acts (`path=`, `command=`, `url=`), then the rest: a long `content=` cannot hide the path. A call
whose command or place does not fit its column is wrapped onto a second line (the pane's rows grow to two
lines), never cut in the middle; only a call longer than both lines loses its middle, never its end, so a
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

SHELL = "shell.run"
FIRST = ("path", "command", "url")
LONGEST = 4000
"""Characters of a call kept for its line (its middle goes first)."""
SHORTEST = 9
"""Characters an argument's value keeps at least, quotes and `…` included."""
LEVEL = {"catastrophic": "[$error]catastrophic[/]", "dangerous": "[$warning]dangerous[/]"}


def shell_command(call: ToolCall) -> str | None:
    """The command of a shell call that can be shown as itself (`$ …`): one without other arguments, all of
    it printable (a line feed or a control character is shown as the literal the generic form writes)."""
    command = call.args.get("command")
    if call.tool == SHELL and len(call.args) == 1 and isinstance(command, str) and command.isprintable():
        return command
    return None


def call_line(call: ToolCall, width: int | None = None) -> str:
    """The call on one line: a shell call as `$ command`; any other its tool, then `path=`, `command=` and
    `url=`, then the other arguments. Given a `width`, the longest values lose their middle first, the other
    arguments' before those three. Values are written as Python literals and the tool and names through
    `visible`, so nothing in the call is hidden."""
    return laid_out(call, width)[0]


def laid_out(call: ToolCall, width: int | None = None) -> tuple[str, bool]:
    """`call_line`, and whether what says where the call acts (the command, `path=`, `command=`, `url=`) is
    there whole."""
    command = shell_command(call)
    if command is not None:
        text = "$ " + command
        limit = LONGEST if width is None else width
        return (text, True) if len(text) <= limit else (middle(text, limit), False)
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
    whole = all(values[name] == repr(call.args[name]) for name in first)
    return (text, whole) if len(text) <= limit else (middle(text, limit), False)


def wrapped(text: str, width: int) -> list[str]:
    """`text` in lines of at most `width` characters, broken after a space where one is in the line's second
    half, else at the width; every character is kept (a space ends the line it was broken after)."""
    lines: list[str] = []
    width = max(1, width)
    while len(text) > width:
        cut = text.rfind(" ", 0, width)
        cut = cut + 1 if cut >= width // 2 else width
        lines.append(text[:cut])
        text = text[cut:]
    return [*lines, text]


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

    def wrap(self, width: int, lines: int) -> list[Content]:
        """The call in at most `lines` lines of `width`: one when where it acts fits whole on it; else the
        whole call wrapped, or, when even that is too long, the call laid out for the room the lines give
        (its longest values lose their middle) and wrapped, or cut at the width when no break fits."""
        text, whole = laid_out(self.call, width)
        if whole or lines <= 1:
            return [shown(text)]
        parts = wrapped(call_line(self.call), width)
        for room in range(width * lines, width * lines - width // 2, -1):
            if len(parts) <= lines:
                break
            parts = wrapped(call_line(self.call, room), width)
        if len(parts) > lines:
            squeezed = call_line(self.call, width * lines)
            parts = [squeezed[at:at + width] for at in range(0, len(squeezed), width)]
        return [shown(part) for part in parts]


class ApprovalList(RecordTable):
    COLUMNS = (
        Column("task", 10),
        Column("since", 8, shown_from=90),
        Column("level", 12),
        Column("call", share=3, least=16, lines=2),
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

    @dataclass
    class ScopeChosen(Message):
        """The operator chose to approve the highlighted call for a scope past once (`task` or `pattern`): the
        app shows the pattern the grant would cover and asks before granting it."""

        approval_id: str
        scope: str

    def decide(self, approved: bool) -> bool:
        """Post `Decided` for the highlighted approval; False when nothing is waiting."""
        return self.request(lambda approval_id: self.Decided(approval_id, approved))

    def choose_scope(self, scope: str) -> bool:
        """Post `ScopeChosen` for the highlighted approval; False when nothing is waiting."""
        return self.request(lambda approval_id: self.ScopeChosen(approval_id, scope))

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
