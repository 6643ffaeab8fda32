"""An approval in full, to decide it with everything in view: the call, the words each rule matched,
the code it runs as the approval pins it, what it would change in the files, where it would send data,
and whether the step may have run.

`a` approves and `d` denies through the same message the approvals pane posts
(`ApprovalList.Decided`), so the engine sees one path whichever way a person decides.
"""

from __future__ import annotations

from typing import Any

from textual import on
from textual.binding import Binding
from textual.containers import Horizontal
from textual.content import Content
from textual.widget import Widget
from textual.widgets import Button

from app.screens.record_detail import DetailScreen, call_lines, diff_lines, labelled, section, visible
from engine.errors import WardenError
from engine.gate.approvals import ApprovalStatus
from engine.gate.explain import ApprovalDetail
from engine.gate.policy import Policy
from engine.tools.pins import Pin, PinKind
from widgets.approval_list import ApprovalList


class ApprovalDetailScreen(DetailScreen[ApprovalDetail]):
    KIND = "approval"
    BINDINGS = [
        Binding("a", "decide(True)", "Approve", id="warden.detail.approve"),
        Binding("d", "decide(False)", "Deny", id="warden.detail.deny"),
    ]
    DEFAULT_CSS = """
    ApprovalDetailScreen #decision { height: auto; margin-top: 1; }
    ApprovalDetailScreen #decision Button { margin-right: 2; }
    """

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
        widgets = section("Approval", facts)
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
            widgets.append(Horizontal(Button("Approve (a)", id="approve", variant="success"),
                                      Button("Deny (d)", id="deny", variant="error"), id="decision"))
        return widgets

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

    def action_decide(self, approved: bool) -> None:
        """Decide through the pane's message; only a pending approval can be decided."""
        if self.detail is None:
            self.notify("The approval is still loading.", severity="warning")
            return
        if self.detail.approval.status is not ApprovalStatus.PENDING:
            self.notify(f"{self.record_id} is {self.detail.approval.status.value}, not pending.", severity="warning")
            return
        self.app.post_message(ApprovalList.Decided(self.record_id, approved))
        self.dismiss(approved)

    @on(Button.Pressed, "#approve")
    def _approve(self) -> None:
        self.action_decide(True)

    @on(Button.Pressed, "#deny")
    def _deny(self) -> None:
        self.action_decide(False)


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
