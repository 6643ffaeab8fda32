"""Which secret a command could read: any path among its words, redirections or working directory.

Readers are not listed: `sort`, `date -f`, `paste` and `cat` all print a key file, so every
program given a secret location counts, through an argument, an option's value
(`--file=…`, `if=…`, `HEAD:.env`), an input redirection, a relative path after the script
moved (`cd ~/.ssh && paste id_rsa`), or a glob that could expand to one (`/etc/shado?`).
Only programs that never open their path arguments (`ls`, `stat`, `test`, `find` without
`-exec`, …) are exempt, and only while their output is not handed on: `ls ~/.ssh | xargs
cat` reads what `ls` names. Options whose value is a certificate or CA store (`curl --cacert`,
`openssl x509 -in`, `openssl verify`) or a key only fingerprinted (`ssh-keygen -l -f`) are not
reads of a secret.

The same module says what secret a command hands on to whatever reads its output (`Source`):
exfiltration rules ask it about every stage that feeds a sender.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from engine.gate.memo import per_word
from engine.gate.paths import (INDEX_SEARCHERS, PLAIN_VARIABLES, RECURSIVE_GREPS, SEARCHERS, SECRET_NAMES,
                               SECRET_SAMPLES, fold, is_device, may_be_secret, reaches_secret)
from engine.gate.packs.model import Findings
from engine.gate.shell.parse import parse
from engine.gate.shell.unwrap import unwrap
from engine.gate.shell.view import Command, basename
from engine.gate.shell.writes import OUTPUT_NAMES, output_words

NAMES_ONLY = frozenset(
    "ls dir vdir tree stat du find test [ [[ echo printf basename dirname realpath readlink cd pushd popd"
    " which whereis type true false : pwd whoami id uname nproc".split()
    + "get-childitem get-item get-acl test-path resolve-path split-path join-path convert-path where".split()
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
    r"|COOKIE|KEY)(?:_|$)|(?:PASSWORD|PASSWD|PASSPHRASE|TOKEN|SECRET|APIKEY)(?:_|$)|_PWD$|^KUBECONFIG$"
)
_DUMPS = frozenset({"export", "declare", "typeset", "readonly", "local", "set"})
_PS_VALUES = frozenset("-o -O -p -u -U -g -G -t -C -q --format --pid --user --group --sort -s --sid --ppid".split())
_JQ_ENV = re.compile(r"(?<![.\w$/-])env\b(?!\.(?:json|ya?ml|toml|txt|lock)\b)|\$ENV\b|\benvsubst\b")
# Options whose value is a certificate or CA store: public by what the option means.
_CERTIFICATE_OPTIONS: dict[str, frozenset[str]] = {
    "curl": frozenset("--cacert --capath --crlfile --proxy-cacert --proxy-capath --pinnedpubkey".split()),
    "wget": frozenset("--ca-certificate --ca-directory --crl-file --pinnedpubkey".split()),
    "openssl": frozenset("-CAfile -CApath -CAstore -untrusted -trusted -CRLfile -chainCAfile -verifyCAfile".split()),
    "http": frozenset({"--verify"}), "https": frozenset({"--verify"}), "xh": frozenset({"--verify"}),
}
# openssl commands that only ever read certificates from their files; a key comes in only
# through these options.
_OPENSSL_CERTIFICATES = frozenset({"x509", "verify", "crl", "crl2pkcs7"})
_OPENSSL_KEY_OPTIONS = frozenset({"-signkey", "-key", "-CAkey", "-passin"})


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


# Programs that change or remove the files they are given and never show or copy what they hold.
LEAVES_CONTENTS = frozenset({"rm", "rmdir", "unlink", "touch", "mkdir", "chmod", "chown", "chgrp", "utime"})


def reveals(argv: list[str]) -> bool:
    """True when a command given any paths could show or pass on what they hold (`cat`, `cp`, `curl -T`), not
    only change or remove them (`rm`): paths read at run time handed to it could name a secret it reads."""
    return opaque(argv) and unwrap(argv).name not in LEAVES_CONTENTS


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
        skip = _patterns(program) if name in _PATTERN_FIRST else set()
        if name in _CERTIFICATE_OPTIONS or name == "ssh-keygen":
            skip |= certificate_positions(program, name)
        written = output_words(Command(tuple(program), name=name)) if name in OUTPUT_NAMES else frozenset()
        words = [word for index, word in enumerate(argv)
                 if index != offset and index - offset not in skip and word not in written]
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


def certificate_positions(program: Sequence[str], name: str) -> set[int]:
    """Positions (in `program`) of words that name a certificate or CA store, or a key that is only
    fingerprinted (`ssh-keygen -l -f key`): reading them reveals no secret."""
    skip: set[int] = set()
    options = _CERTIFICATE_OPTIONS.get(name, frozenset())
    if name == "openssl" and len(program) > 1 and program[1] in _OPENSSL_CERTIFICATES:
        keys = {index + 1 for index, word in enumerate(program) if word in _OPENSSL_KEY_OPTIONS}
        return {index for index in range(2, len(program)) if index not in keys}
    if name == "ssh-keygen":
        clusters = [word for word in program[1:] if word.startswith("-") and not word.startswith("--")]
        if not any("l" in word or "L" in word for word in clusters):
            return skip
        options = frozenset({"-f"})
        for index, word in enumerate(program[1:-1], start=1):
            if word in clusters and word.endswith("f"):
                skip.add(index + 1)
    for index, word in enumerate(program[1:], start=1):
        head, equals, _ = word.partition("=")
        if head in options:
            skip.add(index if equals else index + 1)
    return skip


_RECURSIVE = frozenset({"-r", "-R", "--recursive", "--dereference-recursive"})
# Trees that hold other people's keys or the machine's own: a search rooted there finds them.
_SEARCH_ROOTS = frozenset({"/", "~", "/home", "/Users", "/etc", "/var", "/opt", "/srv", "/mnt", "/media", "/private",
                           "/Volumes", "/run", "/proc"})
# What a search for key material looks for: key headers, access-key prefixes, token and password words,
# and the names of key and credential files.
_KEY_MATERIAL = re.compile(
    r"(?i)private|BEGIN|\bAKIA|\bASIA|passw|secret|token|api.{0,8}key|access.{0,8}key"
    r"|credential|bearer|\bghp_|\bgho_|github_pat|\bglpat|\bxox[abpr]|\bsk-|\bAIza|\bid_|\.pem\b|\.key\b|\.p12"
    r"|\.pfx|\.kdbx|\.ppk|\.env\b|netrc|\.npmrc|\.pypirc|\.pgpass|wallet|keystore|\.agekey|\.age\b|\.gpg\b|\.asc\b"
    r"|\.tfstate|authorized_keys|kube/?config"
)


def searches_for_secrets(cmd: Command) -> str | None:
    """A search of a home directory or the whole filesystem for key material (`grep -r "PRIVATE KEY" ~`,
    `rg -l AKIA /`, `find ~ -name 'id_*'`, `locate .pem`): what it finds is every key on the machine, so it
    is a read of them, whatever the program prints. Searches of the workspace stay reads of the workspace."""
    name = cmd.name
    if name in RECURSIVE_GREPS:
        if not cmd.flags & _RECURSIVE and not any(a.startswith("--directories=rec") or a == "recurse" for a in cmd.args):
            return None
    elif name not in SEARCHERS:
        return None
    roots = [word for word in cmd.operands if _broad(join(cmd.cwd, word))]
    if name not in INDEX_SEARCHERS and not roots and (cmd.cwd is None or not _broad(cmd.cwd)):
        return None
    for word in cmd.args:
        if word not in roots and _KEY_MATERIAL.search(word) is not None:
            return " ".join(cmd.argv)[:200]
    return None


@per_word(limit=256)
def _broad(path: str) -> bool:
    """A tree some secret lies under: a home, the filesystem root, or a system tree holding keys."""
    text = path
    while text.endswith(("/*", "/.")) and len(text) > 2:
        text = text[:-2]
    folded = fold(text)
    return folded in _SEARCH_ROOTS or (folded.startswith(("/", "~")) and reaches_secret(folded))


def dumps_environment(cmd: Command) -> bool:
    """`printenv`, `export -p`, bare `set`/`declare`/`local`, `ps e`, `jq -n env`: all print variables."""
    if cmd.name == "printenv":
        return not cmd.operands or any(name not in PLAIN_VARIABLES for name in cmd.operands)
    if cmd.name in _DUMPS:
        return not any("=" in a for a in cmd.operands) and (cmd.name != "set" or not cmd.args) and (
            cmd.name not in ("export", "readonly", "local") or not cmd.operands)
    if cmd.name == "ps":
        return _ps_environment(cmd.args)
    if cmd.name in ("jq", "yq", "gojq", "jaq"):
        return _JQ_ENV.search(cmd.text) is not None
    return False


def _ps_environment(args: tuple[str, ...]) -> bool:
    """BSD-style `ps e…` (a word of letters without a dash) or `-E` shows each process's environment."""
    skip = False
    for arg in args:
        if skip:
            skip = False
        elif arg in _PS_VALUES:
            skip = True
        elif arg == "-E" or (arg.isalpha() and "e" in arg):
            return True
        elif arg.isalpha() and any(ch in arg for ch in "oOpUtkq"):
            skip = True
    return False


@dataclass(frozen=True, slots=True)
class Source:
    """Secret material a command hands on through its output or its words: what it is (named for the
    approver) and the hosts that may receive it, the service that issued a token (none for keys,
    password hashes or the environment)."""

    what: str
    issuers: tuple[str, ...] = ()


_GITHUB = ("github.com", "githubusercontent.com")
_GOOGLE = ("googleapis.com", "google.com")
_AZURE = ("azure.com", "azure.net", "microsoft.com", "microsoftonline.com", "windows.net")
_AWS = ("amazonaws.com", "aws.amazon.com")
# Cloud metadata services hand out tokens for their cloud's APIs, and take them back themselves
# (IMDSv2 asks for its own token in a header).
_METADATA_HOSTS = ("169.254.169.254", "169.254.170.2", "metadata.google.internal", "fd00:ec2::254", "100.100.100.200")
_CLOUD = _AWS + _GOOGLE + _AZURE + ("aliyuncs.com",) + _METADATA_HOSTS
_ISSUERS: tuple[tuple[re.Pattern[str], tuple[str, ...]], ...] = tuple((re.compile(pattern), hosts) for pattern, hosts in (
    (r"(?:GITHUB|GH)_", _GITHUB), (r"GITLAB_|CI_JOB_TOKEN$", ("gitlab.com",)), (r"OPENAI_", ("openai.com",)),
    (r"ANTHROPIC_", ("anthropic.com",)), (r"AWS_", _AWS), (r"(?:GOOGLE|GCP|GCLOUD|CLOUDSDK)_", _GOOGLE),
    (r"(?:AZURE|ARM)_", _AZURE), (r"NPM_", ("npmjs.org", "npmjs.com")), (r"(?:HF|HUGGING_?FACE)_", ("huggingface.co",)),
    (r"SLACK_", ("slack.com",)), (r"STRIPE_", ("stripe.com",)), (r"DOCKER(?:HUB)?_", ("docker.io", "docker.com")),
    (r"(?:PYPI|TWINE)_", ("pypi.org",)), (r"(?:CLOUDFLARE|CF)_", ("cloudflare.com",)),
    (r"(?:DIGITALOCEAN|DO)_", ("digitalocean.com",)), (r"VERCEL_", ("vercel.com",)), (r"NETLIFY_", ("netlify.com",)),
    (r"HEROKU_", ("heroku.com",)), (r"SENTRY_", ("sentry.io",)), (r"(?:DATADOG|DD)_", ("datadoghq.com",)),
    (r"TWILIO_", ("twilio.com",)), (r"SENDGRID_", ("sendgrid.com",)), (r"TELEGRAM_", ("telegram.org",)),
    (r"DISCORD_", ("discord.com", "discordapp.com")), (r"CODECOV_", ("codecov.io",)), (r"CIRCLE(?:CI)?_", ("circleci.com",)),
    (r"(?:JIRA|ATLASSIAN|CONFLUENCE)_", ("atlassian.net", "atlassian.com")), (r"LINEAR_", ("linear.app",)),
    (r"(?:GEMINI|GOOGLE_AI)_", _GOOGLE), (r"MISTRAL_", ("mistral.ai",)), (r"GROQ_", ("groq.com",)),
    (r"COHERE_", ("cohere.com", "cohere.ai")), (r"REPLICATE_", ("replicate.com",)), (r"PAGERDUTY_", ("pagerduty.com",)),
    (r"MAILGUN_", ("mailgun.net",)),
))
# Commands that print a credential: (program, sub-command path, the hosts that credential is for).
_PRINTERS: tuple[tuple[str, tuple[str, ...], tuple[str, ...]], ...] = (
    ("gh", ("auth", "token"), _GITHUB), ("gcloud", ("auth", "print-access-token"), _GOOGLE),
    ("gcloud", ("auth", "print-identity-token"), _GOOGLE),
    ("gcloud", ("auth", "application-default", "print-access-token"), _GOOGLE),
    ("az", ("account", "get-access-token"), _AZURE), ("aws", ("sts",), _AWS), ("aws", ("ecr", "get-login-password"), _AWS),
    ("aws", ("configure", "get"), _AWS), ("aws", ("configure", "export-credentials"), _AWS),
    ("vault", ("read",), ()), ("vault", ("kv", "get"), ()), ("vault", ("print", "token"), ()), ("op", ("read",), ()),
    ("op", ("item", "get"), ()), ("pass", ("show",), ()), ("gopass", ("show",), ()), ("secret-tool", ("lookup",), ()),
    ("kubectl", ("create", "token"), ()), ("doppler", ("secrets",), ()), ("bw", ("get",), ()),
    ("security", ("find-generic-password",), ()), ("security", ("find-internet-password",), ()),
    ("heroku", ("auth:token",), ("heroku.com",)), ("heroku", ("config",), ("heroku.com",)),
    ("aws", ("secretsmanager", "get-secret-value"), _AWS), ("aws", ("ssm", "get-parameter"), _AWS),
    ("aws", ("ssm", "get-parameters"), _AWS), ("aws", ("ssm", "get-parameters-by-path"), _AWS),
    ("gcloud", ("secrets", "versions", "access"), _GOOGLE), ("az", ("keyvault", "secret", "show"), _AZURE),
    ("az", ("keyvault", "secret", "download"), _AZURE), ("vercel", ("env", "pull"), ("vercel.com",)),
    ("aws", ("iam", "create-access-key"), _AWS), ("gcloud", ("iam", "service-accounts", "keys", "create"), _GOOGLE),
    ("az", ("ad", "sp", "create-for-rbac"), _AZURE),
)
# `aws sts` operations that print who is calling, not a credential (every other one hands out keys).
_STS_IDENTITY = frozenset({("get-caller-identity",), ("get-access-key-info",), ("decode-authorization-message",)})
_SECRET_EXPORTS = frozenset({"--export-secret-keys", "--export-secret-subkeys", "-d", "--decrypt"})
_FETCHERS = frozenset("curl wget http https xh xhs httpie python python3 nc ncat socat".split())
_METADATA = re.compile(r"169\.254\.169\.254|169\.254\.170\.2|metadata\.google\.internal|fd00:ec2::254|100\.100\.100\.200"
                       r"|\bmetadata/(?:v1|computeMetadata|identity|instance)")
_VARIABLE = re.compile(r"\$\{?([A-Za-z_]\w{0,63})")
_INTERPRETERS = re.compile(r"(?:python|pypy|perl|ruby|node|nodejs|php|lua|bun|deno)[\d.]{0,5}")
_PATH_LITERAL = re.compile(r"""['"]([~/$][^'"\s]{1,200})['"]""")
_ACCOUNTS = frozenset({"/etc/passwd", "/etc/master.passwd"})
MAX_SUBSTITUTIONS = 8
MAX_NESTING = 3
MAX_COMMANDS = 32


def issuers(variable: str) -> tuple[str, ...]:
    """The hosts a token in `variable` is for (`GITHUB_TOKEN` → github.com), or none when unknown."""
    for pattern, hosts in _ISSUERS:
        if pattern.match(variable):
            return hosts
    return ()


def variable_source(words: Sequence[str]) -> Source | None:
    """A variable named like a secret (`$GITHUB_TOKEN`, `${NPM_TOKEN}`) expanded in one of `words`."""
    for word in words:
        if "$" not in word:
            continue
        for match in _VARIABLE.finditer(word):
            name = match.group(1)
            if SECRET_VARIABLE.search(name):
                return Source("$" + name, issuers(name))
    return None


def substitutions(text: str) -> list[str]:
    """The bodies of the `$(…)`, `<(…)` and backquoted substitutions in `text` (outermost only, at most
    `MAX_SUBSTITUTIONS`); an unterminated one runs to the end."""
    found: list[str] = []
    index = 0
    while len(found) < MAX_SUBSTITUTIONS:
        start = min((at for at in (text.find("$(", index), text.find("<(", index)) if at != -1), default=-1)
        tick = text.find("`", index)
        if start == -1 and tick == -1:
            break
        if tick != -1 and (start == -1 or tick < start):
            end = text.find("`", tick + 1)
            found.append(text[tick + 1 : end if end != -1 else len(text)])
            if end == -1:
                break
            index = end + 1
            continue
        cursor = _closing(text, start + 1)
        found.append(text[start + 2 : cursor])
        index = cursor + 1
    return found


_PARENTHESES = re.compile(r"[()]")


def _closing(text: str, opening: int) -> int:
    """The position of the parenthesis closing the one at `opening` (the end of `text` if none)."""
    depth = 0
    for match in _PARENTHESES.finditer(text, opening):
        depth += 1 if match.group() == "(" else -1
        if depth == 0:
            return match.start()
    return len(text)


def text_source(text: str, cwd: str | None = None, depth: int = 0) -> Source | None:
    """Secret material the commands of a script print (the body of a substitution): any of them
    reading a secret, printing the environment or a credential, or expanding a secret variable.
    The parse already lists the commands of nested substitutions, so they are not expanded again."""
    if depth > MAX_NESTING or not text.strip():
        return None
    found = variable_source([text])
    if found is not None:
        return found
    for command in parse(text[:4000]).commands[:MAX_COMMANDS]:
        found = stage_source(command.argv, cwd, MAX_NESTING)
        if found is not None:
            return found
        for redirect in command.redirects:
            if not redirect.writes and redirect.op.startswith("<"):
                found = path_source(redirect.target, cwd)
                if found is not None:
                    return found
    return None


def pipeline_source(stages: str, cwd: str | None = None) -> Source | None:
    """Secret material the earlier stages of a pipeline feed on (`Command.upstream`, stages joined
    by ` | `): each stage is read as `stage_source` reads a command."""
    for stage in stages.split(" | "):
        found = _stage_text_source(stage, cwd) if len(stage) <= 256 else _stage_text_source.__wrapped__(stage, cwd)
        if found is not None:
            return found
    return None


@lru_cache(maxsize=1024)
def _stage_text_source(stage: str, cwd: str | None) -> Source | None:
    """One pipeline stage, as joined words (a long pipeline shows each stage to every later one)."""
    inner = substitutions(stage)
    for body in inner:
        found = text_source(body, cwd, 1)
        if found is not None:
            return found
    for body in inner:
        stage = stage.replace(body, " ")
    return stage_source(stage.replace("$(", " ").split(), cwd)


def stage_source(argv: Sequence[str], cwd: str | None = None, depth: int = 0) -> Source | None:
    """Secret material a command prints for whatever reads its output: a secret file or raw disk it
    reads, the environment, a credential a CLI prints, cloud metadata, a variable named like a
    secret, or any of these inside its substitutions. Programs that only print names they are
    given (`ls ~/.ssh`, `find ~/.ssh` without `-exec`) print no secret."""
    if not argv:
        return None
    un = unwrap(list(argv))
    program, name = un.argv, un.name
    if not program:
        return Source("the environment") if "env" in un.launchers else None
    if depth < MAX_NESTING and any("$(" in w or "`" in w or "<(" in w for w in program):
        for body in substitutions(" ".join(program)):
            found = text_source(body, cwd, depth + 1)
            if found is not None:
                return found
    found = variable_source(program)
    if found is not None:
        return found
    cmd = Command(tuple(program), name=name)
    if dumps_environment(cmd):
        return Source("the environment")
    printed = printed_credential(cmd)
    if printed is not None:
        return printed
    if name in _FETCHERS and _METADATA.search(cmd.text) is not None:
        return Source("cloud metadata credentials", _CLOUD)
    if name in NAMES_ONLY and not (name == "find" and any(w in ("-exec", "-execdir", "-ok", "-okdir") for w in program)):
        return None
    skip = _patterns(program) if name in _PATTERN_FIRST else set()
    if name in _CERTIFICATE_OPTIONS or name == "ssh-keygen":
        skip |= certificate_positions(program, name)
    code = _INTERPRETERS.fullmatch(name) is not None
    for index, word in enumerate(program[1:], start=1):
        if index in skip:
            continue
        found = path_source(word, cwd)
        if found is not None:
            return found
        if code and ("'" in word or '"' in word):
            for literal in _PATH_LITERAL.findall(word):
                found = path_source(literal, cwd)
                if found is not None:
                    return found
    return None


def path_source(word: str, cwd: str | None = None) -> Source | None:
    """A secret, the account list or a raw disk named by one word. `/etc/passwd` may be read (it is
    world-readable), but sending it off the machine hands over the list of accounts to attack. A folder
    inside a home that holds credentials (`~/.claude`, `~/.config`) sends them with it; the home itself
    is a backup, rated as any upload."""
    return _path_source_here(word) if cwd is None else _path_source(word, cwd)


@per_word(limit=256)
def _path_source_here(word: str) -> Source | None:
    return _path_source(word, None)


def _path_source(word: str, cwd: str | None) -> Source | None:
    found = _secret_word(word) if cwd is None else _secret_word_in(word, cwd)
    if found is not None:
        return Source(found)
    if "~" in word or "HOME" in word or "/home/" in word or "/Users/" in word or "/root" in word or cwd is not None:
        folded = join(cwd, word)
        if folded.startswith("~/") and reaches_secret(folded):
            return Source("the credentials under " + folded)
    if "passwd" in word and join(cwd, word) in _ACCOUNTS:
        return Source(join(cwd, word))
    for value in (word, word.partition("=")[2]):
        if value.startswith("/") and is_device(value if cwd is None else join(cwd, value)):
            return Source("the raw disk " + value)
    return None


def printed_credential(cmd: Command) -> Source | None:
    """A CLI printing a credential (`gh auth token`, `gcloud auth print-access-token`, `vault read`)."""
    name, operands = cmd.name, cmd.operands
    if name in ("gpg", "gpg2"):
        return Source("private keys or decrypted data from gpg") if cmd.flags & _SECRET_EXPORTS else None
    if name == "kubectl" and operands[:2] == ("config", "view") and "--raw" in cmd.flags:
        return Source("the cluster credentials kubectl prints")
    if name == "kubectl" and operands[:2] in (("get", "secret"), ("get", "secrets")) and cmd.flags & {"-o", "--output"}:
        return Source("the Kubernetes secrets kubectl prints")
    if name == "aws" and operands[:1] == ("sts",) and operands[1:2] in _STS_IDENTITY:
        return None
    if name == "doppler" and operands == ("secrets",) and "--only-names" in cmd.flags:
        return None
    for program, path, hosts in _PRINTERS:
        if name == program and operands[: len(path)] == path:
            return Source(f"the credential `{' '.join((program, *path))}` prints", hosts)
    return None


def _chdir(argv: list[str], cwd: str | None) -> str | None:
    """The directory the command runs in: the script's, or one its launcher or program moves to."""
    here = cwd
    for i, word in enumerate(argv[:-1]):
        head, _, value = word.partition("=")
        if head in _CHDIR_FLAGS and any(head in _CHDIR.get(basename(w), ()) for w in argv[:i]):
            here = join(here, value or argv[i + 1])
    return here
