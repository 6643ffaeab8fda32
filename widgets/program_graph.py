"""The program graph: a program's states top to bottom, lit up check by check during a replay.

Under the state checked last, the check is shown predicate by predicate: each leaf with ✔ or
✖, what it expected in a few words, and what the screen showed when it did not hold. An
engine that reports no leaves leaves the state's check drawn as it is written.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from textual.content import Content
from textual.reactive import reactive
from textual.widget import Widget

from engine.programs.describe import describe, target
from engine.programs.program import Program

SAW_WIDTH = 60


@dataclass(frozen=True)
class Leaf:
    """One leaf of a check: the predicate (parameters bound), whether it held, what was seen for it."""

    predicate: object
    holds: bool
    saw: str = ""

    @classmethod
    def from_json(cls, raw: object) -> Leaf:
        if not isinstance(raw, Mapping):
            return cls(raw, False)
        return cls(raw.get("predicate"), raw.get("holds") is True, str(raw.get("saw") or ""))


@dataclass(frozen=True)
class Check:
    """The latest check of a state: passed or not, the predicate it expected, and each leaf's report."""

    state_id: str
    passed: bool
    expected: dict = field(default_factory=dict)
    leaves: tuple[Leaf, ...] = ()
    waited_s: float = 0.0


def words(predicate: object) -> str:
    """A predicate in a few words; one the describer does not know is shown as its JSON."""
    if isinstance(predicate, dict) and len(predicate) == 1:
        try:
            return describe(predicate)
        except (KeyError, TypeError, ValueError, AttributeError):
            pass
    return json.dumps(predicate, ensure_ascii=False, default=str)


def compound(predicate: object) -> bool:
    """Whether the predicate says more than its leaves listed one under another (an `any` or a `not`)."""
    if not isinstance(predicate, dict) or len(predicate) != 1:
        return False
    (form, body), = predicate.items()
    if form in ("any", "not"):
        return True
    return form == "all" and isinstance(body, list) and any(compound(part) for part in body)


class ProgramGraph(Widget):
    """Shows one program; the checks of each program's latest replay are kept, so switching back shows them."""

    program: reactive[Program | None] = reactive(None)

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.checks: dict[str, dict[str, bool]] = {}
        self.current: dict[str, str] = {}
        self.last: dict[str, Check] = {}

    def show_program(self, program: Program | None) -> None:
        self.program = program

    def begin(self, program_id: str) -> None:
        """A new replay of the program starts: forget the previous one's path."""
        self.checks[program_id] = {}
        self.current.pop(program_id, None)
        self.last.pop(program_id, None)
        self.refresh()

    def mark(self, program_id: str, state_id: str, passed: bool, *, observed: Sequence = (),
             expected: Mapping | None = None, waited_s: float = 0.0) -> None:
        """A state was checked; `observed` holds one `{"predicate", "holds", "saw"}` per leaf (may be empty)."""
        self.checks.setdefault(program_id, {})[state_id] = passed
        self.current[program_id] = state_id
        self.last[program_id] = Check(state_id, passed, dict(expected or {}),
                                      tuple(Leaf.from_json(leaf) for leaf in observed or ()), float(waited_s or 0.0))
        self.refresh()

    def render(self) -> Content:
        program = self.program
        if program is None:
            return Content.from_markup("[$text-muted]Select a program to see its states.[/]")
        lines = [Content.from_markup("[b]$goal[/b]", goal=program.goal_template)]
        path = program.path()
        last = self.last.get(program.id)
        for position, state_id in enumerate(path):
            state = program.state(state_id)
            lines.append(self._node(program.id, state_id, state.description))
            if last is not None and last.state_id == state_id and last.leaves:
                lines.extend(self._leaves(last, "│   "))
            else:
                lines.append(Content.from_markup("[$text-muted]│   ? $check[/]", check=describe(state.check)))
            if position + 1 < len(path):
                transition = next(t for t in program.leaving(state_id) if t.target == path[position + 1])
                action = transition.action
                lines.append(Content.from_markup("│ [$accent]▼ $tool[/] $target", tool=action.tool, target=target(action.args)))
        if last is not None and last.state_id not in path and (last.leaves or last.expected):
            lines.append(self._off_path(last))
            lines.extend(self._leaves(last, "    "))
        return Content("\n").join(lines)

    @staticmethod
    def _leaves(check: Check, indent: str) -> list[Content]:
        """The check predicate by predicate; a leaf that failed says what was seen instead."""
        lines = []
        if compound(check.expected):
            lines.append(Content.from_markup(f"[$text-muted]{indent}expects $what[/]", what=words(check.expected)))
        for leaf in check.leaves:
            if leaf.holds:
                lines.append(Content.from_markup(f"{indent}[$success]✔[/] $what", what=words(leaf.predicate)))
                continue
            lines.append(Content.from_markup(f"{indent}[b $error]✖[/] [$error]$what[/]", what=words(leaf.predicate)))
            if leaf.saw:
                saw = " ".join(leaf.saw.split())
                saw = saw if len(saw) <= SAW_WIDTH else saw[:SAW_WIDTH - 1] + "…"
                lines.append(Content.from_markup(f"{indent}  [$text-muted]saw[/] [$text-warning]$saw[/]", saw=saw))
        return lines

    @staticmethod
    def _off_path(check: Check) -> Content:
        """A check of a state the drawing does not show (a branch, a guard): named under the graph."""
        mark = "[$success]✔[/]" if check.passed else "[b $error]✖[/]"
        return Content.from_markup(f"{mark} checked $id$waited", id=check.state_id, waited=_waited(check))

    def _node(self, program_id: str, state_id: str, description: str) -> Content:
        passed = self.checks.get(program_id, {}).get(state_id)
        if state_id == self.current.get(program_id):
            style = "$success" if passed else "$error"
            last = self.last.get(program_id)
            waited = _waited(last) if last is not None and last.state_id == state_id else ""
            node = Content.from_markup(f"[reverse {style}] ◉ $id [/] $text", id=state_id, text=description)
            return node + Content.from_markup("[$text-muted]$waited[/]", waited=waited) if waited else node
        if passed is True:
            return Content.from_markup("[$success]✔ $id[/] $text", id=state_id, text=description)
        if passed is False:
            return Content.from_markup("[$error]✖ $id[/] $text", id=state_id, text=description)
        return Content.from_markup("[$text-muted]○ $id[/] $text", id=state_id, text=description)


def _waited(check: Check) -> str:
    """How long the replayer waited for the screen to settle into the state, when it waited at all."""
    return f" · waited {check.waited_s:.1f}s" if check.waited_s > 0 else ""
