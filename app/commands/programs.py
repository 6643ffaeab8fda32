"""`warden programs`: list what was learned and how it has served, draw one, move programs between
homes as files, accept or forget one, and let unused ones expire."""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from contextlib import ExitStack
from dataclasses import asdict
from pathlib import Path

from rich.console import Console, Group
from rich.table import Table
from rich.text import Text
from rich.tree import Tree

from app.commands.record_text import cell, error, json_text, line, plain_console
from engine import specfile
from engine.errors import WardenError
from engine.programs.corpus import ProgramStats
from engine.programs.describe import describe, target
from engine.programs.program import Program, ProgramError
from engine.programs.verifier import Offered, Verdict
from engine.runtime import Runtime, warden_home
from engine.tasks.task import TaskSpec


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("programs", help="list, draw, export, import, expire or remove stored programs",
                                   description="With no action, lists the programs stored in $WARDEN_HOME.")
    parser.add_argument("--json", action="store_true", help="print JSON: one object, or one per line for import")
    actions = parser.add_subparsers(title="actions", metavar="ACTION", dest="action")
    listing_ = actions.add_parser("list", help="every program with its family, status and replays (the default)")
    listing_.add_argument("--json", action="store_true", default=argparse.SUPPRESS, help="print a JSON list")
    show = actions.add_parser("show", help="draw a program's states and actions, with its statistics")
    show.add_argument("program_id")
    show.add_argument("--json", action="store_true", default=argparse.SUPPRESS, help="print one JSON object")
    delete = actions.add_parser("delete", aliases=["rm", "discard"], help="forget a program (its row and its file)")
    delete.add_argument("program_id")
    accept = actions.add_parser("accept", help="vouch for an unverified program, so it is served from now on",
                                description="A program with a step that would leave a fork (egress, an unconfined "
                                "shell, anything externally irreversible) is never re-run to verify it; it waits, "
                                "unserved, until a person accepts it here or discards it.")
    accept.add_argument("program_id")
    export = actions.add_parser("export", help="a program's JSON, to stdout or a file")
    export.add_argument("program_id")
    export.add_argument("--out", type=Path, metavar="FILE", help="write it here instead of stdout")
    import_ = actions.add_parser("import", help="offer program files to the verify gate",
                                 description="Each file is checked like a stored program, whatever it says about its "
                                 "own verification, then goes through the verify gate: stored verified if it re-solves "
                                 "its task (its provenance's evaluator), held unverified when it cannot be re-run "
                                 "safely, refused when it fails. It never replaces a served program of its family "
                                 "unless it is verified. A bad or refused file is one line and the exit status is 2.")
    import_.add_argument("files", nargs="+", type=Path, metavar="FILE")
    import_.add_argument("--spec", type=Path, metavar="SPEC", help="judge with this task spec of the family (its values, "
                         "evaluator and start; `{demo}` starts the demo site) instead of the program's own")
    verify = actions.add_parser("verify", help="run a stored program through the verify gate again",
                                description="Reset (or fork) its environment, replay it with its example values and "
                                "judge it with the evaluator it was compiled with. Exit status 2 when it is refused.")
    verify.add_argument("program_id")
    verify.add_argument("--spec", type=Path, metavar="SPEC", help="judge with this task spec of the family (its values, "
                        "evaluator and start; `{demo}` starts the demo site) instead of the program's own")
    expire = actions.add_parser("expire", help="remove programs unused for the policy's [programs] window",
                                description="Programs not replayed within expire_unused_days go, then the least "
                                "recently used beyond keep_at_most (policy.toml [programs]; defaults 30 and 1000).")
    expire.add_argument("--dry-run", action="store_true", help="say what would go; remove nothing")
    for action in (delete, accept, export, import_, verify, expire):
        action.add_argument("--json", action="store_true", default=argparse.SUPPRESS,
                            help="print JSON (export prints the program's JSON either way)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    with ExitStack() as stack:
        args.task = _task(args, stack) if getattr(args, "spec", None) else None
        return asyncio.run(_run(args))


def _task(args: argparse.Namespace, stack: ExitStack) -> TaskSpec:
    """The `--spec` task the gate judges a program by, with the demo site started when it names `{demo}`."""
    raw = specfile.read(args.spec)
    if "goal_js" in raw:
        raise WardenError(f'{args.spec}: a spec judging a program needs a "goal", not "goal_js"')
    if specfile.mentions_demo(raw):
        from engine.demo_site import DemoSite

        raw = specfile.with_demo(raw, stack.enter_context(DemoSite()).url)
    try:
        return TaskSpec.from_json(raw)
    except (KeyError, TypeError, ValueError, AttributeError, WardenError) as exc:
        raise WardenError(f"{args.spec}: {exc}") from None


async def _run(args: argparse.Namespace) -> int:
    console = plain_console()
    runtime = await Runtime.open(warden_home())
    try:
        if args.action == "show":
            program = await runtime.program(args.program_id)
            if program is None:
                raise ProgramError(f"no program {args.program_id}; `warden programs` lists them")
            stats = await runtime.program_stats(program.id)
            if args.json:
                print(json_text({**program.to_json(), "stats": asdict(stats)}))
            else:
                console.print(Group(draw(program), statistics(stats)))
        elif args.action in ("delete", "rm", "discard"):
            await runtime.remove_program(args.program_id)
            _say(args, console, line("removed ", args.program_id), {"removed": args.program_id})
        elif args.action == "accept":
            program = await runtime.accept_program(args.program_id)
            _say(args, console, line("accepted ", program.id, ": served from now on (", program.goal_template, ")"),
                 {"accepted": program.id, "status": program.status})
        elif args.action == "export":
            return await _export(runtime, args.program_id, args.out, console)
        elif args.action == "import":
            return await _import(runtime, args.files, console, args.task, args.json)
        elif args.action == "verify":
            return _verdict(console, args.program_id, await runtime.verify_program(args.program_id, args.task),
                            args.json)
        elif args.action == "expire":
            return await _expire(runtime, args.dry_run, console, args.json)
        else:
            programs = sorted(await runtime.programs(), key=lambda p: (p.signature, p.id))
            all_stats = await runtime.all_program_stats()
            if args.json:
                print(json_text([summary(p, all_stats.get(p.id, ProgramStats())) for p in programs]))
            else:
                console.print(listing(programs, all_stats))
        return 0
    finally:
        await runtime.close()


async def _export(runtime: Runtime, program_id: str, out: Path | None, console: Console) -> int:
    program = await runtime.program(program_id)
    if program is None:
        raise ProgramError(f"no program {program_id}; `warden programs` lists them")
    body = json_text(program.to_json(), indent=2) + "\n"
    if out is None:
        sys.stdout.write(body)
        return 0
    try:
        out.write_text(body, encoding="utf-8")
    except OSError as exc:
        raise WardenError(f"cannot write {out}: {exc.strerror or exc}") from None
    console.print(line("exported ", program.id, " to ", out))
    return 0


def _say(args: argparse.Namespace, console: Console, said: Text, data: dict) -> None:
    if args.json:
        print(json_text(data))
    else:
        console.print(said, soft_wrap=True)


async def _import(runtime: Runtime, files: list[Path], console: Console, task: TaskSpec | None, as_json: bool) -> int:
    """Every file goes through the gate; each bad or refused one is one line, and the exit status says so."""
    status = 0
    for path in files:
        try:
            offered = await runtime.import_program(path, task)
        except ProgramError as exc:
            said = " ".join(str(exc).split())
            if as_json:
                print(json_text({"program": str(path), "stored": False, "error": said}))
            else:
                error(said)
            status = 2
            continue
        status = max(status, _verdict(console, str(path), offered, as_json))
    return status


def _verdict(console: Console, what: str, offered: Offered, as_json: bool = False) -> int:
    """One line for the gate's word: stored and served, held for a person, kept out by a served program of
    its family, or refused (exit status 2 for the last two: nothing was stored)."""
    verdict = offered.verification.verdict
    said = {Verdict.VERIFIED: "verified and stored", Verdict.UNVERIFIED: "stored unverified (accept it to serve it)",
            Verdict.REJECTED: "refused"}[verdict]
    if offered.kept:
        said = f"not stored: {offered.kept} of the same family is served and this one is {verdict.value}"
    if as_json:
        print(json_text({"program": what, "verdict": verdict.value, "stored": offered.stored, "kept": offered.kept,
                         "reason": offered.verification.reason}))
    else:
        console.print(line(what, ": ", said, ": ", offered.verification.reason), soft_wrap=True)
    return 0 if offered.stored else 2


async def _expire(runtime: Runtime, dry_run: bool, console: Console, as_json: bool) -> int:
    gone = await runtime.expire_programs(dry_run=dry_run)
    if as_json:
        print(json_text({"dry_run": dry_run, "removed": [asdict(expiry) for expiry in gone]}))
        return 0
    policy = runtime.policy
    rule = (f"unused for {policy.programs_expire_unused_days} days" if policy.programs_expire_unused_days
            else "no age limit") + (f", at most {policy.programs_keep_at_most} kept" if policy.programs_keep_at_most
                                    else ", no count limit")
    for expiry in gone:
        console.print(line("would remove " if dry_run else "removed ", expiry.program_id, " (", expiry.goal_template,
                           "): ", expiry.reason, f"; last used {when(expiry.last_used)}"), soft_wrap=True)
    verb = "would remove" if dry_run else "removed"
    console.print(f"{verb} {len(gone)} program{'' if len(gone) == 1 else 's'} ({rule})")
    return 0


def when(at: float | None, form: str = "%Y-%m-%d %H:%M") -> str:
    return time.strftime(form, time.localtime(at)) if at is not None else "never"


def summary(program: Program, stats: ProgramStats) -> dict:
    """One program as `list --json` prints it."""
    return {"id": program.id, "kind": program.kind, "family": program.signature,
            "goal_template": program.goal_template, "status": program.status, **asdict(stats)}


def listing(programs: list[Program], stats: dict[str, ProgramStats]) -> Table:
    """Two lines a program, so it reads in 80 columns: id over kind, goal template over family."""
    table = Table(title=f"programs: {len(programs)} stored", title_justify="left", box=None)
    table.add_column("id\nkind", no_wrap=True)
    table.add_column("goal template\nfamily", overflow="fold", ratio=1)
    table.add_column("status", no_wrap=True)
    for column in ("replays", "ok", "fell back"):
        table.add_column(column, justify="right")
    table.add_column("last used", no_wrap=True)
    for program in programs:
        served = stats.get(program.id, ProgramStats())
        table.add_row(Text("\n").join((cell(program.id), cell(program.kind))),
                      Text("\n").join((cell(program.goal_template), cell(program.signature, "dim"))),
                      cell(program.status), *(cell(n) for n in (served.replays, served.successes, served.fallbacks)),
                      cell(when(served.last_used, "%Y-%m-%d")))
    return table


def statistics(stats: ProgramStats) -> Text:
    """What `show` prints under the drawing: how the program has served, and its last failure."""
    failure = stats.last_failure
    return Text("\n").join((
        cell(f"replays {stats.replays}: {stats.successes} completed, {stats.fallbacks} fell back, "
             f"{stats.failures} failed; last used {when(stats.last_used)}"),
        line("last failure: ", "none" if failure is None else f"{failure.outcome} at {when(failure.at)}",
             f": {failure.detail}" if failure is not None and failure.detail else "")))


def draw(program: Program) -> Tree:
    """The program from start to its terminal state: each state with its check, each action between."""
    tree = Tree(cell(f"{program.goal_template}  ({program.id})", "bold"))
    path = program.path()
    for position, state_id in enumerate(path):
        state = program.state(state_id)
        node = tree.add(line((f"● {state_id}", "bold"), " ", state.description))
        node.add(cell(f"check: {describe(state.check)}", "dim"))
        if position + 1 < len(path):
            action = next(t for t in program.leaving(state_id) if t.target == path[position + 1]).action
            node.add(line(("▼ ", "bold"), (action.tool, "bold"), " ", target(action.args)))
    return tree
