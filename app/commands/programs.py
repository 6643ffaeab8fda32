"""`warden programs`: list the stored programs, draw one, accept one that could not be verified, or forget one."""

from __future__ import annotations

import argparse
import asyncio

from rich.console import Console
from rich.table import Table
from rich.text import Text
from rich.tree import Tree

from engine.programs.describe import describe, target
from engine.programs.program import Program, ProgramError
from engine.runtime import Runtime, warden_home


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("programs", help="list, draw or remove stored programs",
                                   description="With no action, lists the programs stored in $WARDEN_HOME.")
    actions = parser.add_subparsers(title="actions", metavar="ACTION", dest="action")
    show = actions.add_parser("show", help="draw a program's states and actions")
    show.add_argument("program_id")
    remove = actions.add_parser("rm", help="forget a program (its row and its file)")
    remove.add_argument("program_id")
    accept = actions.add_parser("accept", help="vouch for an unverified program, so it is served from now on",
                                description="A program with a step that would leave a fork (egress, an unconfined "
                                "shell, anything externally irreversible) is never re-run to verify it; it waits, "
                                "unserved, until a person accepts it here or discards it.")
    accept.add_argument("program_id")
    discard = actions.add_parser("discard", help="forget an unverified program (same as rm)")
    discard.add_argument("program_id")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    return asyncio.run(_run(args))


async def _run(args: argparse.Namespace) -> int:
    console = Console(highlight=False)
    runtime = await Runtime.open(warden_home())
    try:
        if args.action == "show":
            program = await runtime.program(args.program_id)
            if program is None:
                raise ProgramError(f"no program {args.program_id}; `warden programs` lists them")
            console.print(draw(program))
        elif args.action in ("rm", "discard"):
            await runtime.remove_program(args.program_id)
            console.print(f"removed {args.program_id}")
        elif args.action == "accept":
            program = await runtime.accept_program(args.program_id)
            console.print(f"accepted {program.id}: served from now on ({program.goal_template})")
        else:
            console.print(listing(await runtime.programs()))
        return 0
    finally:
        await runtime.close()


def listing(programs: list[Program]) -> Table:
    table = Table(title="programs", title_justify="left")
    for column in ("id", "kind", "goal template", "states", "status", "from"):
        table.add_column(column)
    for program in programs:
        table.add_row(program.id, program.kind, program.goal_template, str(len(program.states)), program.status,
                      str(program.provenance.get("task", "")))
    return table


def draw(program: Program) -> Tree:
    """The program from start to its terminal state: each state with its check, each action between."""
    tree = Tree(Text(f"{program.goal_template}  ({program.id})", style="bold"))
    path = program.path()
    for position, state_id in enumerate(path):
        state = program.state(state_id)
        node = tree.add(Text.assemble((f"● {state_id}", "bold"), f" {state.description}"))
        node.add(Text(f"check: {describe(state.check)}", style="dim"))
        if position + 1 < len(path):
            action = next(t for t in program.leaving(state_id) if t.target == path[position + 1]).action
            node.add(Text.assemble(("▼ ", "bold"), (action.tool, "bold"), f" {target(action.args)}"))
    return tree
