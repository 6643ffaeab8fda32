"""`warden exec -- COMMAND…`: one command in Warden's sandbox, gated, with a receipt; output and status pass through.

It works on its own from any shell or script: the command is a step of a session task (`engine/hosts/`), ruled
by the gate; blocked or denied, it does not run and one line says why (exit 126); held for a person, it waits
for them (the console, `warden approvals`) up to `--wait` seconds; else it runs in the workspace sandbox, and
what it printed (standard output and error together, as the sandbox gives them) is written to standard output,
with its exit status as Warden's own. A host's hook clears a call first and rewrites it to `warden exec
--step TASK:IDX -- …`, which runs exactly that cleared step.
"""

from __future__ import annotations

import argparse
import os
import shlex
import sys
import time
from pathlib import Path

from app.commands.record_text import error
from app.commands.scripting import run_on_runtime
from engine.errors import WardenError
from engine.gate.approvals import Approval
from engine.tools.call import ToolCall
from engine.tools.outcome import StepOutcome, StepStatus

REFUSED = 126  # as a shell says of a command it cannot run
BROKEN = 125  # Warden could not run it (a bound exceeded, the sandbox failed)


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "exec", help="run one command in the sandbox, gated, with a receipt",
        description="Runs COMMAND in Warden's sandbox in the workspace, as a step of a session task: gated (blocked "
        "or denied: exit 126 and one line), held for a person when the gate asks (it waits for the console or "
        "`warden approvals`), journaled with a receipt `warden journal undo` reverses. Its output and exit status "
        "pass through. One argument is taken as shell text; several are quoted as words.")
    parser.add_argument("--workspace", type=Path, help="the workspace (default: the current directory)")
    parser.add_argument("--session", default=os.environ.get("WARDEN_SESSION"),
                        help="group commands into one task (default $WARDEN_SESSION, else a task per command)")
    parser.add_argument("--wait", type=float, default=300.0,
                        help="seconds to wait for a person when the gate asks (default 300); then it is denied")
    parser.add_argument("--step", help="TASK:IDX: run the step a host's hook cleared (the command must be its call)")
    parser.add_argument("command", nargs=argparse.REMAINDER, help="the command (after --)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    words = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not words:
        raise WardenError("warden exec needs a command: warden exec -- COMMAND [ARGS...]")
    text = words[0] if len(words) == 1 else shlex.join(words)
    call = ToolCall("shell.run", {"command": text})
    root = (args.workspace or Path.cwd()).resolve()

    async def work(runtime) -> int:
        if args.step:
            task_id, _, idx = args.step.rpartition(":")
            if not task_id or not idx.isdigit():
                raise WardenError(f"--step takes TASK:IDX, not {args.step!r}")
            return _passed(await runtime.hosts.run(task_id, int(idx), call))
        session = args.session or f"{os.getpid()}-{time.time_ns()}"
        task = await runtime.hosts.task_for("exec", session, root, f"exec: {text[:80]}")
        cleared = await runtime.hosts.clear(task.id, call, args.wait, held=_waiting)
        if cleared.status is not StepStatus.CLEARED:
            error(cleared.line)
            return REFUSED
        return _passed(await runtime.hosts.run(task.id, cleared.idx, call))

    return run_on_runtime(work)


def _waiting(approval: Approval) -> None:
    error(f"waiting for a person: {approval.route or approval.reason}; approve or deny {approval.id} in the console "
          f"or with `warden approvals approve {approval.id}`")


def _passed(outcome: StepOutcome) -> int:
    """Write what the command printed and return its exit status; Warden's own failure is one line on stderr."""
    if outcome.output is not None:
        sys.stdout.write(outcome.output.text)
        sys.stdout.flush()
    if outcome.status is StepStatus.DONE:
        return 0
    code = outcome.output.data.get("exit") if outcome.output is not None else None
    if isinstance(code, int) and code != 0:
        return code
    error(f"{outcome.status.value}: {outcome.message}")
    return REFUSED if outcome.status in (StepStatus.BLOCKED, StepStatus.DENIED) else BROKEN
