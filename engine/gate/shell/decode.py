"""Works out the literal text a pipeline prints, so `echo … | base64 -d | sh` can be read.

Only sources with literal arguments (echo, printf, here-strings, awk programs that print
literals) and pure transformations (base64, base32, basenc, `openssl enc -d -base64`, `xxd -r`,
gzip/xz/bzip2 decompression, `rev`, `tr` with literal sets, sed and `perl -pe` substitutions,
awk `print`/`printf` of literals and fields) are simulated; anything else means "unknown".
Decoded bytes that are not UTF-8 are carried as Latin-1 text, so a decompressor further on gets
them back unchanged. `listing` says which paths a lister (`ls`, `find`) prints, as globs, and
`listed_paths` follows them through later transformations (`ls / | sed 's|^|/|'`); `everything` names
a listing of every process, snapshot or account.
"""

from __future__ import annotations

import base64
import binascii
import json
import bz2
import lzma
import posixpath
import re
import zlib
from dataclasses import dataclass

from engine.gate.payload import awk_prints, awk_value
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
_GZIP = frozenset({"gunzip", "zcat", "gzcat", "unpigz"})
_XZ = frozenset({"unxz", "xzcat", "unlzma", "lzcat"})
_BZIP = frozenset({"bunzip2", "bzcat"})
_DECOMPRESS_FLAGS = frozenset({"-d", "--decompress", "--uncompress", "-dc", "-cd", "-dk", "-df", "-dcf", "-cdf", "-dq"})
_SED_COMMAND = re.compile(r"[\s;]{0,8}(?:s|y)")


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
    if name in ("awk", "gawk", "mawk", "nawk") and args:
        return awk(args, None)
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
    if name in ("realpath", "readlink", "grealpath", "greadlink"):
        return _canonical(name, args, operands)
    if name == "getent" and len(operands) == 2 and operands[0] == "passwd":
        user = operands[1]
        home = "/root" if user in ("root", "0") else f"/home/{user}"
        return f"{user}:x:{0 if home == '/root' else 1000}:{0 if home == '/root' else 1000}:{user}:{home}:/bin/bash"
    if name == "jq":
        return _jq_literal(args)
    if name == "eval" and operands[0] == "echo" and all(a == "~" or _PLAIN_WORD.fullmatch(a) for a in operands[1:]):
        return " ".join("/home/_" if a == "~" else a for a in operands[1:])
    if name == "dirname":
        if operands[0].rstrip("/") == "~":
            return "/home"
        head = operands[0].rstrip("/").rpartition("/")[0]
        return head or ("/" if operands[0].startswith("/") else ".")
    return None


_PLAIN_WORD = re.compile(r"[\w./:=@%+,-]{1,256}")


def _canonical(name: str, args: list[str], operands: list[str]) -> str | None:
    """`realpath P` and `readlink -f|-e|-m P` of a literal absolute path: the path with `.`, `..`
    and repeated slashes resolved (links are not followed: the result names the same tree)."""
    if name.endswith("readlink") and not any(
            a.startswith("--canonicalize") or (a.startswith("-") and not a.startswith("--") and set(a[1:]) & set("fem"))
            for a in args):
        return None
    paths = [o for o in operands if o.startswith(("/", "~"))]
    if len(paths) != len(operands):
        return None
    return "\n".join(posixpath.normpath(p) if p.startswith("/") else p for p in paths)


def _cut(args: list[str], text: str) -> str | None:
    """`cut -d X -f N[,M…]` over known text (fields only: byte and character cuts are not simulated)."""
    delimiter, fields, i = "\t", None, 0
    while i < len(args):
        arg = args[i]
        for short, long in (("-d", "--delimiter"), ("-f", "--fields")):
            if arg == short or arg == long:
                value, i = (args[i + 1] if i + 1 < len(args) else ""), i + 1
            elif arg.startswith(long + "="):
                value = arg.partition("=")[2]
            elif arg.startswith(short) and not arg.startswith("--"):
                value = arg[2:]
            else:
                continue
            if short == "-d":
                delimiter = value
            else:
                fields = value
            break
        else:
            return None
        i += 1
    if fields is None or len(delimiter) != 1 or not re.fullmatch(r"\d{1,3}(,\d{1,3}){0,8}", fields):
        return None
    wanted = [int(f) - 1 for f in fields.split(",")]
    out = []
    for line in text.split("\n"):
        parts = line.split(delimiter)
        out.append(delimiter.join(parts[f] for f in wanted if 0 <= f < len(parts)) if len(parts) > 1 else line)
    return "\n".join(out)


def _jq_literal(args: list[str]) -> str | None:
    """`jq -rn '"TEXT"'`: with no input and raw output, a program that is one JSON string prints TEXT."""
    flags = "".join(a[1:] for a in args if a.startswith("-") and not a.startswith("--"))
    longs = {a for a in args if a.startswith("--")}
    program = [a for a in args if not a.startswith("-")]
    if len(program) != 1 or not ("n" in flags or "--null-input" in longs):
        return None
    if not ("r" in flags or "j" in flags or "--raw-output" in longs or "--join-output" in longs):
        return None
    text = program[0].strip()
    if not (text.startswith('"') and text.endswith('"')):
        return None
    try:
        value = json.loads(text)
    except ValueError:
        return None
    return value if isinstance(value, str) else None


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
        if name == "cut":
            return _cut(args, text)
        if name in ("awk", "gawk", "mawk", "nawk") and args:
            return awk(args, text)
        if name in ("sed", "gsed"):
            return sed(args, text)
        if name == "perl":
            return perl_filter(args, text)
        kind = _compression(name, args)
        if kind is not None:
            return _decompress(kind, text)
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
        return _text(base64.urlsafe_b64decode(_pad(compact.rstrip("="), 4)))
    return _text(base64.b64decode(_pad(compact.rstrip("="), 4), validate=False))


def _text(data: bytes) -> str:
    """Decoded bytes as text: UTF-8 when they are, else Latin-1 (one character per byte, so `_bytes`
    gives them back to a decompressor unchanged)."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def _bytes(text: str) -> bytes:
    try:
        return text.encode("latin-1")
    except UnicodeEncodeError:
        return text.encode("utf-8", "surrogatepass")


def _decompress(kind: str, text: str) -> str | None:
    """gzip (or zlib), xz (or lzma) and bzip2 data decompressed; None past `MAX_TEXT` bytes of output."""
    data = _bytes(text)
    try:
        if kind == "gzip":
            out = zlib.decompressobj(47).decompress(data, MAX_TEXT)
        elif kind == "xz":
            out = lzma.LZMADecompressor().decompress(data, MAX_TEXT)
        else:
            out = bz2.BZ2Decompressor().decompress(data, MAX_TEXT)
    except (zlib.error, lzma.LZMAError, OSError, EOFError, ValueError):
        return None
    return _text(out) if len(out) < MAX_TEXT else None


def _compression(name: str, args: list[str]) -> str | None:
    """The format a decompressing stage reads (`gunzip`, `gzip -d`, `xz -dc`, `bzcat`), or None."""
    if [a for a in args if not a.startswith("-")]:
        return None
    flags = set(args)
    if name in _GZIP or name in ("gzip", "pigz") and (flags & _DECOMPRESS_FLAGS or any("d" in a[1:] for a in args if a[:2] != "--" and a.startswith("-"))):
        return "gzip"
    if name in _XZ or name in ("xz", "lzma") and (flags & _DECOMPRESS_FLAGS or any("d" in a[1:] for a in args if a[:2] != "--" and a.startswith("-"))):
        return "xz"
    if name in _BZIP or name == "bzip2" and (flags & _DECOMPRESS_FLAGS or any("d" in a[1:] for a in args if a[:2] != "--" and a.startswith("-"))):
        return "bzip2"
    return None


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
        return _text(binascii.unhexlify(digits[: len(digits) // 2 * 2]))
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


_AWK_STATEMENT = re.compile(r'(?:[^;\n"]|"(?:[^"\\\n]|\\.){0,400}"){1,2000}')
_AWK_PROGRAM = re.compile(r"\s{0,8}(?:BEGIN\s{0,8}\{([^{}]{0,4000})\})?\s{0,8}(?:\{([^{}]{0,4000})\})?\s{0,8}")
_AWK_PRINT = re.compile(r"(printf?)\b\s{0,4}\(?(.{0,4000}?)\)?\s{0,4}")
_AWK_ARGUMENT = re.compile(r'(?:[^,"]|"(?:[^"\\\n]|\\.){0,400}"){1,4000}')


@dataclass(frozen=True)
class AwkCall:
    """An awk command line: its `-v` assignments, its program text (None when it comes from a file
    or is missing), the words after the program, and whether no option but `-v` was given."""

    variables: dict[str, str]
    program: str | None
    rest: list[str]
    plain: bool


def awk_call(args: list[str]) -> AwkCall:
    """Reads awk's options as awk does, up to the program (`-e`/`--source` TEXT, or the first operand)."""
    variables: dict[str, str] = {}
    plain = True
    i = 0
    while i < len(args):
        arg = args[i]
        if arg in ("-v", "--assign") and i + 1 < len(args):
            key, _, value = args[i + 1].partition("=")
            variables[key] = value
            i += 2
            continue
        if arg.startswith("-v") and "=" in arg:
            key, _, value = arg[2:].partition("=")
            variables[key] = value
        elif arg in ("-e", "--source") and i + 1 < len(args):
            return AwkCall(variables, args[i + 1], args[i + 2 :], False)
        elif arg in ("-f", "--file"):
            return AwkCall(variables, None, args[i + 2 :], False)
        elif arg in ("-F", "--field-separator"):
            plain = False
            i += 2
            continue
        elif not arg.startswith("-") or arg == "-":
            return AwkCall(variables, arg, args[i + 1 :], plain)
        else:
            plain = False
        i += 1
    return AwkCall(variables, None, [], plain)


def awk(args: list[str], text: str | None) -> str | None:
    """What an awk program made only of `print` and `printf` statements of literals, fields and `-v`
    names writes: its `BEGIN` block once, its main block for each line of `text`; None otherwise."""
    call = awk_call(args)
    if call.program is None or not call.plain or call.rest:
        return None
    bound, program = call.variables, call.program
    if text is not None and "BEGIN" not in program:
        simple = awk_prints(program, text)
        if simple is not None:
            return simple
    match = _AWK_PROGRAM.fullmatch(program)
    if match is None or not (match.group(1) or match.group(2)):
        return None
    begin, main = match.group(1), match.group(2)
    out: list[str] = []
    if begin and _awk_block(begin, bound, None, out) is None:
        return None
    if main:
        if text is None or text.count("\n") > 64:
            return None
        for line in text.split("\n"):
            if line and _awk_block(main, bound, line, out) is None:
                return None
    return "".join(out)


def _awk_block(block: str, bound: dict[str, str], record: str | None, out: list[str]) -> bool | None:
    """Runs one block of print/printf statements into `out`; None when a statement is something else."""
    for statement in _AWK_STATEMENT.findall(block):
        statement = statement.strip()
        if not statement:
            continue
        match = _AWK_PRINT.fullmatch(statement)
        if match is None:
            return None
        values: list[str] = []
        for part in _AWK_ARGUMENT.findall(match.group(2)):
            value = awk_value(part.strip(), bound, record)
            if value is None:
                return None
            values.append(value)
        if match.group(1) == "print":
            out.append(" ".join(values) if values else (record or "") + "\n")
            if values:
                out.append("\n")
        elif values:
            out.append(printf(values))
    return True


def sed(args: list[str], text: str) -> str | None:
    """What a sed script of only `s///` and `y///` commands makes of `text` (with `-n`, only the lines its
    `p` flags print); None for any other script or option, and for input over 16 lines or 256 characters
    a line (the substitution reads no more, and a partial output must not pass for the whole)."""
    scripts: list[str] = []
    extended = quiet = False
    i = 0
    while i < len(args):
        arg = args[i]
        if arg in ("-e", "--expression") and i + 1 < len(args):
            scripts.append(args[i + 1])
            i += 2
            continue
        if arg.startswith("--expression="):
            scripts.append(arg.partition("=")[2])
        elif arg in ("-E", "-r", "--regexp-extended"):
            extended = True
        elif arg in ("-n", "--quiet", "--silent"):
            quiet = True
        elif arg.startswith("-") and len(arg) > 1:
            return None
        elif not scripts:
            scripts.append(arg)
        else:
            return None
        i += 1
    lines = [line for line in text.split("\n") if line]
    if len(lines) > 16 or any(len(line) > 256 for line in lines):
        return None
    printed: list[str] = []
    for script in scripts[:4]:
        rest = script
        for match in SED_SUBSTITUTE.finditer(script):
            rest = rest.replace(match.group(0).lstrip(";\n{} \t"), "", 1)
            flags = match.group(4)
            if set(flags) & {"e", "w", "m", "M"}:
                return None
            result = sed_substitute(match, "\n".join(lines), extended)
            if result is None:
                return None
            changed = [new for old, new in zip(lines, result.split("\n")) if new != old]
            lines = result.split("\n")
            if "p" in flags:
                printed.extend(changed)
        for match in _SED_TRANSLATE.finditer(script):
            rest = rest.replace(match.group(0).lstrip(";\n{} \t"), "", 1)
            source, target = _sed_unescape(match.group(2)), _sed_unescape(match.group(3))
            if len(source) != len(target):
                return None
            table = str.maketrans(source, target)
            lines = [line.translate(table) for line in lines]
        if rest.strip(" \t;\n"):
            return None
    return "\n".join(printed if quiet else lines)


_SED_TRANSLATE = re.compile(r"(?:^|[;\n{}\s])y([^\w\s\\])((?:(?!\1)[^\\\n]|\\.){0,400})\1((?:(?!\1)[^\\\n]|\\.){0,400})\1")


def _sed_unescape(text: str) -> str:
    return re.sub(r"\\(.)", lambda m: {"n": "\n", "t": "\t"}.get(m.group(1), m.group(1)), text) if "\\" in text else text


_PERL_TR = re.compile(r"\s{0,8}(?:tr|y)([^\w\s\\])((?:(?!\1)[^\\\n]|\\.){0,400})\1((?:(?!\1)[^\\\n]|\\.){0,400})\1\s{0,8};?\s{0,8}")


def perl_filter(args: list[str], text: str) -> str | None:
    """`perl -pe 's/…/…/'` and `perl -pe 'tr/…/…/'` over `text` (Perl's regular expressions read as
    Python's), or None for any other perl command."""
    script = None
    printing = False
    i = 0
    while i < len(args):
        arg = args[i]
        if arg.startswith("-") and not arg.startswith("--") and set(arg[1:]) <= set("plne") and arg != "-":
            printing = printing or "p" in arg
            if arg.endswith("e"):
                if i + 1 >= len(args) or script is not None:
                    return None
                script = args[i + 1]
                i += 2
                continue
            i += 1
            continue
        return None
    if not printing or script is None:
        return None
    translate = _PERL_TR.fullmatch(script)
    if translate is not None:
        return tr([translate.group(2), translate.group(3)], text)
    return sed(["-E", script], text)


_EVERY_USER = frozenset({"root", "0", "$USER", "${USER}", "$LOGNAME", "$(whoami)", "`whoami`", "$(id -u)", "$UID", "$EUID"})
_PS_VALUES = frozenset("-o -O --format -p --pid -q --quick-pid -u -U --user --User -g -G --group --Group -t --tty -C -s --sid --ppid --sort -w".split())
_PS_SELECTS = frozenset("-p --pid -q --quick-pid -u -U --user --User -g -G --group --Group -t --tty -C -s --sid --ppid".split())


def everything(stages: list[tuple[list[str], str | None]]) -> str | None:
    """The kind of thing a pipeline lists every one of (`processes` for `ps -e -o pid=` or `pgrep -v x`,
    `snapshots` for `zfs list -t snapshot`, `accounts` for the names in `/etc/passwd`), when what follows
    the lister only picks columns, reorders or drops a header; None otherwise."""
    kind = None
    for argv, _stdin in stages[-8:]:
        name = _name(argv[0]) if argv else ""
        found = _lists_everything(name, argv[1:])
        if found is not None:
            kind = found
        elif kind is not None and not _keeps_everything(name, argv[1:]):
            kind = None
    return kind


def _lists_everything(name: str, args: list[str]) -> str | None:
    if name == "ps":
        words = set(args)
        if words & _PS_SELECTS:
            return None
        if words & {"-e", "-A", "ax", "aux", "-ax", "axu", "-aux", "-ef", "-eF", "-ely", "-eo", "-Ao", "-elf", "-efl"} or \
                any(a.startswith(("-e", "-A")) and a[1:].isalpha() for a in args):
            return "processes"
        return None
    if name == "pgrep":
        if {"-v", "--inverse"} & set(args):
            return "processes"
        users = [args[i + 1] for i in range(len(args) - 1) if args[i] in ("-u", "-U", "--user", "--euid", "--uid")]
        patterns = [a for a in args if not a.startswith("-") and a not in users]
        if users and all(user in _EVERY_USER for user in users) and not patterns:
            return "processes"
        return "processes" if patterns and patterns[-1] in (".", ".*", "^", "") else None
    if name == "zfs" and args[:1] == ["list"]:
        types = [args[i + 1] for i in range(len(args) - 1) if args[i] == "-t"] + [a[2:] for a in args if a.startswith("-t") and len(a) > 2]
        return "snapshots" if any(t in ("snapshot", "snap", "all") or "snapshot" in t.split(",") for t in types) else None
    if name == "zfs" and args[:1] == ["list-snapshots"]:
        return "snapshots"
    if name == "tmutil" and args[:1] == ["listbackups"]:
        return "snapshots"
    if name == "btrfs" and args[:2] == ["subvolume", "list"]:
        return "snapshots"
    if name in ("snapper", "timeshift") and ("list" in args or "--list" in args):
        return "snapshots"
    if name == "lvs" or name == "lvdisplay":
        return "volumes"
    if name in ("cut", "awk") and "/etc/passwd" in args:
        return "accounts"
    if name == "getent" and args[:1] == ["passwd"] or name == "compgen" and "-u" in args:
        return "accounts"
    return None


def _keeps_everything(name: str, args: list[str]) -> bool:
    """True for a stage that passes every item of a listing on (a column picked, a header dropped, sorted)."""
    if name in ("awk", "gawk", "mawk", "cut", "sort", "uniq", "tr", "xargs") or name == "sed" and not [a for a in args if "/p" in a]:
        return True
    if name == "grep":
        return bool({"-v", "--invert-match"} & set(args)) or any(a.startswith("-") and "v" in a[1:] and a[:2] != "--" for a in args)
    if name == "tail":
        return any(a.startswith("+") or a.startswith("-n+") for a in args) or "+2" in args
    return False


def listed_paths(stages: list[tuple[list[str], str | None]]) -> list[str] | None:
    """The paths a pipeline lists, as globs: a lister's (`ls /`, `find / -maxdepth 1`), passed through
    the transformations after it that can be simulated (`sed 's|^|/|'`, `awk '{print "/" $0}'`) and
    filters (`grep`, `sort`, `head`), which at most drop some; None when the pipeline is no listing."""
    for index in range(len(stages) - 1, max(-1, len(stages) - 9), -1):
        globs = listing(stages[index][0])
        if globs is None:
            continue
        text: str | None = "\n".join(globs)
        for argv, _stdin in stages[index + 1 :]:
            name = _name(argv[0]) if argv else ""
            if name in ("grep", "egrep", "fgrep", "sort", "uniq", "head", "tail", "cat"):
                continue
            text = transform(argv, text) if text is not None else None
            if text is None:
                return None
        return [line for line in text.split("\n") if line][:16] if text else None
    return None


SED_SUBSTITUTE = re.compile(r"(?:^|[;\n{}\s])s([^\w\s\\])((?:(?!\1)[^\\\n]|\\.){0,400})\1((?:(?!\1)[^\\\n]|\\.){0,400})\1([gpIiMme0-9]{0,8})")
_SED_BACKTRACKS = re.compile(r"\\[1-9]|\\?\)\s{0,2}[*+?{]")  # a backreference or a repeated group: not simulated


def sed_substitute(match: re.Match[str], text: str, extended: bool) -> str | None:
    """What `s/PATTERN/REPLACEMENT/FLAGS` makes of each input line, or None when it cannot be told."""
    pattern, replacement, flags = match.group(2), match.group(3), match.group(4)
    if len(pattern) > 200 or _SED_BACKTRACKS.search(pattern) or sum(map(pattern.count, "*+?{")) > 2:
        return None
    if not extended:
        pattern = re.sub(r"\\([(){}+?|])|([(){}+?|])", lambda m: m.group(1) or "\\" + m.group(2), pattern)
    replacement = re.sub(r"\\&|&|\\(\d)|\\(.)|\\", lambda m: "&" if m.group(0) == "\\&" else "\\g<0>" if m.group(0) == "&"
                         else "\\" + m.group(1) if m.group(1) else m.group(2) or "", replacement)
    try:
        compiled = re.compile(pattern, re.I if set(flags) & {"I", "i"} else 0)
        return "\n".join(compiled.sub(replacement, line, count=0 if "g" in flags else 1)
                         for line in text.split("\n")[:16] if line and len(line) <= 256)
    except (re.error, IndexError):
        return None
