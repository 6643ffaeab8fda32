"""Which secret a command could read: any path among its words, redirections or working directory.

Readers are not listed: `sort`, `date -f`, `paste` and `cat` all print a key file, so every
program given a secret location counts, through an argument, an option's value
(`--file=…`, `if=…`, `HEAD:.env`), an input redirection, a relative path after the script
moved (`cd ~/.ssh && paste id_rsa`), or a glob that could expand to one (`/etc/shado?`).
Only programs that never open their path arguments (`ls`, `stat`, `test`, `find` without
`-exec`, …) are exempt, and only while their output is not handed on: `ls ~/.ssh | xargs
cat` reads what `ls` names.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Sequence

from engine.gate.memo import per_word
from engine.gate.paths import SECRET_NAMES, SECRET_SAMPLES, fold, may_be_secret, reaches_secret
from engine.gate.packs.model import Findings
from engine.gate.shell.unwrap import unwrap
from engine.gate.shell.view import basename

NAMES_ONLY = frozenset(
    "ls dir vdir tree stat du find test [ [[ echo printf basename dirname realpath readlink cd pushd popd"
    " which whereis type true false : pwd whoami id uname nproc".split()
)
_PATTERN_FIRST = frozenset("grep egrep fgrep rg ag ack sed gsed awk gawk mawk nawk jq yq look".split())
_PATTERN_OPTIONS = frozenset({"-e", "--regexp", "--expression", "--source"})
_FILE_OPTIONS = frozenset({"-f", "--file", "--from-file"})
_CHDIR: dict[str, frozenset[str]] = {
    "env": frozenset({"-C", "--chdir"}), "sudo": frozenset({"-D", "--chdir"}), "git": frozenset({"-C"}),
    "make": frozenset({"-C", "--directory"}), "tar": frozenset({"-C", "--directory"}),
}
_CHDIR_FLAGS = frozenset().union(*_CHDIR.values())
# Every secret location has one of these (a path, a glob, an option value, `id_rsa`,
# `credentials`): words without any are not looked at one by one.
_MAYBE_SECRET = re.compile(r"[/~.$*?\[{@:=`]|id_|credentials")
_GLOB_WORD = re.compile(r"[*?\[{]")
_ENDINGS = SECRET_SAMPLES + SECRET_NAMES + tuple("/" + name for name in SECRET_NAMES)
MAX_GLOBS = 128
SECRET_VARIABLE = re.compile(
    r"(?i)(?:^|_)(?:TOKEN|SECRET|PASSWORD|PASSWD|PASS|PASSPHRASE|API_?KEY|ACCESS_KEY|PRIVATE_KEY|CREDENTIALS?"
    r"|COOKIE|KEY)(?:_|$)|^KUBECONFIG$"
)


def moved(cwd: str | None, argv: list[str]) -> str | None:
    """Where `cd`/`pushd` (argv) leaves the script; None when it cannot be told (`cd -`, `popd`)."""
    if not argv or argv[0] == "popd":
        return None
    operands = [a for a in argv[1:] if not a.startswith("-") or a == "-"]
    if not operands:
        return "~"
    target = operands[0]
    if target == "-" or "$(" in target or "`" in target:
        return None
    return join(cwd, target)


def join(cwd: str | None, path: str) -> str:
    """`path` read from `cwd` (a relative path stays relative while the script has not moved)."""
    if cwd is None or path.startswith(("/", "~", "$")):
        return fold(path)
    return fold(posixpath.join(cwd, path))


def opaque(argv: list[str]) -> bool:
    """True when a command's output could be any path: it is not one that only prints names it was given."""
    return bool(argv) and unwrap(argv).name not in NAMES_ONLY


def secret_read(argv: list[str], program: list[str], name: str, redirects: list[str], findings: Findings,
                exposed: bool, inner: Sequence[list[str]] = ()) -> str | None:
    """The secret location a command could read, or None.

    `argv` is the command as written (launchers and their options included), `program`
    the part after the launchers and `name` its program's name, `redirects` its
    redirection targets, `exposed` whether its output becomes another command's input or
    words, `inner` the commands whose output becomes its words: a word that starts with
    the output of one that could print any path (`cat $(cat list)`) could name a secret.
    Past `MAX_GLOBS` glob words in one call, a glob counts as naming a secret: matching
    thousands of them would cost more than the gate may spend.
    """
    if name in NAMES_ONLY and not exposed:
        return None
    moves = name in _CHDIR or bool(argv) and len(argv) != len(program) and basename(argv[0]) in _CHDIR
    here = _chdir(argv, findings.cwd) if moves else findings.cwd
    if here is not None and may_be_secret(here):
        return here
    words: list[str] = []
    if here is not None or _MAYBE_SECRET.search(" ".join(argv)) is not None:
        offset = len(argv) - len(program)
        skip = _patterns(program) if name in _PATTERN_FIRST else ()
        words = [word for index, word in enumerate(argv) if index != offset and index - offset not in skip]
    for word in words + redirects:
        if ("$(" in word or "`" in word) and _built_secret(word, inner):
            return word
        if _GLOB_WORD.search(word) is not None:
            findings.globs += 1 + word.count("{")
            if findings.globs > MAX_GLOBS:
                return word
        found = _secret_word(word) if here is None else _secret_word_in(word, here)
        if found is not None:
            return found
    return None


def _built_secret(word: str, inner: Sequence[list[str]]) -> bool:
    """A word put together from command output (`$(cat list)`, `$(echo /etc)/shadow`) could name
    a secret unless the text after the last substitution rules that out (`log-$(date).txt`).
    One substitution that is the whole word and only prints the names it was given is
    checked through those names instead (`file $(which gcc)`); one that came through a
    variable (`x=$(cat list); cat $x`) cannot be, and counts."""
    end = max(word.rfind(")"), word.rfind("`"))
    tail = word[end + 1 :] if end > word.rfind("$(") else ""
    if tail and not any(path.endswith(tail) for path in _ENDINGS):
        return False
    whole = word.count("$(") + word.count("`") // 2 == 1 and not tail and word.startswith(("$(", "`"))
    return not whole or not inner or any(opaque(argv) for argv in inner)


@per_word(limit=256)
def _secret_word(word: str) -> str | None:
    """The secret path one word names (itself or a part of it), or None."""
    for candidate in _candidates(word):
        if candidate and may_be_secret(candidate):
            return candidate
    return None


def _secret_word_in(word: str, cwd: str) -> str | None:
    """As `_secret_word`, for a command run in `cwd`: only a directory some secret lies under
    (`/etc`, `~`) or a climb out (`..`) can make a relative path secret that is not already."""
    if ".." not in word and not reaches_secret(cwd):
        return _secret_word(word)
    for candidate in _candidates(word):
        if candidate and may_be_secret(join(cwd, candidate)):
            return candidate if candidate.startswith(("/", "~", "$")) else join(cwd, candidate)
    return None


def _candidates(word: str) -> list[str]:
    """The paths one word may name: itself, an option's value (`--file=x`, `if=x`, `-f/x`),
    the path of `rev:path`, a `file://` URL or a `@file` argument."""
    found = [word]
    if "=" in word:
        found.append(word.split("=", 1)[1])
    if ":" in word:
        found.append(word[7:] if word.startswith("file://") else word.rsplit(":", 1)[1])
    if word.startswith("-") and not word.startswith("--") and len(word) > 2 and word[2] in "/~.$":
        found.append(word[2:])
    if word.startswith("@"):
        found.append(word[1:])
    return found


def _patterns(program: list[str]) -> set[int]:
    """Positions (in `program`) of words that are a search pattern or script, not a file: the
    value of `-e`, or else the first operand (unless `-f` names the pattern file)."""
    skip: set[int] = set()
    given, pending, first = False, "", None
    for index, word in enumerate(program[1:], start=1):
        if pending:
            if pending == "e":
                skip.add(index)
            pending = ""
            continue
        head, equals, _ = word.partition("=")
        if head in _PATTERN_OPTIONS or head in _FILE_OPTIONS:
            given = True
            pending = "" if equals else ("e" if head in _PATTERN_OPTIONS else "f")
        elif word.startswith("-") and len(word) > 1:
            if word[1:].isalpha() and word[-1] in "ef" and not word.startswith("--"):
                given, pending = True, word[-1]
        elif first is None:
            first = index
    if first is not None and not given:
        skip.add(first)
    return skip


def _chdir(argv: list[str], cwd: str | None) -> str | None:
    """The directory the command runs in: the script's, or one its launcher or program moves to."""
    here = cwd
    for i, word in enumerate(argv[:-1]):
        head, _, value = word.partition("=")
        if head in _CHDIR_FLAGS and any(head in _CHDIR.get(basename(w), ()) for w in argv[:i]):
            here = join(here, value or argv[i + 1])
    return here
