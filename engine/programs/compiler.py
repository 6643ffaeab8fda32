"""The compiler: a successful run becomes a state-machine program.

Values taken from the goal (quoted strings, numbers, file names) that the run used
become `{params}`; each state checks what the previous call left behind and what
the next call needs, using the tools' own `effect` and `needs` declarations.
"""

from __future__ import annotations

import hashlib
import re
from typing import Any

from engine.programs.predicates import conjoin
from engine.programs.program import Program, State, Transition
from engine.tools.call import ToolCall
from engine.tools.registry import ToolRegistry

COMPILER = "warden.trace-compiler/1"
_CANDIDATE = re.compile(r"\"([^\"]+)\"|'([^']+)'|(\S*\d\S*|\S+[./]\S+)")
_STOPWORDS = frozenset({"the", "for", "to", "in", "a", "an", "of", "and", "with", "named", "called", "into", "from", "at", "on"})
_TRAILING = ".,;:!?)"


def lift(goal: str, trace: list[ToolCall]) -> dict[str, str]:
    """Name each value of the goal that the run's calls used: `{name: value}`.

    Candidates are quoted phrases, words with digits or path characters, and whatever the
    agent typed into a field (`text`, `value`) that the goal says word for word (a name
    such as "Ada Lovelace"); a typed value is named after its field's label.
    """
    used = " ".join(call.canonical() for call in trace)
    found: list[tuple[int, str, str | None]] = []
    for match in _CANDIDATE.finditer(goal):
        found.append((match.start(), next(g for g in match.groups() if g is not None).rstrip(_TRAILING), None))
    for call in trace:
        for key in ("text", "value"):
            typed = call.args.get(key)
            if isinstance(typed, str) and len(typed.strip()) >= 2 and (at := _word_at(goal, typed)) is not None:
                found.append((at, typed, _field_name(call)))
    params: dict[str, str] = {}
    for start, value, field in sorted(found, key=lambda item: (item[0], -len(item[1]))):
        if len(value) < 2 or value not in used or value in params.values() or _inside(value, params):
            continue
        words = goal[:start].split()
        word = re.sub(r"\W", "", words[-1].lower()) if words else ""
        name = field or (word if word.isalpha() and len(word) >= 3 and word not in _STOPWORDS else f"p{len(params) + 1}")
        while name in params:
            name += "_"
        params[name] = value
    return params


def _word_at(goal: str, value: str) -> int | None:
    """Where `value` stands in the goal as whole words, or None."""
    match = re.search(r"(?<!\w)" + re.escape(value) + r"(?!\w)", goal)
    return match.start() if match else None


def _inside(value: str, params: dict[str, str]) -> bool:
    """Part of a value already lifted (the "555" of "555-0188")."""
    return any(value in lifted for lifted in params.values())


def _field_name(call: ToolCall) -> str | None:
    """A parameter name from the field a value was typed into: its label, placeholder or accessible name."""
    target = call.args.get("target")
    if not isinstance(target, dict):
        return None
    label = next((target[k] for k in ("label", "placeholder", "name") if isinstance(target.get(k), str)), "")
    name = re.sub(r"[^a-z0-9]+", "_", label.lower()).strip("_")
    return name if name and name[0].isalpha() and len(name) <= 32 else None


def template(value: Any, params: dict[str, str]) -> Any:
    """Replace each parameter's value with `{name}`, longest values first."""
    if isinstance(value, str):
        ordered = sorted(params.items(), key=lambda item: -len(item[1]))
        if not ordered:
            return value
        pattern = re.compile("|".join(re.escape(v) for _, v in ordered))
        names = {v: k for k, v in ordered}
        return pattern.sub(lambda m: "{" + names[m.group(0)] + "}", value)
    if isinstance(value, list):
        return [template(item, params) for item in value]
    if isinstance(value, dict):
        return {key: template(item, params) for key, item in value.items()}
    return value


def signature_of(goal_template: str, env_kind: str) -> str:
    return f"{env_kind}:" + " ".join(goal_template.lower().split())


def compile_run(goal: str, trace: list[ToolCall], registry: ToolRegistry, env_kind: str, provenance: dict) -> Program:
    """A program of the given environment kind from a run's done calls, in order."""
    if not trace:
        raise ValueError("cannot compile a run with no steps")
    params = lift(goal, trace)
    calls = [ToolCall(call.tool, template(call.args, params)) for call in trace]
    tools = [registry.get(call.tool) for call in calls]
    states = []
    for number in range(len(calls) + 1):
        after = tools[number - 1].effect(calls[number - 1].args) if number else None
        before = tools[number].needs(calls[number].args) if number < len(calls) else None
        described = calls[number].tool if number < len(calls) else "done"
        label = "start" if number == 0 else ("goal reached" if number == len(calls) else f"before {described}")
        states.append(State(f"s{number}", label, conjoin(after, before)))
    transitions = tuple(Transition(f"s{n}", f"s{n + 1}", call) for n, call in enumerate(calls))
    goal_template = template(goal, params)
    signature = signature_of(goal_template, env_kind)
    return Program(
        id="p-" + hashlib.sha256(signature.encode()).hexdigest()[:10],
        signature=signature,
        description=f"Compiled from: {goal}",
        goal_template=goal_template,
        params={name: {"type": "string", "example": value} for name, value in params.items()},
        env={"kind": env_kind},
        start="s0",
        states=tuple(states),
        transitions=transitions,
        terminal=(f"s{len(calls)}",),
        provenance={"compiler": COMPILER, **provenance},
    )
