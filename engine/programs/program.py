"""The program model: a state machine whose states check the screen and whose transitions act.

Programs are data, never code: parsing refuses anything but states, predicates and
registered-tool calls, and `networkx` checks that the start reaches a terminal state.
"""

from __future__ import annotations

import copy
import json
import re
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

import networkx as nx

from engine.errors import WardenError
from engine.programs.predicates import PredicateError, forms, validate
from engine.programs.template import PARAM, GoalTemplate
from engine.tools.call import ToolCall
from engine.wellformed import json_problem

_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,79}")
FORMAT = "warden.program/1"


class ProgramError(WardenError):
    """A program file or record is malformed; the message names the file and the problem."""


@dataclass(frozen=True)
class State:
    id: str
    description: str
    check: dict


@dataclass(frozen=True)
class Transition:
    source: str
    target: str
    action: ToolCall
    guard: dict | None = None


@dataclass(frozen=True)
class Program:
    id: str
    signature: str
    description: str
    goal_template: str
    params: dict[str, dict]
    env: dict
    start: str
    states: tuple[State, ...]
    transitions: tuple[Transition, ...]
    terminal: tuple[str, ...]
    provenance: dict = field(default_factory=dict)
    verification: dict = field(default_factory=dict)
    revision: int = 1

    @property
    def kind(self) -> str:
        """The environment kind the program acts in."""
        return str(self.env.get("kind", "workspace"))

    @property
    def status(self) -> str:
        """`verified` or `accepted` programs are served; `unverified` ones wait for a person; `skipped`
        ones were stored with the verify gate switched off. Older records say only `passed`."""
        status = self.verification.get("status")
        if isinstance(status, str):
            return status
        return "verified" if self.verification.get("passed") else "unverified"

    def with_verification(self, record: dict) -> "Program":
        return Program.from_json({**self.to_json(), "verification": record})

    def same_as(self, other: "Program") -> bool:
        """Equal in everything but the verification record."""
        mine, theirs = self.to_json(), other.to_json()
        mine.pop("verification")
        theirs.pop("verification")
        return mine == theirs

    def behaves_like(self, other: "Program") -> bool:
        """Equal in all that replay does: only descriptions, provenance or verification differ."""
        def behaviour(program: "Program") -> dict:
            raw = program.to_json()
            for key in ("description", "provenance", "verification", "revision"):
                raw.pop(key)
            for state in raw["states"]:
                state.pop("description")
            return raw

        return behaviour(self) == behaviour(other)

    def state(self, state_id: str) -> State:
        return next(s for s in self.states if s.id == state_id)

    def leaving(self, state_id: str) -> list[Transition]:
        return [t for t in self.transitions if t.source == state_id]

    def graph(self) -> nx.DiGraph:
        graph = nx.DiGraph()
        graph.add_nodes_from(s.id for s in self.states)
        graph.add_edges_from((t.source, t.target) for t in self.transitions)
        return graph

    def path(self) -> list[str]:
        """The states from start to the nearest terminal, in order (what the console draws)."""
        graph = self.graph()
        reachable = [t for t in self.terminal if nx.has_path(graph, self.start, t)]
        return nx.shortest_path(graph, self.start, reachable[0]) if reachable else [self.start]

    def path_from(self, state_id: str) -> list[Transition]:
        """The unguarded transitions replay takes from a state to a terminal one, in order."""
        taken: list[Transition] = []
        seen = {state_id}
        while state_id not in self.terminal:
            plain = [t for t in self.leaving(state_id) if t.guard is None]
            if not plain or plain[0].target in seen:
                break
            taken.append(plain[0])
            state_id = plain[0].target
            seen.add(state_id)
        return taken

    @cached_property
    def template(self) -> GoalTemplate:
        """The goal template, parsed once."""
        return GoalTemplate.parse(self.goal_template)

    def bind(self, goal: str) -> dict[str, str] | None:
        """The parameters a goal gives this program, or None when the goal is not of its family."""
        return self.template.match(goal)

    def to_json(self) -> dict[str, Any]:
        """A deep copy as plain JSON data: editing it never changes this program."""
        return copy.deepcopy({
            "format": FORMAT,
            "id": self.id,
            "revision": self.revision,
            "signature": self.signature,
            "description": self.description,
            "goal_template": self.goal_template,
            "params": self.params,
            "env": self.env,
            "start": self.start,
            "states": [{"id": s.id, "description": s.description, "check": s.check} for s in self.states],
            "transitions": [
                {"from": t.source, "to": t.target, "action": t.action.as_json(), **({"guard": t.guard} if t.guard else {})}
                for t in self.transitions
            ],
            "terminal": list(self.terminal),
            "provenance": self.provenance,
            "verification": self.verification,
        })

    @classmethod
    def from_json(cls, raw: Any, where: str = "program") -> "Program":
        """A program from its JSON, every field of the type it must have; anything else, whatever its shape
        (a wrong type anywhere, nesting past `DEPTH`, a lone surrogate), is a `ProgramError` in one line."""
        if not isinstance(raw, dict):
            raise ProgramError(f"{where}: a program is a JSON object, got {_kind(raw)}")
        problem = json_problem(raw)
        if problem is not None:
            raise ProgramError(f"{where}: malformed program ({problem})")
        if raw.get("format", FORMAT) != FORMAT:
            raise ProgramError(f"{where}: format {raw.get('format')!r:.40} is not {FORMAT!r}, the one this Warden reads")
        try:
            revision = raw.get("revision", 1)
            if type(revision) is not int or revision < 1:
                raise ValueError("revision must be a whole number from 1")
            params = _field(raw, "params", dict, {})
            for name, spec in params.items():
                if not isinstance(spec, dict):
                    raise ValueError(f"params.{name:.40} must be an object (its type and example), got {_kind(spec)}")
            env = _field(raw, "env", dict, {"kind": "workspace"})
            if not isinstance(env.get("kind", "workspace"), str):
                raise ValueError(f"env.kind must be a string, got {_kind(env['kind'])}")
            program = cls(
                id=_text(raw, "id"),
                signature=_text(raw, "signature"),
                description=_field(raw, "description", str, ""),
                goal_template=_text(raw, "goal_template"),
                params=dict(params),
                env=dict(env),
                start=_text(raw, "start"),
                states=tuple(State(_text(s, "id"), _field(s, "description", str, ""), s["check"])
                             for s in _items(raw, "states")),
                transitions=tuple(
                    Transition(_text(t, "from"), _text(t, "to"), ToolCall.from_json(t["action"]),
                               _field(t, "guard", dict, None))
                    for t in _items(raw, "transitions")
                ),
                terminal=tuple(_text_list(raw, "terminal")),
                provenance=dict(_field(raw, "provenance", dict, {})),
                verification=dict(_field(raw, "verification", dict, {})),
                revision=revision,
            )
        except (KeyError, TypeError, AttributeError, ValueError) as exc:
            raise ProgramError(f"{where}: malformed program ({type(exc).__name__}: {exc})") from None
        program.validate(where)
        return program

    @classmethod
    def load(cls, path: Path) -> "Program":
        """The program a file holds; a file that cannot be read, is not JSON (numbers past what Python
        converts included) or is nested past what the decoder recurses into is a `ProgramError`."""
        try:
            raw = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, ValueError) as exc:
            raise ProgramError(f"{path}: not a readable JSON program ({exc})") from None
        except RecursionError:
            raise ProgramError(f"{path}: not a readable JSON program (nested too deeply)") from None
        return cls.from_json(raw, where=str(path))

    def validate(self, where: str = "program") -> None:
        if not _ID.fullmatch(self.id):
            raise ProgramError(f"{where}: id {self.id!r:.40} must be letters, digits, - and _ (it names the program's file)")
        ids = [s.id for s in self.states]
        if len(set(ids)) != len(ids):
            raise ProgramError(f"{where}: duplicate state ids")
        known = set(ids)
        for transition in self.transitions:
            if transition.source not in known or transition.target not in known:
                raise ProgramError(f"{where}: transition {transition.source}→{transition.target} dangles")
        try:
            forms(self.kind)
        except PredicateError as exc:
            raise ProgramError(f"{where}: {exc}") from None
        if self.start not in known or not self.terminal or not set(self.terminal) <= known:
            raise ProgramError(f"{where}: start or terminal states are not among the states")
        graph = self.graph()
        if not any(nx.has_path(graph, self.start, t) for t in self.terminal):
            raise ProgramError(f"{where}: no terminal state is reachable from {self.start}")
        unreachable = sorted(known - nx.descendants(graph, self.start) - {self.start})
        if unreachable:
            raise ProgramError(f"{where}: states {unreachable[:5]} cannot be reached from {self.start}")
        finishing = set(self.terminal).union(*(nx.ancestors(graph, t) for t in self.terminal))
        stuck = sorted(known - finishing)
        if stuck:
            raise ProgramError(f"{where}: from states {stuck[:5]} no terminal state can be reached")
        leaving_terminal = sorted({t.source for t in self.transitions} & set(self.terminal))
        if leaving_terminal:
            raise ProgramError(f"{where}: terminal states {leaving_terminal[:5]} have transitions out of them")
        try:
            for state in self.states:
                validate(state.check, self.kind, f"{where}: state {state.id}")
            for transition in self.transitions:
                if transition.guard is not None:
                    validate(transition.guard, self.kind, f"{where}: guard {transition.source}→{transition.target}")
        except PredicateError as exc:
            raise ProgramError(str(exc)) from None
        undeclared = set(PARAM.findall(self.goal_template)) - set(self.params)
        if undeclared:
            raise ProgramError(f"{where}: goal_template uses undeclared params {sorted(undeclared)}")


def _text(raw: Any, key: str) -> str:
    if not isinstance(raw, dict):
        raise TypeError(f"expected an object holding {key!r}, got {_kind(raw)}")
    value = raw[key]
    if not isinstance(value, str) or not value:
        raise ValueError(f"{key} must be a non-empty string")
    return value


def _field(raw: Any, key: str, kind: type, default: Any) -> Any:
    """`raw[key]` when it is a `kind`; `default` when it is absent (or null, where the default is None)."""
    if not isinstance(raw, dict):
        raise TypeError(f"expected an object holding {key!r}, got {_kind(raw)}")
    value = raw.get(key, default)
    if value is None and default is None:
        return None
    if not isinstance(value, kind) or isinstance(value, bool) and kind is not bool:
        raise ValueError(f"{key} must be {_NAMES[kind]}, got {_kind(value)}")
    return value


def _items(raw: dict, key: str) -> list[dict]:
    """A required list of objects (states, transitions)."""
    value = raw[key]
    if not isinstance(value, list) or not all(isinstance(item, dict) for item in value):
        raise ValueError(f"{key} must be a list of objects, got {_kind(value)}")
    return value


def _text_list(raw: dict, key: str) -> list[str]:
    """A required list of non-empty strings (the terminal states)."""
    value = raw[key]
    if not isinstance(value, list) or not all(isinstance(item, str) and item for item in value):
        raise ValueError(f"{key} must be a list of state ids, got {_kind(value)}")
    return value


_NAMES: dict[type, str] = {dict: "an object", str: "a string", list: "a list"}


def _kind(value: Any) -> str:
    """A JSON value's kind as a person reads it: `null`, `a number`, `a list of 3`, …"""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return f"a list of {len(value)}"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__
