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


@dataclass(frozen=True)
class Options:
    """The read-only options of one program or sub-command.

    `flags` take no value, `valued` take one (`-n 5`, `-n5`, `--lines 5`, `--lines=5`),
    `attached` take one only when attached (`--color=auto`, `-W foo` never). `numeric`
    allows `-5` (head, tail). `subcommands` maps the first operand to its own table; a
    first operand not in it is not proven (the key "" lets the program run with none).
    `operands`, when given, proves the operands (it returns why not, or None). `single`
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

    def __post_init__(self) -> None:
        if self.subcommands is not None:
            object.__setattr__(self, "subcommands", MappingProxyType(dict(self.subcommands)))

    def __call__(self, cmd: "Command") -> str | None:
        """The proof over a command's arguments (launchers already removed)."""
        return self.prove(list(cmd.args), self.name or cmd.name)

    def prove(self, args: list[str], program: str) -> str | None:
        """None when every option and operand of `args` is known to be read-only, else why not."""
        operands: list[str] = []
        i = 0
        while i < len(args):
            arg = args[i]
            key = arg.lower() if self.fold else arg
            if arg == "--":
                operands.extend(args[i + 1 :])
                break
            if self.subcommands is not None and not operands and not _is_option(arg, self.slash):
                sub = self.subcommands.get(key)
                if sub is None:
                    return f"{program} {arg}: not a sub-command known to be read-only"
                return sub.prove(args[i + 1 :], f"{program} {arg}")
            if (key.startswith("--") or self.single and key.startswith("-")) and len(key) > 2:
                name, eq, _ = key.partition("=")
                if self.single and name.startswith("--"):
                    name = name[1:]
                if name in self.flags and not eq or name in self.attached:
                    pass
                elif name in self.valued:
                    i += 0 if eq else 1
                else:
                    return f"{program}: option {name} is not known to be read-only"
            elif _is_option(arg, self.slash):
                if self.slash and key.startswith("/"):
                    name, sep, _ = key.partition(":")
                    if name in self.flags or name in self.attached:
                        pass
                    elif name in self.valued:
                        i += 0 if sep else 1
                    else:
                        return f"{program}: option {name} is not known to be read-only"
                else:
                    why, used = self.short(key, program)
                    if why:
                        return why
                    i += used
            else:
                operands.append(arg)
            i += 1
        if self.subcommands is not None and not operands:
            return None if "" in self.subcommands else f"{program}: no sub-command"
        return self.operands(operands) if self.operands is not None else None

    def short(self, arg: str, program: str) -> tuple[str | None, int]:
        """Reads a cluster of short options (`-la`, `-n5`, `-tn 5`); returns (why not, values consumed after it)."""
        if self.numeric and arg[1:].isdigit():
            return None, 0
        for j in range(1, len(arg)):
            option = "-" + arg[j]
            if option in self.flags:
                continue
            if option in self.valued:
                return None, 0 if j + 1 < len(arg) else 1
            return f"{program}: option {option} is not known to be read-only", 0
        return None, 0


def _is_option(arg: str, slash: bool) -> bool:
    return len(arg) > 1 and (arg[0] == "-" or slash and arg[0] == "/" and "/" not in arg[1:] and "\\" not in arg)


def options(flags: str = "", valued: str = "", attached: str = "", *, numeric: bool = False,
            subcommands: Mapping[str, Options] | None = None, operands: OperandCheck | None = None,
            single: bool = False, fold: bool = False, slash: bool = False) -> Options:
    """Compact constructor: space-separated options; short flags may be given as one cluster (`-alh`)
    unless `single` says single-dash words are long options."""
    cluster = not single
    return Options(frozenset(_expand(flags, fold, cluster)), frozenset(_expand(valued, fold, cluster)),
                   frozenset(_expand(attached, fold, cluster)), numeric, subcommands, operands, single, fold, slash)


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
