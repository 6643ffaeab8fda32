"""`warden approvals`: the approvals waiting for a person, and deciding one as the OS user.

A decision goes through the runtime, the path the console takes, so the task goes back in the
queue and the decision is recorded with who made it.
"""

from __future__ import annotations

import argparse
import time

from rich.table import Table

from app.commands.record_text import cell, line, plain_console
from app.commands.scripting import print_json, run_on_runtime
from engine.errors import WardenError
from engine.gate.approvals import Approval
from engine.gate.grants import Scope
from engine.runtime import Runtime, operator


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("approvals", help="list pending approvals, approve (once, for a task or a pattern) or deny one; revoke grants",
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
        if name == "approve":
            action.add_argument("--scope", choices=[scope.value for scope in Scope], default=Scope.ONCE.value,
                                help="once: this call (default); task: calls of its pattern for the rest of its "
                                "task; pattern: calls of its pattern in any task for this session (the same "
                                "program and subcommand, the same host, or the same path glob)")
            action.add_argument("--glob", help="with a scope, widen a file call's path to this glob (it must "
                                "match the path)")
    grants = actions.add_parser("grants", help="the live scoped grants, newest first; `grants revoke ID` ends one")
    grants.add_argument("grant_action", nargs="?", choices=["list", "revoke"], default="list")
    grants.add_argument("grant_id", nargs="?")
    grants.add_argument("--all", action="store_true", help="also list revoked and expired grants")
    grants.add_argument("--json", action="store_true", default=argparse.SUPPRESS, help="print JSON")
    parser.set_defaults(func=run, action=None, json=False)


def run(args: argparse.Namespace) -> int:
    return run_on_runtime(lambda runtime: _run(runtime, args))


async def _run(runtime: Runtime, args: argparse.Namespace) -> int:
    console = plain_console()
    if args.action == "grants":
        return await _grants(runtime, args)
    if args.action in ("approve", "deny"):
        by = operator()
        grant = None
        if args.action == "approve":
            if args.glob is not None and args.scope == Scope.ONCE.value:
                raise WardenError("--glob widens a scoped grant: give --scope task or --scope pattern with it")
            grant = await runtime.approve(args.approval_id, by, Scope(args.scope), args.glob)
        else:
            await runtime.deny(args.approval_id, by)
        approval = await runtime.approvals.get(args.approval_id)
        if args.json:
            print_json({**as_json(approval), "grant": grant.as_json() if grant else None})
        else:
            console.print(line(approval.id, f" {approval.status.value} by ", by))
            if grant is not None:
                console.print(line(f"grant {grant.id}: ", grant.describe(), f", until {_when(grant.expires_at)}"))
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
            "scene": approval.scene.as_json() if approval.scene else None, "route": approval.route}


async def _grants(runtime: Runtime, args: argparse.Namespace) -> int:
    console = plain_console()
    if args.grant_action == "revoke":
        if not args.grant_id:
            raise WardenError("approvals grants revoke needs a grant id (see `warden approvals grants`)")
        grant = await runtime.revoke_grant(args.grant_id)
        if args.json:
            print_json(grant.as_json())
        else:
            console.print(line(f"grant {grant.id} revoked by ", grant.revoked_by or "", ": ", grant.describe()))
        return 0
    if args.grant_id:
        raise WardenError(f"unexpected {args.grant_id!r}: did you mean `approvals grants revoke {args.grant_id}`?")
    grants = await runtime.grants.listed(everything=args.all)
    if args.json:
        print_json([grant.as_json() for grant in grants])
        return 0
    table = Table("id", "scope", "covers", "by", "until", "uses", "state", box=None)
    now = time.time()
    for grant in grants:
        state = "revoked" if grant.revoked_at is not None else "live" if grant.live(now) else "expired"
        table.add_row(*(cell(value) for value in (grant.id, grant.scope.value, grant.describe(), grant.granted_by,
                                                  _when(grant.expires_at), str(grant.uses), state)))
    console.print(table)
    return 0


def _when(at: float) -> str:
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(at))
