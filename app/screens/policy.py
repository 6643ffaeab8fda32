"""The policy screen: what the running gate was started with, read-only by design."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from engine.gate.policy import Policy
from engine.visible import visible


def policy_lines(policy: Policy) -> list[str]:
    """Every field of the policy, one per line, sets and maps sorted so the view is stable."""
    lines = []
    for field in dataclasses.fields(policy):
        value = getattr(policy, field.name)
        if isinstance(value, (set, frozenset)):
            value = ", ".join(sorted(value)) or "—"
        elif isinstance(value, Mapping):
            value = ", ".join(f"{k}: {getattr(v, 'label', v)}" for k, v in sorted(value.items())) or "—"
        lines.append(visible(f"{field.name.replace('_', ' ')}: {value}"))
    return lines


class PolicyScreen(ModalScreen[None]):
    BINDINGS = [Binding("escape,p,q", "dismiss", "Close", id="policy.close")]
    DEFAULT_CSS = """
    PolicyScreen { align: center middle; }
    PolicyScreen > VerticalScroll {
        width: 80%; height: 70%; border: round $accent; background: $surface; padding: 1 2;
    }
    """

    def __init__(self, policy: Policy) -> None:
        super().__init__()
        self.policy = policy

    def compose(self) -> ComposeResult:
        with VerticalScroll() as scroll:
            scroll.border_title = "Policy (read-only; edit the file and restart to change it)"
            yield Static("\n".join(policy_lines(self.policy)), markup=False)
