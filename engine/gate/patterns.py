"""What a scoped grant covers: the pattern of the call a person approved, never wider than what they saw.

A pattern is drawn from one approved call and the rules it fired:

- a shell command that is one simple command (no pipes, lists, substitutions or redirections) gives
  its program and subcommand (`git push`); any other command line gives itself, word for word (kept as
  the call's digest, since it may hold a secret);
- a call with a URL gives its host;
- a file tool's call gives its path, or a glob the person typed that matches that path.

A later call is covered only when it is of the same tool, matches the pattern, and fires no rule the
approved call did not: a grant for `git push` taken on a plain push does not cover `git push --force`
(`git.force-push`), and a grant for a host does not cover a secret sent there. Catastrophic is never
covered, whatever the pattern; nor is a call that runs files as code (`sh run.sh`): an approval is bound
to what those files hold, which a pattern cannot pin, so each such call is asked about.
"""

from __future__ import annotations

import json
import re
import shlex
from dataclasses import dataclass
from enum import StrEnum
from fnmatch import fnmatchcase
from urllib.parse import urlsplit

from engine.gate.route import SHELL_TOOLS
from engine.gate.verdict import Level, Verdict
from engine.tools.call import ToolCall

_COMPOUND = re.compile(r"[;&|<>`\n(){}]|\$\(")
_ASSIGNMENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*=")
_PATH_KEYS = ("path", "src", "dst")


class PatternError(ValueError):
    """No pattern can be drawn as asked (a glob that does not match the call's path, a call with no pattern)."""


class Kind(StrEnum):
    COMMAND = "command"  # program and subcommand of one simple shell command
    LINE = "line"  # a whole command line, word for word
    HOST = "host"
    PATH = "path"


@dataclass(frozen=True)
class Pattern:
    tool: str
    kind: Kind
    value: str
    rules: tuple[str, ...]

    def covers(self, call: ToolCall, verdict: Verdict) -> bool:
        if verdict.level is Level.CATASTROPHIC or verdict.code or call.tool != self.tool:
            return False
        if not set(verdict.rules) <= set(self.rules):
            return False
        if self.kind is Kind.LINE:
            return call.digest() == self.value
        if self.kind is Kind.COMMAND:
            return _program(_command(call)) == self.value
        if self.kind is Kind.HOST:
            return _host(call) == self.value
        return any(fnmatchcase(path, self.value) for path in _paths(call))

    def describe(self) -> str:
        """The pattern as a person reads it before granting it."""
        shown = {Kind.COMMAND: f"`{self.value} …`", Kind.LINE: "this exact command line", Kind.HOST: f"host {self.value}",
                 Kind.PATH: f"paths {self.value}"}[self.kind]
        return f"{self.tool} {shown}"

    def as_json(self) -> dict:
        return {"tool": self.tool, "kind": self.kind.value, "value": self.value, "rules": list(self.rules)}

    @classmethod
    def from_json(cls, raw: str) -> "Pattern":
        data = json.loads(raw)
        return cls(data["tool"], Kind(data["kind"]), data["value"], tuple(data["rules"]))


def pattern_of(call: ToolCall, rules: tuple[str, ...], glob: str | None = None, digest: str = "") -> Pattern:
    """The pattern a grant on `call` (which fired `rules`) covers; `glob` widens a file tool's path to it,
    and must match that path. `digest` is the digest of the call as it ran (`call` may be its record, with
    secrets redacted). `PatternError` when the call has no pattern."""
    if call.tool in SHELL_TOOLS:
        if glob is not None:
            raise PatternError("a shell command's pattern is its program and subcommand, not a glob")
        text = _command(call)
        program = _program(text)
        if program:
            return Pattern(call.tool, Kind.COMMAND, program, rules)
        return Pattern(call.tool, Kind.LINE, digest or call.digest(), rules)
    if host := _host(call):
        return Pattern(call.tool, Kind.HOST, host, rules)
    paths = _paths(call)
    if not paths:
        raise PatternError(f"a {call.tool} call names no host or path to draw a pattern from")
    if glob is None:
        if len(paths) > 1:
            raise PatternError(f"this {call.tool} call names {len(paths)} paths: give a glob that matches them")
        return Pattern(call.tool, Kind.PATH, _escaped(paths[0]), rules)
    missing = [path for path in paths if not fnmatchcase(path, glob)]
    if missing:
        raise PatternError(f"the glob {glob!r} does not match {missing[0]!r}, the path the call names")
    return Pattern(call.tool, Kind.PATH, glob, rules)


def _command(call: ToolCall) -> str:
    return " ".join(str(call.args.get("command") or call.args.get("code") or "").split())


def _program(text: str) -> str:
    """`program subcommand` of one simple command (`git push`; `ls` alone when no subcommand follows), or ''
    when the line is more than one simple command or starts with an assignment."""
    if not text or _COMPOUND.search(text):
        return ""
    try:
        words = shlex.split(text)
    except ValueError:
        return ""
    if not words or _ASSIGNMENT.match(words[0]):
        return ""
    rest = [word for word in words[1:] if not word.startswith("-")]
    sub = rest[0] if rest and re.fullmatch(r"[a-z][a-z0-9:_-]*", rest[0]) else ""
    return f"{words[0]} {sub}".strip()


def _host(call: ToolCall) -> str:
    url = call.args.get("url")
    return (urlsplit(str(url)).hostname or "").lower() if isinstance(url, str) and url else ""


def _paths(call: ToolCall) -> list[str]:
    return [str(call.args[key]).removeprefix("./") for key in _PATH_KEYS if isinstance(call.args.get(key), str)]


def _escaped(path: str) -> str:
    """A path as a glob that matches only itself."""
    return re.sub(r"([*?\[])", r"[\1]", path)
