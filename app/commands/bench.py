"""`warden bench gate`, `console`, `replay`, `tasks` and `shell` (`crash` and `journal` have modules of their own):
the gate's recall and latency, the console's latency, what replay on web screens buys, steps per second through
the gate and journal, and what a confined command costs in snapshotting."""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
from pathlib import Path

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from app.commands import bench_crash, bench_fatigue, bench_hook, bench_journal
from engine.bench import gate as gate_bench
from engine.bench import shell as shell_bench
from engine.bench import tasks as tasks_bench
from engine.errors import WardenError

REPO = Path(__file__).resolve().parents[2]


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("bench", help="run a benchmark", description="Run one of Warden's benchmarks.")
    targets = parser.add_subparsers(title="benchmarks", metavar="NAME", dest="bench")
    gate = targets.add_parser("gate", help="recall and latency of the risk gate on the labelled corpus",
                              description="Rates every corpus command, prints recall per label and latency "
                              "(median and p99 µs per command, one core, parsing included) plus the worst time "
                              "on ~100 KB adversarial inputs.")
    gate.add_argument("--corpus", type=Path, help="JSONL corpus file or directory of them (default tests/gate/corpus)")
    gate.add_argument("--json", action="store_true", help="print the report as JSON on stdout instead of a table")
    gate.add_argument("--output", type=Path, help="also write the JSON report to this file")
    gate.add_argument("--iterations", type=int, default=7,
                      help="passes over the corpus; a command's latency is its best pass (default 7)")
    gate.add_argument("--adversarial-iterations", type=int, default=5, help="runs per adversarial input (default 5)")
    gate.add_argument("--adversarial-size", type=int, default=gate_bench.ADVERSARIAL_SIZE,
                      help="size in characters of each adversarial input (default 100000)")
    gate.set_defaults(func=run_gate)
    console = targets.add_parser(
        "console", help="the console on a large home: first frame, task throughput, key and event latency",
        description="Fills a throwaway home with programs, receipts and finished tasks and a workspace with data, "
        "then times the console's first frame, runs the same trivial tasks headless and with the console open, "
        "times arrow keys at rest and while tasks run, and times engine events to their pane while the engine "
        "snapshots the workspace. See docs/benchmarks.md.")
    console.add_argument("--programs", type=int, default=300, help="stored programs (default 300)")
    console.add_argument("--receipts", type=int, default=10_000, help="receipts in the journal (default 10000)")
    console.add_argument("--tasks", type=int, default=2_000, help="finished tasks in the home (default 2000)")
    console.add_argument("--workspace-mb", type=int, default=200, help="workspace size being snapshotted (default 200)")
    console.add_argument("--throughput-tasks", type=int, default=300,
                         help="trivial tasks run headless, then with the console open (default 300)")
    console.add_argument("--rounds", type=int, default=2,
                         help="throughput rounds of each arm; the best of each is compared (default 2)")
    console.add_argument("--keys", type=int, default=100,
                         help="arrow keys timed while tasks run (half as many at rest; default 100)")
    console.add_argument("--events", type=int, default=200, help="tasks submitted while timing events (default 200)")
    console.add_argument("--rate", type=float, default=20.0,
                         help="tasks submitted per second; each one also starts and fails, so panes see ~3x (default 20)")
    console.add_argument("--json", action="store_true", help="print the report as JSON on stdout instead of a table")
    console.add_argument("--output", type=Path, help="also write the JSON report to this file")
    console.set_defaults(func=run_console)
    replay = targets.add_parser(
        "replay", help="cold vs warm runs, replay overhead, the verify gate and perturbed pages, on the demo site",
        description="Serves the bundled demo site and, in a throwaway home, runs each web family cold (the agent) "
        "and warm (a second task of the family, which should replay), times replay's actions against the same "
        "actions in plain Playwright, offers a lossy program with the verify gate on and off, and replays on "
        "perturbed pages against blind replay by recorded selectors. See docs/benchmarks.md.")
    replay.add_argument("--families", help="comma-separated families (default: all seven), e.g. add-contact,edit-phone")
    replay.add_argument("--repeat", type=int, default=3, help="warm runs and blind runs per family; medians (default 3)")
    replay.add_argument("--quick", action="store_true", help="one family (add-contact unless --families), one repeat")
    replay.add_argument("--home", type=Path, help="keep the runs in this Warden home (default: a throwaway one)")
    replay.add_argument("--json", action="store_true", help="print the report as JSON on stdout instead of tables")
    replay.add_argument("--output", type=Path, help="also write the JSON report to this file")
    replay.set_defaults(func=run_replay)
    tasks = targets.add_parser(
        "tasks", help="steps per second through the gate and journal, with 1 and with 4 worker processes",
        description="In a throwaway home per arm, queues tasks of tiny fs.write steps (each gated, snapshotted "
        "and given a receipt) and runs them with K `warden worker --until-idle` processes; prints steps, wall "
        "and busy seconds, steps/s and the median step latency for each K. See docs/benchmarks.md.")
    tasks.add_argument("--steps", type=int, default=tasks_bench.DEFAULT_STEPS,
                       help=f"steps per arm (default {tasks_bench.DEFAULT_STEPS})")
    tasks.add_argument("--workers", default=",".join(map(str, tasks_bench.DEFAULT_WORKERS)),
                       help="comma-separated worker counts, one arm each (default 1,4)")
    tasks.add_argument("--steps-per-task", type=int, default=tasks_bench.STEPS_PER_TASK,
                       help=f"fs.write steps in each task (default {tasks_bench.STEPS_PER_TASK})")
    tasks.add_argument("--home", type=Path, help="keep each arm's home under this directory (default: throwaway)")
    tasks.add_argument("--json", action="store_true", help="print the report as JSON on stdout instead of a table")
    tasks.add_argument("--output", type=Path, help="also write the JSON report to this file")
    tasks.set_defaults(func=run_tasks)
    shell = targets.add_parser(
        "shell", help="snapshotting cost of a confined one-line echo on a large workspace",
        description="In a throwaway home, builds a workspace of --size-mb MB in many files, runs a confined "
        f"`{shell_bench.COMMAND}` --runs times through the runtime, and prints the time spent probing, scanning, "
        "snapshotting and applying (not the command, not the sandbox's start), the whole step's time, and for "
        "scale one snapshot of the whole workspace.")
    shell.add_argument("--size-mb", type=int, default=shell_bench.DEFAULT_SIZE_MB,
                       help=f"workspace size in MB (default {shell_bench.DEFAULT_SIZE_MB})")
    shell.add_argument("--runs", type=int, default=shell_bench.DEFAULT_RUNS,
                       help=f"commands run, one task each (default {shell_bench.DEFAULT_RUNS})")
    shell.add_argument("--home", type=Path, help="build the workspace and home under this directory (default: temp)")
    shell.add_argument("--json", action="store_true", help="print the report as JSON on stdout instead of a table")
    shell.set_defaults(func=run_shell)
    bench_crash.register(targets)
    bench_journal.register(targets)
    bench_fatigue.register(targets)
    bench_hook.register(targets)
    parser.set_defaults(func=lambda args: _missing(parser))


def _missing(parser: argparse.ArgumentParser) -> int:
    parser.print_help(sys.stderr)
    return 2


def run_gate(args: argparse.Namespace) -> int:
    corpus = args.corpus or gate_bench.default_corpus(REPO)
    if not corpus.exists():
        raise WardenError(f"no corpus at {corpus}; pass --corpus FILE|DIR")
    rows = gate_bench.load_corpus(corpus)
    err = Console(stderr=True)
    total = len(rows) * max(1, args.iterations) + len(gate_bench.adversarial_inputs(10)) * max(1, args.adversarial_iterations)
    with Progress(TextColumn("[bold]bench gate"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                  console=err, transient=True) as progress:
        task = progress.add_task("classify", total=total)
        report = gate_bench.run(rows, str(corpus), iterations=args.iterations,
                                adversarial_iterations=args.adversarial_iterations,
                                adversarial_size=args.adversarial_size,
                                progress=lambda n: progress.advance(task, n))
    data = report.as_json()
    if args.output:
        args.output.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    if args.json:
        print(json.dumps(data, indent=2))
    else:
        _table(report, Console())
    return 0


def _table(report: gate_bench.Report, console: Console) -> None:
    meets = report.meets_targets()
    table = Table(title=f"risk gate on {report.corpus}", show_lines=False)
    table.add_column("measure")
    table.add_column("value", justify="right")
    table.add_column("target", justify="right")
    table.add_column("", justify="center")
    labels = {
        "catastrophic_at_least_dangerous": "catastrophic rated ≥ dangerous",
        "catastrophic_rated_catastrophic": "catastrophic rated catastrophic",
        "dangerous_at_least_dangerous": "dangerous rated ≥ dangerous",
        "safe_rated_safe": "safe rated safe",
    }
    table.add_row(f"catastrophic rated safe (n={report.counts.get('catastrophic', 0)})",
                  str(report.catastrophic_rated_safe), "0", _mark(meets["catastrophic_rated_safe"]))
    for key, label in labels.items():
        table.add_row(f"{label} (n={report.counts.get(label.split()[0], 0)})", f"{report.recall[key]:.1%}",
                      f"≥ {gate_bench.TARGETS[key]:.0%}", _mark(meets[key]))
    table.add_row("median latency / command", f"{report.latency_us.get('median', 0):.1f} µs",
                  f"< {gate_bench.TARGETS['median_us']:.0f} µs", _mark(meets["median_us"]))
    table.add_row("p99 latency / command", f"{report.latency_us.get('p99', 0):.1f} µs", "", "")
    table.add_row("throughput", f"{report.throughput_per_s:,.0f} /s", "", "")
    worst = max(report.adversarial_ms.items(), key=lambda kv: kv[1], default=("-", 0.0))
    table.add_row(f"worst ~100 KB input ({worst[0]})", f"{worst[1]:.1f} ms",
                  f"< {gate_bench.TARGETS['adversarial_max_ms']:.0f} ms", _mark(meets["adversarial_max_ms"]))
    console.print(table)
    if len(report.categories) > 1 or "(file)" not in report.categories:
        console.print(_category_table(report))


def _category_table(report: gate_bench.Report) -> Table:
    """Recall per label in each corpus directory: safe rated safe, dangerous rated ≥ dangerous, catastrophic
    rated catastrophic (≥ dangerous in brackets)."""
    table = Table(title="by category (recall, n)")
    table.add_column("category")
    for label in gate_bench.LABELS:
        table.add_column(label, justify="right")
    for category, labels in report.categories.items():
        cells = []
        for label in gate_bench.LABELS:
            entry = labels.get(label)
            if not entry:
                cells.append("")
                continue
            extra = f" [{entry['at_least_dangerous']:.0%}]" if "at_least_dangerous" in entry else ""
            cells.append(f"{entry['recall']:.1%}{extra} ({int(entry['n'])})")
        table.add_row(category, *cells)
    return table


def _mark(ok: bool) -> str:
    return "[green]✓[/]" if ok else "[red]✗[/]"


def run_console(args: argparse.Namespace) -> int:
    from app.console_bench import STAGES, Options, measure

    options = Options(args.programs, args.receipts, args.tasks, args.workspace_mb, args.events, args.rate,
                      args.throughput_tasks, args.keys, max(1, args.rounds))
    with Progress(TextColumn("[bold]bench console {task.description:10}"), BarColumn(), TimeRemainingColumn(),
                  console=Console(stderr=True), transient=True) as progress:
        bars = {stage: progress.add_task(stage, total=1.0) for stage in STAGES}
        report = asyncio.run(measure(options,
                                     progress=lambda stage, done: progress.update(bars[stage], completed=done)))
    data = report.as_json()
    if args.output:
        args.output.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    if args.json:
        print(json.dumps(data, indent=2))
        return 0
    meets = report.meets()
    table = Table(title="warden bench console", title_justify="left")
    for column in ("measure", "value", "target", ""):
        table.add_column(column, justify="left" if column == "measure" else "right")
    throughput, keys, events = data["throughput"], data["key_to_cursor_ms"], data["event_to_pane_ms"]
    rows = (
        ("home", f"{data['tasks']:,} tasks · {data['receipts']:,} receipts · {data['programs']:,} programs", "", ""),
        ("first frame (start → rows in tasks and journal)", f"{data['first_frame_s']:.2f} s",
         f"≤ {data['first_frame_target_s']} s", _mark(meets["first_frame"])),
        (f"throughput headless ({throughput['tasks']} tasks, best of {len(throughput['rounds'])})",
         f"{throughput['headless_per_s']} tasks/s", "", ""),
        ("throughput with the console open", f"{throughput['console_per_s']} tasks/s", "", ""),
        ("slowdown (headless ÷ console)", f"{throughput['slowdown']}×", f"≤ {throughput['slowdown_target']}×",
         _mark(meets["throughput"])),
        (f"key → cursor drawn, at rest (n={keys['at_rest']['n']})",
         f"median {keys['at_rest']['median']} ms · p99 {keys['at_rest']['p99']} ms", "", ""),
        (f"key → cursor drawn, tasks running (n={keys['while_tasks_run']['n']})",
         f"median {keys['while_tasks_run']['median']} ms · p99 {keys['while_tasks_run']['p99']} ms", "", ""),
        ("workspace being snapshotted", f"{data['workspace_mb']} MB", "", ""),
        ("tasks submitted (events run)", f"{data['submissions']} at {data['submissions_per_s']:g}/s", "", ""),
        ("events timed", f"{data['events_timed']} ({data['pane_events_per_s']}/s)", "", ""),
        ("event → pane", f"median {events['median']} ms · p99 {events['p99']} ms · max {events['max']} ms", "", ""),
        ("snapshots during the run", f"{data['snapshots_during_run']} ({data['snapshot_mb_per_s']} MB/s)", "", ""),
    )
    for row in rows:
        table.add_row(*(str(cell) for cell in row))
    Console(highlight=False).print(table)
    return 0


def run_replay(args: argparse.Namespace) -> int:
    from engine.bench import replay as replay_bench
    from engine.envs.web.browser import require_browser

    families = tuple(f.strip() for f in args.families.split(",") if f.strip()) if args.families else None
    unknown = sorted(set(families or ()) - set(replay_bench.FAMILIES))
    if unknown:
        raise WardenError(f"unknown families {', '.join(unknown)}; known: {', '.join(replay_bench.FAMILIES)}")
    if args.repeat < 1:
        raise WardenError("--repeat must be at least 1")
    options = replay_bench.Options(
        REPO / "docs" / "examples" / "web",
        families or (replay_bench.QUICK_FAMILIES if args.quick else replay_bench.FAMILIES),
        1 if args.quick else args.repeat, args.home)
    executable = require_browser(os.environ.get("WARDEN_BROWSER") or None)
    with Progress(TextColumn("[bold]bench replay {task.description:28}"), BarColumn(), MofNCompleteColumn(),
                  TimeRemainingColumn(), console=Console(stderr=True), transient=True) as progress:
        bar = progress.add_task("starting", total=replay_bench.planned_runs(options))
        options.progress = lambda label: progress.update(bar, advance=1, description=label)
        data = asyncio.run(replay_bench.measure(options, executable))
    if args.output:
        args.output.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    if args.json:
        print(json.dumps(data, indent=2))
    else:
        _replay_tables(data, Console(highlight=False))
    return 0


def _replay_tables(data: dict, console: Console) -> None:
    def ok(value: object) -> str:
        return "[green]✓[/]" if value else "[red]✗[/]"

    table = Table(title="cold vs warm: a family's first task, then a second one with other values",
                  title_justify="left")
    for column in ("family", "run", "task", "path", "steps", "proposals", "model calls", "wall s", "program"):
        table.add_column(column, justify="right" if column in ("steps", "proposals", "model calls", "wall s") else "left")
    for row in data["cold_warm"]:
        cold, warm = row["cold"], row["warm"]
        table.add_row(row["family"], "cold", ok(cold["outcome"] == "succeeded"), cold["path"], str(cold["steps"]),
                      str(cold["agent_proposals"]), str(cold["model_calls"]), f"{cold['wall_s']:.2f}",
                      f"stored {cold['stored_program_status']}" if cold["stored_program_status"]
                      else f"none: {(cold['program_rejected'] or '')[:40]}")
        table.add_row("", f"warm ×{row['warm_runs']}", f"{row['warm_succeeded']}/{row['warm_runs']}", warm["path"],
                      str(warm["steps"]), str(warm["agent_proposals"]), str(warm["model_calls"]),
                      f"{row['warm_wall_s_median']:.2f}", warm["program_id"] or "")
        mm = row.get("muscle_mem") or {}
        if "succeeded" in mm:
            table.add_row("", "muscle-mem", ok(mm["succeeded"]), "cache hit" if mm["cache_hit"] else "agent",
                          str(mm["actions"]), "", "0", f"{mm['action_s']:.2f}", (mm["stopped"] or "")[:40])
    console.print(table)
    table = Table(title="replay overhead: the warm replay's actions vs the same in plain Playwright", title_justify="left")
    for column in ("family", "actions", "replay s", "of which checks waited", "blind s", "ratio", "note"):
        table.add_column(column, justify="left" if column in ("family", "note") else "right")
    for row in data["overhead"]:
        table.add_row(row["family"], str(row["actions"]), _num(row["replay_action_s_median"]),
                      _num(row["replay_check_wait_s_median"]), _num(row["blind_action_s_median"]),
                      f"{row['ratio']:.2f}x" if row["ratio"] else "—", row["note"] or "")
    console.print(table)
    table = Table(title="verify gate: a lossy program (cut before it submits), then the family's task",
                  title_justify="left")
    for column in ("family", "cut", "gate on: offered", "warm", "gate off: offered", "warm", "muscle-mem: warm"):
        table.add_column(column)
    for row in data["gate_ablation"]:
        arms = row["arms"]
        cells = [("—" if a not in arms else f"stored {arms[a].get('stored_status')}" if arms[a]["stored"]
                  else f"{arms[a]['offered']}, not stored") for a in ("on", "off")]
        warms = [f"{ok(arms[a]['warm_succeeded'])} {arms[a]['warm']['path']}" if a in arms else "—" for a in ("on", "off")]
        cut = row["lossy_program"]["removed"] if row["lossy_program"] else row["note"]
        mm = row.get("muscle_mem") or {}
        muscle = (f"{ok(mm['warm_succeeded'])} {'cache hit' if mm['warm_cache_hit'] else 'agent'}"
                  if "warm_succeeded" in mm else mm.get("note", "—"))
        table.add_row(row["family"], cut, cells[0], warms[0], cells[1], warms[1], muscle)
    console.print(table)
    table = Table(title="perturbed pages: verified replay (falls back to the agent) vs blind replay by recorded "
                  "selectors", title_justify="left")
    for column in ("perturbation", "arm", "task", "wrong-state actions", "actions", "fell back", "note"):
        table.add_column(column, justify="right" if column in ("wrong-state actions", "actions") else "left")
    for row in data["perturbations"]:
        for arm in ("verified", "blind", "muscle_mem"):
            cell = row.get(arm) or {}
            if arm == "muscle_mem" and "succeeded" not in cell:
                continue
            if "note" in cell and "succeeded" not in cell:
                table.add_row(f"{row['perturbation']} ({row['family']})", arm, "—", "—", "—", "—", cell["note"])
                continue
            note = cell.get("reason") if arm == "verified" else cell.get("stopped")
            table.add_row(f"{row['perturbation']} ({row['family']})" if arm == "verified" else "", arm.replace("_", "-"),
                          ok(cell["succeeded"]), str(cell["wrong_state_actions"]), str(cell["actions"]),
                          "yes" if cell["fell_back"] else "no", (note or "")[:70])
    console.print(table)


def _num(value: float | None) -> str:
    return f"{value:.3f}" if value is not None else "—"


def run_tasks(args: argparse.Namespace) -> int:
    try:
        workers = tuple(int(part) for part in args.workers.split(",") if part.strip())
    except ValueError:
        raise WardenError(f"--workers takes comma-separated counts, e.g. 1,4, not {args.workers!r}") from None
    options = tasks_bench.Options(args.steps, workers, args.steps_per_task, args.home)
    tasks_bench.validate(options)
    with Progress(TextColumn("[bold]bench tasks {task.description:10}"), BarColumn(), MofNCompleteColumn(),
                  TimeRemainingColumn(), console=Console(stderr=True), transient=True,
                  disable=args.json) as progress:
        bars = {count: progress.add_task(f"{count} worker{'s' if count > 1 else ''}", total=args.steps)
                for count in workers}
        options.progress = lambda count, done: progress.update(bars[count], completed=done)
        data = tasks_bench.measure(options)
    if args.output:
        args.output.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    if args.json:
        print(json.dumps(data, indent=2))
        return 0
    table = Table(title=f"warden bench tasks: fs.write steps, {data['steps_per_task']} to a task",
                  caption=f"workers are separate processes on one home; {data['cpus']} CPUs", title_justify="left")
    for column in ("workers", "steps", "wall s", "busy s", "steps/s", "wall/s", "p50 ms", "p90 ms"):
        table.add_column(column, justify="right")
    for arm in data["arms"]:
        latency = arm["step_latency_ms"]
        table.add_row(str(arm["workers"]), str(arm["steps"]), f"{arm['wall_s']:.2f}",
                      f"{arm['busy_s']:.2f}", _num1(arm["steps_per_s"]), _num1(arm["wall_steps_per_s"]),
                      _num1(latency["median"]), _num1(latency["p90"]))
    console = Console(highlight=False)
    console.print(table)
    console.print("busy s: first task started to last task finished; wall s and wall/s add the workers' start-up "
                  "and exit.\np50/p90 ms: one step, from the agent proposing it to its action completed.")
    return 0


def run_shell(args: argparse.Namespace) -> int:
    data = shell_bench.measure(shell_bench.Options(args.size_mb, args.runs, args.home))
    if args.json:
        print(json.dumps(data, indent=2))
        return 0
    table = Table(title=f"warden bench shell: `{data['command']}` on {data['size_mb']} MB ({data['files']} files)",
                  caption=f"route: {data['route']}; median of {data['runs']} runs", title_justify="left")
    table.add_column("measure")
    table.add_column("ms", justify="right")
    costs = data["snapshotting_ms"]
    for label, key in (("probe", "probe_ms"), ("scan", "scan_ms"), ("snapshot", "snapshot_ms"),
                       ("apply", "apply_ms"), ("snapshotting in all", "median")):
        table.add_row(label, _num1(costs[key]))
    table.add_row("whole step (gate, write-ahead, sandbox, command, receipt)", _num1(data["step_ms"]["median"]))
    table.add_row("for scale: one snapshot of the whole workspace", _num1(data["whole_workspace_snapshot_ms"]))
    console = Console(highlight=False)
    console.print(table)
    console.print(f"the receipt lists: {', '.join(data['changed']) or 'nothing'}")
    return 0


def _num1(value: float | None) -> str:
    return f"{value:.1f}" if value is not None else "—"
