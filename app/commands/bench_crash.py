"""`warden bench crash`: seeded long plans under SIGKILLs, compared with their crash-free run."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from engine.bench.crash import bench as crash_bench


def register(targets: argparse._SubParsersAction) -> None:
    crash = targets.add_parser(
        "crash", help="long seeded plans under SIGKILLs: resume correctness, duplicate effects, approvals, reclaim",
        description="Generates seeded plans of 8-20 workspace operators, runs them in worker processes on one "
        "home that are SIGKILLed at step boundaries and mid-step (at least once per task), restarts them and "
        "approves gated steps through the approval path, then runs the same plans without crashes and compares "
        "each workspace. Exits 1 if any check fails. See docs/tasks.md.")
    crash.add_argument("--tasks", type=int, default=100, help="plans, one task each (default 100)")
    crash.add_argument("--seed", type=int, default=0, help="the seed of the plans and the kill points (default 0)")
    crash.add_argument("--workers", type=int, default=2, help="worker processes at once (default 2)")
    crash.add_argument("--lease", type=float, default=1.0, help="the workers' lease in seconds (default 1)")
    crash.add_argument("--home", type=Path, help="keep both runs under this empty directory (default: throwaway)")
    crash.add_argument("--json", action="store_true", help="print the report as one JSON object instead of a table")
    crash.add_argument("--output", type=Path, help="also write the JSON report to this file")
    crash.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    options = crash_bench.Options(args.tasks, args.seed, args.workers, args.lease, args.home)
    crash_bench.validate(options)
    with Progress(TextColumn("[bold]bench crash {task.description:10}"), BarColumn(), MofNCompleteColumn(),
                  TimeElapsedColumn(), console=Console(stderr=True), transient=True, disable=args.json) as progress:
        bars = {label: progress.add_task(label, total=args.tasks) for label in ("crashing", "reference")}
        options.progress = lambda label, done, total: progress.update(bars[label], completed=done)
        data = crash_bench.measure(options)
    if args.output:
        args.output.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    if args.json:
        print(json.dumps(data))
    else:
        _table(data, Console(highlight=False))
    return 0 if data["ok"] else 1


def _table(data: dict, console: Console) -> None:
    def mark(good: bool) -> str:
        return "[green]✓[/]" if good else "[red]✗[/]"

    kills, reclaim = data["kills"], data["reclaim_s"]
    table = Table(title=f"warden bench crash: {data['tasks']} tasks, {data['steps']} steps, seed {data['seed']}",
                  caption=f"{data['workers']} worker processes, lease {data['lease_s']} s, {data['cpus']} CPUs; "
                  f"{data['operators_used']} operators used", title_justify="left")
    for column in ("measure", "value", ""):
        table.add_column(column, justify="left" if column == "measure" else "right")
    table.add_row("resume correctness", f"{data['resume_correctness']:.0%}", mark(data["resume_correctness"] == 1.0))
    table.add_row("duplicate side effects", str(data["duplicate_side_effects"]), mark(not data["duplicate_side_effects"]))
    table.add_row("missing effects", str(data["missing_effects"]), mark(not data["missing_effects"]))
    table.add_row("approval violations", str(data["approval_violations"]), mark(not data["approval_violations"]))
    table.add_row("kills (boundary / mid)", f"{kills['total']} ({kills['boundary']} / {kills['mid']})",
                  mark(kills["tasks_killed"] == data["tasks"]))
    table.add_row("approvals granted", str(data["approvals"]["granted"]), "")
    table.add_row("reclaim s p50 / p95 / max",
                  " / ".join("—" if reclaim[q] is None else f"{reclaim[q]:.2f}" for q in ("p50", "p95", "max")), "")
    table.add_row("task outcomes", ", ".join(f"{n} {s}" for s, n in sorted(data["statuses"].items())), "")
    table.add_row("wall s (crashing / reference)", f"{data['wall_s']['crashing']:.1f} / {data['wall_s']['reference']:.1f}", "")
    console.print(table)
    for problem in data["failures"]["unequal"]:
        console.print(f"[red]plan {problem['plan']}[/]: {problem['status']} (reference {problem['reference_status']}); "
                      + "; ".join(problem["differences"]))
    for line in data["failures"]["violations"]:
        console.print(f"[red]approval violation[/]: {line}")
