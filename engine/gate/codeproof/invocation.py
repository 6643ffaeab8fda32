"""Interpreter invocations proven read-only: a version flag alone, `python -m` of a module that
only reads (`json.tool`, `calendar`, `zipfile -l`, …), and payloads the language proofs accept.

Python puts the current directory first on its module path for `-c`, `-m` and code on standard
input, so a payload is only proven where the script started (the workspace, whose top-level
module files are guarded: `modules.shadows_module`), never after a `cd`. Options that import
or write (`-W` with a dotted category or an action that shows warnings, `-X dev`, `-X pycache_prefix`,
`-X frozen_modules=off`), `-i`, and
variables that change what the interpreter loads (`PYTHONPATH`, `PYTHONWARNINGS`, `NODE_OPTIONS`,
`PERL5OPT`, …) are not proven. `python -m pip` is not proven either: pip loads a hundred
standard modules from that path (`pip list` itself is, in the packages pack).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING

from engine.gate.codeproof import applescript
from engine.gate.codeproof.python import prove_source, readable
from engine.gate.proof import Options, Reading, options

if TYPE_CHECKING:
    from engine.gate.shell.view import Command

VERSION_FLAGS: dict[str, frozenset[str]] = {
    "python": frozenset({"-V", "-VV", "--version"}), "node": frozenset({"-v", "--version"}),
    "nodejs": frozenset({"-v", "--version"}), "deno": frozenset({"-V", "--version"}),
    "bun": frozenset({"-v", "--version"}), "perl": frozenset({"-v", "-V", "--version"}),
    "ruby": frozenset({"-v", "--version"}), "php": frozenset({"-v", "--version"}), "lua": frozenset({"-v"}),
    "luajit": frozenset({"-v"}), "irb": frozenset({"-v", "--version"}),
}
"""Per interpreter family, the flags that print its version (or Perl's configuration) and exit."""
_FAMILY = re.compile(r"(python|pypy)(?:\d(?:\.\d{1,2})?)?|(node|nodejs|deno|bun|luajit|irb)|(perl|ruby|php|lua)[\d.]{0,6}")
_QUIET_ENVIRONMENT = re.compile(
    r"LC_\w{1,40}|LANG|LANGUAGE|TERM|NO_COLOR|TZ|COLUMNS|LINES|PYTHONIOENCODING|PYTHONUTF8|PYTHONUNBUFFERED"
    r"|PYTHONDONTWRITEBYTECODE|PYTHONHASHSEED|PYTHONSAFEPATH|PYTHONNOUSERSITE")
_SAME_PLACE = frozenset("nice ionice timeout nohup stdbuf command exec setsid taskset chrt choom cpulimit unbuffer"
                        " caffeinate flock nocache eatmydata numactl".split())
"""Launchers that start the interpreter in the same directory, as the same user, with the same files."""
_PYTHON_FLAGS = frozenset("BbdEhIOPqRsSuvx")
_WARNING_ACTIONS = frozenset("error ignore e i".split())
_BUILTIN_CATEGORY = re.compile(r"[A-Za-z]{0,60}")
_X_OPTIONS = re.compile(r"utf8(?:=[01])?|importtime|warn_default_encoding|no_debug_ranges|faulthandler"
                        r"|int_max_str_digits=\d{1,9}|frozen_modules=on")
_EXPANSION = re.compile(r"\$[\w{(]")
STDIN_CODE = frozenset({"-", "/dev/stdin"})


def family(name: str) -> str | None:
    """The interpreter family a program name belongs to (`python3.11` → python), or None."""
    match = _FAMILY.fullmatch(name)
    if match is None:
        return None
    if match.group(1):
        return "python"
    return match.group(2) or match.group(3)


def prints_version(cmd: "Command") -> bool:
    """`node -v`, `python3 -V`, `perl -V`: the one argument prints the version and the interpreter exits."""
    kind = family(cmd.name)
    return (kind is not None and len(cmd.args) == 1 and cmd.args[0] in VERSION_FLAGS.get(kind, ())
            and cmd.stdin is None and not cmd.piped and _environment(cmd) is None)


def _python_start(cmd: "Command") -> tuple[list[str], int, str | None]:
    """Python's arguments, where its options end, and why its context or options are not proven (or None)."""
    args = list(cmd.args)
    why = _python_context(cmd)
    if why:
        return args, 0, why
    start, why = _python_options(args)
    return args, start, why


def without_payload(kind: str, cmd: "Command") -> str | None:
    """None when an interpreter started with no inline payload is proven to only read: a version
    flag, or `python -m` of a module that only reads with arguments it proves."""
    if prints_version(cmd):
        return None
    if kind != "python":
        return f"{cmd.name}: only a version flag is proven"
    args, start, why = _python_start(cmd)
    if why:
        return why
    if start >= len(args) or args[start] != "-m" or start + 1 >= len(args):
        return f"{cmd.name}: only -c, -m and a version flag are proven"
    module = args[start + 1]
    table = MAIN_MODULES.get(module)
    if table is None:
        return f"python -m {module}: not a module known to only read"
    return table.prove(args[start + 2 :], f"python -m {module}")


def with_payload(kind: str, cmd: "Command", code: str) -> str | None:
    """None when the inline payload `code` of `cmd` (its `-c`/`-e` text or its standard input) is proven read-only."""
    if kind == "osascript":
        return applescript.prove(cmd)
    if kind != "python":
        return f"{cmd.name}: only Python and AppleScript payloads are proven"
    args, start, why = _python_start(cmd)
    if why:
        return why
    rest = args[start:]
    from_flag = rest[:1] == ["-c"] and len(rest) > 1 and rest[1] == code
    from_stdin = (not rest or rest[0] in STDIN_CODE) and cmd.stdin == code
    if not (from_flag or from_stdin):
        return f"{cmd.name}: the payload's source is not proven"
    if "`" in code or _EXPANSION.search(code) or from_stdin and "$" in code:
        return "the payload holds a shell expansion the analysis did not resolve"
    return prove_source(code)


def _python_context(cmd: "Command") -> str | None:
    if cmd.name.startswith("python2") or cmd.name.startswith("pypy") and not cmd.name.startswith("pypy3"):
        return f"{cmd.name}: Python 2 is not proven"
    if cmd.cwd is not None:
        return "python after a cd: modules there could shadow the standard ones"
    for launcher in cmd.wrappers:
        if launcher not in _SAME_PLACE:
            return f"python under {launcher}: it may run it elsewhere (env -C) or as someone else"
    return _environment(cmd)


def _environment(cmd: "Command") -> str | None:
    for key in cmd.env:
        if _QUIET_ENVIRONMENT.fullmatch(key) is None:
            return f"{cmd.name}: {key}= in its environment is not known to be read-only"
    return None


def _python_options(args: list[str]) -> tuple[int, str | None]:
    """Where the interpreter's own options end (at `-c`, `-m`, `-` or the first operand), or why one is not proven."""
    i = 0
    while i < len(args):
        arg = args[i]
        if arg in ("-c", "-m", "-") or not arg.startswith("-"):
            return i, None
        if arg[:2] in ("-W", "-X"):
            value = arg[2:] or (args[i + 1] if i + 1 < len(args) else "")
            known = _warning_filter(value) if arg[:2] == "-W" else _X_OPTIONS.fullmatch(value) is not None
            if not known:
                return i, f"python: {arg[:2]} {value} is not known to be read-only"
            i += 1 if arg[2:] else 2
            continue
        if arg.startswith("--") or not set(arg[1:]) <= _PYTHON_FLAGS:
            return i, f"python: option {arg} is not known to be read-only"
        i += 1
    return i, None


def _warning_filter(value: str) -> bool:
    """`-W ignore|error[:message:category:module:lineno]` with a builtin category (a dotted one is
    imported). Filters that show warnings are not proven: showing a resource warning imports
    `tracemalloc`, and it `pickle`, from the current directory."""
    parts = value.split(":")
    return (len(parts) <= 5 and parts[0] in _WARNING_ACTIONS
            and (len(parts) < 3 or _BUILTIN_CATEGORY.fullmatch(parts[2]) is not None))


def _reads(*names: str) -> Callable[[Reading], str | None]:
    """A check that the operands and the values of `names` are paths that may be read."""

    def check(reading: Reading) -> str | None:
        for path in (*reading.operands, *reading.values(*names)):
            why = readable(path) if path != "-" else None
            if why:
                return f"{reading.program}: {why}"
        return None

    return check


def _numbers(reading: Reading) -> str | None:
    if len(reading.operands) > 2 or not all(op.isdigit() for op in reading.operands):
        return f"{reading.program}: takes a year and a month"
    return None


def _at_most_one_read(reading: Reading) -> str | None:
    if len(reading.operands) > 1:
        return f"{reading.program}: a second operand is a file it writes"
    return _reads()(reading)


def _archive(reading: Reading) -> str | None:
    if reading.operands or len(reading.values("-l", "--list", "-t", "--test")) != 1:
        return f"{reading.program}: only lists (-l) or tests (-t) one archive"
    return _reads("-l", "--list", "-t", "--test")(reading)


MAIN_MODULES: dict[str, Options] = {
    "json.tool": options("--sort-keys --no-ensure-ascii --json-lines --tab --no-indent --compact -h --help",
                         "--indent", check=_at_most_one_read),
    "calendar": options("-h --help", "-w --width -l --lines -s --spacing -m --months -c --css -L --locale -e --encoding"
                                     " -t --type -f --first-weekday", check=_numbers),
    "site": options("--user-base --user-site", check=lambda r: f"{r.program}: takes no operand" if r.operands else None),
    "sysconfig": options(check=lambda r: f"{r.program}: takes no operand" if r.operands else None),
    "base64": options("-e -d -u -t -h", check=_at_most_one_read),
    "tokenize": options("-e --exact -h --help", check=_at_most_one_read),
    "zipfile": options("-h --help", "-l --list -t --test --metadata-encoding", check=_archive),
    "tarfile": options("-v --verbose -h --help", "-l --list -t --test", check=_archive),
}
"""What `python -m MODULE ARGS` may be given, per module that only reads: `json.tool IN` (a second
operand is written), `zipfile`/`tarfile` only with `-l`/`-t`, `sysconfig` bare (`--generate-posix-vars`
writes build files); every file read is checked like `open`'s path."""
