"""What the files a call runs as code held when a person was asked about it.

An approval covers a call's arguments, but `sh run.sh` runs whatever `run.sh` holds when it
starts: a safe write by another task in between would run code nobody saw. So the gate names
the files a call runs as code (`Verdict.code`), the tool's environment reads them (`Tool.pin`),
and the approval is bound to the digest of what was read (`binding`): at dispatch they are read
again, and a different digest is a different approval, asked afresh with the new text shown.

The digest covers each file's whole content (its SHA-256), never the bounded text kept to show.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

SHOWN_BYTES = 16 * 1024
"""How much of each file an approval keeps to show (the digest always covers all of it)."""


class PinKind(StrEnum):
    FILE = "file"
    ABSENT = "absent"
    NOT_A_FILE = "not_a_file"
    UNREACHABLE = "unreachable"
    """Outside what the environment can read for the call (outside the workspace, through a home or an
    expansion): nothing is pinned, and the person is told so."""


@dataclass(frozen=True)
class Pin:
    """One file a call runs as code: where, what kind of entry it was, and, for a file, its size,
    SHA-256 and the start of its text (`shown` bytes of it, undecodable bytes replaced; empty for
    binary content, which holds a NUL)."""

    path: str
    kind: PinKind
    size: int = 0
    sha256: str = ""
    text: str = ""
    shown: int = 0
    binary: bool = False

    @property
    def truncated(self) -> bool:
        return self.kind is PinKind.FILE and not self.binary and self.shown < self.size

    def key(self) -> list[str]:
        """What the binding covers of this pin: its path, kind and content digest."""
        return [self.path, self.kind.value, self.sha256]

    def as_json(self) -> dict[str, Any]:
        return {"path": self.path, "kind": self.kind.value, "size": self.size, "sha256": self.sha256,
                "text": self.text, "shown": self.shown, "binary": self.binary}

    @classmethod
    def from_json(cls, obj: dict[str, Any]) -> "Pin":
        return cls(str(obj["path"]), PinKind(obj["kind"]), int(obj.get("size", 0)), str(obj.get("sha256", "")),
                   str(obj.get("text", "")), int(obj.get("shown", 0)), bool(obj.get("binary", False)))

    @classmethod
    def of_content(cls, path: str, data: bytes, size: int, sha256: str) -> "Pin":
        """A file's pin from its first bytes (`data`), its whole size and the digest of all of it."""
        head = data[:SHOWN_BYTES]
        if b"\x00" in head:
            return cls(path, PinKind.FILE, size, sha256, "", 0, True)
        return cls(path, PinKind.FILE, size, sha256, head.decode("utf-8", errors="replace"), len(head))


def binding(pins: tuple[Pin, ...]) -> str:
    """The digest an approval is bound to beyond its call: "" when the call runs no file as code."""
    if not pins:
        return ""
    keys = sorted(pin.key() for pin in pins)
    return hashlib.sha256(json.dumps(keys, separators=(",", ":")).encode()).hexdigest()


def changed(before: tuple[Pin, ...], now: tuple[Pin, ...]) -> list[str]:
    """The paths whose pin differs between two readings, in the order of the newer one."""
    old = {pin.path: pin.key() for pin in before}
    return [pin.path for pin in now if old.get(pin.path) != pin.key()] + [
        path for path in old if path not in {pin.path for pin in now}]
