"""`warden approvals`: the approvals waiting for a person, and deciding one as the OS user.

A decision goes through the runtime, the path the console takes, so the task goes back in the
queue and the decision is recorded with who made it.
"""

from __future__ import annotations

import argparse

from rich.table import Table

from app.commands.record_text import cell, line, plain_console
from app.commands.scripting import print_json, run_on_runtime
from engine.gate.approvals import Approval
from engine.runtime import Runtime, operator


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("approvals", help="list pending approvals, approve or deny one",
                                   description="With no action, lists the pending approvals of $WARDEN_HOME. "
                                   "Decisions are recorded as the OS user. Errors are one line on stderr and exit 1.")
    parser.add_argument("--json", action="store_true",
                        help="print JSON (with no action: one array of approval objects)")
    # An action's --json is left unset unless given, so the flag reads the same before the action as after it.
    actions = parser.add_subparsers(title="actions", metavar="ACTION", dest="action")
    listing = actions.add_parser("list", help="the approvals waiting for a decision, oldest first")
    listing.add_argument("--json", action="store_true", default=argparse.SUPPRESS,
                         help="print one JSON array of approval objects")
    for name, text in (("approve", "let the call run; its task goes back in the queue"),
                       ("deny", "refuse the call; its task goes back in the queue and its agent is told")):
        action = actions.add_parser(name, help=text)
        action.add_argument("approval_id")
        action.add_argument("--json", action="store_true", default=argparse.SUPPRESS,
                            help="print the decided approval as one JSON object")
    parser.set_defaults(func=run, action=None, json=False)


def run(args: argparse.Namespace) -> int:
    return run_on_runtime(lambda runtime: _run(runtime, args))


async def _run(runtime: Runtime, args: argparse.Namespace) -> int:
    console = plain_console()
    if args.action in ("approve", "deny"):
        by = operator()
        decide = runtime.approve if args.action == "approve" else runtime.deny
        await decide(args.approval_id, by)
        approval = await runtime.approvals.get(args.approval_id)
        if args.json:
            print_json(as_json(approval))
        else:
            console.print(line(approval.id, f" {approval.status.value} by ", by))
        return 0
    pending = await runtime.pending_approvals()
    if args.json:
        print_json([as_json(approval) for approval in pending])
        return 0
    table = Table("id", "task", "level", "tool", "reason", box=None)
    for approval in pending:
        table.add_row(*(cell(value) for value in (approval.id, approval.task_id, approval.level, approval.call.tool,
                                                  approval.reason)))
    console.print(table)
    return 0


def as_json(approval: Approval) -> dict:
    return {"id": approval.id, "task_id": approval.task_id, "step_idx": approval.step_idx,
            "status": approval.status.value, "level": approval.level, "tier": approval.tier,
            "tool": approval.call.tool, "call": approval.call.as_json(), "reason": approval.reason,
            "rules": list(approval.rules), "created_at": approval.created_at, "expires_at": approval.expires_at,
            "decided_by": approval.decided_by, "decided_at": approval.decided_at,
            "code": [pin.as_json() for pin in approval.code],
            "scene": approval.scene.as_json() if approval.scene else None}
