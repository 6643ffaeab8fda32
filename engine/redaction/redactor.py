"""The Redactor: every secret in text Warden persists becomes `[secret:hmac:<12 hex>]`.

The tag is HMAC-SHA256 of the value under the home's key, so the same value always gives
the same placeholder, and an auditor holding the key can tell whether a value they know
is the one recorded (`matches`), without the record ever holding it. Secrets are found by
shape (`patterns.PATTERNS`), as values of secret-named environment variables, and as
values the runtime was told are secret (`mark`: text typed into a password field). Only
records are redacted: the live call runs with its real values, and a recorded call is
given them back from the vault (`reveal`) when it must run again.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import re
import threading
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from engine.errors import WardenError
from engine.redaction.key import home_key
from engine.redaction.patterns import MAY_HOLD_SECRET, MIN_ENV_VALUE, PATTERNS, secret_values
from engine.redaction.vault import Vault

PLACEHOLDER = re.compile(r"\[secret:hmac:([0-9a-f]{12})\]")
TAG_HEX = 12


class SecretLost(WardenError):
    """A recorded call names a secret whose value this home no longer holds."""


class Redactor:
    """One home's redactor; the key is read (or made) on the first secret, not before."""

    def __init__(self, home: Path, environ: Mapping[str, str] | None = None) -> None:
        self.home = Path(home)
        self._environ = os.environ if environ is None else environ
        self._key: bytes | None = None
        self._vault: Vault | None = None
        self._marked: set[str] = set()
        self._known: dict[str, str] = {}
        self._environment_secrets: frozenset[str] | None = None  # read once: the environment does not change
        self._literal_regex: tuple[int, re.Pattern[str] | None] = (-1, None)
        self._sealed: set[str] = set()
        self._lock = threading.Lock()

    def _keyed(self) -> bytes:
        if self._key is None:
            self._key = home_key(self.home)
        return self._key

    def _opened(self) -> Vault:
        """This home's vault, opened with its key on first use."""
        if self._vault is None:
            self._vault = Vault(self.home, self._keyed())
        return self._vault

    def tag(self, value: str) -> str:
        digest = hmac.new(self._keyed(), value.encode("utf-8", "surrogatepass"), hashlib.sha256).hexdigest()
        return digest[:TAG_HEX]

    def placeholder(self, value: str) -> str:
        return f"[secret:hmac:{self.tag(value)}]"

    def seal(self, value: str) -> str:
        """The placeholder of `value` as a whole, its value sealed in the vault so `reveal` gives it back."""
        return self._replace(value, keep=True)

    def matches(self, value: str, recorded: str) -> bool:
        """Whether `recorded` (a placeholder, or text holding one) stands for `value`."""
        return self.placeholder(value) in recorded

    def mark(self, *values: str) -> None:
        """Take these values for secrets from now on (a password typed into a field, a spec's secret)."""
        with self._lock:
            self._marked.update(v for v in values if isinstance(v, str) and v)

    def text(self, text: str, keep: bool = False) -> str:
        """`text` with every secret replaced; `keep` seals each value found so `reveal` can give it back."""
        if not text:
            return text
        literals = self._literals()
        if literals is not None:
            text = literals.sub(lambda m: self._replace(m.group(0), keep), text)
        if MAY_HOLD_SECRET.search(text):
            for pattern in PATTERNS:
                text = pattern.regex.sub(lambda m: self._swap(m, keep), text)
        return text

    def scrub(self, obj: Any, keep: bool = False) -> Any:
        """A copy of a JSON-like value (dicts, lists, strings; keys too) with every string redacted."""
        if isinstance(obj, str):
            return self.text(obj, keep)
        if isinstance(obj, Mapping):
            return {self.text(k, keep) if isinstance(k, str) else k: self.scrub(v, keep) for k, v in obj.items()}
        if isinstance(obj, (list, tuple)):
            return [self.scrub(item, keep) for item in obj]
        return obj

    def holds_secret(self, obj: Any) -> bool:
        """Whether a JSON-like value holds a secret, or a placeholder standing for one."""
        return "[secret:hmac:" in json.dumps(obj) or self.scrub(obj) != obj

    def reveal(self, obj: Any) -> Any:
        """A copy of a recorded JSON-like value with every placeholder given its value back."""
        if isinstance(obj, str):
            return PLACEHOLDER.sub(lambda m: self._value(m.group(1)), obj) if "[secret:hmac:" in obj else obj
        if isinstance(obj, Mapping):
            return {self.reveal(k): self.reveal(v) for k, v in obj.items()}
        if isinstance(obj, list):
            return [self.reveal(item) for item in obj]
        return obj

    def _literals(self) -> re.Pattern[str] | None:
        """One pattern for every value known to be secret, longest first; rebuilt only when one is added."""
        if self._environment_secrets is None:
            self._environment_secrets = frozenset(secret_values(dict(self._environ)))
        with self._lock:
            count = len(self._marked) + len(self._known)
            if self._literal_regex[0] != count:
                values = self._environment_secrets | {v for v in self._marked if len(v) >= 4} | {
                    v for v in self._known.values() if len(v) >= MIN_ENV_VALUE}
                ordered = sorted(values, key=len, reverse=True)
                regex = re.compile("|".join(map(re.escape, ordered))) if ordered else None
                self._literal_regex = (count, regex)
            return self._literal_regex[1]

    def _swap(self, match: re.Match[str], keep: bool) -> str:
        start, end = match.span("value")
        whole_start = match.start()
        value = match.group("value")
        return match.group(0)[: start - whole_start] + self._replace(value, keep) + match.group(0)[end - whole_start:]

    def _replace(self, value: str, keep: bool) -> str:
        tag = self.tag(value)
        with self._lock:
            self._known[tag] = value
            if keep and tag not in self._sealed:
                self._opened().put(tag, value)
                self._sealed.add(tag)
        return f"[secret:hmac:{tag}]"

    def _value(self, tag: str) -> str:
        if tag not in self._known:
            self._known.update(self._opened().load())
        if tag not in self._known:
            raise SecretLost(f"a recorded call needs secret [secret:hmac:{tag}], which {self._opened().path} does not "
                             f"hold; it cannot be run again as recorded")
        return self._known[tag]
