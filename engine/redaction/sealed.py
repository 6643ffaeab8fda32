"""JSON files Warden keeps beside its database (a snapshot's `manifest.json`, `after.json` and `inverse.json`),
with every secret in their strings redacted as in the database, and given back exactly on reading.

A path can hold a secret (`notes/ghp_….txt`, a directory named after a token in the environment).
The database records it as `notes/[secret:hmac:…].txt`; the snapshot store beside it must not keep
it in clear either, yet an undo needs the real path back, exactly. So such a string, wherever it is
in the document (a value or a key), is written as `REDACTED` followed by its redacted text, each
secret sealed in the home's vault (`Redactor.text(keep=True)`), and `load` reveals it from there;
the redacted text is what a person may be shown (`shown`). A string holding no secret is written
as it is. A string that already holds a placeholder's text, or begins with a NUL (no path can), is
sealed whole instead (`WHOLE` and the placeholder of the whole string), so reading back is exact
for every string.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from engine.errors import WardenError
from engine.redaction.redactor import PLACEHOLDER, Redactor

REDACTED = "\x00redacted\x00"
WHOLE = "\x00sealed\x00"


class SealedError(WardenError):
    """A sealed document was read where no home's vault can give its secrets back."""


def seal(redactor: Redactor | None, document: Any) -> Any:
    """The JSON-like `document` with every string holding a secret sealed (none without a redactor)."""
    if redactor is None:
        return document
    done: dict[str, str] = {}  # a manifest repeats most of its strings (types, copy numbers)

    def sealing(text: str) -> str:
        if text not in done:
            done[text] = _sealed(redactor, text)
        return done[text]

    return _each(document, sealing)


def unseal(redactor: Redactor | None, document: Any) -> Any:
    """A sealed document as it was before `seal`: every sealed string given its value back from the vault."""
    return _each(document, lambda text: _opened(redactor, text))


def shown(document: Any) -> Any:
    """A sealed document as a person may see it: each sealed string as its redacted text."""
    return _each(document, lambda text: text.removeprefix(REDACTED).removeprefix(WHOLE))


def dump(redactor: Redactor | None, path: Path, document: Any) -> None:
    """Write `document` to `path` as JSON, sealed (blocking)."""
    path.write_text(json.dumps(seal(redactor, document)), encoding="utf-8")


def load(redactor: Redactor | None, path: Path) -> Any:
    """Read a document `dump` wrote, exactly as it was given (blocking)."""
    return unseal(redactor, json.loads(path.read_text(encoding="utf-8")))


def load_shown(path: Path) -> Any:
    """Read a document `dump` wrote, as a person may see it (blocking)."""
    return shown(json.loads(path.read_text(encoding="utf-8")))


def _sealed(redactor: Redactor, text: str) -> str:
    if "[secret:hmac:" in text or text.startswith("\x00"):
        return WHOLE + redactor.seal(text)
    redacted = redactor.text(text, keep=True)
    return text if redacted == text else REDACTED + redacted


def _opened(redactor: Redactor | None, text: str) -> str:
    if not text.startswith((REDACTED, WHOLE)):
        return text
    if redactor is None:
        raise SealedError("this snapshot records paths holding secrets, sealed in its home's vault; "
                          "open Warden on that home to use it")
    if text.startswith(WHOLE):
        placeholder = text.removeprefix(WHOLE)
        if not PLACEHOLDER.fullmatch(placeholder):
            raise SealedError(f"a sealed string in this snapshot is damaged: {placeholder!r:.60}")
        return redactor.reveal(placeholder)
    return redactor.reveal(text.removeprefix(REDACTED))


def _each(document: Any, change: Callable[[str], str]) -> Any:
    """A copy of a JSON-like value with `change` applied to every string, keys included."""
    if isinstance(document, str):
        return change(document)
    if isinstance(document, dict):
        return {change(key) if isinstance(key, str) else key: _each(value, change) for key, value in document.items()}
    if isinstance(document, (list, tuple)):
        return [_each(item, change) for item in document]
    return document
