"""`warden journal`: the receipts of what calls did, what each changed, and undoing one or a whole task.

An undo that cannot go ahead (nothing to restore, a later change to the same paths) is refused in
one line with exit 1 and changes nothing; `undo-task` stops at the first receipt it cannot undo
and reports what it undid before that. `export` writes receipts as versioned JSON lines and `gc`
reclaims snapshot space; docs/journal.md describes both.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
from pathlib import Path

from rich.table import Table

from app.commands.record_text import cell, error, json_block, line, plain, plain_console
from app.commands.scripting import print_json, run_on_runtime
from engine.journal.diff import Content, FileDiff
from engine.journal.export import BadTime, exported, jsonl, parse_time, undo_fields
from engine.journal.gc import collect
from engine.journal.receipt import Receipt
from engine.redaction.audit import sightings
from engine.runtime import Runtime

RECEIPT_LIMIT = 200


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("journal", help="list receipts, show or diff one, undo one or a whole task, "
                                   "export, gc, match a secret",
                                   description="With no action, lists the newest receipts of $WARDEN_HOME. "
                                   "Errors are one line on stderr and exit 1.")
    parser.add_argument("--json", action="store_true", help="print JSON (with no action: one array of receipts)")
    # An action's --json is left unset unless given, so the flag reads the same before the action as after it.
    actions = parser.add_subparsers(title="actions", metavar="ACTION", dest="action")
    listing = actions.add_parser("list", help=f"receipts newest first (at most {RECEIPT_LIMIT}), or one task's")
    listing.add_argument("--task", dest="task_id", help="only this task's receipts, in step order")
    show = actions.add_parser("show", help="one receipt: its call, reversal, snapshot and what it changed")
    diff = actions.add_parser("diff", help="what a receipt changed: a text diff, or size and SHA-256 when binary")
    undo = actions.add_parser("undo", help="restore the snapshot a receipt took, or run its compensator in its window")
    undo.add_argument("--force", action="store_true",
                      help="undo even though a later call that left no snapshot may have changed the same paths")
    undo_task = actions.add_parser("undo-task", help="undo a task's receipts newest first; exit 1 if it stops at one "
                                   "that cannot be undone")
    undo_task.add_argument("task_id")
    export = actions.add_parser("export", help="receipts oldest first as JSON lines (schema warden.receipt/1)")
    export.add_argument("--since", help="only receipts created at or after this ISO-8601 time or Unix timestamp")
    export.add_argument("--until", help="only receipts created at or before this ISO-8601 time or Unix timestamp")
    export.add_argument("--task", dest="task_id", help="only this task's receipts")
    export.add_argument("--output", help="write to this file instead of stdout")
    match = actions.add_parser("match", help="where a secret (read from stdin) is recorded, by its keyed hash",
                               description="Reads one value from stdin (not the command line, so it stays out of "
                               "shell history), prints the placeholder it is recorded as in this home, and every "
                               "task, step, approval, receipt and event holding it. Exit 1 when none does.")
    gc = actions.add_parser("gc", help="remove the oldest snapshots past an age or a size budget; their receipts "
                            "become audit_only")
    budget = gc.add_mutually_exclusive_group(required=True)
    budget.add_argument("--older-than", type=_non_negative(float), metavar="SECONDS",
                        help="remove snapshots of receipts created more than SECONDS ago")
    budget.add_argument("--max-bytes", type=_non_negative(int), metavar="N",
                        help="remove the oldest snapshots until all kept fit in N bytes")
    for action in (show, diff, undo):
        action.add_argument("receipt_id")
    for action in (listing, show, diff, undo, undo_task, gc, match):
        action.add_argument("--json", action="store_true", default=argparse.SUPPRESS,
                            help="print one JSON document (a list prints an array)")
    export.add_argument("--json", action="store_true", default=argparse.SUPPRESS,
                        help="accepted for uniformity: export always writes JSON lines")
    parser.set_defaults(func=run, action=None, json=False, task_id=None)


def _non_negative(kind: type) -> object:
    def parse(text: str) -> int | float:
        value = kind(text)
        if value < 0:
            raise ValueError(text)
        return value

    parse.__name__ = kind.__name__
    return parse


def run(args: argparse.Namespace) -> int:
    if args.action == "export":
        try:
            since = parse_time(args.since) if args.since is not None else None
            until = parse_time(args.until) if args.until is not None else None
        except BadTime as exc:
            error(exc)
            return 2
        return run_on_runtime(lambda runtime: _export(runtime, args, since, until))
    return run_on_runtime(lambda runtime: _run(runtime, args))


async def _export(runtime: Runtime, args: argparse.Namespace, since: float | None, until: float | None) -> int:
    """Write the receipts; a file named by --output is written whole or, on an error, reported in one line."""
    if args.task_id:
        await runtime.task(args.task_id)
    text = jsonl(await exported(runtime.store, since, until, args.task_id))
    if args.output is None:
        sys.stdout.write(text)
        return 0
    try:
        Path(args.output).write_text(text, encoding="utf-8")
    except OSError as exc:
        error(f"cannot write {args.output}: {exc.strerror or exc}")
        return 1
    return 0


async def _gc(runtime: Runtime, args: argparse.Namespace) -> int:
    collected = await collect(runtime.store, runtime.home / "snapshots", older_than=args.older_than,
                              max_bytes=args.max_bytes)
    if args.json:
        print_json(collected.as_json())
        return 0
    if collected.receipt_ids:
        print(plain(f"removed {len(collected.receipt_ids)} snapshot(s), {collected.bytes} bytes;"
                    f" now audit_only: {' '.join(collected.receipt_ids)}"))
    else:
        print("removed nothing")
    if collected.outside:
        print(plain(f"left alone: {len(collected.outside)} receipt(s) whose snapshot lies outside this home's store"
                    f" ({' '.join(collected.outside)})"))
    return 0


async def _match(runtime: Runtime, args: argparse.Namespace) -> int:
    value = sys.stdin.read().removesuffix("\n").removesuffix("\r")
    if not value:
        print("warden: journal match reads the value from stdin, e.g. `warden journal match < value.txt`",
              file=sys.stderr)
        return 2
    seen = await sightings(runtime.store, value)
    if args.json:
        print_json(seen.as_json())
    else:
        print(plain(f"recorded as {seen.placeholder}"))
        for table, records in seen.found.items():
            if records:
                print(plain(f"{table}: {' '.join(records)}"))
        if not seen.anywhere:
            print("in no record of this home")
    return 0 if seen.anywhere else 1


async def _run(runtime: Runtime, args: argparse.Namespace) -> int:
    console = plain_console()
    if args.action == "gc":
        return await _gc(runtime, args)
    if args.action == "match":
        return await _match(runtime, args)
    if args.action == "show":
        detail = await runtime.receipt_detail(args.receipt_id)
        shown = {**receipt_json(detail.receipt), "task_goal": detail.task_goal, "step_status": detail.step_status,
                 "snapshot_state": detail.snapshot_state,
                 "snapshot": [dataclasses.asdict(entry) for entry in detail.snapshot],
                 "changes": [change_json(change) for change in detail.changes],
                 "later": [dataclasses.asdict(conflict) for conflict in detail.later]}
        if args.json:
            print_json(shown)
        else:
            console.print(json_block(shown))
        return 0
    if args.action == "diff":
        detail = await runtime.receipt_detail(args.receipt_id)
        if args.json:
            print_json({"receipt_id": detail.receipt.id, "changes": [change_json(c) for c in detail.changes]})
        else:
            for change in detail.changes:
                print("\n".join(plain(text) for text in diff_lines(change)))
        return 0
    if args.action == "undo":
        receipt = await runtime.undo(args.receipt_id, force=args.force)
        if args.json:
            print_json(receipt_json(receipt))
        else:
            console.print(line(receipt.id, " ", receipt.summary, f": {receipt.reversal.value}"))
        return 0
    if args.action == "undo-task":
        result = await runtime.undo_task(args.task_id)
        if args.json:
            print_json({"ok": result.ok, "undone": list(result.undone),
                        "stopped_at": result.stopped_at.as_json() if result.stopped_at else None})
        else:
            for receipt_id in result.undone:
                console.print(line("undone ", receipt_id))
            if result.stopped_at:
                console.print(line("stopped at ", result.stopped_at.receipt_id, ": ", result.stopped_at.reason))
        return 0 if result.ok else 1
    if args.task_id:
        await runtime.task(args.task_id)
        receipts = await runtime.journal.for_task(args.task_id) if runtime.journal else []
    else:
        receipts = await runtime.receipts(RECEIPT_LIMIT)
    if args.json:
        print_json([receipt_json(receipt) for receipt in receipts])
        return 0
    table = Table("id", "task", "step", "tool", "reversal", "summary", box=None)
    for receipt in receipts:
        table.add_row(cell(receipt.id), cell(receipt.task_id or ""),
                      cell("" if receipt.step_idx is None else receipt.step_idx), cell(receipt.call.tool),
                      cell(receipt.reversal.value), cell(receipt.summary))
    console.print(table)
    return 0


def receipt_json(receipt: Receipt) -> dict:
    return {"id": receipt.id, "task_id": receipt.task_id, "step_idx": receipt.step_idx,
            "tool": receipt.call.tool, "call": receipt.call.as_json(), "tier": receipt.tier.value,
            "reversal": receipt.reversal.value, "undoable": receipt.undoable, "summary": receipt.summary,
            "snapshot_kind": receipt.snapshot_kind.value, "env": receipt.env,
            "created_at": receipt.created_at, "reversed_at": receipt.reversed_at, **undo_fields(receipt)}


def _content(content: Content | None) -> dict | None:
    return dataclasses.asdict(content) if content is not None else None


def change_json(change: FileDiff) -> dict:
    return {"path": change.path, "binary": change.binary, "before": _content(change.before),
            "after": _content(change.after), "diff": list(change.lines), "note": change.note}


def _side(content: Content | None) -> str:
    return "absent" if content is None else f"{content.size} bytes sha256 {content.sha256}"


def diff_lines(change: FileDiff) -> list[str]:
    """A change as text: its unified diff, or, with no diff to show, each side's size and SHA-256."""
    lines = list(change.lines) or [f"{change.path}: {_side(change.before)} -> {_side(change.after)}"]
    return lines + ([f"({change.note})"] if change.note else [])
