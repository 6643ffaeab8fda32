"""Commands that a cloud CLI, a network namespace or a package runner runs somewhere else.

`gcloud compute ssh --command`, `az vm run-command invoke --scripts` and `aws ssm send-command
--parameters commands=[…]` run shell text on another machine; `ip netns exec NAME CMD` runs CMD in
another namespace; `npx rimraf PATH` (and `bunx`, `pnpm dlx`, `yarn dlx`, `npm exec`) fetches a
package whose only job is deleting. The analysis reads each as the command it runs: shell text
as `script`, an argv as `simple`. The launcher keeps whatever rule its own name fires.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

PROGRAMS = frozenset({"gcloud", "az", "aws", "ip", "npx", "bunx", "pnpx", "pnpm", "yarn", "npm"})

_NPX_VALUES = frozenset("-p --package -c --call -w --workspace --registry --cache --userconfig".split())
_DLX_VALUES = frozenset("-p --package --registry --cache-dir".split())
_DELETERS = frozenset({"rimraf", "del-cli", "del", "trash-cli", "rm-cli", "premove"})
_SHELL_RUNNERS = frozenset({"shx"})


@dataclass(frozen=True)
class Elsewhere:
    """What a launcher runs: shell texts, and argv lists read as plain commands."""

    scripts: list[str] = field(default_factory=list)
    argvs: list[list[str]] = field(default_factory=list)


def read(name: str, args: list[str]) -> Elsewhere | None:
    """The commands `name ARGS` runs elsewhere, or None when it runs none this module knows."""
    if name == "gcloud":
        return _gcloud(args) if "ssh" in args else None
    if name == "az":
        return _az(args) if "run-command" in args else None
    if name == "aws":
        return _aws(args) if "send-command" in args else None
    if name == "ip":
        return _netns(args) if "netns" in args else None
    return _package(name, args)


def _option_values(args: list[str], names: tuple[str, ...], many: bool = False) -> list[str]:
    """Values of `--name VALUE` and `--name=VALUE`; with `many`, every word up to the next option."""
    found: list[str] = []
    for i, arg in enumerate(args):
        head, eq, value = arg.partition("=")
        if head not in names:
            continue
        if eq:
            found.append(value)
            continue
        j = i + 1
        while j < len(args) and not (args[j].startswith("-") and len(args[j]) > 1):
            found.append(args[j])
            j += 1
            if not many:
                break
    return found


def _gcloud(args: list[str]) -> Elsewhere:
    scripts = _option_values(args, ("--command",))
    if "--" in args:
        rest = [a for a in args[args.index("--") + 1 :]]
        while rest and rest[0].startswith("-"):
            rest = rest[2:] if len(rest[0]) == 2 and rest[0][1] in "bcDEeFIiJLlmOopQRSWwB" else rest[1:]
        if rest:
            scripts.append(" ".join(rest))
    return Elsewhere(scripts)


def _az(args: list[str]) -> Elsewhere:
    return Elsewhere(_option_values(args, ("--scripts", "--script"), many=True))


def _aws(args: list[str]) -> Elsewhere:
    scripts: list[str] = []
    for value in _option_values(args, ("--parameters",)):
        scripts.extend(_ssm_commands(value))
    return Elsewhere(scripts)


def _ssm_commands(value: str) -> list[str]:
    """`commands=["a","b"]`, `commands='a'`, `{"commands": ["a"]}`: the shell lines given."""
    text = value.strip()
    if text.startswith("{"):
        try:
            data = json.loads(text)
        except ValueError:
            return [text]
        commands = data.get("commands", []) if isinstance(data, dict) else []
        return [c for c in (commands if isinstance(commands, list) else [commands]) if isinstance(c, str)]
    key, eq, rest = text.partition("=")
    if not eq or key.strip() != "commands":
        return [text]
    rest = rest.strip()
    if rest.startswith("["):
        try:
            listed = json.loads(rest)
        except ValueError:
            listed = [part.strip().strip("\"'") for part in rest.strip("[]").split(",")]
        return [c for c in listed if isinstance(c, str)]
    return [rest.strip("\"'")]


def _netns(args: list[str]) -> Elsewhere | None:
    i = args.index("netns")
    rest = args[i + 1 :]
    if not rest or rest[0] not in ("exec", "exe", "ex", "e"):
        return None
    rest = rest[1:]
    if "-all" in args[:i] or "-a" in args[:i]:
        return Elsewhere(argvs=[rest]) if rest else None
    return Elsewhere(argvs=[rest[1:]]) if len(rest) > 1 else None


def _package(name: str, args: list[str]) -> Elsewhere | None:
    """`npx [-y] PKG ARGS`, `bunx PKG`, `pnpm dlx PKG`, `yarn dlx PKG`, `npm exec -- PKG`: a deleting
    package is `rm -rf` of its operands, `shx CMD` is CMD; `npx -c TEXT` is shell text."""
    if name in ("pnpm", "yarn", "npm"):
        if not args or args[0] not in ("dlx", "exec", "x"):
            return None
        args = args[1:]
    elif name not in ("npx", "bunx", "pnpx"):
        return None
    scripts = _option_values(args, ("-c", "--call"))
    i = 0
    while i < len(args) and args[i].startswith("-"):
        if args[i] == "--":
            i += 1
            break
        i += 2 if args[i] in _NPX_VALUES | _DLX_VALUES else 1
    rest = args[i:]
    if not rest:
        return Elsewhere(scripts) if scripts else None
    package = rest[0].rsplit("/", 1)[-1]
    package = package.split("@", 1)[0] if not package.startswith("@") else package
    if package in _DELETERS:
        return Elsewhere(scripts, [["rm", "-rf", *[a for a in rest[1:] if not a.startswith("-")]]])
    if package in _SHELL_RUNNERS and len(rest) > 1:
        return Elsewhere(scripts, [rest[1:]])
    return Elsewhere(scripts) if scripts else None
