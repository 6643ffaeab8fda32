"""A program laid out in layers and drawn with box-drawing characters: states as boxes, transitions as
labelled arrows. No Textual here: `draw(program)` returns a `Drawing`, a grid of text runs each tagged
with the part of the program it shows, so a widget restyles a replay's progress without laying out again.

The layout is the classic layered one. A depth-first walk from the start (plain transitions before
guarded ones, so the path replay takes first is the spine) finds the back edges that close cycles (a
spliced branch that loops back, a guarded self-loop); without them the graph is acyclic and
`networkx.topological_generations` gives the layers (longest path from the start). Every transition
gets a label node in the row under its upper end and a pass-through node in each row it crosses, so
labels and long edges take room like boxes and never overlap them. One sweep down the rows orders
each row by the column of the node's first parent (a median heuristic that keeps the spine straight
and branches to its right) and packs columns left to right. A back edge is laid out upside down and
drawn as a returning arrow (▲ into the state it returns to); a self-loop is a ↻ label under its state.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from itertools import pairwise
from typing import TypedDict

import networkx as nx

from engine.programs.describe import describe, target
from engine.programs.program import Program, Transition
from engine.visible import visible

BOX_MIN, BOX_MAX = 22, 44
LABEL_MAX = 40
GAP = 2

UP, DOWN, LEFT, RIGHT = 1, 2, 4, 8
_LINES = {
    UP: "│", DOWN: "│", UP | DOWN: "│", LEFT: "─", RIGHT: "─", LEFT | RIGHT: "─",
    DOWN | RIGHT: "╭", DOWN | LEFT: "╮", UP | RIGHT: "╰", UP | LEFT: "╯",
    UP | DOWN | RIGHT: "├", UP | DOWN | LEFT: "┤", DOWN | LEFT | RIGHT: "┬", UP | LEFT | RIGHT: "┴",
    UP | DOWN | LEFT | RIGHT: "┼",
}
_Frame = TypedDict("_Frame", {"top": tuple[str, str, str], "side": str, "bottom": tuple[str, str, str],
                               "out": str, "in": str})
"""A box's characters: its top and bottom rows (corner, rule, corner), its sides, and where a link leaves and
enters it."""
_SINGLE: _Frame = {"top": ("╭", "─", "╮"), "side": "│", "bottom": ("╰", "─", "╯"), "out": "┬", "in": "┴"}
_DOUBLE: _Frame = {"top": ("╔", "═", "╗"), "side": "║", "bottom": ("╚", "═", "╝"), "out": "╤", "in": "╧"}
MARK = "○"


class Part(StrEnum):
    """What a run of characters shows: a state's border, mark, id or description; a transition's line or
    label (its tool, its target, its guard)."""

    BORDER = "border"
    MARK = "mark"
    ID = "id"
    TEXT = "text"
    LINE = "line"
    TOOL = "tool"
    TARGET = "target"
    GUARD = "guard"


@dataclass(frozen=True)
class Tag:
    """The part a run shows and whose it is: a state id, or an index into `program.transitions`."""

    part: Part
    ref: str | int


@dataclass(frozen=True)
class Run:
    text: str
    tag: Tag | None = None


@dataclass(frozen=True)
class Box:
    """Where a state's box is drawn (cells from the drawing's top left) and its layer and column."""

    state_id: str
    x: int
    y: int
    width: int
    height: int
    layer: int
    column: int

    def contains(self, x: int, y: int) -> bool:
        return self.x <= x < self.x + self.width and self.y <= y < self.y + self.height


@dataclass(frozen=True)
class Drawing:
    """A laid-out program: rows of tagged runs, each state's box, the states in reading order (layer by
    layer, left to right) and the transitions drawn as returning arrows."""

    width: int
    height: int
    rows: tuple[tuple[Run, ...], ...]
    boxes: dict[str, Box]
    order: tuple[str, ...]
    back: frozenset[int]

    def box_at(self, x: int, y: int) -> str | None:
        return next((box.state_id for box in self.boxes.values() if box.contains(x, y)), None)

    def text(self) -> str:
        return "\n".join("".join(run.text for run in row) for row in self.rows)


def guard_words(guard: dict, source_check: dict) -> str:
    """A guard in a few words; the spliced form "the state's own check fails, and ..." says just that. Like
    every text drawn here, it comes from the program file, so its hidden characters are written visible."""
    parts = guard["all"] if "all" in guard and isinstance(guard["all"], list) else [guard]
    said = ["its check fails" if part == {"not": source_check} else _words(part) for part in parts]
    return visible(" and ".join(said)) if said else "always"


def action_words(transition: Transition) -> tuple[str, str]:
    """A transition's action as (tool, what it acts on), hidden characters visible."""
    return visible(transition.action.tool), visible(target(transition.action.args))


def _words(predicate: dict) -> str:
    try:
        return describe(predicate)
    except (KeyError, TypeError, ValueError, AttributeError):
        return str(predicate)


def _short(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: max(0, limit - 1)] + "…"


@dataclass(eq=False)
class _Node:
    """A node of the layered graph: a state, a transition's label, or a transition passing through a row."""

    kind: str
    ref: str | int
    row: int
    rank: int
    lines: list[list[Run]] = field(default_factory=list)
    loop: bool = False
    parents: list[tuple[int, _Node]] = field(default_factory=list)
    column: int = 0
    x: int = 0
    width: int = 3


@dataclass(eq=False)
class _Link:
    transition: int
    upper: _Node
    lower: _Node
    arrow: str = ""
    top: int = 0
    bottom: int = 0


def draw(program: Program) -> Drawing:
    """Lay the program out and draw it; pure and deterministic, so a caller may cache it per revision."""
    transitions = program.transitions
    preorder, back, rank = _explore(program)
    dag = nx.DiGraph()
    dag.add_nodes_from(preorder)
    dag.add_edges_from((t.source, t.target) for i, t in enumerate(transitions) if i not in back)
    layer = {state: n for n, generation in enumerate(nx.topological_generations(dag)) for state in generation}

    box_width = max(BOX_MIN, min(BOX_MAX, max(len(visible(s.id)) + len(visible(s.description)) + 8
                                              for s in program.states)))
    states = {s.id: _Node("state", s.id, 2 * layer[s.id], preorder.index(s.id), width=box_width) for s in program.states}
    nodes: list[_Node] = list(states.values())
    links: list[_Link] = []
    for index, transition in enumerate(transitions):
        label = _Node("label", index, 0, rank[index], lines=_label(program, index), loop=transition.source == transition.target)
        label.width = 4 + max(sum(len(run.text) for run in line) for line in label.lines)
        if label.loop:
            label.row = states[transition.source].row + 1
            links.append(_Link(index, states[transition.source], label, "up"))
            nodes.append(label)
            continue
        reverse = index in back
        top, bottom = (states[transition.target], states[transition.source]) if reverse else (
            states[transition.source], states[transition.target])
        label.row = top.row + 1
        chain = [top, label, *(_Node("via", index, row, rank[index]) for row in range(top.row + 2, bottom.row)), bottom]
        nodes.extend(chain[1:-1])
        for upper, lower in pairwise(chain):
            arrow = "up" if reverse and upper is top else "down" if not reverse and lower is bottom else ""
            links.append(_Link(index, upper, lower, arrow))
    for link in links:
        link.lower.parents.append((rank[link.transition], link.upper))

    rows: dict[int, list[_Node]] = {}
    for node in nodes:
        rows.setdefault(node.row, []).append(node)
    widths: dict[int, int] = {}
    for row in sorted(rows):
        rows[row] = _place(rows[row])
        for node in rows[row]:
            widths[node.column] = max(widths.get(node.column, 0), node.width)
    lefts, left = {}, 0
    for column in range(max(widths) + 1):
        lefts[column] = left
        left += widths.get(column, 0) + GAP if column in widths else 0
    for node in nodes:
        node.x = lefts[node.column] + (0 if node.kind == "state" else 2)
    _ports(states.values(), links)

    tracks = {row: _tracks([link for link in links if link.upper.row == row - 1]) for row in sorted(rows)}
    heights = {row: _height(members) for row, members in rows.items()}
    tops, y = {}, 0
    for row in range(max(rows) + 1):
        y += len(tracks.get(row, []))
        tops[row] = y
        y += heights.get(row, 0)
    width = max(node.x + (node.width if node.kind == "state" else node.width - 2) for node in nodes)
    canvas = _Canvas(width, y)
    for node in nodes:
        canvas.node(node, tops[node.row], heights[node.row], program)
    for row, bent in tracks.items():
        gap_top = tops[row] - len(bent)
        for link in (link for link in links if link.upper.row == row - 1):
            canvas.link(link, gap_top, len(bent), bent.index(link) if link in bent else -1)
    for state in states.values():
        canvas.ports(state, tops[state.row], [link for link in links if state in (link.upper, link.lower)],
                     str(state.ref) in program.terminal)
    boxes = {str(node.ref): Box(str(node.ref), node.x, tops[node.row], node.width, 3, node.row // 2, node.column)
             for node in states.values()}
    order = tuple(sorted(boxes, key=lambda s: (boxes[s].y, boxes[s].x)))
    return Drawing(canvas.width, canvas.height, canvas.runs(), boxes, order, frozenset(back))


def _explore(program: Program) -> tuple[list[str], set[int], dict[int, int]]:
    """Depth first from the start, plain transitions before guarded ones: the states in the order first
    reached, the transitions that close a cycle, and the order each transition was walked."""
    leaving: dict[str, list[int]] = {s.id: [] for s in program.states}
    for index, transition in enumerate(program.transitions):
        leaving[transition.source].append(index)
    for indices in leaving.values():
        indices.sort(key=lambda i: (program.transitions[i].guard is not None, i))
    preorder: list[str] = []
    back: set[int] = set()
    rank: dict[int, int] = {}
    for root in [program.start, *(s.id for s in program.states)]:
        if root in preorder:
            continue
        preorder.append(root)
        stack, open_states = [(root, iter(leaving[root]))], {root}
        while stack:
            state, pending = stack[-1]
            edge = next(pending, None)
            if edge is None:
                stack.pop()
                open_states.discard(state)
                continue
            rank[edge] = len(rank)
            target_id = program.transitions[edge].target
            if target_id in open_states:
                back.add(edge)
            elif target_id not in preorder:
                preorder.append(target_id)
                open_states.add(target_id)
                stack.append((target_id, iter(leaving[target_id])))
    return preorder, back, rank


def _label(program: Program, index: int) -> list[list[Run]]:
    """A transition's label: its guard in a few words when it has one, then its tool and target."""
    transition = program.transitions[index]
    tool, acts_on = action_words(transition)
    loop = "↻ " if transition.source == transition.target else ""
    lines = []
    if transition.guard is not None:
        words = guard_words(transition.guard, program.state(transition.source).check)
        lines.append([Run(_short(f"{loop}if {words}", LABEL_MAX), Tag(Part.GUARD, index))])
        loop = "  " if loop else ""
    action = [Run(_short(f"{loop}{tool}", LABEL_MAX), Tag(Part.TOOL, index))]
    room = LABEL_MAX - len(loop) - len(tool) - 1
    if acts_on and room > 1:
        action += [Run(" "), Run(_short(acts_on, room), Tag(Part.TARGET, index))]
    lines.append(action)
    return lines


def _place(row: list[_Node]) -> list[_Node]:
    """Order a row by its nodes' first parents' columns (the spine's transitions were walked first), then
    give each the leftmost free column at or right of that parent."""
    def key(node: _Node) -> tuple[int, int, int]:
        if not node.parents:
            return (0, -1, node.rank)
        walked, parent = min(node.parents, key=lambda pair: pair[0])
        return (parent.column, walked, node.rank)

    placed = sorted(row, key=key)
    last = -1
    for node in placed:
        node.column = max(key(node)[0], last + 1)
        last = node.column
    return placed


def _ports(states, links: list[_Link]) -> None:
    """Where each link meets a box: the leftmost other end on the box's own line (x+2), the rest packed
    from the box's right edge, so a branch leaves to the right and the spine stays straight."""
    for state in states:
        for side in ("bottom", "top"):
            mine = [link for link in links if (link.upper if side == "bottom" else link.lower) is state]
            others = sorted(mine, key=lambda link: (link.lower if side == "bottom" else link.upper).x)
            right = state.x + state.width - 3
            step = max(1, min(4, (right - state.x - 2) // max(1, len(others) - 1)))
            spots = [state.x + 2] + [right - step * (len(others) - 2 - k) for k in range(len(others) - 1)]
            for link, spot in zip(others, spots):
                if side == "bottom":
                    link.top = spot
                else:
                    link.bottom = spot
    for link in links:
        if link.upper.kind != "state":
            link.top = link.upper.x
        if link.lower.kind != "state":
            link.bottom = link.lower.x


def _tracks(links: list[_Link]) -> list[_Link]:
    """The links that change column between two rows, one track (row) each, nested so they cross least:
    those going right from the furthest right first, then those going left from the furthest left."""
    bent = [link for link in links if link.top != link.bottom]
    right = sorted((link for link in bent if link.bottom > link.top), key=lambda link: -link.top)
    left = sorted((link for link in bent if link.bottom < link.top), key=lambda link: link.top)
    return right + left


def _height(members: list[_Node]) -> int:
    if any(node.kind == "state" for node in members):
        return 3
    return max((len(node.lines) for node in members if node.kind == "label"), default=1)


class _Canvas:
    """Cells of characters and tags; lines are kept as direction bits until the end, so junctions and
    crossings come out as the right box-drawing character."""

    def __init__(self, width: int, height: int) -> None:
        self.width, self.height = width, height
        self.cells: list[list[str]] = [[" "] * width for _ in range(height)]
        self.tags: list[list[Tag | None]] = [[None] * width for _ in range(height)]
        self.bits: dict[tuple[int, int], int] = {}

    def put(self, x: int, y: int, text: str, tag: Tag | None) -> None:
        for offset, char in enumerate(text):
            if 0 <= x + offset < self.width and 0 <= y < self.height:
                self.cells[y][x + offset] = char
                self.tags[y][x + offset] = tag

    def line(self, x: int, y: int, bits: int, tag: Tag) -> None:
        if 0 <= x < self.width and 0 <= y < self.height:
            self.bits[(x, y)] = self.bits.get((x, y), 0) | bits
            if self.cells[y][x] == " ":
                self.tags[y][x] = tag

    def vertical(self, x: int, first: int, last: int, tag: Tag) -> None:
        for y in range(first, last + 1):
            self.line(x, y, UP | DOWN, tag)

    def node(self, node: _Node, top: int, height: int, program: Program) -> None:
        if node.kind == "state":
            self.box(node, top, program)
            return
        tag = Tag(Part.LINE, node.ref)
        if node.kind == "via":
            self.vertical(node.x, top, top + height - 1, tag)
            return
        if node.loop:
            self.line(node.x, top, UP | RIGHT, tag)
            self.line(node.x + 1, top, LEFT, tag)
        else:
            self.vertical(node.x, top, top + height - 1, tag)
        for offset, runs in enumerate(node.lines):
            x = node.x + 2
            for run in runs:
                self.put(x, top + offset, run.text, run.tag)
                x += len(run.text)

    def box(self, node: _Node, top: int, program: Program) -> None:
        state = program.state(str(node.ref))
        frame = _DOUBLE if state.id in program.terminal else _SINGLE
        border = Tag(Part.BORDER, state.id)
        inner = node.width - 2
        left_corner, rule, right_corner = frame["top"]
        self.put(node.x, top, left_corner + rule * inner + right_corner, border)
        left_corner, rule, right_corner = frame["bottom"]
        self.put(node.x, top + 2, left_corner + rule * inner + right_corner, border)
        self.put(node.x, top + 1, frame["side"], border)
        self.put(node.x + node.width - 1, top + 1, frame["side"], border)
        shown_id = _short(visible(state.id), inner - 4)
        room = inner - len(shown_id) - 6
        x = node.x + 1
        self.put(x, top + 1, " ", None)
        self.put(x + 1, top + 1, MARK, Tag(Part.MARK, state.id))
        self.put(x + 2, top + 1, " ", None)
        self.put(x + 3, top + 1, shown_id, Tag(Part.ID, state.id))
        if room > 0 and state.description:
            self.put(x + 3 + len(shown_id), top + 1, "  ", None)
            self.put(x + 5 + len(shown_id), top + 1, _short(visible(state.description), room), Tag(Part.TEXT, state.id))

    def ports(self, state: _Node, top: int, links: list[_Link], terminal: bool) -> None:
        frame = _DOUBLE if terminal else _SINGLE
        for link in links:
            tag = Tag(Part.LINE, link.transition)
            if link.upper is state:
                self.put(link.top, top + 2, "▲" if link.arrow == "up" else frame["out"], tag)
            if link.lower is state:
                self.put(link.bottom, top, "▼" if link.arrow == "down" else frame["in"], tag)

    def link(self, link: _Link, gap_top: int, gap_rows: int, track: int) -> None:
        """The part of a link between two rows: straight down, or down to its track, across, and down."""
        tag = Tag(Part.LINE, link.transition)
        if track < 0:
            self.vertical(link.top, gap_top, gap_top + gap_rows - 1, tag)
            return
        row = gap_top + track
        self.vertical(link.top, gap_top, row - 1, tag)
        self.vertical(link.bottom, row + 1, gap_top + gap_rows - 1, tag)
        going = RIGHT if link.bottom > link.top else LEFT
        coming = LEFT if going == RIGHT else RIGHT
        self.line(link.top, row, UP | going, tag)
        self.line(link.bottom, row, DOWN | coming, tag)
        for x in range(min(link.top, link.bottom) + 1, max(link.top, link.bottom)):
            self.line(x, row, LEFT | RIGHT, tag)

    def runs(self) -> tuple[tuple[Run, ...], ...]:
        for (x, y), bits in self.bits.items():
            if self.cells[y][x] == " ":
                self.cells[y][x] = _LINES[bits]
        rows = []
        for cells, tags in zip(self.cells, self.tags):
            end = len("".join(cells).rstrip())
            runs: list[Run] = []
            for x in range(end):
                tag = tags[x] if cells[x] != " " else None
                if runs and runs[-1].tag == tag:
                    runs[-1] = Run(runs[-1].text + cells[x], tag)
                else:
                    runs.append(Run(cells[x], tag))
            rows.append(tuple(runs))
        return tuple(rows)
