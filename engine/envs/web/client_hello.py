"""Which application protocols a TLS ClientHello offers (ALPN), read without decrypting anything.

Chromium offers `h2` on every https connection it opens for a request, and only `http/1.1` on a
connection for a WebSocket (wss), so the offer tells the egress proxy a secure WebSocket from an
https connection through the same kind of tunnel.
"""

from __future__ import annotations

HANDSHAKE = 0x16
CLIENT_HELLO = 0x01
ALPN = 0x0010
RECORD_HEADER = 5
MAX_RECORD = RECORD_HEADER + 16384


def record_length(first: bytes) -> int | None:
    """The length of the TLS record `first` starts (its header included), or None when it starts none."""
    if len(first) < RECORD_HEADER or first[0] != HANDSHAKE:
        return None
    return min(RECORD_HEADER + int.from_bytes(first[3:5], "big"), MAX_RECORD)


def offered_protocols(record: bytes) -> tuple[bytes, ...] | None:
    """The ALPN protocols a ClientHello record offers, in order; () without the extension, None if it is no
    ClientHello (or is cut short)."""
    if record_length(record) is None or len(record) < RECORD_HEADER + 4 or record[RECORD_HEADER] != CLIENT_HELLO:
        return None
    try:
        at = RECORD_HEADER + 4 + 2 + 32  # handshake header, client version, random
        at += 1 + record[at]  # session id
        at += 2 + int.from_bytes(record[at:at + 2], "big")  # cipher suites
        at += 1 + record[at]  # compression methods
        end = at + 2 + int.from_bytes(record[at:at + 2], "big")
        at += 2
        while at + 4 <= end:
            kind, size = int.from_bytes(record[at:at + 2], "big"), int.from_bytes(record[at + 2:at + 4], "big")
            if kind == ALPN:
                return _names(record[at + 6:at + 4 + size])
            at += 4 + size
    except IndexError:
        return None
    return ()


def _names(block: bytes) -> tuple[bytes, ...]:
    names, at = [], 0
    while at < len(block):
        size = block[at]
        names.append(block[at + 1:at + 1 + size])
        at += 1 + size
    return tuple(names)
