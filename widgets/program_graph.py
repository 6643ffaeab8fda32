"""The program graph: a program drawn as boxes and labelled arrows, lit up check by check during a replay.

The drawing (`widgets/graph_layout.py`) is laid out once per program revision and cached; a replay's
progress only restyles it: the state being checked is highlighted, each checked state shows ✔ or ✖,
and the transitions the replay walked are traced. Under the drawing (beside it when there is room)
the detail area shows one state: its check predicate by predicate, each leaf with ✔ or ✖ and, when
it did not hold, what the screen showed; `e` turns that into expected against observed for every
leaf. The detail follows the replay until a person moves the cursor (arrows, `j`/`k`, a click).
A wide graph scrolls sideways rather than breaking at 80 columns.
"""

from __future__ import annotations

import json
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import ScrollableContainer, VerticalScroll
from textual.content import Content
from textual.geometry import Region
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget
from textual.widgets import Static

from engine.programs.describe import describe
from engine.programs.program import Program
from engine.visible import visible
from widgets.graph_layout import Drawing, Part, Tag, action_words, draw, guard_words

SAW_WIDTH = 60
SIDE_WIDTH = 110
TITLE_ROWS = 2
REVEAL_WIDTH = 24
CACHED = 32


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


@dataclass
class Replay:
    """What the latest replay of one program has shown so far: each state's latest check, the state
    checked last, and the steps taken (from a state whose check passed to the next one checked)."""

    checks: dict[str, Check] = field(default_factory=dict)
    current: str | None = None
    walked: list[tuple[str, str]] = field(default_factory=list)


def words(predicate: object) -> str:
    """A predicate in a few words, every hidden character visible; one the describer does not know is shown
    as its JSON."""
    if isinstance(predicate, dict) and len(predicate) == 1:
        try:
            return visible(describe(predicate))
        except (KeyError, TypeError, ValueError, AttributeError):
            pass
    return visible(json.dumps(predicate, ensure_ascii=False, default=str))


def compound(predicate: object) -> bool:
    """Whether the predicate says more than its leaves listed one under another (an `any` or a `not`)."""
    if not isinstance(predicate, dict) or len(predicate) != 1:
        return False
    (form, body), = predicate.items()
    if form in ("any", "not"):
        return True
    return form == "all" and isinstance(body, list) and any(compound(part) for part in body)


def conjuncts(predicate: dict) -> list[dict]:
    """A check's parts as the replayer reports them, one under another."""
    if isinstance(predicate.get("all"), list):
        return [leaf for part in predicate["all"] for leaf in conjuncts(part)]
    return [predicate]


_DRAWINGS: OrderedDict[tuple, Drawing] = OrderedDict()


def drawing_of(program: Program) -> Drawing:
    """The program's drawing, laid out once per revision and shape (a hand edit that keeps the revision
    number but changes a state is laid out again)."""
    shape = json.dumps([program.start, program.terminal, [[s.id, s.description, s.check] for s in program.states],
                        [[t.source, t.target, t.action.as_json(), t.guard] for t in program.transitions]],
                       sort_keys=True, default=str)
    key = (program.id, program.revision, shape)
    if key in _DRAWINGS:
        _DRAWINGS.move_to_end(key)
        return _DRAWINGS[key]
    drawn = _DRAWINGS[key] = draw(program)
    while len(_DRAWINGS) > CACHED:
        _DRAWINGS.popitem(last=False)
    return drawn


class ProgramGraph(Widget, can_focus=True):
    """Shows one program; each program's latest replay is kept, so switching back shows it again."""

    DEFAULT_CSS = """
    ProgramGraph {
        layout: vertical;
    }
    ProgramGraph > #graph-scroll {
        height: 1fr;
        width: 1fr;
        overflow: auto auto;
        scrollbar-size: 1 1;
    }
    ProgramGraph #graph-drawing {
        width: auto;
        height: auto;
        text-wrap: nowrap;
    }
    ProgramGraph > #graph-detail {
        height: auto;
        max-height: 45%;
        border-top: hkey $primary 40%;
        scrollbar-size-vertical: 1;
    }
    ProgramGraph #graph-detail-text {
        text-wrap: wrap;
    }
    ProgramGraph.-side {
        layout: horizontal;
    }
    ProgramGraph.-side > #graph-detail {
        height: 1fr;
        max-height: 100%;
        width: 44%;
        border-top: none;
        border-left: vkey $primary 40%;
        padding-left: 1;
    }
    ProgramGraph.-empty > #graph-detail {
        display: none;
    }
    """

    BINDINGS = [
        Binding("down,j", "move(1)", "Next state", id="warden.graph.next", show=False),
        Binding("up,k", "move(-1)", "Previous state", id="warden.graph.previous", show=False),
        Binding("right,l", "sideways(1)", "State to the right", id="warden.graph.right", show=False),
        Binding("left,h", "sideways(-1)", "State to the left", id="warden.graph.left", show=False),
        Binding("home", "first", "First state", id="warden.graph.first", show=False),
        Binding("end", "last", "Last state", id="warden.graph.last", show=False),
        Binding("e", "toggle_expected", "Expected/observed", id="warden.graph.expected"),
    ]

    program: reactive[Program | None] = reactive(None)
    selected: reactive[str | None] = reactive(None, init=False)
    """The state the detail area shows: the replay's current state until a person moves the cursor."""
    expected_shown: reactive[bool] = reactive(False, init=False)

    @dataclass
    class StateSelected(Message):
        """A person moved the graph's cursor to a state (keys or mouse)."""

        program_id: str
        state_id: str

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.replays: dict[str, Replay] = {}
        self.following = True

    def compose(self) -> ComposeResult:
        with ScrollableContainer(id="graph-scroll", can_focus=False):
            yield Static(id="graph-drawing")
        with VerticalScroll(id="graph-detail", can_focus=False):
            yield Static(id="graph-detail-text")

    def on_mount(self) -> None:
        self._redraw()

    def on_resize(self, event: events.Resize) -> None:
        """The detail goes beside the drawing when there is room; the selected state stays in view (a pane
        shown again after a replay moved on, e.g. a tab, has its size only now)."""
        self.set_class(event.size.width >= SIDE_WIDTH, "-side")
        self._reveal()

    def show_program(self, program: Program | None) -> None:
        self.program = program

    def watch_program(self, old: Program | None, new: Program | None) -> None:
        if new is None or old is None or old.id != new.id:
            self.following = True
            replay = self.replays.get(new.id) if new is not None else None
            self.selected = (replay.current if replay and replay.current else new.start) if new is not None else None
        elif self.selected not in drawing_of(new).boxes and self.selected != self._replay().current:
            self.selected = new.start
        self._redraw()
        self._reveal()

    def begin(self, program_id: str) -> None:
        """A new replay of the program starts: forget the previous one's checks and path, follow this one."""
        self.replays[program_id] = Replay()
        program = self.program
        if program is not None and program.id == program_id:
            self.following = True
            self.selected = program.start
            self._redraw()

    def mark(self, program_id: str, state_id: str, passed: bool, *, observed: Sequence = (),
             expected: Mapping | None = None, waited_s: float = 0.0) -> None:
        """A state was checked; `observed` holds one `{"predicate", "holds", "saw"}` per leaf (may be empty)."""
        replay = self.replays.setdefault(program_id, Replay())
        previous = replay.checks.get(replay.current) if replay.current is not None else None
        if previous is not None and previous.passed:
            replay.walked.append((previous.state_id, state_id))
        replay.checks[state_id] = Check(state_id, passed, dict(expected or {}),
                                        tuple(Leaf.from_json(leaf) for leaf in observed or ()), float(waited_s or 0.0))
        replay.current = state_id
        if self._showing(program_id):
            if self.following:
                self.selected = state_id
            self._redraw()
            if self.following:
                self._reveal()

    @property
    def laid_out(self) -> Drawing | None:
        """The shown program's layout (boxes, reading order), or None when no program is shown."""
        return drawing_of(self.program) if self.program is not None else None

    def drawing(self) -> Content:
        """What the graph area shows now: the program's goal, then its states and transitions, styled."""
        program = self.program
        if program is None:
            return Content.from_markup("[$text-muted]Select a program to see its states.[/]")
        drawn = drawing_of(program)
        replay = self._replay()
        walked = self._walked(program, replay)
        title = Content.from_markup("[b]$goal[/b]", goal=visible(program.goal_template))
        if program.revision > 1:
            title += Content.from_markup("[$text-muted]  · revision $n[/]", n=str(program.revision))
        lines = [title, Content("")]
        for row in drawn.rows:
            lines.append(Content.assemble(*((self._glyph(run.tag, replay) or run.text, self._style(run.tag, replay, walked))
                                            for run in row)))
        return Content("\n").join(lines)

    def details(self) -> Content:
        """What the detail area shows now: the selected state, its check and the ways out of it."""
        program = self.program
        if program is None or self.selected is None:
            return Content("")
        replay = self._replay()
        state_id = self.selected
        check = replay.checks.get(state_id)
        known = any(state.id == state_id for state in program.states)
        lines = [self._heading(program, state_id, known, check, replay)]
        if check is not None and check.leaves:
            lines.extend(self._expected(check) if self.expected_shown else self._leaves(check))
        elif known:
            if check is not None:
                lines.append(Content.from_markup("[$text-muted]  no leaves were reported; the check as written:[/]"))
            parts = conjuncts(program.state(state_id).check)
            said = [words(part) for part in parts] or ["always (the check is empty)"]
            lines.extend(Content.from_markup("[$text-muted]  ? $what[/]", what=what) for what in said)
        if known:
            lines.extend(self._ways_out(program, state_id, replay))
        return Content("\n").join(lines)

    def _heading(self, program: Program, state_id: str, known: bool, check: Check | None, replay: Replay) -> Content:
        description = program.state(state_id).description if known else "not a state of this revision"
        heading = Content.from_markup("[b]$id[/b] [$text-muted]· $text[/]", id=visible(state_id),
                                      text=visible(description))
        if check is None:
            replayed = program.id in self.replays
            return heading + Content.from_markup("[$text-muted]  not checked in this replay[/]") if replayed else heading
        mark = "[$success]✔ held[/]" if check.passed else "[b $error]✖ did not hold[/]"
        where = " [$text-muted](checked last)[/]" if replay.current == state_id else ""
        return heading + Content.from_markup(f"  {mark}{where}[$text-muted]$waited[/]", waited=_waited(check))

    @staticmethod
    def _leaves(check: Check) -> list[Content]:
        """The check predicate by predicate; a leaf that failed says what was seen instead."""
        lines = []
        if compound(check.expected):
            lines.append(Content.from_markup("[$text-muted]  expects $what[/]", what=words(check.expected)))
        for leaf in check.leaves:
            if leaf.holds:
                lines.append(Content.from_markup("  [$success]✔[/] $what", what=words(leaf.predicate)))
                continue
            lines.append(Content.from_markup("  [b $error]✖[/] [$error]$what[/]", what=words(leaf.predicate)))
            if leaf.saw:
                saw = visible(" ".join(leaf.saw.split()))
                saw = saw if len(saw) <= SAW_WIDTH else saw[:SAW_WIDTH - 1] + "…"
                lines.append(Content.from_markup("    [$text-muted]saw[/] [$text-warning]$saw[/]", saw=saw))
        return lines

    @staticmethod
    def _expected(check: Check) -> list[Content]:
        """Expected against observed, leaf by leaf, with what was seen in full (`e`)."""
        lines = [Content.from_markup("[$text-muted]  expected:[/] $what", what=words(check.expected))]
        said = [words(leaf.predicate) for leaf in check.leaves]
        width = min(40, max((len(text) for text in said), default=0))
        lines.append(Content.from_markup("[$text-muted]    $e  observed[/]", e="expected".ljust(width)))
        for leaf, text in zip(check.leaves, said):
            mark = "[$success]✔[/]" if leaf.holds else "[b $error]✖[/]"
            saw = visible(" ".join(leaf.saw.split())) or ("held" if leaf.holds else "nothing reported")
            lines.append(Content.from_markup(f"  {mark} $what  [$text-warning]$saw[/]", what=text.ljust(width), saw=saw))
        return lines

    def _ways_out(self, program: Program, state_id: str, replay: Replay) -> list[Content]:
        leaving = [(index, t) for index, t in enumerate(program.transitions) if t.source == state_id]
        if not leaving:
            return [Content.from_markup("[$text-muted]  terminal: the goal is reached here[/]")]
        walked = self._walked(program, replay)
        lines = [Content.from_markup("[$text-muted]  then[/]")]
        for index, transition in leaving:
            tool, acts_on = action_words(transition)
            arrow = "↻" if transition.target == state_id else "↑" if index in drawing_of(program).back else "→"
            style = "b $success" if index in walked else "$accent"
            guard = ""
            if transition.guard is not None:
                guard = f" if {guard_words(transition.guard, program.state(state_id).check)} ·"
            lines.append(Content.from_markup(f"  [{style}]$arrow $to[/][$text-warning]$guard[/] [$accent]$tool[/] $on",
                                             arrow=arrow, to=visible(transition.target), guard=guard, tool=tool,
                                             on=acts_on))
        return lines

    def _replay(self) -> Replay:
        return self.replays.get(self.program.id, Replay()) if self.program is not None else Replay()

    @staticmethod
    def _walked(program: Program, replay: Replay) -> set[int]:
        steps = set(replay.walked)
        return {index for index, t in enumerate(program.transitions) if (t.source, t.target) in steps}

    @staticmethod
    def _glyph(tag: Tag | None, replay: Replay) -> str:
        """A box's mark: ◉ on the state checked last, ✔ or ✖ on the others checked, ○ on the rest."""
        if tag is None or tag.part is not Part.MARK:
            return ""
        check = replay.checks.get(str(tag.ref))
        return "◉" if replay.current == tag.ref else "○" if check is None else "✔" if check.passed else "✖"

    def _style(self, tag: Tag | None, replay: Replay, walked: set[int]) -> str:
        if tag is None:
            return ""
        if tag.part in (Part.LINE, Part.TOOL, Part.TARGET, Part.GUARD):
            taken = tag.ref in walked
            if tag.part is Part.LINE:
                return "b $success" if taken else "$text-muted"
            if tag.part is Part.TOOL:
                return "b $accent" if taken else "$accent"
            if tag.part is Part.GUARD:
                return "italic $text-warning"
            return "b" if taken else ""
        check = replay.checks.get(str(tag.ref))
        current = replay.current == tag.ref
        outcome = None if check is None else "$success" if check.passed else "$error"
        chosen = tag.ref == self.selected
        if tag.part is Part.BORDER:
            if chosen and self.has_focus:
                return "b $accent"
            return f"b {outcome}" if current and outcome else outcome or ""
        if tag.part is Part.ID:
            style = f"reverse {outcome}" if current and outcome else f"b {outcome}" if outcome else "b"
            return f"{style} underline" if chosen else style
        if tag.part is Part.TEXT:
            return "" if outcome else "$text-muted" if not chosen else ""
        return outcome or "$text-muted"

    def _redraw(self) -> None:
        if not self.is_mounted:
            return
        self.set_class(self.program is None, "-empty")
        self.query_one("#graph-drawing", Static).update(self.drawing())
        self.query_one("#graph-detail-text", Static).update(self.details())

    def _reveal(self) -> None:
        """Scroll the drawing so the start of the selected state's box (its mark and id) is in view, once a new
        drawing has its size."""
        self.call_after_refresh(self._scroll_to_selected)

    def _scroll_to_selected(self) -> None:
        if not self.is_mounted or self.program is None or self.selected is None:
            return
        box = drawing_of(self.program).boxes.get(self.selected)
        if box is not None:
            start = Region(box.x, box.y + TITLE_ROWS, min(box.width, REVEAL_WIDTH), box.height)
            self.query_one("#graph-scroll").scroll_to_region(start, animate=False, immediate=True)

    def _showing(self, program_id: str) -> bool:
        return self.program is not None and self.program.id == program_id

    def watch_expected_shown(self) -> None:
        self._redraw()

    def on_focus(self) -> None:
        """Focus handlers run before Textual's own sets `has_focus`: redraw the cursor's box after it."""
        self.call_later(self._redraw)

    def on_blur(self) -> None:
        self.call_later(self._redraw)

    def _choose(self, state_id: str | None) -> None:
        if self.program is None or state_id is None:
            return
        self.following = False
        self.selected = state_id
        self._redraw()
        self._reveal()
        self.post_message(self.StateSelected(self.program.id, state_id))

    def action_move(self, step: int) -> None:
        """Next or previous state in reading order: layer by layer, left to right."""
        if self.program is None:
            return
        order = drawing_of(self.program).order
        at = order.index(self.selected) if self.selected in order else -1
        self._choose(order[max(0, min(len(order) - 1, at + step))] if at >= 0 else order[0])

    def action_sideways(self, step: int) -> None:
        """The nearest state in the same layer to the right or left; where there is none, scroll that way."""
        if self.program is None:
            return
        boxes = drawing_of(self.program).boxes
        here = boxes.get(self.selected or "")
        if here is not None:
            row = sorted((box for box in boxes.values() if box.y == here.y and (box.x - here.x) * step > 0),
                         key=lambda box: abs(box.x - here.x))
            if row:
                self._choose(row[0].state_id)
                return
        scroll = self.query_one("#graph-scroll")
        scroll.scroll_relative(x=step * max(8, scroll.size.width // 2), animate=False)

    def action_first(self) -> None:
        if self.program is not None:
            self._choose(drawing_of(self.program).order[0])

    def action_last(self) -> None:
        if self.program is not None:
            self._choose(drawing_of(self.program).order[-1])

    def action_toggle_expected(self) -> None:
        self.expected_shown = not self.expected_shown

    def on_click(self, event: events.Click) -> None:
        """A click on a box selects its state."""
        drawing = self.query_one("#graph-drawing", Static)
        if self.program is None or event.widget is not drawing:
            return
        offset = event.get_content_offset(drawing)
        if offset is not None:
            self.focus()
            self._choose(drawing_of(self.program).box_at(offset.x, offset.y - TITLE_ROWS))


def _waited(check: Check) -> str:
    """How long the replayer waited for the screen to settle into the state, when it waited at all."""
    return f" · waited {check.waited_s:.1f}s" if check.waited_s >= 0.05 else ""
