"""A rule's view of one command: lower-cased program name, flags, operands, redirects.

Short flag clusters are expanded (`-rf` gives `-r` and `-f`), long flags lose their
`=value`, and value-taking global options of common CLIs are skipped so that
`git -C repo reset --hard` has the subcommand path `reset`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

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


def basename(word: str) -> str:
    """`/usr/bin/rm`, `"rm"` and `RM.exe` all name `rm`."""
    name = word.replace("\\", "/").rsplit("/", 1)[-1].lower()
    return name[:-4] if name.endswith((".exe", ".com")) else name


@dataclass
class Command:
    """One program invocation after wrappers (sudo, env, nice, …) were peeled off."""

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

    def __post_init__(self) -> None:
        self.name = basename(self.argv[0]) if self.argv else ""
        values = _VALUE_OPTIONS.get(self.name, frozenset())
        flags: set[str] = set()
        operands: list[str] = []
        args = self.argv[1:]
        skip = False
        ended = False
        for arg in args:
            if skip:
                skip = False
                continue
            if ended or not arg.startswith("-") or arg == "-" or _NUMBER.fullmatch(arg):
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
            flags.update("-" + ch for ch in arg[1:] if ch.isalnum())
        self.flags = frozenset(flags)
        self.operands = tuple(operands)
        self.text = " ".join(args)

    @property
    def args(self) -> tuple[str, ...]:
        return self.argv[1:]

    def sub(self, *path: str) -> bool:
        """True when the leading operands are exactly `path` (a subcommand path)."""
        return self.operands[: len(path)] == path

    def out_targets(self) -> list[str]:
        return [r.target for r in self.redirects if r.writes]
