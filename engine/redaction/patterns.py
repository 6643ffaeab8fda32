"""What a secret looks like in text: tokens by their shape, values by the name they are assigned to.

Each pattern's `value` group is the secret; the rest of the match (a `Bearer `, a `password=`)
is context and stays readable. Values already rendered as a placeholder never match again.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_NOT_PLACEHOLDER = r"(?!\[secret:)"
# A name that holds a secret: a strong word anywhere in it but not followed by more letters (`accessToken`,
# `DB_PASSWORD`, not `tokenizer` or `max_tokens`), or `pass`/`pwd` as a whole part; bounded, so a long run of
# name characters costs a bounded scan.
_SECRET_WORD = (r"[A-Za-z0-9_.-]{0,40}?(?:password|passwd|passphrase|secret|token|credentials?|apikey"
                r"|(?:api|private|access|signing|encryption|master)[_-]?key|(?<![A-Za-z0-9])(?:pass|pwd))"
                r"(?![A-Za-z0-9])(?:[_.-][A-Za-z0-9_.-]{0,40})?")
# The value: everything inside the quote that opened it (spaces too), else up to the next separator.
_VALUE = r"""(?P<value>(?<=")[^"\n]{4,}(?=")|(?<=')[^'\n]{4,}(?=')|[^\s"'&;,<>|)]{4,})"""


@dataclass(frozen=True)
class SecretPattern:
    name: str
    regex: re.Pattern[str]


def _p(name: str, pattern: str, flags: int = 0) -> SecretPattern:
    return SecretPattern(name, re.compile(pattern, flags))


PATTERNS: tuple[SecretPattern, ...] = (
    _p("private-key", r"(?P<value>-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY-----.*?-----END (?:[A-Z0-9]+ )*PRIVATE KEY-----)",
       re.DOTALL),
    _p("anthropic", r"(?P<value>\bsk-ant-[A-Za-z0-9_\-]{20,})"),
    _p("openai", r"(?P<value>\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_\-]{20,})"),
    _p("aws-access-key", r"(?P<value>\b(?:AKIA|ASIA)[0-9A-Z]{16}\b)"),
    _p("aws-secret", r"(?i)aws_?secret_?access_?key[\"']?\s*[=:]\s*[\"']?(?P<value>[A-Za-z0-9/+=]{40,})"),
    _p("github", r"(?P<value>\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{30,}|\bgithub_pat_[A-Za-z0-9_]{22,})"),
    _p("slack", r"(?P<value>\bxox[abposre]-[A-Za-z0-9\-]{10,})"),
    _p("google", r"(?P<value>\bAIza[0-9A-Za-z_\-]{35})"),
    _p("jwt", r"(?P<value>\beyJ[A-Za-z0-9_\-]{8,}\.eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,})"),
    _p("stripe", r"(?P<value>\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,})"),
    _p("gitlab", r"(?P<value>\bglpat-[A-Za-z0-9_\-]{20,})"),
    _p("npm", r"(?P<value>\bnpm_[A-Za-z0-9]{36})"),
    _p("huggingface", r"(?P<value>\bhf_[A-Za-z0-9]{30,})"),
    _p("sendgrid", r"(?P<value>\bSG\.[A-Za-z0-9_\-]{16,}\.[A-Za-z0-9_\-]{16,})"),
    _p("bearer", rf"(?i)\bbearer\s+{_NOT_PLACEHOLDER}(?P<value>[A-Za-z0-9._~+/\-]{{8,}}=*)"),
    _p("basic-auth", rf"(?i)\bauthorization[\"']?\s*[=:]\s*[\"']?basic\s+{_NOT_PLACEHOLDER}"
       rf"(?P<value>[A-Za-z0-9+/]{{8,}}={{0,2}})"),
    _p("url-credentials", rf"://[^/\s:@\"']+:{_NOT_PLACEHOLDER}(?P<value>[^/\s@\"']{{3,}})@"),
    _p("assignment",
       rf"(?i)(?<![A-Za-z0-9_.\[-]){_SECRET_WORD}[\"']?(?:\s*[=:]\s*|\s+(?=[\"']))[\"']?{_NOT_PLACEHOLDER}(?!\$)"
       rf"{_VALUE}"),
    _p("option", rf"(?i)--(?:password|passwd|token|api-key|apikey|secret|client-secret)(?:\s+|=)[\"']?"
       rf"{_NOT_PLACEHOLDER}{_VALUE}"),
)

# Text with none of these cannot match any pattern above (each pattern holds one of them), so most text
# (paths, listings, ordinary output) is passed over after one search. A pattern added above must add its anchor.
MAY_HOLD_SECRET = re.compile(r"(?i)-----BEGIN|sk-|sk_|rk_|AKIA|ASIA|gh[opusr]_|github_pat_|xox|AIza|eyJ|glpat-|npm_"
                             r"|hf_|SG\.|bearer|authorization|://|pass|pwd|secret|token|credential|key")

_SECRET_NAME = re.compile(
    r"(?i)(?:^|_)(?:KEY|APIKEY|TOKEN|SECRET|SECRETS|PASSWORD|PASSWD|PASSPHRASE|CREDENTIAL|CREDENTIALS|AUTH|PAT)(?:$|_)"
    r"|SECRET|PASSWORD|TOKEN")
_NOT_SECRET_NAMES = frozenset({"PWD", "OLDPWD", "KEYMAP", "XAUTHORITY"})
MIN_ENV_VALUE = 8


def secret_name(name: str) -> bool:
    """An environment variable whose value is taken for a secret: `*_KEY`, `*_TOKEN`, `*_SECRET`, `PASSWORD` ..."""
    return name.upper() not in _NOT_SECRET_NAMES and _SECRET_NAME.search(name) is not None


def secret_values(environ: dict[str, str]) -> set[str]:
    """The values of the secret-named variables, long enough that replacing them cannot mangle ordinary text."""
    return {value for name, value in environ.items() if secret_name(name) and len(value) >= MIN_ENV_VALUE}
