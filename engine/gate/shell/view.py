"""A rule's view of one command: lower-cased program name, flags, operands, redirects.

Short flag clusters are expanded (`-rf` gives `-r` and `-f`), long flags lose their
`=value`, and value-taking global options of common CLIs are skipped so that
`git -C repo reset --hard` has the subcommand path `reset`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from engine.gate.memo import per_word
from engine.gate.shell.parse import Redirect

_VALUE_OPTIONS: dict[str, frozenset[str]] = {
    "git": frozenset({"-C", "-c", "--git-dir", "--work-tree", "--namespace", "--config-env", "--exec-path",
                      "--super-prefix"}),
    "kubectl": frozenset({"-n", "--namespace", "--context", "--kubeconfig", "-s", "--server", "--cluster",
                          "--user", "-l", "--selector", "-o", "--output", "-c", "--container"}),
    "docker": frozenset({"-H", "--host", "--context", "--config", "-l", "--log-level"}),
    "aws": frozenset({"--region", "--profile", "--output", "--endpoint-url", "--query"}),
    "vault": frozenset({"-address", "-namespace", "-format", "-field", "-mount"}),
    "nats": frozenset({"--server", "-s", "--context", "--creds"}),
    "op": frozenset({"--account", "--vault", "--format"}),
    "doppler": frozenset({"--project", "-p", "--config", "-c", "--token", "--format"}),
    "circleci": frozenset({"--org-slug", "--token", "--host"}),
    "rabbitmqctl": frozenset({"-p", "-n", "--vhost", "--node"}),
    "gh": frozenset({"-R", "--repo"}),
    "java": frozenset({"-jar", "-cp", "-classpath", "-s"}),
}
_NUMBER = re.compile(r"-?\d+(\.\d+)?[kKmMgG]?")
_NO_VALUES: frozenset[str] = frozenset()


@per_word()
def basename(word: str) -> str:
    """`/usr/bin/rm`, `"rm"` and `RM.exe` all name `rm`."""
    name = word.replace("\\", "/").rsplit("/", 1)[-1].lower()
    return name[:-4] if name.endswith((".exe", ".com")) else name


@per_word()
def _letters(arg: str) -> tuple[str, ...] | None:
    """The single-letter flags an option cluster stands for (`-rf` gives `-r` and `-f`); None for a number."""
    if _NUMBER.fullmatch(arg) is not None:
        return None
    return tuple("-" + ch for ch in arg[1:] if ch.isalnum())


@dataclass(slots=True)
class Command:
    """One program invocation after wrappers (sudo, env, nice, …) were peeled off.

    `name` (the basename of `argv[0]`, unless the caller already knows it), `args`
    (`argv[1:]`), `text` (the arguments joined), `flags` and `operands` are derived once
    here; rules read them many times. `cwd` is where the script had moved to, if it did.
    """

    argv: tuple[str, ...]
    redirects: tuple[Redirect, ...] = ()
    env: dict[str, str] = field(default_factory=dict)
    stdin: str | None = None
    piped: bool = False
    wrappers: tuple[str, ...] = ()
    dynamic_name: bool = False
    upstream: str = ""
    name: str = ""
    flags: frozenset[str] = frozenset()
    operands: tuple[str, ...] = ()
    text: str = ""
    cwd: str | None = None
    args: tuple[str, ...] = field(init=False, default=())

    def __post_init__(self) -> None:
        if not self.name:
            self.name = basename(self.argv[0]) if self.argv else ""
        args = self.args = self.argv[1:]
        self.text = " ".join(args)
        if self.text.startswith("-") or " -" in self.text:
            self._options(args)
        else:
            self.operands = args

    def _options(self, args: tuple[str, ...]) -> None:
        """Splits arguments into flags and operands (only needed when some argument starts with `-`)."""
        values = _VALUE_OPTIONS.get(self.name, _NO_VALUES)
        flags: set[str] = set()
        operands: list[str] = []
        skip = False
        ended = False
        for arg in args:
            if skip:
                skip = False
                continue
            if ended or not arg.startswith("-") or arg == "-":
                operands.append(arg)
                continue
            letters = _letters(arg)
            if letters is None:
                operands.append(arg)
                continue
            if arg == "--":
                ended = True
                continue
            if arg.startswith("--"):
                head = arg.split("=", 1)[0]
                flags.add(head)
                skip = head in values and "=" not in arg and not operands
                continue
            flags.add(arg)
            if arg in values and not operands:
                skip = True
                continue
            if len(arg) > 2 and arg[:2] in values and not operands:
                continue
            flags.update(letters)
        self.flags = frozenset(flags)
        self.operands = tuple(operands)

    def sub(self, *path: str) -> bool:
        """True when the leading operands are exactly `path` (a subcommand path)."""
        return self.operands[: len(path)] == path

    def out_targets(self) -> list[str]:
        return [r.target for r in self.redirects if r.writes]
