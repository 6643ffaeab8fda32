"""The home's redaction key: 32 random bytes in `$WARDEN_HOME/redaction.key`, mode 0600, made on first use.

Made by linking a finished file into place, so two processes starting at once agree on one key.
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path

from engine.errors import WardenError

KEY_FILE = "redaction.key"


class RedactionKeyError(WardenError):
    """The home's redaction key cannot be read or made."""


def home_key(home: Path) -> bytes:
    path = Path(home) / KEY_FILE
    try:
        return _read(path)
    except FileNotFoundError:
        pass
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        draft = path.with_name(f".{KEY_FILE}.{os.getpid()}.{secrets.token_hex(4)}")
        fd = os.open(draft, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            os.write(fd, secrets.token_hex(32).encode())
            os.fsync(fd)
        finally:
            os.close(fd)
        try:
            os.link(draft, path)
        except FileExistsError:
            pass
        finally:
            draft.unlink(missing_ok=True)
        return _read(path)
    except OSError as exc:
        raise RedactionKeyError(f"cannot make the redaction key {path}: {exc.strerror or exc}") from None


def _read(path: Path) -> bytes:
    text = path.read_text("ascii").strip()
    try:
        key = bytes.fromhex(text)
    except ValueError:
        key = b""
    if len(key) < 16:
        raise RedactionKeyError(f"the redaction key {path} is damaged; restore it from a backup (hashes made with "
                                f"another key will not match)")
    return key
