"""Peels launcher programs (sudo, env, nice, timeout, strace, systemd-run, nsenter, …) off a command line.

Rules then see the program that really runs; the launchers are remembered so that one that
adds risk of its own (privilege, a tracer, a transient service, another namespace) can add
its finding, and one that starts a shell when given no program says so. A launcher named by
a path outside the system's bin directories (`tools/env ls`) is not peeled: it may be anything
the agent wrote.
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
    """How to skip one launcher's own options: flags with a value, and positional words it eats.

    `rule` is the finding the launcher adds by itself (a tracer can write files and inject
    code, `systemd-run` escapes the session), `bare` that it starts a shell when no program follows.
    """

    values: frozenset[str] = frozenset()
    positionals: int = 0
    stop_at_operand: bool = True
    rule: str = ""
    bare: bool = False


def _l(values: str = "", positionals: int = 0, rule: str = "", bare: bool = False) -> Launcher:
    return Launcher(frozenset(values.split()), positionals, rule=rule, bare=bare)


LAUNCHERS: dict[str, Launcher] = {
    "sudo": _l("-u -g -p -h -C -D -r -t -U -T --user --group --prompt --chdir --host --close-from"),
    "doas": _l("-u -C -a"),
    "pkexec": _l("--user -u", bare=True),
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
    "toybox": _l(),
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
    "runuser": _l("-u -g -G --user --group --supp-group -w --whitelist-environment -s --shell"),
    "torsocks": _l(),
    "proxychains": _l("-f"),
    "proxychains4": _l("-f"),
    "catchsegv": _l(),
    "nocache": _l(),
    "eatmydata": _l(),
    "dbus-launch": _l(),
    "xvfb-run": _l("-n -s -f -e -w -p --server-num --server-args --auth-file --error-file --wait --xauth-protocol"),
    "valgrind": _l(rule="exec.debugger"),
    "strace": _l("-o -e -p -s -u -E -a -b -I -O -P -S -X -U --output --signal --trace --user --env --attach"
                 " --string-limit --columns --detach-on --interruptible --overhead --sort --trace-path"
                 " --summary-columns --status --quiet --decode-fds", rule="exec.debugger"),
    "ltrace": _l("-o -e -p -s -u -a -n -l -x -A -D -F -w --output --library --align --indent", rule="exec.debugger"),
    "perf": _l("-e -o -p -t -c -F -C -G -r -x -I -m -u -D --event --output --pid --tid --count --freq --cpu"
               " --cgroup --repeat --field-separator --interval-print --mmap-pages --uid --call-graph --delay",
               rule="exec.debugger"),
    "gdb": _l(rule="exec.debugger"),
    "systemd-run": _l("-u --unit -p --property -E --setenv -M --machine -H --host --uid --gid --nice"
                      " --working-directory --description --slice --on-active --on-boot --on-startup"
                      " --on-unit-active --on-unit-inactive --on-calendar --path-property --socket-property"
                      " --timer-property --service-type --expand-environment", rule="exec.systemd-run", bare=True),
    "nsenter": _l("-t --target -S --setuid -G --setgid", rule="exec.privileged", bare=True),
    "unshare": _l("-S --setuid -G --setgid -R --root -w --wd --propagation --setgroups --map-user --map-group"
                  " --map-users --map-groups --monotonic --boottime", rule="exec.remote-shell-tool", bare=True),
    "setpriv": _l("--reuid --regid --ruid --euid --rgid --egid --groups --inh-caps --ambient-caps --bounding-set"
                  " --securebits --pdeathsig --selinux-label --apparmor-profile --landlock-access --landlock-rule",
                  rule="exec.privileged"),
    "capsh": _l(rule="exec.remote-shell-tool"),
    "chpst": _l("-u -U -b -e -/ -n -l -L -m -d -o -p -f -c -r -t", rule="exec.privileged"),
    "sshpass": _l("-p -f -d -P"),
    "faketime": _l("--date-prog", positionals=1),
    "fakeroot": _l("-l --lib --faked -s -i -b", bare=True),
    "proot": _l("-r --rootfs -b --bind -m --mount -w --pwd --cwd -k --kernel-release -q --qemu -v --verbose"
                " -i --change-id -p --port", bare=True),
    "dbus-run-session": _l(),
    "arch": _l("-e -arch"),
    "numactl": _l("-C -N -m -i -p -P --physcpubind --cpunodebind --membind --interleave --preferred"
                  " --preferred-many --balancing"),
}
PRIVILEGED = frozenset({"sudo", "doas", "pkexec", "runuser", "chroot", "su"})
SHELL_WHEN_BARE = frozenset({"chroot", "su", "sudo", "doas", "runuser"} | {n for n, spec in LAUNCHERS.items() if spec.bare})
_PERF_RUNS = frozenset({"record", "stat", "trace", "top"})


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
        if name == "perf":
            if rest and rest[0] in _PERF_RUNS:
                rest = rest[1:]
            elif len(rest) > 1 and rest[1] == "record":
                rest = rest[2:]
            else:
                break
        elif name == "gdb":
            if "--args" not in rest:
                break
            rest = ["--", *rest[rest.index("--args") + 1 :]]
        elif name == "capsh":
            rest = ["--", "bash", *rest[rest.index("--") + 1 :]] if "--" in rest else []
        elif name == "runuser" and not any(a in ("-u", "--user") or a.startswith(("-u", "--user=")) for a in rest):
            break
        if name == "env":
            rest = _split_string(rest)
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


def _split_string(rest: list[str]) -> list[str]:
    """`env [-i] -S 'CMD ARGS'` (also `-iS`, `-SCMD`, `--split-string=…`): the string is split into words
    that replace it, after env's other options."""
    for i, arg in enumerate(rest):
        if not arg.startswith("-") or arg == "--":
            return rest
        if arg.startswith("--"):
            if not arg.startswith("--split-string"):
                continue
            attached = arg.partition("=")[2]
        elif "S" in arg[1:]:
            attached = arg[arg.index("S") + 1 :]
        else:
            continue
        text, tail = (attached, rest[i + 1 :]) if attached else ((rest[i + 1] if i + 1 < len(rest) else ""), rest[i + 2 :])
        return rest[:i] + text.split() + tail
    return rest


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
