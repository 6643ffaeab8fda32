"""An approval in full, to decide it with everything in view: the call, the words each rule matched,
the code it runs as the approval pins it, what it would change in the files, where it would send data,
and whether the step may have run.

It opens on the route: why the gate asked (`asks: sends an HTTP request to another host (api.example.com)`).
Then, for a pending call, the ways to decide it, each with exactly what it would cover: `a` once, `T` for the
rest of its task and `P` for this session, each of those naming its pattern (shell.run `git push …`); a call
that takes no scope (catastrophic, or one no pattern can be drawn from) says so in one line and offers only once
or deny. The keys post the same messages the approvals pane posts (`ApprovalList.Decided`,
`ApprovalList.ScopeChosen`), so the engine sees one path whichever way a person decides, and a scope is
confirmed, naming its pattern, before it is granted.
"""

from __future__ import annotations

from typing import Any

from textual import on
from textual.binding import Binding
from textual.containers import Horizontal
from textual.content import Content
from textual.widget import Widget
from textual.widgets import Button, Static

from app.screens.record_detail import DetailScreen, call_lines, diff_lines, labelled, section, visible
from engine.errors import WardenError
from engine.gate.approvals import Approval, ApprovalStatus
from engine.gate.explain import ApprovalDetail
from engine.gate.grants import GrantError, Scope, scoped_pattern
from engine.gate.patterns import Pattern
from engine.gate.policy import Policy
from engine.tools.pins import Pin, PinKind
from widgets.approval_list import ApprovalList


class ApprovalDetailScreen(DetailScreen[ApprovalDetail]):
    KIND = "approval"
    BINDINGS = [
        Binding("a", "decide(True)", "Approve", id="warden.detail.approve"),
        Binding("d", "decide(False)", "Deny", id="warden.detail.deny"),
        Binding("T", "scope('task')", "Approve for the task", id="warden.detail.approve_task"),
        Binding("P", "scope('pattern')", "Approve for the session", id="warden.detail.approve_pattern"),
    ]
    DEFAULT_CSS = """
    ApprovalDetailScreen #decision { height: auto; margin-top: 1; }
    ApprovalDetailScreen #decision Button { margin-right: 2; }
    """

    def __init__(self, record_id: str) -> None:
        super().__init__(record_id)
        self.pattern: Pattern | None = None
        """What a scoped grant on this call would cover, once loaded; None when it takes no scope."""
        self.no_scope: str | None = None
        """Why this call takes no scope, once loaded; None when it takes one."""

    async def fetch(self, reader: Any) -> ApprovalDetail:
        """Explained under the app's policy, which the engine sets as it starts (before the reader is open)."""
        policy = getattr(self.app, "policy", None)
        if not isinstance(policy, Policy):
            raise WardenError("the engine has not started yet")
        return await reader.approval_detail(self.record_id, policy)

    def title_line(self, detail: ApprovalDetail) -> Content:
        approval = detail.approval
        return Content.assemble(("Approval ", "bold"), visible(approval.id), " · ",
                                (approval.status.value, _status(approval.status)), " · ", visible(approval.call.tool),
                                " · task ", visible(approval.task_id), f" step {approval.step_idx}")

    def render_detail(self, detail: ApprovalDetail) -> list[Widget]:
        approval, explanation = detail.approval, detail.explanation
        words = [word for match in explanation.matches for word in match.words]
        facts = [
            labelled("task", f"{approval.task_id}: {detail.task_goal or '?'}"),
            labelled("level", approval.level, "$text-error" if approval.level != "safe" else ""),
            labelled("tier", approval.tier),
            labelled("may have run", detail.ran, "$text-warning" if not detail.ran.startswith("no") else ""),
            labelled("reason", approval.reason),
        ]
        if approval.decided_by:
            facts.append(labelled("decided by", approval.decided_by))
        self.pattern, self.no_scope = _scope_of(approval)
        widgets: list[Widget] = [Static(route_line(approval), id="route", classes="route-line")]
        if approval.status is ApprovalStatus.PENDING:
            widgets += section("Decide", self._choices(approval))
        widgets += section("Approval", facts)
        widgets += section("Call", call_lines(approval.call, words))
        widgets += section("Rules", self._rules(detail))
        if approval.code:
            widgets += section("Code it runs, as this approval pins it", [
                line for pin in approval.code for line in _pinned(pin)])
        if detail.changes:
            widgets += section("Change to the files now", [line for change in detail.changes for line in diff_lines(change)])
        if explanation.egress:
            widgets += section("Egress", [line for egress in explanation.egress for line in (
                labelled("destination", egress.destination),
                labelled("method", egress.method or "not told by the command line"),
                labelled("body", "not told by the command line" if egress.body_bytes is None
                         else f"{egress.body_bytes} bytes"),
                labelled("allowed", ", ".join(egress.allowed) or "no origins allowed",
                         "$text-error" if egress.leaves_allowed else "$text-success"),
            )])
        if approval.status is ApprovalStatus.PENDING:
            buttons = [Button(f"Approve once ({self._key('approve', 'a')})", id="approve", variant="success")]
            if self.pattern is not None:
                buttons += [Button(f"For this task ({self._key('approve_task', 'T')})", id="approve-task"),
                            Button(f"For this session ({self._key('approve_pattern', 'P')})", id="approve-pattern")]
            buttons.append(Button(f"Deny ({self._key('deny', 'd')})", id="deny", variant="error"))
            widgets.append(Horizontal(*buttons, id="decision"))
        return widgets

    def _key(self, action: str, default: str) -> str:
        """The key of `warden.detail.<action>` as mapped now (`keymap.toml`)."""
        try:
            key_for = getattr(self.app, "key_for", None)
        except RuntimeError:  # drawn outside a running app (a test of the text alone): the default keys
            return default
        return key_for(f"warden.detail.{action}") if callable(key_for) else default

    def _choices(self, approval: Approval) -> list[Content]:
        """Each way to decide the call, its key as mapped now, and exactly what it covers."""
        def choice(action: str, default: str, words: str, covers: str, style: str = "") -> Content:
            return Content.assemble((f"{self._key(action, default):<3}", "bold"), (words, "bold"), ": ",
                                    (visible(covers), style))

        lines = [choice("approve", "a", "approve once", "exactly this call")]
        if self.pattern is not None:
            shown = self.pattern.describe()
            lines += [choice("approve_task", "T", "approve for the rest of this task", shown, "$text-warning"),
                      choice("approve_pattern", "P", "approve for this session",
                             f"{shown} in any task", "$text-warning")]
        else:
            lines.append(Content.assemble(("no scope: ", "bold $text-error"),
                                          (visible(self.no_scope or ""), "$text-error"),
                                          " — only once or deny."))
        lines.append(choice("deny", "d", "deny", f"the call does not run; task {approval.task_id} fails"))
        return lines

    @staticmethod
    def _rules(detail: ApprovalDetail) -> list[Content]:
        """Every rule the approval names, with its reason and the words it matched; then the rating now,
        when the running policy rates the call otherwise than when it was asked."""
        matches = {match.rule: match for match in detail.explanation.matches}
        lines = []
        for rule in detail.approval.rules:
            match = matches.get(rule)
            if match is None:
                lines.append(Content.assemble(("● ", "$text-error"), (visible(rule), "bold"), "  ",
                                              (visible(detail.approval.reason) if len(detail.approval.rules) == 1
                                               else "(no longer fires under the running policy)", "$text-muted")))
                continue
            lines.append(Content.assemble(("● ", "$text-error" if match.level != "safe" else "$text-success"),
                                          (visible(rule), "bold"), f"  {match.level} · {match.tier}  ",
                                          visible(match.reason)))
            for word in match.words:
                lines.append(Content.assemble("    matched ", (visible(word), "bold $text-warning")))
        verdict = detail.explanation.verdict
        if set(verdict.rules) != set(detail.approval.rules) or verdict.level.label != detail.approval.level:
            lines.append(Content.styled(
                f"Rated now under the running policy: {verdict.level.label} · {verdict.tier.value}: "
                f"{visible(verdict.reason)}",
                "$text-muted"))
        return lines

    def _decidable(self) -> bool:
        """Whether the approval shown can be decided now; if not, the person is told why in one line."""
        if self.detail is None:
            self.notify("The approval is still loading.", severity="warning")
            return False
        if self.detail.approval.status is not ApprovalStatus.PENDING:
            self.notify(f"{self.record_id} is {self.detail.approval.status.value}, not pending.", severity="warning")
            return False
        return True

    def action_decide(self, approved: bool) -> None:
        """Decide through the pane's message; only a pending approval can be decided."""
        if not self._decidable():
            return
        self.app.post_message(ApprovalList.Decided(self.record_id, approved))
        self.dismiss(approved)

    @on(Button.Pressed, "#approve")
    def _approve(self) -> None:
        self.action_decide(True)

    @on(Button.Pressed, "#deny")
    def _deny(self) -> None:
        self.action_decide(False)

    def action_scope(self, scope: str) -> None:
        """Approve for a scope past once, through the pane's message: the app confirms the pattern first. A call
        that takes no scope says why, in one line, and stays pending."""
        if not self._decidable():
            return
        if self.pattern is None:
            self.notify(f"{self.record_id} takes no scope: {self.no_scope}. It stays pending: approve it once or "
                        "deny it.", title="no scope", severity="warning", timeout=10)
            return
        self.app.post_message(ApprovalList.ScopeChosen(self.record_id, Scope(scope).value))

    @on(Button.Pressed, "#approve-task")
    def _approve_task(self) -> None:
        self.action_scope(Scope.TASK.value)

    @on(Button.Pressed, "#approve-pattern")
    def _approve_pattern(self) -> None:
        self.action_scope(Scope.PATTERN.value)


def route_line(approval: Approval) -> Content:
    """Why the gate asked, first and in words: `asks: <why>`."""
    return Content.assemble(("asks: ", "bold $text-warning"), (visible(approval.route or approval.reason), "bold"))


def _scope_of(approval: Approval) -> tuple[Pattern | None, str | None]:
    """The pattern a scoped grant would cover, or why the call takes none."""
    try:
        return scoped_pattern(approval), None
    except GrantError as exc:
        return None, str(exc)


def _pinned(pin: Pin) -> list[Content]:
    """One file the call runs as code, as the approval was given on it: its text (the start of it), or why
    none is shown. Approving covers exactly these contents; a change asks again."""
    if pin.kind is PinKind.FILE:
        head = Content.assemble((visible(pin.path), "bold"), f"  {pin.size} bytes · sha256 {pin.sha256[:16]}")
        if pin.binary:
            return [head, Content.styled("binary content, not shown", "$text-muted")]
        lines = [head, *(Content(visible(line)) for line in pin.text.split("\n"))]
        if pin.truncated:
            lines.append(Content.styled(f"… {pin.size - pin.shown} more bytes not shown (still pinned)", "$text-muted"))
        return lines
    why = {PinKind.ABSENT: "does not exist now (pinned as absent)", PinKind.NOT_A_FILE: "is not a readable file",
           PinKind.UNREACHABLE: "is outside the workspace: not pinned"}[pin.kind]
    return [Content.assemble((visible(pin.path), "bold"), "  ", (why, "$text-warning"))]


def _status(status: ApprovalStatus) -> str:
    return {ApprovalStatus.PENDING: "$text-warning", ApprovalStatus.APPROVED: "$text-success",
            ApprovalStatus.USED: "$text-success", ApprovalStatus.DENIED: "$text-error"}.get(status, "$text-muted")
