"""Option tables: the proof that one command of a program only reads.

A table lists the options a program takes that leave it read-only, which of them take a
value, and (for tools with sub-commands) a table per sub-command. A command is proven only
when every option it uses is in its table: an option the table does not know, an
abbreviation of a long option (`sort --outp=x` is `--output`), or a sub-command not listed
is "not proven", never safe. Operands may be checked too (a sed script, an awk program).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from engine.gate.shell.view import Command

OperandCheck = Callable[[list[str]], "str | None"]


@dataclass(frozen=True, slots=True)
class Reading:
    """What a table read in one command: every option used (with its value, if it took one), then the operands.

    A `check` receives it when options and operands must be judged together: sed's script
    is the value of `-e` or else the first operand; `git clean` only reads with `-n`.
    """

    program: str
    options: tuple[tuple[str, str | None], ...]
    operands: tuple[str, ...]

    def used(self, *names: str) -> bool:
        """True when any of the options `names` was given."""
        return any(option in names for option, _ in self.options)

    def values(self, *names: str) -> list[str]:
        """The values given to the options `names`, in order."""
        return [value for option, value in self.options if option in names and value is not None]


ReadingCheck = Callable[[Reading], "str | None"]
ValueCheck = Callable[[str], "str | None"]


@dataclass(frozen=True)
class Options:
    """The read-only options of one program or sub-command.

    `flags` take no value, `valued` take one (`-n 5`, `-n5`, `--lines 5`, `--lines=5`),
    `attached` take one only when attached (`--color=auto`, `-uno`, `-W foo` never). `numeric`
    allows `-5` (head, tail). `subcommands` maps the first operand to its own table; a
    first operand not in it is not proven (the key "" lets the program run with none).
    `operands`, when given, proves the operands (it returns why not, or None); `requires`
    names options of which one must be present (`gzip -c`, `git clean -n`); `check` proves
    the whole `Reading` when options and operands must be judged together, and `value_checks`
    prove the value of single options (`git -c key=value`). `single`
    reads `-name[=value]` as one long option (Go programs, PowerShell), `fold` compares
    options case-insensitively and `slash` accepts `/x[:value]` options (Windows programs).
    """

    flags: frozenset[str] = frozenset()
    valued: frozenset[str] = frozenset()
    attached: frozenset[str] = frozenset()
    numeric: bool = False
    subcommands: Mapping[str, "Options"] | None = None
    operands: OperandCheck | None = None
    single: bool = False
    fold: bool = False
    slash: bool = False
    name: str = field(default="", compare=False)
    requires: frozenset[str] = frozenset()
    check: ReadingCheck | None = None
    value_checks: Mapping[str, ValueCheck] | None = None

    def __post_init__(self) -> None:
        if self.subcommands is not None:
            object.__setattr__(self, "subcommands", MappingProxyType(dict(self.subcommands)))

    def __call__(self, cmd: "Command") -> str | None:
        """The proof over a command's arguments (launchers already removed)."""
        return self.prove(list(cmd.args), self.name or cmd.name)

    def prove(self, args: list[str], program: str) -> str | None:
        """None when every option and operand of `args` is known to be read-only, else why not."""
        operands: list[str] = []
        used: list[tuple[str, str | None]] = []
        i = 0
        while i < len(args):
            arg = args[i]
            key = arg.lower() if self.fold else arg
            mark = len(used)
            if arg == "--":
                operands.extend(args[i + 1 :])
                break
            if self.subcommands is not None and not operands and not _is_option(arg, self.slash):
                sub = self.subcommands.get(key)
                if sub is None:
                    return f"{program} {arg}: not a sub-command known to be read-only"
                return sub.prove(args[i + 1 :], f"{program} {arg}")
            if (key.startswith("--") or self.single and key.startswith("-")) and len(key) > 2:
                name, eq, value = key.partition("=")
                if self.single and name.startswith("--"):
                    name = name[1:]
                if name in self.flags and not eq or name in self.attached:
                    used.append((name, value if eq else None))
                elif name in self.valued:
                    if not eq:
                        i += 1
                        value = args[i] if i < len(args) else ""
                    used.append((name, value))
                else:
                    return f"{program}: option {name} is not known to be read-only"
            elif _is_option(arg, self.slash):
                if self.slash and key.startswith("/"):
                    name, sep, value = key.partition(":")
                    if name in self.flags or name in self.attached:
                        used.append((name, value if sep else None))
                    elif name in self.valued:
                        if not sep:
                            i += 1
                            value = args[i] if i < len(args) else ""
                        used.append((name, value))
                    else:
                        return f"{program}: option {name} is not known to be read-only"
                else:
                    why, taken = self.short(key, program, used)
                    if why:
                        return why
                    if taken:
                        i += 1
                        used[-1] = (used[-1][0], args[i] if i < len(args) else "")
            else:
                operands.append(arg)
            if self.value_checks is not None and len(used) > mark:
                for option, given in used[mark:]:
                    check = self.value_checks.get(option)
                    why = check(given or "") if check is not None else None
                    if why:
                        return f"{program}: {why}"
            i += 1
        if self.subcommands is not None and not operands:
            return None if "" in self.subcommands else f"{program}: no sub-command"
        if self.requires and not any(option in self.requires for option, _ in used):
            return f"{program}: only reads with {' or '.join(sorted(self.requires))}"
        if self.check is not None:
            return self.check(Reading(program, tuple(used), tuple(operands)))
        if self.operands is not None:
            why = self.operands(operands)
            return f"{program}: {why}" if why and not why.startswith(program) else why
        return None

    def short(self, arg: str, program: str, used: list[tuple[str, str | None]] | None = None) -> tuple[str | None, int]:
        """Reads a cluster of short options (`-la`, `-n5`, `-tn 5`, `-uno`) into `used`; returns
        (why not, 1 when the last option's value is the next argument)."""
        if self.numeric and arg[1:].isdigit():
            return None, 0
        found = used if used is not None else []
        for j in range(1, len(arg)):
            option = "-" + arg[j]
            if option in self.flags:
                found.append((option, None))
                continue
            if option in self.valued:
                if j + 1 < len(arg):
                    found.append((option, arg[j + 1 :]))
                    return None, 0
                found.append((option, None))
                return None, 1
            if option in self.attached:
                found.append((option, arg[j + 1 :] or None))
                return None, 0
            return f"{program}: option {option} is not known to be read-only", 0
        return None, 0


def _is_option(arg: str, slash: bool) -> bool:
    return len(arg) > 1 and (arg[0] == "-" or slash and arg[0] == "/" and "/" not in arg[1:] and "\\" not in arg)


def options(flags: str = "", valued: str = "", attached: str = "", *, numeric: bool = False,
            subcommands: Mapping[str, Options] | None = None, operands: OperandCheck | None = None,
            single: bool = False, fold: bool = False, slash: bool = False, requires: str = "",
            check: ReadingCheck | None = None, value_checks: Mapping[str, ValueCheck] | None = None) -> Options:
    """Compact constructor: space-separated options; short flags may be given as one cluster (`-alh`)
    unless `single` says single-dash words are long options."""
    cluster = not single
    return Options(frozenset(_expand(flags, fold, cluster)), frozenset(_expand(valued, fold, cluster)),
                   frozenset(_expand(attached, fold, cluster)), numeric, subcommands, operands, single, fold, slash,
                   requires=frozenset(_expand(requires, fold, cluster)), check=check, value_checks=value_checks)


def _expand(spec: str, fold: bool, cluster: bool) -> list[str]:
    found: list[str] = []
    for word in spec.split():
        if fold:
            word = word.lower()
        if cluster and len(word) > 2 and word[0] == "-" and word[1] != "-":
            found.extend("-" + letter for letter in word[1:])
        else:
            found.append(word)
    return found


def subcommands(table: Mapping[str, Options]) -> Options:
    """A table that is only sub-commands (with no options of its own before them)."""
    return Options(subcommands=table)


def anything(cmd: "Command") -> str | None:
    """The proof for programs none of whose arguments can make them write or run anything
    (`echo`, `pwd`, `true`, `test`, `sleep`): every argument is data."""
    return None


# What a pager variable may name and still only print: nothing (no pager), or `cat` (`GIT_PAGER=cat`,
# `AWS_PAGER=""`). `less` is left out: `LESS`, `LESSKEY` and `LESSOPEN` beside it could make it
# write a log or run a preprocessor, and the program that starts the pager does not check them.
HARMLESS_PAGERS = frozenset({"", "cat", "/bin/cat", "/usr/bin/cat"})


def harmless_pager(name: str, value: str) -> bool:
    """True for a pager variable (`PAGER`, `GIT_PAGER`, `SYSTEMD_PAGER`, …) set to nothing or to a plain reader."""
    return name.endswith("PAGER") and value.strip() in HARMLESS_PAGERS


def unless_env(proof: Callable[["Command"], "str | None"], *names: str) -> Callable[["Command"], "str | None"]:
    """`proof`, except that a command whose environment prefix sets one of `names` (`LESS*` is a
    prefix) is not proven: such variables carry options or programs (`LESS='-o log'`, `MANROFFOPT=-U`).
    A pager variable that names no pager or a plain reader (`SYSTEMD_PAGER=cat`) runs nothing."""
    exact = frozenset(name for name in names if not name.endswith("*"))
    prefixes = tuple(name[:-1] for name in names if name.endswith("*"))

    def guarded(cmd: "Command") -> str | None:
        for key, value in cmd.env.items():
            if (key in exact or key.startswith(prefixes)) and not harmless_pager(key, value):
                return f"{cmd.name}: {key}= in its environment is not known to be read-only"
        return proof(cmd)

    return guarded


def at_most(count: int) -> OperandCheck:
    """An operand check: no more than `count` operands (`uniq IN OUT` and `xxd IN OUT` write OUT)."""

    def check(operands: list[str]) -> str | None:
        if len(operands) > count:
            plural = "" if count == 1 else "s"
            return f"takes at most {count} operand{plural}; {operands[count]!r} would be written or set"
        return None

    return check
