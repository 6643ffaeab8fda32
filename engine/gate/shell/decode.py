"""Works out the literal text a pipeline prints, so `echo … | base64 -d | sh` can be read.

Only sources with literal arguments (echo, printf, here-strings) and pure decoders
(base64, xxd -r, rev) are simulated; anything else means "unknown".
"""

from __future__ import annotations

import base64
import binascii
import re

from engine.gate.shell.view import basename
from engine.gate.shell.words import ansi_c

MAX_TEXT = 64_000
_ECHO_FLAGS = re.compile(r"-[neE]{1,3}")
_PRINTF = re.compile(r"%(?:-?\d{0,3})?[sbdq]")


def source(argv: list[str], stdin: str | None) -> str | None:
    """The text a literal-printing command writes, or None if it is not one."""
    name = basename(argv[0]) if argv else ""
    args = argv[1:]
    if name == "echo":
        escapes = False
        while args and _ECHO_FLAGS.fullmatch(args[0]):
            escapes = escapes or "e" in args[0]
            args = args[1:]
        text = " ".join(args)
        return ansi_c(text) if escapes else text
    if name == "printf" and args:
        fmt, values = ansi_c(args[0]), iter(args[1:])
        return _PRINTF.sub(lambda m: ansi_c(next(values, "")) if m.group(0).endswith("b") else next(values, ""), fmt)
    if name in ("cat", "tee") and not args and stdin is not None:
        return stdin
    return None


def transform(argv: list[str], text: str) -> str | None:
    """Applies a decoding stage (base64 -d, xxd -r -p, rev) to `text`, or None if not one."""
    name = basename(argv[0]) if argv else ""
    flags = set(argv[1:])
    try:
        if name in ("base64", "b64", "base64url") and flags & {"-d", "--decode", "-D", "-di", "-id"}:
            return base64.b64decode("".join(text.split()) + "==", validate=False).decode("utf-8", "replace")
        if name == "openssl" and "base64" in flags and "-d" in flags:
            return base64.b64decode("".join(text.split()) + "==").decode("utf-8", "replace")
        if name == "xxd" and "-r" in flags and "-p" in flags | {a for a in flags if a.startswith("-")}:
            return binascii.unhexlify("".join(text.split())).decode("utf-8", "replace")
        if name == "rev" and not flags:
            return "\n".join(line[::-1] for line in text.split("\n"))
    except (binascii.Error, ValueError):
        return None
    if name in ("cat", "tee") and not [a for a in flags if not a.startswith("-")]:
        return text
    return None


def simulate(stages: list[tuple[list[str], str | None]]) -> str | None:
    """The literal output of a pipeline given as (argv, stdin) pairs, or None."""
    if not stages:
        return None
    text = source(*stages[0])
    for argv, _stdin in stages[1:]:
        if text is None or len(text) > MAX_TEXT:
            return None
        text = transform(argv, text)
    return text
