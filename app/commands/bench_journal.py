"""`warden bench journal`: what a receipt and its snapshot cost per action, by file size, copy and reflink."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from rich.console import Console
from rich.table import Table

from engine.bench import journal as journal_bench


def register(targets: argparse._SubParsersAction) -> None:
    journal = targets.add_parser(
        "journal", help="per-action cost of receipt plus snapshot: 4 KB and 100 MB files, copy and reflink",
        description="Times the journal's share of an fs.write over a 4 KB and a 100 MB file (snapshot, receipt, "
        "seal; not the write itself), with copy snapshots and, where a filesystem clones (the --dir's, or a "
        "loopback btrfs image this process mounts as root), reflink ones. See docs/benchmarks.md.")
    journal.add_argument("--runs", type=int, default=journal_bench.DEFAULT_RUNS,
                         help=f"actions per arm (default {journal_bench.DEFAULT_RUNS})")
    journal.add_argument("--dir", type=Path, dest="place",
                         help="put the plain arms' files here, e.g. on an XFS or btrfs mount (default: temp)")
    journal.add_argument("--no-loopback", action="store_true", help="do not try a loopback btrfs image")
    journal.add_argument("--json", action="store_true", help="print the report as JSON on stdout instead of a table")
    journal.add_argument("--output", type=Path, help="also write the JSON report to this file")
    journal.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    err = Console(stderr=True)
    options = journal_bench.Options(args.runs, args.place, not args.no_loopback)
    with err.status("bench journal", spinner="dots") as status:
        if not args.json:
            options.progress = lambda arm: status.update(f"bench journal: {arm}")
        data = journal_bench.measure(options)
    if args.output:
        args.output.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    if args.json:
        print(json.dumps(data, indent=2))
        return 0
    table = Table(title=f"warden bench journal: receipt + snapshot per fs.write, {data['runs']} runs an arm",
                  caption=f"ms; snapshot, receipt and seal are medians of their own; reflink {data['reflink']}",
                  title_justify="left")
    for column in ("where", "file", "arm", "kind", "p50", "p95", "snapshot", "receipt", "seal"):
        table.add_column(column, justify="left" if column in ("where", "arm", "kind") else "right")
    for arm in data["arms"]:
        table.add_row(arm["place"], arm["size"], arm["arm"], arm["snapshot_kind"],
                      *(f"{value:.2f}" for value in (arm["per_action_ms"]["median"], arm["per_action_ms"]["p95"],
                                                    arm["snapshot_ms"]["median"], arm["receipt_ms"]["median"],
                                                    arm["seal_ms"]["median"])))
    Console(highlight=False).print(table)
    return 0
