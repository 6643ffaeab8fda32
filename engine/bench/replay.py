"""`warden bench replay`: what learning buys on web screens, measured on the bundled demo site.

Four questions, each answered by real runs in a real Chromium:

1. cold vs warm: a family's first task runs through the agent and becomes a program; does
   the second task of the family (other values) replay it, with no model call?
2. overhead: how much slower are replay's actions (a check of the screen before each, the
   gate, the journal, the trace) than the same actions in a plain Playwright script?
3. the verify gate: a lossy program (cut before it submits) offered with the gate on and off;
   does the next task of the family still succeed?
4. perturbations: on a page that changed under the program (a modal, a control renamed to a
   destructive one, slow pages, a moved layout), verified replay against blind linear replay
   by recorded selectors: task success, and actions taken in a wrong state by the site's count.

Every run of Warden is reported with the figures `warden run --json` prints for it.
"""

from __future__ import annotations

import asyncio
import statistics
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.bench import muscle
from engine.bench.blind import BlindBrowser, BlindRun
from engine.bench.lossy import SUBMITTING, without_last_submit
from engine.bench.runs import Home, Run, load_spec

FAMILIES = ("add-contact", "edit-phone", "write-note", "change-settings", "mark-favourite", "dismiss-whats-new",
            "run-report")
QUICK_FAMILIES = ("add-contact",)
PERTURBATIONS = {"dialog": "add-contact", "replace": "add-contact", "slow": "edit-phone", "shifted": "write-note"}
SETTLE_S = 0.4  # for the page's wrong-state beacons to land before the counters are read

Progress = Callable[[str], None]


@dataclass
class Options:
    examples: Path
    families: tuple[str, ...] = FAMILIES
    repeat: int = 3
    home: Path | None = None
    ablation_families: tuple[str, ...] | None = None  # default: every family measured
    progress: Progress = field(default=lambda label: None)


def planned_runs(options: Options) -> int:
    """How many runs `measure` makes, for a progress bar."""
    perturbed = sum(family in options.families for family in PERTURBATIONS.values())
    ablation = len(_ablated(options))
    muscles = (2 * len(options.families) + perturbed + ablation) if muscle.available() is None else 0
    return len(options.families) * (1 + 2 * options.repeat) + 2 * ablation + 2 * perturbed + muscles


async def measure(options: Options, executable: str) -> dict[str, Any]:
    """Every figure of the benchmark as one JSON-ready document."""
    from engine.demo_site import DemoSite

    with tempfile.TemporaryDirectory(prefix="warden-bench-replay-") as scratch, DemoSite(dialog="never") as site:
        root = Path(scratch)
        blind = BlindBrowser(executable)
        await blind.start()
        try:
            home = await Home.open(options.home or root / "home", site.url)
            try:
                learned = {family: await _cold_warm(options, home, blind, site.url, family)
                           for family in options.families}
                perturbations = [await _perturbation(options, home, blind, site, name, family, learned[family])
                                 for name, family in PERTURBATIONS.items() if family in learned]
            finally:
                await home.close()
            muscles = {family: await asyncio.to_thread(_muscle, options, executable, site, family)
                       for family in options.families}
            ablation = [{**await _ablation(options, root, site.url, family, learned[family]),
                         "muscle_mem": muscles[family]["lossy"]} for family in _ablated(options)]
        finally:
            await blind.close()
    return {
        "families": list(options.families), "repeat": options.repeat, "browser": executable,
        "home": str(options.home) if options.home else None,
        "cold_warm": [{**row["cold_warm"], "muscle_mem": muscles[family]["warm"]} for family, row in learned.items()],
        "overhead": [row["overhead"] for row in learned.values()],
        "gate_ablation": ablation,
        "perturbations": [{**row, "muscle_mem": muscles[row["family"]]["perturbed"].get(row["perturbation"])}
                          for row in perturbations],
        "muscle_mem": muscle.available() or muscle.describe(),
    }


def _ablated(options: Options) -> tuple[str, ...]:
    return options.ablation_families if options.ablation_families is not None else options.families


async def _cold_warm(options: Options, home: Home, blind: BlindBrowser, url: str, family: str) -> dict[str, Any]:
    cold_spec = load_spec(options.examples / f"{family}.json", url)
    warm_spec = load_spec(options.examples / "again" / f"{family}.json", url)
    cold = await home.run(cold_spec)
    stored = cold.report["stored_program_id"]
    program = await home.runtime.program(stored) if stored else None  # before a warm run can replace it
    options.progress(f"{family} cold")
    warms = []
    for _ in range(options.repeat):
        warms.append(await home.run(warm_spec))
        options.progress(f"{family} warm")
    blinds = []
    replayed = [warm for warm in warms if warm.report["path"] == "replay" and warm.replay_s is not None]
    steps = [{"tool": s["call"]["tool"], "args": s["call"]["args"]} for s in (replayed[0].steps if replayed else [])]
    for _ in range(options.repeat):
        if steps:
            blinds.append(await blind.run(warm_spec["env"], steps, "locators", warm_spec.get("evaluate")))
        options.progress(f"{family} blind")
    return {
        "cold": cold, "program": program,
        "cold_warm": {"family": family, "cold": cold.summary(), "warm": warms[0].summary(),
                      "warm_runs": len(warms), "warm_succeeded": sum(w.succeeded for w in warms),
                      "warm_wall_s_median": _median([w.report["wall_s"] for w in warms])},
        "overhead": _overhead(family, replayed, blinds),
    }


def _overhead(family: str, replayed: list[Run], blinds: list[BlindRun]) -> dict[str, Any]:
    clean = [b for b in blinds if b.error is None]
    replay_s = _median([run.replay_s for run in replayed if run.replay_s is not None])
    blind_s = _median([b.action_s for b in clean])
    note = None
    if not replayed:
        note = "no warm run was a pure replay: nothing to compare"
    elif len(clean) < len(blinds):
        note = f"{len(blinds) - len(clean)} blind run(s) stopped early: {next(b.error for b in blinds if b.error)}"
    return {"family": family, "actions": replayed[0].replayed if replayed else 0,
            "replay_action_s_median": replay_s,
            "replay_check_wait_s_median": _median([run.check_wait_s for run in replayed]),
            "blind_action_s_median": blind_s,
            "ratio": round(replay_s / blind_s, 3) if replay_s and blind_s else None,
            "replay_runs": len(replayed), "blind_runs": len(clean),
            "blind_succeeded": sum(bool(b.evaluation) for b in clean), "note": note}


async def _ablation(options: Options, root: Path, url: str, family: str, learned: dict[str, Any]) -> dict[str, Any]:
    """A lossy program offered to a fresh home with the verify gate on and off; then the family's warm task."""
    program = learned["program"]
    row: dict[str, Any] = {"family": family, "lossy_program": None, "arms": {}, "note": None}
    cut = without_last_submit(program) if program is not None else None
    if cut is None:
        row["note"] = "the cold run stored no program with a submitting step to cut"
        for _ in range(2):
            options.progress(f"{family} ablation")
        return row
    lossy, removed = cut
    row["lossy_program"] = {"id": lossy.id, "from": program.id, "removed": removed,
                            "transitions": len(lossy.transitions)}
    warm_spec = load_spec(options.examples / "again" / f"{family}.json", url)
    for arm, gate in (("on", True), ("off", False)):
        home = await Home.open(root / f"ablation-{family}-{arm}", url, verify_gate=gate)
        try:
            offered = await _offer(home, lossy, gate)
            warm = await home.run(warm_spec)
            row["arms"][arm] = {**offered, "warm": warm.summary(), "warm_succeeded": warm.succeeded}
        finally:
            await home.close()
        options.progress(f"{family} ablation {arm}")
    return row


async def _offer(home: Home, lossy: Any, gate: bool) -> dict[str, Any]:
    """Through `Runtime.verify_program` (the verify gate, or its off switch storing it `skipped`)."""
    verify = getattr(home.runtime, "verify_program", None)
    if verify is None:
        if gate:
            return {"offered": "unavailable: Runtime.verify_program is missing", "stored": False}
        await home.runtime.corpus.upsert(lossy.with_verification({"status": "skipped", "passed": False,
                                                                  "how": "the verify gate is switched off"}))
        return {"offered": "skipped", "stored": True, "stored_status": "skipped"}
    result = await verify(lossy)
    verification = getattr(result, "verification", result)
    stored = getattr(result, "stored", verification.passed)
    kept = await home.runtime.program(lossy.id) if stored else None
    return {"offered": verification.verdict.value, "reason": verification.reason, "stored": stored,
            "stored_status": kept.status if kept else None}


async def _perturbation(options: Options, home: Home, blind: BlindBrowser, site: Any, name: str, family: str,
                        learned: dict[str, Any]) -> dict[str, Any]:
    spec = load_spec(options.examples / "perturbed" / f"{name}.json", site.url)
    verified = await home.run(spec)
    await asyncio.sleep(SETTLE_S)
    verified_row = {**verified.summary(), "succeeded": verified.succeeded,
                    "actions": verified.report["steps"], **_wrong(site)}
    options.progress(f"{name} verified")
    recorded = _recorded(learned["cold"], options.examples / "again" / f"{family}.json", site.url)
    if recorded is None:
        blind_row: dict[str, Any] = {"note": "the recorded run and the family's plan differ; no blind arm"}
    else:
        done = await blind.run(spec["env"], recorded, "recorded", spec.get("evaluate"))
        await asyncio.sleep(SETTLE_S)
        blind_row = {"succeeded": bool(done.evaluation), "evaluation": done.evaluation, "actions": done.actions,
                     "stopped": done.error, "fell_back": False, **_wrong(site)}
    options.progress(f"{name} blind")
    return {"perturbation": name, "family": family, "spec": f"perturbed/{name}.json",
            "verified": verified_row, "blind": blind_row}


def _muscle(options: Options, executable: str, site: Any, family: str) -> dict[str, Any]:
    """muscle-mem on this family: record the first spec, then the second and each perturbed one from that cache."""
    missing = muscle.available()
    if missing is not None:
        return {"warm": {"note": missing}, "perturbed": {}, "lossy": {"note": missing}}
    arm = muscle.MuscleArm(executable)
    try:
        first = load_spec(options.examples / f"{family}.json", site.url)
        recorded, later = muscle.family_params(first["agent"]["steps"],
                                               load_spec(options.examples / "again" / f"{family}.json",
                                                         site.url)["agent"]["steps"])

        def run(path: Path, record: bool = False) -> dict[str, Any]:
            spec = load_spec(path, site.url)
            done = arm.record(spec, recorded) if record else arm.run(spec, later, fresh_cache=True)
            counts = site.state()
            return {"succeeded": bool(done.evaluation), "cache_hit": done.cache_hit, "fell_back": not done.cache_hit,
                    "actions": done.actions, "action_s": round(done.action_s, 4), "stopped": done.error,
                    **_counted(counts)}

        cold = run(options.examples / f"{family}.json", record=True)
        options.progress(f"{family} muscle-mem cold")
        warm = {**run(options.examples / "again" / f"{family}.json"), "recorded": cold}
        options.progress(f"{family} muscle-mem warm")
        perturbed = {}
        for name in (n for n, f in PERTURBATIONS.items() if f == family):
            perturbed[name] = run(options.examples / "perturbed" / f"{name}.json")
            options.progress(f"{name} muscle-mem")
        lossy = None
        if family in _ablated(options):
            arm.forget()
            steps = first["agent"]["steps"]
            cut = max((i for i, step in enumerate(steps) if step["tool"] in SUBMITTING), default=0)
            short = arm.run({**first, "agent": {"kind": "scripted", "steps": steps[:cut]}}, recorded)
            again = arm.run(load_spec(options.examples / "again" / f"{family}.json", site.url), later)
            lossy = {"recorded_run_succeeded": bool(short.evaluation), "cached": bool(arm.engine.db.trajectories),
                     "warm_cache_hit": again.cache_hit, "warm_succeeded": bool(again.evaluation)}
            options.progress(f"{family} muscle-mem lossy")
        return {"warm": warm, "perturbed": perturbed, "lossy": lossy}
    finally:
        arm.close()


def _recorded(cold: Run, again: Path, url: str) -> list[dict] | None:
    """The cold run's actions on the selectors its trace recorded, with the new task's values (from the
    family's second spec, whose plan follows the first step by step)."""
    plan = load_spec(again, url)["agent"]["steps"]
    if [s["call"]["tool"] for s in cold.steps] != [p["tool"] for p in plan]:
        return None
    return [{"tool": p["tool"], "args": p["args"], "selector": (s.get("target") or {}).get("selector")}
            for s, p in zip(cold.steps, plan, strict=True)]


def _wrong(site: Any) -> dict[str, Any]:
    return _counted(site.state())


def _counted(state: dict[str, Any]) -> dict[str, Any]:
    counts = state["perturb"]
    return {"wrong_state_actions": counts["wrong_actions"],
            "wrong_state": {k: counts[k] for k in ("replaced_clicks", "behind_modal", "stale_actions")},
            "contacts_left": len(state["contacts"])}


def _median(values: list[float]) -> float | None:
    return round(statistics.median(values), 4) if values else None
