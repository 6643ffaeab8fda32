"""Deliberately lossy programs for the verify gate's ablation: a good program cut short before it submits.

Cut before its last click or key press (the step that saves, sends or runs), a program still
replays cleanly to a terminal state, and every check on the way holds; only the task's own
evaluator can tell that nothing was done. That is the mistake the verify gate exists to catch.
"""

from __future__ import annotations

from engine.programs.program import Program

SUBMITTING = ("browser.click", "browser.press")


def without_last_submit(program: Program) -> tuple[Program, str] | None:
    """The program along its replay path, ending where its last submitting step would start, and that step
    described; None when it has no such step (or nothing before it)."""
    path = program.path_from(program.start)
    cut = max((i for i, t in enumerate(path) if t.action.tool in SUBMITTING), default=None)
    if not cut:
        return None
    kept = path[:cut]
    ids = [program.start, *(t.target for t in kept)]
    raw = program.to_json()
    raw.update({
        "id": f"{program.id}-lossy"[:80],
        "description": f"Lossy (benchmark): {program.description}, cut before its last {path[cut].action.tool}",
        "states": [state for state in raw["states"] if state["id"] in ids],
        "transitions": [t for t in raw["transitions"] if t["from"] in ids[:-1] and t["to"] in ids
                        and (t["from"], t["to"]) in {(k.source, k.target) for k in kept}],
        "terminal": [ids[-1]],
    })
    return Program.from_json(raw, where="lossy program"), _describe(path[cut].action.tool, path[cut].action.args)


def _describe(tool: str, args: dict) -> str:
    """`browser.click button "Save contact"`, `browser.press Enter`."""
    target = args.get("target")
    if not isinstance(target, dict):
        return f"{tool} {args.get('key', '')}".strip()
    if "role" in target:
        return f'{tool} {target["role"]} "{target.get("name", "")}"'
    return f"{tool} {' '.join(f'{k} {v!r}' for k, v in target.items())}"
