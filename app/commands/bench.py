"""`warden bench gate`: recall and latency of the risk gate, as a table or as JSON."""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from pathlib import Path

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from engine.bench import gate as gate_bench
from engine.errors import WardenError

REPO = Path(__file__).resolve().parents[2]


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("bench", help="run a benchmark", description="Run one of Warden's benchmarks.")
    targets = parser.add_subparsers(title="benchmarks", metavar="NAME", dest="bench")
    gate = targets.add_parser("gate", help="recall and latency of the risk gate on the labelled corpus",
                              description="Rates every corpus command, prints recall per label and latency "
                              "(median and p99 µs per command, one core, parsing included) plus the worst time "
                              "on ~100 KB adversarial inputs.")
    gate.add_argument("--corpus", type=Path, help="JSONL corpus (default tests/gate/corpus/commands.jsonl)")
    gate.add_argument("--json", action="store_true", help="print the report as JSON on stdout instead of a table")
    gate.add_argument("--output", type=Path, help="also write the JSON report to this file")
    gate.add_argument("--iterations", type=int, default=7,
                      help="passes over the corpus; a command's latency is its best pass (default 7)")
    gate.add_argument("--adversarial-iterations", type=int, default=5, help="runs per adversarial input (default 5)")
    gate.add_argument("--adversarial-size", type=int, default=gate_bench.ADVERSARIAL_SIZE,
                      help="size in characters of each adversarial input (default 100000)")
    gate.set_defaults(func=run_gate)
    console = targets.add_parser(
        "console", help="time from an engine event to the console's pane, under load",
        description="Fills a throwaway home with programs and receipts and a workspace with data, runs the console "
        "headless while the engine snapshots the whole workspace again and again, submits tasks one by one, and "
        "reports how long each event took to reach its pane (median, p99, max).")
    console.add_argument("--programs", type=int, default=300, help="stored programs (default 300)")
    console.add_argument("--receipts", type=int, default=10_000, help="receipts in the journal (default 10000)")
    console.add_argument("--workspace-mb", type=int, default=200, help="workspace size being snapshotted (default 200)")
    console.add_argument("--events", type=int, default=200, help="tasks submitted while measuring (default 200)")
    console.add_argument("--rate", type=float, default=20.0,
                         help="tasks submitted per second; each one also starts and fails, so panes see ~3x (default 20)")
    console.add_argument("--json", action="store_true", help="print the report as JSON on stdout instead of a table")
    console.add_argument("--output", type=Path, help="also write the JSON report to this file")
    console.set_defaults(func=run_console)
    parser.set_defaults(func=lambda args: _missing(parser))


def _missing(parser: argparse.ArgumentParser) -> int:
    parser.print_help(sys.stderr)
    return 2


def run_gate(args: argparse.Namespace) -> int:
    corpus = args.corpus or gate_bench.default_corpus(REPO)
    if not corpus.exists():
        raise WardenError(f"no corpus at {corpus}; pass --corpus FILE")
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


def _mark(ok: bool) -> str:
    return "[green]✓[/]" if ok else "[red]✗[/]"


def run_console(args: argparse.Namespace) -> int:
    from app.console_bench import measure

    stages = ("workspace", "home", "events")
    with Progress(TextColumn("[bold]bench console {task.description:9}"), BarColumn(), TimeRemainingColumn(),
                  console=Console(stderr=True), transient=True) as progress:
        bars = {stage: progress.add_task(stage, total=1.0) for stage in stages}
        report = asyncio.run(measure(args.programs, args.receipts, args.workspace_mb, args.events, args.rate,
                                     progress=lambda stage, done: progress.update(bars[stage], completed=done)))
    data = report.as_json()
    if args.output:
        args.output.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    if args.json:
        print(json.dumps(data, indent=2))
        return 0
    table = Table(title="warden bench console", title_justify="left")
    table.add_column("measure")
    table.add_column("value", justify="right")
    latency = data["event_to_pane_ms"]
    for name, value in (
        ("programs stored", data["programs"]), ("receipts in journal", data["receipts"]),
        ("workspace being snapshotted", f"{data['workspace_mb']} MB"),
        ("tasks submitted", f"{data['submissions']} at {data['submissions_per_s']:g}/s"),
        ("events timed", f"{data['events_timed']} ({data['pane_events_per_s']}/s)"),
        ("event → pane, median", f"{latency['median']} ms"), ("event → pane, p99", f"{latency['p99']} ms"),
        ("event → pane, max", f"{latency['max']} ms"), ("snapshots during the run", data["snapshots_during_run"]),
        ("snapshot throughput", f"{data['snapshot_mb_per_s']} MB/s"),
    ):
        table.add_row(name, str(value))
    Console(highlight=False).print(table)
    return 0
