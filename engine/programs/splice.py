"""Grow a program by a branch: where replay stopped, the agent's continuation becomes new states.

The branch leaves the state where replay stopped, guarded by "that state's check fails, and
the screen the agent first acted on is there" (or only the latter when the check held and
the action failed). Its states are compiled like any run's. When the end of the continuation
repeats the program's own remaining actions (the agent closed a dialog, then did what the
program does), the branch rejoins the program there instead of copying it; otherwise it ends
in a terminal state of its own. The program is never rewritten in place: the caller verifies
the extended program before it replaces the stored one.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.programs.compiler import Recorded, compile_steps, end_check
from engine.programs.predicates import conjoin
from engine.programs.program import Program, State, Transition
from engine.tools.registry import ToolRegistry


def extend(program: Program, at: str, failed_check: dict | None, steps: Sequence[Recorded], params: dict[str, str],
           registry: ToolRegistry) -> Program:
    """`program` with the continuation `steps` spliced in as a branch out of state `at`.

    `params` are the values this task bound, so the branch names them as the program does.
    """
    if not steps:
        raise ValueError("a continuation with no steps cannot extend a program")
    calls, checks = compile_steps(steps, params, registry, program.kind)
    rejoin = _rejoin(program, at, [call.canonical() for call in calls])
    count = rejoin[0] if rejoin else len(calls)
    prefix = f"{at}b{sum(t.source == at and t.guard is not None for t in program.transitions) + 1}"
    states = [State(f"{prefix}_{n}", f"branch: before {calls[n].tool}", checks[n]) for n in range(1, count)]
    terminal = program.terminal
    if rejoin:
        into = rejoin[1]
    else:
        into = f"{prefix}_{count}"
        states.append(State(into, "branch: goal reached", end_check(steps, calls, params, registry, program.kind)))
        terminal = (*program.terminal, into)
    sources = [at, *(state.id for state in states[:count - 1]), into]
    guard = conjoin({"not": failed_check} if failed_check else None, checks[0])
    transitions = [Transition(at, sources[1], calls[0], guard)]
    transitions += [Transition(sources[n], sources[n + 1], calls[n]) for n in range(1, count)]
    raw = program.to_json()
    raw["states"] += [{"id": s.id, "description": s.description, "check": s.check} for s in states]
    raw["transitions"] = [_json(t) for t in transitions] + raw["transitions"]
    raw["terminal"] = list(terminal)
    raw["revision"] = program.revision + 1
    return Program.from_json(raw, where=f"program {program.id} extended at {at}")


def _rejoin(program: Program, at: str, calls: list[str]) -> tuple[int, str] | None:
    """Where the continuation's tail repeats the program's remaining path: (how many of its calls are
    new, the state they lead into), taking the shortest new part; None when it never does."""
    path = program.path_from(at)
    actions = [transition.action.canonical() for transition in path]
    for new in range(1, len(calls)):
        tail = calls[new:]
        start = len(actions) - len(tail)
        if start >= 0 and actions[start:] == tail:
            return new, path[start].source
    return None


def _json(transition: Transition) -> dict:
    return {"from": transition.source, "to": transition.target, "action": transition.action.as_json(),
            **({"guard": transition.guard} if transition.guard else {})}
