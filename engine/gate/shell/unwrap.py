"""Peels launcher programs (sudo, env, nice, timeout, busybox, …) off a command line.

Rules then see the program that really runs; the launchers are remembered so that
privilege (sudo, doas, su) can add its own finding. A launcher named by a path outside the
system's bin directories (`tools/env ls`) is not peeled: it may be anything the agent wrote.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from engine.gate.paths import is_system_program
from engine.gate.shell.view import basename

_DURATION = re.compile(r"\d+(\.\d+)?[smhd]?")
_CPU_LIST = re.compile(r"[0-9a-fx,\-]+")
_ASSIGNMENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*=.*", re.S)


@dataclass(frozen=True)
class Launcher:
    """How to skip one launcher's own options: flags with a value, and positional words it eats."""

    values: frozenset[str] = frozenset()
    positionals: int = 0
    stop_at_operand: bool = True


def _l(values: str = "", positionals: int = 0) -> Launcher:
    return Launcher(frozenset(values.split()), positionals)


LAUNCHERS: dict[str, Launcher] = {
    "sudo": _l("-u -g -p -h -C -D -r -t -U -T --user --group --prompt --chdir --host --close-from"),
    "doas": _l("-u -C -a"),
    "pkexec": _l("--user -u"),
    "env": _l("-u -C -P --unset --chdir"),
    "nice": _l("-n --adjustment"),
    "ionice": _l("-c -n --class --classdata"),
    "timeout": _l("-s -k --signal --kill-after", positionals=1),
    "nohup": _l(),
    "stdbuf": _l("-i -o -e --input --output --error"),
    "time": _l("-f -o --format --output"),
    "command": _l(),
    "exec": _l("-a"),
    "builtin": _l(),
    "busybox": _l(),
    "setsid": _l(),
    "taskset": _l(positionals=1),
    "chrt": _l(positionals=1),
    "choom": _l("-n --adjust"),
    "cpulimit": _l("-l -p -e --limit --pid --exe"),
    "unbuffer": _l(),
    "caffeinate": _l("-t -w"),
    "firejail": _l(),
    "aa-exec": _l("-p -n --profile --namespace"),
    "chroot": _l("--userspec --groups", positionals=1),
    "flock": _l("-w -E --timeout --conflict-exit-code", positionals=1),
    "runuser": _l("-u -g -G --user --group"),
    "torsocks": _l(),
    "proxychains": _l("-f"),
    "proxychains4": _l("-f"),
    "catchsegv": _l(),
    "nocache": _l(),
    "eatmydata": _l(),
    "dbus-launch": _l(),
    "xvfb-run": _l("-n -s -f -e --server-num --server-args --auth-file --error-file"),
}
PRIVILEGED = frozenset({"sudo", "doas", "pkexec", "runuser", "chroot", "su"})


@dataclass(slots=True)
class Unwrapped:
    """The program that runs (and its `basename`), the launchers in front of it, and environment they set."""

    argv: list[str]
    launchers: list[str] = field(default_factory=list)
    env: dict[str, str] = field(default_factory=dict)
    name: str = ""


def unwrap(argv: list[str]) -> Unwrapped:
    """Repeatedly strips known launchers; stops at anything else (at most eight deep)."""
    name = basename(argv[0]) if argv else ""
    out = Unwrapped(list(argv), name=name)
    if name not in LAUNCHERS:
        return out
    for _ in range(8):
        if not out.argv:
            break
        name = basename(out.argv[0])
        spec = LAUNCHERS.get(name)
        if spec is None or not is_system_program(out.argv[0]):
            break
        rest = out.argv[1:]
        if name == "command" and any(a.startswith("-") and ("v" in a or "V" in a) for a in rest[:2]):
            break
        if name == "env" and rest and (rest[0].startswith("-S") or rest[0].startswith("--split-string")):
            first = rest[0]
            attached = first[2:] if first.startswith("-S") else first.partition("=")[2]
            text, tail = (attached, rest[1:]) if attached else ((rest[1] if len(rest) > 1 else ""), rest[2:])
            rest = text.split() + tail
        if name == "timeout":
            rest = skip_options(rest, spec.values)
            if rest and _DURATION.fullmatch(rest[0]):
                rest = rest[1:]
        else:
            rest = skip_options(rest, spec.values)
            if name in ("taskset", "chrt") and rest and _CPU_LIST.fullmatch(rest[0]):
                rest = rest[1:]
            elif spec.positionals and name not in ("taskset", "chrt"):
                rest = rest[spec.positionals :]
        if name in ("env", "sudo", "doas"):
            while rest and _ASSIGNMENT.fullmatch(rest[0]):
                key, value = rest[0].split("=", 1)
                out.env[key] = value
                rest = rest[1:]
        out.launchers.append(name)
        out.argv = rest
    out.name = basename(out.argv[0]) if out.argv else ""
    return out


def skip_options(rest: list[str], values: frozenset[str]) -> list[str]:
    """The arguments after a program's own options; `values` names the options that take a value."""
    i = 0
    while i < len(rest):
        arg = rest[i]
        if arg == "--":
            return rest[i + 1 :]
        if not arg.startswith("-") or arg == "-":
            if arg == "-":
                i += 1
                continue
            return rest[i:]
        head = arg.split("=", 1)[0]
        i += 2 if head in values and "=" not in arg else 1
    return []
