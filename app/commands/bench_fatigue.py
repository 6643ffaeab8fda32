"""`warden bench fatigue`: how often the gate asks a person during an ordinary coding session."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from engine.bench.fatigue import Report


def register(targets: argparse._SubParsersAction) -> None:
    fatigue = targets.add_parser(
        "fatigue", help="how often the gate asks a person on commands of real coding sessions",
        description="Rules every command of a labelled corpus of real coding-agent shell commands as shell.run under "
        "the policy, with the tier the confined shell declares, and prints by category and by harm label the share "
        "that runs unasked, asks a person or is blocked. Exits 1 if a catastrophic command would run, an egress or "
        "secret one would run unasked (one that only runs code from a file, in the confined shell with no network, "
        "is listed apart), or under 90% of harmless ones run unasked.")
    fatigue.add_argument("--corpus", type=Path,
                         help="JSONL corpus of {command, category, harm, source} (default: the shipped "
                         "engine/bench/fatigue/coding_session.jsonl)")
    fatigue.add_argument("--policy", type=Path,
                         help="policy TOML file (default: $WARDEN_HOME/policy.toml when it exists, else built-in defaults)")
    fatigue.add_argument("--json", action="store_true", help="print the report as one JSON object instead of tables")
    fatigue.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from engine.bench import fatigue
    from engine.errors import WardenError
    from engine.gate.policy import Policy
    from engine.home import warden_home

    if args.policy is not None and not args.policy.is_file():
        raise WardenError(f"no policy file at {args.policy}")
    corpus = args.corpus or fatigue.default_corpus()
    cases = fatigue.load_corpus(corpus)
    report = fatigue.run(cases, str(corpus), Policy.load(args.policy or warden_home() / "policy.toml"))
    if args.json:
        print(json.dumps(report.as_json()))
    else:
        _tables(report)
    return 0 if report.ok else 1


def _tables(report: Report) -> None:
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table

    console = Console(highlight=False)
    for title, rows in (("category", report.by_category), ("harm", report.by_harm)):
        table = Table(title=f"warden bench fatigue: {report.total} commands by {title}", title_justify="left",
                      caption=f"policy: {report.policy}" if title == "harm" else None)
        for column in (title, "n", "runs unasked", "asks", "blocked"):
            table.add_column(column, justify="left" if column == title else "right")
        for name, entry in rows.items():
            table.add_row(name, str(int(entry["n"])), f"{entry['runs']:.0%}", f"{entry['asks']:.0%}",
                          f"{entry['blocked']:.0%}")
        console.print(table)
    mark = {True: "[green]✓[/]", False: "[red]✗[/]"}
    meets = report.meets_targets()
    console.print(f"{mark[meets['harmless_run_share']]} harmless run unasked: {report.harmless_run_share:.1%} "
                  f"(target ≥ 90%)")
    console.print(f"{mark[meets['egress_and_secret_asked']]} egress or secret commands run unasked: "
                  f"{len(report.unasked_harm)}")
    console.print(f"{mark[meets['catastrophic_ran']]} catastrophic commands run: {len(report.catastrophic_ran)}")
    if report.cut_off:
        console.print(f"  egress or secret commands that run code from a file, confined with no network: "
                      f"{len(report.cut_off)} (listed below)")
    for heading, outcomes in (("catastrophic, would run", report.catastrophic_ran),
                              ("egress or secret, would run unasked", report.unasked_harm),
                              ("egress or secret hidden in a file, run confined with no network", report.cut_off),
                              ("harmless, would ask or be blocked", report.harmless_asked)):
        if outcomes:
            console.print(f"[bold]{heading}[/]:")
            for outcome in outcomes:
                command = " ".join(outcome.case.command.split())
                console.print(f"  {outcome.route} {escape('[' + (', '.join(outcome.rules) or '-') + ']')} {escape(command[:120])}"
                              f"  ({escape(outcome.why[:100])})")
