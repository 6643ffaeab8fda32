"""Works out the literal text a pipeline prints, so `echo … | base64 -d | sh` can be read.

Only sources with literal arguments (echo, printf, here-strings) and pure decoders (base64,
base32, basenc, `openssl enc -d -base64`, `xxd -r`, `rev`, `tr` with literal sets) are
simulated, and so is `awk '{print …}'` over literals and fields; anything else means
"unknown". `listing` says which paths a lister (`ls`, `find`) prints, as globs, for loops and
`xargs` fed by one.
"""

from __future__ import annotations

import base64
import binascii
import re

from engine.gate.payload import awk_prints
from engine.gate.shell.words import ansi_c

MAX_TEXT = 64_000
MAX_SET = 4096
MAX_FORMAT_ROUNDS = 64
_ECHO_FLAGS = re.compile(r"-[neE]{1,3}")
_PRINTF = re.compile(r"%(?:[-+ 0#]{0,4}\d{0,3}(?:\.\d{1,3})?)?([sbdiqcxXou%])")
_XXD_LINE = re.compile(r"^\s{0,8}[0-9a-fA-F]{1,16}:\s?(.*?)(?:\s{2}.*)?$")
_NOT_HEX = re.compile(r"[^0-9a-fA-F]")
_CLASSES = {
    "lower": "abcdefghijklmnopqrstuvwxyz", "upper": "ABCDEFGHIJKLMNOPQRSTUVWXYZ", "digit": "0123456789",
    "space": " \t\n\r\f\v", "blank": " \t", "punct": "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~",
}
_CLASSES["alpha"] = _CLASSES["upper"] + _CLASSES["lower"]
_CLASSES["alnum"] = _CLASSES["digit"] + _CLASSES["alpha"]
_CLASSES["xdigit"] = "0123456789ABCDEFabcdef"
_CLASS = re.compile(r"\[:(\w{1,8}):\]")
_TR_ESCAPE = re.compile(r"\\([0-7]{1,3}|.)", re.S)
_TR_SIMPLE = {"n": "\n", "t": "\t", "r": "\r", "f": "\f", "v": "\v", "a": "\a", "b": "\b", "\\": "\\"}
_LS_VALUES = frozenset("-I --ignore -w --width -T --tabsize --format --sort --time --time-style --color --hide".split())
_BASENC = {"--base64": "64", "--base64url": "64url", "--base32": "32", "--base32hex": "32hex", "--base16": "16"}
_OPENSSL_OK = frozenset({"enc", "base64", "-d", "-base64", "-a", "-A", "-in", "-out"})


def _name(word: str) -> str:
    return word.replace("\\", "/").rsplit("/", 1)[-1].lower()


def source(argv: list[str], stdin: str | None) -> str | None:
    """The text a literal-printing command writes, or None if it is not one.

    A decoder reading a here-string (`base64 -d <<< …`, `rev <<< …`) is a source too.
    """
    name = _name(argv[0]) if argv else ""
    args = argv[1:]
    if name == "echo":
        escapes = False
        while args and _ECHO_FLAGS.fullmatch(args[0]):
            escapes = escapes or "e" in args[0]
            args = args[1:]
        text = " ".join(args)
        return ansi_c(text) if escapes else text
    if name == "printf" and args:
        if args[0] == "--":
            args = args[1:]
        return printf(args) if args else None
    if name in ("cat", "tee") and not args and stdin is not None:
        return stdin
    if name in ("true", "false", ":"):
        return ""
    located = _located(name, args)
    if located is not None:
        return located
    if stdin is not None and len(stdin) <= MAX_TEXT:
        return transform(argv, stdin)
    return None


def _located(name: str, args: list[str]) -> str | None:
    """What `which X`, `command -v X`, `type -P X`, `basename P` and `dirname P` print: where a
    program lives is taken to be `/usr/bin`, which is all a rule needs to know about it."""
    operands = [a for a in args if not a.startswith("-")]
    if not operands:
        return None
    if name == "which" or (name == "command" and args[:1] in (["-v"], ["-V"])) or (name == "type" and args[:1] in (["-P"], ["-p"])):
        return "\n".join(o if "/" in o else "/usr/bin/" + o for o in operands)
    if name == "basename":
        return operands[0].rstrip("/").rsplit("/", 1)[-1] or "/"
    if name == "dirname":
        head = operands[0].rstrip("/").rpartition("/")[0]
        return head or ("/" if operands[0].startswith("/") else ".")
    return None


def printf(args: list[str]) -> str:
    """What `printf FORMAT VALUES…` prints: the format is applied again while values remain."""
    fmt, values = ansi_c(args[0]), args[1:]
    used = 0

    def one(match: re.Match[str]) -> str:
        nonlocal used
        kind = match.group(1)
        if kind == "%":
            return "%"
        value = values[used] if used < len(values) else ""
        used += 1
        if kind == "b":
            return ansi_c(value)
        if kind in "diouxX":
            return _number(value, kind)
        if kind == "c":
            return value[:1]
        return value

    out = [_PRINTF.sub(one, fmt)]
    rounds = 1
    while used and used < len(values) and rounds < MAX_FORMAT_ROUNDS:
        out.append(_PRINTF.sub(one, fmt))
        rounds += 1
    return "".join(out)


def _number(value: str, kind: str) -> str:
    try:
        number = int(value or "0", 0)
    except ValueError:
        return "0"
    return {"x": format(number, "x"), "X": format(number, "X"), "o": format(number, "o")}.get(kind, str(number))


def transform(argv: list[str], text: str) -> str | None:
    """Applies a decoding stage (base64/base32 -d, xxd -r, rev, tr) to `text`, or None if not one."""
    name = _name(argv[0]) if argv else ""
    args = argv[1:]
    flags = set(args)
    try:
        if name in ("base64", "b64", "base64url", "gbase64") and flags & {"-d", "--decode", "-D", "-di", "-id"}:
            return _b64(text)
        if name in ("base32", "gbase32") and flags & {"-d", "--decode", "-di", "-id"}:
            return base64.b32decode(_pad("".join(text.split()).upper(), 8)).decode("utf-8", "replace")
        if name == "basenc" and flags & {"-d", "--decode"}:
            return _basenc(flags, text)
        if name == "openssl" and flags <= _OPENSSL_OK | {a for a in args if not a.startswith("-")} \
                and "-d" in flags and flags & {"base64", "-base64", "-a"}:
            return _b64(text)
        if name == "xxd" and "-r" in flags:
            return _xxd(text, plain=bool(flags & {"-p", "-ps", "-plain", "-postscript"}))
        if name == "rev" and not flags:
            return "\n".join(line[::-1] for line in text.split("\n"))
        if name == "tr":
            return tr(args, text)
        if name in ("awk", "gawk", "mawk", "nawk") and len(args) == 1:
            return awk_prints(args[0], text)
    except (binascii.Error, ValueError):
        return None
    if name in ("cat", "tee") and not [a for a in args if not a.startswith("-")]:
        return text
    return None


def _pad(text: str, block: int) -> str:
    return text + "=" * (-len(text) % block)


def _b64(text: str) -> str:
    compact = "".join(text.split())
    if "-" in compact or "_" in compact:
        return base64.urlsafe_b64decode(_pad(compact.rstrip("="), 4)).decode("utf-8", "replace")
    return base64.b64decode(_pad(compact.rstrip("="), 4), validate=False).decode("utf-8", "replace")


def _basenc(flags: set[str], text: str) -> str | None:
    kind = next((_BASENC[f] for f in flags if f in _BASENC), None)
    compact = "".join(text.split())
    if kind in ("64", "64url"):
        return _b64(compact)
    if kind == "32":
        return base64.b32decode(_pad(compact.upper().rstrip("="), 8)).decode("utf-8", "replace")
    if kind == "32hex":
        return base64.b32hexdecode(_pad(compact.upper().rstrip("="), 8)).decode("utf-8", "replace")
    if kind == "16":
        return base64.b16decode(compact.upper()).decode("utf-8", "replace")
    return None


def _xxd(text: str, plain: bool) -> str:
    """`xxd -r -p` reads bare hex; `xxd -r` reads its own dump (offset, hex columns, text column)."""
    if plain or ":" not in text:
        digits = _NOT_HEX.sub("", text)
        return binascii.unhexlify(digits[: len(digits) // 2 * 2]).decode("utf-8", "replace")
    out = []
    for line in text.split("\n"):
        match = _XXD_LINE.match(line)
        if match is None:
            continue
        digits = _NOT_HEX.sub("", match.group(1))
        out.append(binascii.unhexlify(digits[: len(digits) // 2 * 2]).decode("utf-8", "replace"))
    return "".join(out)


def tr(args: list[str], text: str) -> str | None:
    """`tr` over literal sets: translation, `-d`, `-s` and `-t`; `-c` and repeats are not simulated."""
    delete = squeeze = truncate = False
    sets: list[str] = []
    for arg in args:
        if arg.startswith("-") and len(arg) > 1 and not sets:
            letters = arg[2:] if arg.startswith("--") else arg[1:]
            if arg in ("--delete",) or (not arg.startswith("--") and "d" in letters):
                delete = True
            if arg in ("--squeeze-repeats",) or (not arg.startswith("--") and "s" in letters):
                squeeze = True
            if arg in ("--truncate-set1",) or (not arg.startswith("--") and "t" in letters):
                truncate = True
            if "c" in letters or "C" in letters or arg == "--complement":
                return None
            continue
        sets.append(arg)
    expanded = [_tr_set(s) for s in sets[:2]]
    if not expanded or any(s is None for s in expanded):
        return None
    first = expanded[0] or ""
    if delete:
        gone = set(first)
        text = "".join(ch for ch in text if ch not in gone)
        if squeeze and len(expanded) > 1:
            text = _squeeze(text, set(expanded[1] or ""))
        return text
    if len(expanded) < 2:
        return _squeeze(text, set(first)) if squeeze else None
    second = expanded[1] or ""
    if not second:
        return None
    if truncate:
        first = first[: len(second)]
    second = second + second[-1] * max(0, len(first) - len(second))
    table: dict[int, int] = {}
    for a, b in zip(first, second):
        table[ord(a)] = ord(b)
    text = text.translate(table)
    return _squeeze(text, set(second)) if squeeze else text


def _squeeze(text: str, chars: set[str]) -> str:
    out: list[str] = []
    for ch in text:
        if out and ch == out[-1] and ch in chars:
            continue
        out.append(ch)
    return "".join(out)


def _tr_set(spec: str) -> str | None:
    """The characters a tr set stands for (`a-z`, `[:upper:]`, `\\n`, `\\101`), None if unsupported."""
    if "[=" in spec or re.search(r"\[.\*\d{0,6}\]", spec):
        return None
    parts: list[str | tuple[str]] = []
    i = 0
    while i < len(spec):
        match = _CLASS.match(spec, i)
        if match is not None:
            chars = _CLASSES.get(match.group(1))
            if chars is None:
                return None
            parts.append((chars,))
            i = match.end()
            continue
        escape = _TR_ESCAPE.match(spec, i)
        if escape is not None:
            code = escape.group(1)
            parts.append(chr(int(code, 8)) if code[0].isdigit() else _TR_SIMPLE.get(code, code))
            i = escape.end()
            continue
        parts.append(spec[i])
        i += 1
    out: list[str] = []
    j = 0
    while j < len(parts):
        part = parts[j]
        if isinstance(part, tuple):
            out.append(part[0])
            j += 1
            continue
        if j + 2 < len(parts) and parts[j + 1] == "-" and isinstance(parts[j + 2], str):
            low, high = ord(part), ord(parts[j + 2])  # type: ignore[arg-type]
            if high < low or high - low > MAX_SET:
                return None
            out.append("".join(map(chr, range(low, high + 1))))
            j += 3
            continue
        out.append(part)
        j += 1
    result = "".join(out)
    return result if len(result) <= MAX_SET else None


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


def decodes(stages: list[tuple[list[str], str | None]]) -> bool:
    """True when a stage of the pipeline decodes (not only prints or passes text on)."""
    for index, (argv, stdin) in enumerate(stages):
        name = _name(argv[0]) if argv else ""
        if name in ("echo", "printf", "cat", "tee") or (index == 0 and stdin is None):
            continue
        return True
    return False


def listing(argv: list[str]) -> list[str] | None:
    """The paths a lister prints, as globs (`find / -maxdepth 1` prints `/` and `/*`, `ls /` the
    names in `/`, that is `*`), or None when the command is not a lister."""
    name = _name(argv[0]) if argv else ""
    args = argv[1:]
    if name in ("ls", "dir"):
        operands, directories, skip = [], False, False
        for arg in args:
            if skip:
                skip = False
            elif arg.startswith("--"):
                directories = directories or arg == "--directory"
                skip = arg in _LS_VALUES
            elif arg.startswith("-") and len(arg) > 1:
                directories = directories or "d" in arg[1:]
                skip = arg in _LS_VALUES
            else:
                operands.append(arg)
        if directories:
            return operands[:8] or ["."]
        return ["*"]
    if name == "find":
        roots = []
        for arg in args:
            if arg.startswith(("-", "(", "!")):
                break
            roots.append(arg)
        inner = "-mindepth" in args
        found: list[str] = []
        for root in (roots or ["."])[:4]:
            base = root.rstrip("/") or "/"
            if not inner:
                found.append(root)
            found.append(base + "/*" if base != "/" else "/*")
        return found
    return None
