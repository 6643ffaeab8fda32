"""Sealed secret values, so a call recorded with placeholders can be run again after a restart.

A recorded call keeps `[secret:hmac:…]` where its secret was; resuming it (an approval given
in another process, a crash mid-step) needs the real value back. Each value is sealed with a
key derived from the home's redaction key (HMAC-SHA256 in counter mode, then an HMAC over
nonce and ciphertext) and appended as one JSON line to `$WARDEN_HOME/redaction.vault`
(mode 0600), outside the database, the events and the snapshot store.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import os
import secrets
from pathlib import Path

VAULT_FILE = "redaction.vault"


class Vault:
    def __init__(self, home: Path, key: bytes) -> None:
        self.path = Path(home) / VAULT_FILE
        self._enc = hmac.new(key, b"warden vault: encrypt", hashlib.sha256).digest()
        self._mac = hmac.new(key, b"warden vault: authenticate", hashlib.sha256).digest()

    def put(self, tag: str, value: str) -> None:
        nonce = secrets.token_bytes(16)
        sealed = _xor(value.encode("utf-8", "surrogatepass"), self._stream(nonce))
        line = json.dumps({"tag": tag, "nonce": nonce.hex(), "sealed": base64.b64encode(sealed).decode(),
                           "mac": self._sign(nonce, sealed)}) + "\n"
        fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        try:
            os.write(fd, line.encode())
        finally:
            os.close(fd)

    def load(self) -> dict[str, str]:
        """Every value sealed so far, by tag; lines that fail their check (torn, tampered) are skipped."""
        try:
            lines = self.path.read_text("utf-8").splitlines()
        except FileNotFoundError:
            return {}
        found = {}
        for line in lines:
            try:
                entry = json.loads(line)
                nonce, sealed = bytes.fromhex(entry["nonce"]), base64.b64decode(entry["sealed"])
            except (ValueError, KeyError, TypeError):
                continue
            if hmac.compare_digest(entry.get("mac", ""), self._sign(nonce, sealed)):
                found[entry["tag"]] = _xor(sealed, self._stream(nonce, len(sealed))).decode("utf-8", "surrogatepass")
        return found

    def _stream(self, nonce: bytes, size: int | None = None):
        counter = 0
        while size is None or counter * 32 < size:
            yield from hmac.new(self._enc, nonce + counter.to_bytes(8, "big"), hashlib.sha256).digest()
            counter += 1

    def _sign(self, nonce: bytes, sealed: bytes) -> str:
        return hmac.new(self._mac, nonce + sealed, hashlib.sha256).hexdigest()


def _xor(data: bytes, stream) -> bytes:
    return bytes(b ^ k for b, k in zip(data, stream))
