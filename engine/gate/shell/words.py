"""Turns tree-sitter word nodes into the strings the shell would pass to a program.

Quoting, backslashes, `$'…'` escapes, `$IFS`, variables assigned earlier in the same script
(with the common `${…}` operators, arrays and `${!name}`), positional parameters set by
`set --` or a function call, brace expansion and substitutions whose output is a literal are
all resolved here, so `r"m"`, `\\rm`, `'r''m'`, `a=rm; $a`, `$(echo rm)` and `IFS=,; c=rm,-rf;
$c` all read `rm`. Unquoted expansions split on the script's own `IFS`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Callable

from tree_sitter import Node

SPLIT = "\x00"
OPEN, BAR, CLOSE = "\x04", "\x05", "\x06"
MAX_EXPANSIONS = 16
DEFAULT_IFS = " \t\n"
_BACKSLASH = re.compile(r"\\(.)", re.S)
_DQ_ESCAPE = re.compile(r'\\([\\"$`\n])')
_NAME = re.compile(r"\w+")
_VARIABLE = re.compile(r"!?([A-Za-z_]\w*)")
_PARAMETER = re.compile(r"(!?)([A-Za-z_]\w*|\d+|[@*#?$!0-])(?:\[([^\]]{0,40})\])?(.*)", re.S)
_SUBSTRING = re.compile(r":\s{0,2}(-?\d{1,6})?(?::\s{0,2}(-?\d{1,6}))?")
_GROUP = re.compile("\x04([^\x04\x06]*)\x06")
_SEQUENCE = re.compile(r"(-?\d{1,9})\.\.(-?\d{1,9})(?:\.\.(-?\d{1,9}))?|([A-Za-z])\.\.([A-Za-z])")
_GLOB_CHARS = re.compile(r"[*?\[]")
_NESTED = re.compile(r"\$\{([A-Za-z_]\w{0,60})\}|\$([A-Za-z_]\w{0,60})")
_BRACE_MARKS = str.maketrans({"{": OPEN, ",": BAR, "}": CLOSE})
_UNMARK = str.maketrans({OPEN: "{", BAR: ",", CLOSE: "}"})
_ANSI_C = re.compile(r"\\(x[0-9a-fA-F]{1,2}|u[0-9a-fA-F]{1,4}|U[0-9a-fA-F]{1,8}|[0-7]{1,3}|c.|.)", re.S)
_SIMPLE_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "a": "\a", "b": "\b", "e": "\x1b", "E": "\x1b",
                   "f": "\f", "v": "\v", "\\": "\\", "'": "'", '"': '"', "?": "?"}
WELL_KNOWN = {"SHELL": "sh", "BASH": "bash", "0": "sh", "HOME": "~"}
# Representative values of variables every session has, so that `${PWD%%/*}`, `${HOME%/*}` and
# `${PATH:0:1}` can be worked out (to `""`, `/home` and `/`). They only ever decide what a command
# could do: a word that took one is marked `sampled`, and such a command is never proven read-only.
SAMPLES = {"HOME": "/home/user", "PWD": "/home/user/project", "OLDPWD": "/home/user", "SHELL": "/bin/bash",
           "PATH": "/usr/local/bin:/usr/bin:/bin", "USER": "user", "LOGNAME": "user", "HOSTNAME": "host",
           "BASH": "/bin/bash"}
_SAMPLED_PLAIN = frozenset({"OLDPWD"})
_DEFAULTS = (":-", ":=", ":?", "-", "=", "?")
MAX_PATTERN_STARS = 2
MAX_PATTERN_VALUE = 256
_SPLITTERS: dict[str, dict[int, str]] = {}
MAX_EVALUATED = 8
# One token of text Bash evaluates as arithmetic: a command substitution, a nested `$((`/`$[`, a parameter,
# a number in any base (`0x1F`, `10#09`, `64#@_`), or a name (with a following assignment operator).
_ARITHMETIC = re.compile(
    r"(?P<sub>\$\((?!\()|`)|\$\(\(|\$\[|\$\{(?P<mark>[#!]?)(?P<braced>[A-Za-z_]\w*)|\$(?P<plain>[A-Za-z_]\w*)"
    r"|\$\{?[\d@*#?$!-]|\d[\w]*(?:#[\w@]+)?|(?P<name>[A-Za-z_]\w*)(?P<sets>\s*(?:[-+*/%&|^]|<<|>>)?=(?!=)|\s*(?:\+\+|--))?")
_ASSIGNS_ONLY = re.compile(r"\s*=")
_MARKS = str.maketrans({SPLIT: " ", OPEN: " ", BAR: " ", CLOSE: " "})
_SUBSTITUTION = re.compile(r"\$\((?!\()|`")
COUNTS = re.compile(r"(?:^|\|)\s*(?:wc\b[^|;&`$()]*|nproc|id\s+-[ug]|date\s+\+%s)\s*$")
"""The last stage of a substitution that prints a count whatever it reads: its output is an integer."""


@dataclass(slots=True)
class Evaluated:
    """What Bash would run from values a command hands it to evaluate (arithmetic, array subscripts,
    prompt strings): `hidden` is shell code written inside such a value (`a[$(id)]`), analysed as the
    command it is; `runtime` names values read at run time (a file, `read`, an unresolved substitution)
    that reach arithmetic, where a subscript in them would run; `prompts` such values expanded as a
    prompt (`${x@P}`), which runs the substitutions in them."""

    hidden: list[str] = field(default_factory=list)
    runtime: list[str] = field(default_factory=list)
    prompts: list[str] = field(default_factory=list)

    def extend(self, other: "Evaluated") -> None:
        self.hidden.extend(other.hidden[:MAX_EVALUATED])
        self.runtime.extend(other.runtime[:MAX_EVALUATED])
        self.prompts.extend(other.prompts[:MAX_EVALUATED])


def ansi_c(body: str) -> str:
    """Decodes the escapes of a `$'…'` string (and of `echo -e` / `printf` arguments)."""

    def one(match: re.Match[str]) -> str:
        code = match.group(1)
        head = code[0]
        if head in "xuU":
            return chr(int(code[1:], 16)) if len(code) > 1 else match.group(0)
        if head.isdigit():
            return chr(int(code, 8))
        if head == "c" and len(code) == 2:
            return chr(ord(code[1]) & 0x1F)
        return _SIMPLE_ESCAPES.get(code, "\\" + code)

    return _ANSI_C.sub(one, body)


def alternatives(items: list[str]) -> str:
    """One value standing for several (a loop variable over its items): every word it lands in
    expands once per item, as a brace expression would."""
    if len(items) == 1:
        return items[0]
    return OPEN + BAR.join(item.replace(OPEN, "").replace(BAR, "").replace(CLOSE, "") for item in items) + CLOSE


def expand_braces(text: str) -> list[str]:
    """The words a marked brace expression stands for, innermost groups first, at most
    `MAX_EXPANSIONS`; past that every group becomes `*` (one word matching at least as much)."""
    done: list[str] = []
    todo = [text]
    while todo:
        current = todo.pop()
        match = _GROUP.search(current)
        if match is None:
            done.append(current.translate(_UNMARK))
            continue
        head, body, tail = current[: match.start()], match.group(1), current[match.end() :]
        if BAR in body:
            options = body.split(BAR)
        else:
            options = _sequence(body)
            if options is None:
                todo.append(head + "{" + body + "}" + tail)
                continue
        if len(options) + len(todo) + len(done) > MAX_EXPANSIONS:
            return [_GROUP_ANY.sub("*", text).translate(_UNMARK)]
        todo.extend(head + option + tail for option in reversed(options))
    return list(dict.fromkeys(done))


_GROUP_ANY = re.compile("\x04[^\x06]*\x06|[\x04\x05\x06]")


def _sequence(body: str) -> list[str] | None:
    match = _SEQUENCE.fullmatch(body)
    if match is None:
        return None
    if match.group(4):
        low, high = ord(match.group(4)), ord(match.group(5))
        step = 1 if high >= low else -1
        if abs(high - low) >= MAX_EXPANSIONS:
            return ["*"] * (MAX_EXPANSIONS + 1)
        return [chr(c) for c in range(low, high + step, step)]
    start, end = int(match.group(1)), int(match.group(2))
    step = abs(int(match.group(3) or 1)) or 1
    if abs(end - start) // step >= MAX_EXPANSIONS:
        return ["*"] * (MAX_EXPANSIONS + 1)
    step = step if end >= start else -step
    return [str(n) for n in range(start, end + (1 if step > 0 else -1), step)]


class WordDecoder:
    """Decodes words against the variables assigned so far in one script.

    `source` is the parsed text when it is pure ASCII: byte offsets are then character
    offsets, and slicing it is several times cheaper than decoding `node.text`. Variables
    the script did not assign itself come from the environment; their names are kept in
    `expanded`. `dynamic` says a word took something that could not be resolved, `indirect`
    that it took any expansion or substitution at all. `positional` holds `$1…` once the
    script set them (`set --`, a function call). `resolve` works out the output of a
    substitution when it is a literal; `files` keeps the content of each `<(…)` so resolved.
    `every` names the kind of thing (processes, snapshots, …) a word took a listing of every one of,
    through a substitution (`lists` tells) or a variable bound to one (`kinds`).
    """

    def __init__(self, variables: dict[str, str], source: str | None = None) -> None:
        self.variables = variables
        self.source = source
        self.dynamic = False
        self.indirect = False
        self.expanded: list[str] = []
        self.positional: list[str] | None = None
        self.resolve: Callable[[Node], str | None] | None = None
        self.files: list[tuple[str, str]] = []
        self.sampled = False
        self.tainted: frozenset[str] | set[str] = frozenset()
        self.references: dict[str, str] = {}
        self.every: str | None = None
        self.kinds: dict[str, str] = {}
        self.lists: Callable[[Node], str | None] | None = None
        self.runtime: frozenset[str] | set[str] = frozenset()
        self.integers: frozenset[str] | set[str] = frozenset()
        self.attributes: dict[str, str] = {}
        self.leftovers: frozenset[str] | set[str] = frozenset()
        self.evaluated: Evaluated | None = None

    def refer(self, name: str, target: str) -> None:
        """`declare -n name=target`: `$name` reads, and assigning `name` writes, the variable `target`."""
        if _NAME.fullmatch(target) and target != name:
            self.references[name] = target
        else:
            self.references.pop(name, None)

    def referred(self, name: str) -> str:
        """The variable `name` stands for once references are followed (at most eight)."""
        for _ in range(8):
            target = self.references.get(name) if self.references else None
            if target is None:
                return name
            name = target
        return name

    def taint(self, name: str) -> None:
        """`name` now holds a value built from a sample of the environment: its readers are sampled too."""
        if not isinstance(self.tainted, set):
            self.tainted = set()
        self.tainted.add(name)

    def bind(self, name: str, kind: str = "") -> None:
        """`name` now holds a value read at run time (`kind` "runtime"), an integer arithmetic gave it
        ("integer"), or a value the script wrote (""): what arithmetic evaluating it could run depends on it."""
        for marks in (self.runtime, self.integers):
            if name in marks and isinstance(marks, set):
                marks.discard(name)
        if kind == "runtime":
            self.runtime = self.runtime if isinstance(self.runtime, set) else set()
            self.runtime.add(name)
        elif kind == "integer":
            self.integers = self.integers if isinstance(self.integers, set) else set()
            self.integers.add(name)

    def found(self) -> Evaluated:
        if self.evaluated is None:
            self.evaluated = Evaluated()
        return self.evaluated

    def arithmetic(self, text: str, seen: frozenset[str] = frozenset()) -> None:
        """Records what evaluating `text` as arithmetic would run: substitutions written in it, and the
        values of the names it reads, evaluated in turn (`x='a[$(id)]'; (( x ))` runs `id`). A name the
        script never bound comes from the environment the runtime gives every command, not the agent."""
        text = text.translate(_MARKS)
        at = 0
        while len(seen) < MAX_EVALUATED:
            match = _ARITHMETIC.search(text, at)
            if match is None:
                return
            at = match.end()
            if match.group("sub"):
                at = self.substitution(text, match.start(), match.group("sub"))
                continue
            name = match.group("braced") or match.group("plain") or match.group("name")
            if name is None or match.group("mark") == "#":
                continue
            sets = match.group("sets")
            if sets is None or _ASSIGNS_ONLY.fullmatch(sets) is None:
                self.reads(name, seen)
            if sets is not None and not match.group("braced") and not match.group("plain"):
                self.bind(name, "integer")

    def reads(self, name: str, seen: frozenset[str]) -> None:
        """Arithmetic reads `name`: its value is evaluated as arithmetic too."""
        if name in self.integers or name in seen:
            return
        if name in self.runtime:
            self.found().runtime.append(name)
            return
        value = self.variables.get(name)
        if value is not None:
            self.arithmetic(value, seen | {name})

    def substitution(self, text: str, start: int, opener: str) -> int:
        """Records the `$(…)` or backquotes at `start` of a value Bash evaluates: one left unresolved by
        the analysis is a value read at run time, one written in the value is code; returns where it ends."""
        end, closed = _closing(text, start + len(opener), opener)
        raw = text[start:end]
        if raw in self.leftovers:
            if COUNTS.search(raw[len(opener) : len(raw) - 1]) is None:
                self.found().runtime.append(raw)
        else:
            self.found().hidden.append(text[start + len(opener) : end - 1 if closed else end])
        return end

    def names(self, word: str) -> None:
        """A name handed to a builtin that assigns, tests or unsets it (`printf -v`, `read`, `unset`,
        `test -v`, `declare`): an array subscript in it is evaluated (`unset 'a[$(id)]'` runs `id`), and
        a name that is itself a value read at run time could hold one."""
        head, bracket, rest = word.partition("[")
        if "$" in head or "`" in head:
            self.arithmetic(head)
        if bracket and self.attributes.get(head) != "A":
            close = rest.find("]=")
            self.arithmetic(rest[:close] if close >= 0 else rest.rstrip("]"))

    def prompt(self, name: str, value: str | None) -> None:
        """`${name@P}` expands the value as a prompt, running the substitutions in it."""
        if name in self.runtime:
            self.found().prompts.append(name)
            return
        text, at = value or "", 0
        for _ in range(MAX_EVALUATED):
            match = _SUBSTITUTION.search(text, at)
            if match is None:
                return
            at = self.substitution(text, match.start(), match.group(0))

    def raw(self, node: Node) -> str:
        """The source text of `node`."""
        if self.source is not None:
            return self.source[node.start_byte : node.end_byte]
        return node.text.decode("utf-8", "replace") if node.text is not None else ""

    def fields(self, node: Node) -> list[str]:
        """The argv entries one word node becomes (unquoted expansions split, braces expanded)."""
        text = self.text(node, quoted=False)
        if OPEN in text:
            return [part for word in expand_braces(text) for part in word.split(SPLIT) if part]
        if SPLIT not in text:
            return [text]
        return [part for part in text.split(SPLIT) if part]

    def split(self, value: str) -> str:
        """An unquoted expansion's value, with the script's `IFS` characters turned into field breaks."""
        ifs = self.variables.get("IFS", DEFAULT_IFS)
        if not ifs:
            return value
        table = _SPLITTERS.get(ifs)
        if table is None:
            table = _SPLITTERS[ifs] = {ord(ch): SPLIT for ch in ifs[:16]}
        return value.translate(table)

    def text(self, node: Node, quoted: bool) -> str:
        kind = node.type
        if kind == "word":
            raw = self.raw(node)
            return _unescape(raw) if "\\" in raw else raw
        if kind in ("string", "translated_string"):
            return self._string(node)
        if kind == "concatenation":
            children = node.children
            whole = self.raw(node)
            if (not quoted and "{" in whole and ("," in whole or ".." in whole)
                    and any(child.type == "word" and self.raw(child) == "{" for child in children)):
                return "".join(self.text(child, quoted).translate(_BRACE_MARKS) if child.type == "word"
                               else self.text(child, quoted) for child in children)
            return "".join(self.text(child, quoted) for child in children)
        raw = self.raw(node)
        if kind == "raw_string":
            return raw[1:-1]
        if kind == "ansi_c_string":
            return ansi_c(raw[2:-1])
        if kind == "brace_expression":
            return raw if quoted else OPEN + raw[1:-1] + CLOSE
        if kind in ("simple_expansion", "expansion"):
            self.indirect = True
            return self._expansion(raw, quoted)
        if kind == "command_substitution":
            self.indirect = True
            found = self.resolve(node) if self.resolve is not None else None
            if found is None:
                self.dynamic = True
                self.leftovers = self.leftovers if isinstance(self.leftovers, set) else set()
                self.leftovers.add(raw)
                if self.lists is not None:
                    self.every = self.lists(node) or self.every
                return raw
            found = found.rstrip("\n")
            return found if quoted else self.split(found)
        if kind == "process_substitution":
            self.dynamic = True
            found = self.resolve(node) if self.resolve is not None else None
            if found is not None:
                self.files.append((raw, found))
            return raw
        if kind == "arithmetic_expansion":
            self.dynamic = self.indirect = True
            return raw
        return raw

    def _string(self, node: Node) -> str:
        """A double-quoted string's text; the line breaks tree-sitter leaves between its parts are kept."""
        at = node.start_byte + (2 if node.type == "translated_string" else 1)
        parts = []
        for child in node.named_children:
            if child.start_byte > at:
                parts.append(self._between(node, at, child.start_byte))
            parts.append(self._string_part(child))
            at = child.end_byte
        if node.end_byte - 1 > at:
            parts.append(self._between(node, at, node.end_byte - 1))
        return "".join(parts)

    def _between(self, node: Node, start: int, end: int) -> str:
        if self.source is not None:
            return self.source[start:end]
        text = node.text or b""
        return text[start - node.start_byte : end - node.start_byte].decode("utf-8", "replace")

    def _string_part(self, node: Node) -> str:
        if node.type == "string_content":
            text = self.raw(node)
            return _DQ_ESCAPE.sub(_first_group, text) if "\\" in text else text
        return self.text(node, quoted=True)

    def _expansion(self, raw: str, quoted: bool) -> str:
        inner = raw[2:-1] if raw.startswith("${") else raw[1:]
        match = _PARAMETER.fullmatch(inner)
        if match is None:
            return self._unknown(inner, raw)
        bang, name, subscript, operator = match.groups()
        if name in ("@", "*") or name.isdigit() and name != "0" or name == "#" and not bang:
            return self._positional(name, quoted, operator)
        if bang or operator[:1] in (":", "@"):
            self.evaluates(bool(bang), name, operator)
        if bang:
            target = self.variables.get(name)
            if target is None or not _NAME.fullmatch(target) or operator:
                return self._unknown(inner, raw)
            name = target
        if operator[:2] == ":?" or operator[:1] == "?":
            operator = ""
        if self.references and name in self.references:
            self.indirect = True
            name = self.referred(name)
        if self.kinds and name in self.kinds:
            self.every = self.kinds[name]
        value = self._value(name, subscript, operator == "" and not quoted)
        if name in SAMPLES and name not in self.variables and (
                operator and not operator.startswith(_DEFAULTS) or not operator and name in _SAMPLED_PLAIN):
            value = SAMPLES[name]
            self.sampled = True
            self.expanded.append(name)
        if value is None and operator:
            self.dynamic = True
            self.expanded.append(name)
        if operator:
            if "$" in operator:
                operator = _NESTED.sub(self._nested, operator)
            assigned = value
            value = _operate(value, operator)
            if value is _UNKNOWN:
                return self._unknown(inner, raw)
            if operator[:2] == ":=" or operator[:1] == "=":
                if value is not None and value != assigned:
                    self.variables[name] = value
        if value is None:
            return self._unknown(inner, raw)
        return value if quoted else self.split(value)

    def evaluates(self, bang: bool, name: str, operator: str) -> None:
        """Parameter operators that evaluate a value: `${!name}` reads the variable the value names (a
        subscript in it is evaluated), `${name:offset:length}` evaluates offset and length as arithmetic,
        and `${name@P}` expands the value as a prompt."""
        if bang and not operator:
            if name in self.runtime:
                self.found().runtime.append(name)
            elif name in self.variables:
                self.names(self.variables[name])
        elif operator == "@P":
            self.prompt(name, self.variables.get(name))
        elif operator[:1] == ":" and operator[1:2] not in ("-", "=", "?", "+"):
            self.arithmetic(operator[1:])

    def _nested(self, match: re.Match[str]) -> str:
        """A plain `$NAME` inside an operator's word (`${HOME%/$USER}`): the script's value, or a sample."""
        name = match.group(1) or match.group(2)
        if name in self.variables:
            return self.variables[name]
        if name in SAMPLES:
            self.sampled = True
            return SAMPLES[name]
        return match.group(0)

    def _value(self, name: str, subscript: str | None, whole: bool) -> str | None:
        if name == "IFS":
            return self.variables.get("IFS", " " if not whole else DEFAULT_IFS)
        value = self.variables.get(name)
        if value is None:
            return WELL_KNOWN.get(name)
        if name in self.tainted:
            self.sampled = True
        if SPLIT in value and subscript is not None and subscript not in ("@", "*"):
            items = value.split(SPLIT)
            index = int(subscript) if subscript.isdigit() else -1
            return items[index] if 0 <= index < len(items) else ""
        return value

    def _positional(self, name: str, quoted: bool, operator: str) -> str:
        params = self.positional
        if params is None or operator and name not in ("#",):
            self.dynamic = True
            return "$" + name
        if name == "#":
            return str(len(params))
        if name.isdigit():
            index = int(name)
            value = params[index - 1] if index <= len(params) else ""
            return value if quoted else self.split(value)
        if name == "@":
            return SPLIT.join(params) if quoted else SPLIT.join(self.split(p) for p in params)
        ifs = self.variables.get("IFS", DEFAULT_IFS)
        return ifs[:1].join(params) if quoted else SPLIT.join(self.split(p) for p in params)

    def _unknown(self, inner: str, raw: str) -> str:
        self.dynamic = True
        variable = _VARIABLE.match(inner)
        if variable is not None:
            self.expanded.append(variable.group(1))
        return "$" + inner if _NAME.fullmatch(inner) else raw


class _Unknown(str):
    """A `${…}` operator the decoder does not simulate."""


_UNKNOWN = _Unknown("")


def _operate(value: str | None, operator: str) -> str | None:
    """Applies one `${name…}` operator with a literal operand: defaults, substrings, prefix and
    suffix removal, replacement and case; anything else is `_UNKNOWN`."""
    head = operator[:2]
    if head in (":-", ":=") or operator[:1] in ("-", "="):
        word = operator[2:] if head in (":-", ":=") else operator[1:]
        empty = value is None or (head[:1] == ":" and not value)
        return (_literal(word) if "$" not in word else _UNKNOWN) if empty else value
    if head == ":+" or operator[:1] == "+":
        word = operator[2:] if head == ":+" else operator[1:]
        return "" if value is None else (_literal(word) if "$" not in word else _UNKNOWN)
    if value is None:
        return None
    substring = _SUBSTRING.fullmatch(operator)
    if substring is not None:
        if substring.group(1) is None and substring.group(2) is None:
            return _UNKNOWN
        start = int(substring.group(1) or 0)
        length = substring.group(2)
        start = max(0, len(value) + start) if start < 0 else start
        if length is None:
            return value[start:]
        count = int(length)
        return value[start : start + count] if count >= 0 else value[start : len(value) + count]
    if operator in ("^^", ",,", "^", ","):
        if operator == "^^":
            return value.upper()
        if operator == ",,":
            return value.lower()
        return (value[:1].upper() if operator == "^" else value[:1].lower()) + value[1:]
    for mark in ("##", "#", "%%", "%"):
        if operator.startswith(mark):
            pattern = _literal(operator[len(mark) :])
            if "$" in pattern:
                return _UNKNOWN
            return _remove(value, pattern, mark)
    if operator.startswith("/"):
        every = operator.startswith("//")
        pattern, _, replacement = operator[2 if every else 1 :].partition("/")
        anchor = pattern[:1] if not every and pattern[:1] in ("#", "%") else ""
        pattern, replacement = _literal(pattern[len(anchor) :]), _literal(replacement)
        if not pattern or "$" in pattern + replacement:
            return _UNKNOWN
        if _GLOB_CHARS.search(pattern) is None and not anchor:
            return value.replace(pattern, replacement) if every else value.replace(pattern, replacement, 1)
        compiled = _pattern(pattern, greedy=True)
        if compiled is None or len(value) > MAX_PATTERN_VALUE:
            return _UNKNOWN
        if anchor:
            compiled = re.compile(("^" if anchor == "#" else "") + compiled.pattern + ("$" if anchor == "%" else ""), re.S)
        return compiled.sub(lambda _m: replacement, value, count=0 if every else 1)
    return _UNKNOWN


def _remove(value: str, pattern: str, mark: str) -> str | _Unknown:
    """`${x#p}`, `${x##p}`, `${x%p}` and `${x%%p}`: the shortest or longest prefix or suffix matching
    the bash pattern `p` removed (`${PWD%%/*}` of `/home/user/project` is empty)."""
    if _GLOB_CHARS.search(pattern) is None:
        if mark[0] == "#":
            return value[len(pattern) :] if value.startswith(pattern) else value
        return value[: len(value) - len(pattern)] if pattern and value.endswith(pattern) else value
    if len(value) > MAX_PATTERN_VALUE:
        return _UNKNOWN
    longest = len(mark) == 2
    if mark[0] == "#":
        compiled = _pattern(pattern, greedy=longest)
        found = compiled.match(value) if compiled is not None else None
        if compiled is None:
            return _UNKNOWN
        return value[found.end() :] if found is not None else value
    compiled = _pattern(pattern, greedy=longest, reverse=True)
    if compiled is None:
        return _UNKNOWN
    found = compiled.match(value[::-1])
    return value[: len(value) - found.end()] if found is not None else value


_PATTERN_PART = re.compile(r"\\(.)|(\*)|(\?)|(\[!?\^?\]?[^\]]{0,60}\])|(.)", re.S)


def _pattern(pattern: str, greedy: bool, reverse: bool = False) -> re.Pattern[str] | None:
    """A bash pattern as a regular expression matched from the start (`*` crosses `/` here); None past
    `MAX_PATTERN_STARS` stars, which could make the match slow, and for character classes (`[[:upper:]]`)
    and extended globs, which it does not translate. `reverse` builds the pattern of the reversed
    text, so a suffix can be matched as a prefix."""
    if "[:" in pattern or "[=" in pattern or "[." in pattern or "(" in pattern:
        return None
    parts: list[str] = []
    stars = 0
    for match in _PATTERN_PART.finditer(pattern):
        escaped, star, one, klass, plain = match.groups()
        if star:
            stars += 1
            parts.append(".*" if greedy else ".*?")
        elif one:
            parts.append(".")
        elif klass:
            body = klass[1:-1]
            negate = body[:1] in ("!", "^")
            body = body[1:] if negate else body
            parts.append("[" + ("^" if negate else "") + body.replace("\\", "\\\\").replace("[", "\\[") + "]")
        else:
            parts.append(re.escape(escaped if escaped is not None else plain))
    if stars > MAX_PATTERN_STARS:
        return None
    try:
        return re.compile("".join(reversed(parts)) if reverse else "".join(parts), re.S)
    except re.error:
        return None


def _closing(text: str, at: int, opener: str) -> tuple[int, bool]:
    """Where the substitution opened by `opener` just before `at` ends (after its closing character),
    and whether it was closed: parentheses nest, quotes are skipped; backquotes end at the next one."""
    if opener == "`":
        end = text.find("`", at)
        return (end + 1, True) if end >= 0 else (len(text), False)
    depth, quote = 1, ""
    for i in range(at, len(text)):
        ch = text[i]
        if quote:
            quote = "" if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
            if depth == 0:
                return i + 1, True
    return len(text), False


def _literal(word: str) -> str:
    if len(word) >= 2 and word[0] == word[-1] and word[0] in "'\"":
        return word[1:-1]
    return _unescape(word) if "\\" in word else word


def _unescape(raw: str) -> str:
    """A bare word's backslashes: line continuations vanish, `\\x` reads `x`."""
    return _BACKSLASH.sub(_first_group, raw.replace("\\\n", ""))


def _first_group(match: re.Match[str]) -> str:
    return match.group(1)
