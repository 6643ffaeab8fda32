"""`warden bench hook`: the latency of a safe hook decision, cold (no daemon) and warm (the home's daemon)."""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from engine.bench.hook import Report


def register(targets: argparse._SubParsersAction) -> None:
    hook = targets.add_parser(
        "hook", help="latency of `warden hook claude-code` on a safe call, cold and warm (p50, p99)",
        description="In a throwaway home and project, runs `warden hook claude-code` as a host does on a "
        "PreToolUse Bash `ls` event: --cold calls with no daemon running (each stops it first), then --calls "
        "answered by the home's daemon. Prints p50 and p99 of each, the daemon's own decision time and the "
        "floor (`python -c pass`). Exits 1 if the warm p99 is 50 ms or more.")
    hook.add_argument("--calls", type=int, default=100, help="warm calls (default 100)")
    hook.add_argument("--cold", type=int, default=10, help="cold calls, the daemon stopped before each (default 10)")
    hook.add_argument("--json", action="store_true", help="print the report as one JSON object instead of a table")
    hook.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from engine.bench import hook

    def progress(phase: str, done: int, total: int) -> None:
        if done == total or done % 10 == 0:
            print(f"bench hook: {phase} {done}/{total}", file=sys.stderr, flush=True)

    report = hook.run(args.calls, args.cold, progress)
    if args.json:
        print(json.dumps(report.as_json()))
    else:
        _table(report)
    return 0 if report.meets_target else 1


def _table(report: Report) -> None:
    from rich.console import Console
    from rich.table import Table

    from engine.bench.hook import summary

    table = Table(title="warden bench hook: a safe decision (PreToolUse Bash `ls`)", title_justify="left",
                  caption="target: warm p99 under 50 ms")
    for column in ("", "n", "p50 ms", "p99 ms", "max ms"):
        table.add_column(column, justify="left" if not column else "right")
    for name, samples in report.rows().items():
        row = summary(samples)
        if row["n"]:
            table.add_row(name, str(row["n"]), f"{row['p50_ms']:.1f}", f"{row['p99_ms']:.1f}", f"{row['max_ms']:.1f}")
    Console(highlight=False).print(table)
