"""The compiler: a successful run becomes a state-machine program, deterministically.

Values taken from the goal (quoted strings, numbers, file names, typed values, names of
chosen elements) that the run used become `{params}`; each state checks what the previous
call left behind, what the next call needs (the tools' own `effect` and `needs`), and on a
screen the element the call acted on and the page's stable facts (`screen.py`).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.programs.predicates import conjoin
from engine.programs.screen import changed, element_target, page_facts, screen_check
from engine.programs.program import Program, State, Transition
from engine.tools.call import ToolCall
from engine.tools.registry import ToolRegistry

COMPILER = "warden.trace-compiler/1"
_CANDIDATE = re.compile(r"\"([^\"]+)\"|'([^']+)'|(\S*\d\S*|\S+[./]\S+)")
_STOPWORDS = frozenset({"the", "for", "to", "in", "a", "an", "of", "and", "with", "named", "called", "into", "from", "at", "on"})
_TRAILING = ".,;:!?)"


def lift(goal: str, trace: list[ToolCall], chosen: Sequence[str] = ()) -> dict[str, str]:
    """Name each value of the goal that the run used: `{name: value}`.

    Candidates are quoted phrases, words with digits (a lone digit too) or path characters,
    whatever the agent typed into a field (`text`, `value`) that the goal says word for word
    (a name such as "Ada Lovelace", named after the field's label), and the names of elements
    it chose (`chosen`: a link, an option, a row) that the goal says word for word. A value is
    used when a call's argument or a chosen name is it, or holds it as a whole word: a "3" in
    a click's pixel coordinates is no use of "3".
    """
    used = [value for call in trace for value in _strings(call.args)] + list(chosen)
    found: list[tuple[int, str, str | None]] = []
    for match in _CANDIDATE.finditer(goal):
        found.append((match.start(), next(g for g in match.groups() if g is not None).rstrip(_TRAILING), None))
    for call in trace:
        for key in ("text", "value"):
            typed = call.args.get(key)
            if isinstance(typed, str) and len(typed.strip()) >= 2 and (at := _word_at(goal, typed)) is not None:
                found.append((at, typed, _field_name(call)))
    for name in chosen:
        if len(name.strip()) >= 2 and (at := _word_at(goal, name)) is not None:
            found.append((at, name, None))
    params: dict[str, str] = {}
    for start, value, field in sorted(found, key=lambda item: (item[0], -len(item[1]))):
        short = len(value) < 2 and not value.isdigit()
        if short or not _used(value, used) or value in params.values() or _inside(value, params):
            continue
        words = goal[:start].split()
        word = re.sub(r"\W", "", words[-1].lower()) if words else ""
        name = field or (word if word.isalpha() and len(word) >= 3 and word not in _STOPWORDS else f"p{len(params) + 1}")
        while name in params:
            name += "_"
        params[name] = value
    return params


def _strings(value: Any) -> list[str]:
    """Every string inside a call's arguments (numbers are pixels, counts and keys: never values)."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return [item for part in value for item in _strings(part)]
    if isinstance(value, dict):
        return [item for part in value.values() for item in _strings(part)]
    return []


def _used(value: str, used: list[str]) -> bool:
    """Inside some argument; a lone digit only as a whole word of one."""
    if len(value) >= 2:
        return any(value in text for text in used)
    pattern = re.compile(r"(?<!\w)" + re.escape(value) + r"(?!\w)")
    return any(pattern.search(text) for text in used)


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


@dataclass(frozen=True)
class Recorded:
    """One done step of a run: its call, and its trace (what the screen showed before and after, and
    the element acted on) when the environment keeps one."""

    call: ToolCall
    trace: dict | None = None


def chosen_names(steps: Sequence[Recorded]) -> list[str]:
    """Names of the elements a run chose (links, options, rows, tabs: not buttons, which are verbs)."""
    names = []
    for step in steps:
        for target in (_trace(step).get("target"), step.call.args.get("target")):
            if isinstance(target, dict) and target.get("role") != "button":
                name = target.get("name") or target.get("text")
                if isinstance(name, str) and name.strip():
                    names.append(name.strip())
    return names


def compile_steps(steps: Sequence[Recorded], params: dict[str, str], registry: ToolRegistry, kind: str,
                  after: dict | None = None) -> tuple[list[ToolCall], list[dict]]:
    """The templated calls of a run and, for each, the check of the state it is taken from.

    A check holds what the previous call left (its tool's `effect`; `after` for the first),
    the stable facts of the screen the call was made on, the element it acted on by role and
    name, and what its tool `needs`. A pixel click on a named element becomes a click on that
    element, so the program survives a changed layout and refuses a look-alike in its place.
    """
    calls, checks = [], []
    for step in steps:
        trace = _trace(step)
        acted_on = element_target(template(trace.get("target"), params))
        args = template(step.call.args, params)
        target = args.get("target")
        if acted_on and isinstance(target, dict) and "x" in target:
            args = {**args, "target": acted_on}
        call = ToolCall(step.call.tool, args)
        needs = registry.get(call.tool).needs(call.args)
        checks.append(conjoin(after, screen_check(kind, trace.get("before"), acted_on, needs)))
        after = registry.get(call.tool).effect(call.args)
        calls.append(call)
    return calls, checks


def end_check(steps: Sequence[Recorded], calls: list[ToolCall], params: dict[str, str], registry: ToolRegistry,
              kind: str) -> dict:
    """The terminal state's check: what the last call left, the screen's stable facts after it, and
    each parameter it made appear."""
    last = _trace(steps[-1])
    shown = changed(last.get("before"), last.get("after"), params, kind)
    return conjoin(registry.get(calls[-1].tool).effect(calls[-1].args), page_facts(last.get("after"), kind), *shown)


def compile_run(goal: str, steps: Sequence[ToolCall | Recorded], registry: ToolRegistry, env_kind: str,
                provenance: dict, env_spec: Mapping[str, Any] | None = None, evaluator: dict | None = None) -> Program:
    """A program of the given environment kind from a run's done steps, in order.

    `env_spec` (the task's environment) and `evaluator` travel with the program, so the verify
    gate can run it again from a clean start and judge it later (`warden programs verify`).
    """
    if not steps:
        raise ValueError("cannot compile a run with no steps")
    recorded = [step if isinstance(step, Recorded) else Recorded(step) for step in steps]
    params = lift(goal, [step.call for step in recorded], chosen_names(recorded))
    calls, checks = compile_steps(recorded, params, registry, env_kind)
    states = [State(f"s{n}", "start" if n == 0 else f"before {_label(registry, call, step)}", check)
              for n, (call, check, step) in enumerate(zip(calls, checks, recorded))]
    states.append(State(f"s{len(calls)}", "goal reached", end_check(recorded, calls, params, registry, env_kind)))
    transitions = tuple(Transition(f"s{n}", f"s{n + 1}", call) for n, call in enumerate(calls))
    goal_template = template(goal, params)
    signature = signature_of(goal_template, env_kind)
    extra = {"evaluator": template(evaluator, params)} if evaluator is not None else {}
    return Program(
        id="p-" + hashlib.sha256(signature.encode()).hexdigest()[:10],
        signature=signature,
        description=f"Compiled from: {goal}",
        goal_template=goal_template,
        params={name: {"type": "string", "example": value} for name, value in params.items()},
        env={**(env_spec or {}), "kind": env_kind},
        start="s0",
        states=tuple(states),
        transitions=transitions,
        terminal=(f"s{len(calls)}",),
        provenance={"compiler": COMPILER, **provenance, **extra},
    )


def _trace(step: Recorded) -> dict:
    return step.trace if isinstance(step.trace, dict) else {}


def _label(registry: ToolRegistry, call: ToolCall, step: Recorded) -> str:
    """A state's name: on a screen the call as its tool says it (`browser.click link "New contact"`),
    elsewhere the tool's name."""
    return registry.get(call.tool).describe(call.args) if _trace(step).get("target") else call.tool
