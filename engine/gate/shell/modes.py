"""Whether a command sets the setuid or setgid bit: chmod's mode, install's `-m`/`--mode`.

A setuid or setgid file left behind is a privilege foothold (a root-owned copy of a program
that runs as root for whoever starts it), whatever the command was asked to do: `install -m 4755
/usr/bin/id ./id-suid` reads as "copies files". The rules that rate it (`evasion.setuid`) cite
the mode; the generic permission and copy rules yield to them, so the approver reads why.

Modes are read as chmod(1) reads them: octal (`4755`, `02755`; fewer than four digits set no
special bit) or symbolic clauses (`u+s`, `g=rxs`, `+s`, `a+rs,go-w`); `o+s` and removals set
nothing.
"""

from __future__ import annotations

import re

from engine.gate.shell.view import Command

_OCTAL = re.compile(r"[0-7]{1,5}")
# A clause is who, then operations; each operation is an operator and what it sets. Read as one flat
# run of operators and letters (no repeat nested in a repeat), then split by `_OPERATION`.
_CLAUSE = re.compile(r"([ugoa]*)([-+=][-+=rwxXstugo]*)")
_OPERATION = re.compile(r"([-+=])([rwxXstugo]*)")
_SETUID, _SETGID = 0o4000, 0o2000


def privilege_bits(mode: str) -> str | None:
    """`setuid`, `setgid` or `setuid and setgid` when the mode sets them; None otherwise."""
    bits = 0
    if _OCTAL.fullmatch(mode):
        value = int(mode, 8)
        bits = value & (_SETUID | _SETGID) if value <= 0o7777 else 0
    else:
        for clause in mode.split(","):
            found = _CLAUSE.fullmatch(clause)
            if found is None:
                continue
            who = set(found.group(1)) or {"a"}
            for operator, perms in _OPERATION.findall(found.group(2)):
                if operator == "-" or "s" not in perms:
                    continue
                bits |= _SETUID if who & {"u", "a"} else 0
                bits |= _SETGID if who & {"g", "a"} else 0
    names = [name for flag, name in ((_SETUID, "setuid"), (_SETGID, "setgid")) if bits & flag]
    return " and ".join(names) or None


def requested_mode(cmd: Command) -> str | None:
    """The mode a chmod or install command asks for, as written; None when it names none."""
    if cmd.name == "install":
        return _option(cmd.args, "-m", "--mode")
    if cmd.name != "chmod":
        return None
    ended = False
    for arg in cmd.args:
        if not ended and arg == "--":
            ended = True
            continue
        if _OCTAL.fullmatch(arg) or _symbolic(arg):
            return arg
        if ended or not arg.startswith("-"):
            return None
    return None


def _symbolic(arg: str) -> bool:
    """Whether `arg` is a symbolic mode: comma-separated clauses (`u+s`, `go-w,a+r`)."""
    return all(_CLAUSE.fullmatch(clause) for clause in arg.split(","))


def sets_privilege_bits(cmd: Command) -> str | None:
    """The mode, and which bits, when a chmod or install sets setuid or setgid (`4755 (setuid)`); else None."""
    mode = requested_mode(cmd)
    bits = privilege_bits(mode) if mode else None
    return f"{mode} ({bits})" if bits else None


def _option(args: tuple[str, ...], short: str, long: str) -> str | None:
    """The value of `-m MODE`, `-mMODE`, `--mode MODE` or `--mode=MODE`."""
    for index, arg in enumerate(args):
        if arg in (short, long):
            return args[index + 1] if index + 1 < len(args) else None
        if arg.startswith(long + "="):
            return arg[len(long) + 1:]
        if arg.startswith(short) and not arg.startswith("--") and len(arg) > len(short):
            return arg[len(short):]
    return None
