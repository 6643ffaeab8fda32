"""Reads PowerShell source into statements, pipelines and words, as PowerShell would.

Statements end at `;`, a newline, `&&`, `||` or `&`; pipelines split on `|`; words are read
in argument mode: `'…'` (with `''`), `"…"` (with backtick escapes, `$var` and `$(…)`),
backslashes literal, `-Name` and `-Name:value` parameters, `,` between values. What runs
code is kept as code to read again: `$(…)`, `(…)`, `@(…)`, script blocks `{…}`, the bodies
of `if`, `foreach`, `function`, … . `$env:NAME`, `${env:NAME}`, `$HOME` and `~` stand for
their usual values when they name a place (`engine/gate/winpath.py`); other variables stay
as written and make the word dynamic. A statement that starts with a variable, a value, a
type or a parenthesis is an expression, kept as text with its code parts.

Anything this reader does not model (`<` redirection, unbalanced quotes or brackets, `${…}`
that is not a plain name) sets `Script.error`: the reading is then not a proof of anything.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from engine.gate.winpath import AUTOMATIC, env_value

SINGLE = "'\u2018\u2019\u201a\u201b"
DOUBLE = '"\u201c\u201d\u201e'
DASHES = "-\u2013\u2014\u2015"
_SPACE = " \t\f\v\u00a0"
_WORD_END = frozenset(_SPACE + "\r\n;|&(){},<>")
# Windows PowerShell 5.1's escapes (7 adds `e`; reading `e` as itself keeps `Re`move-It`em` a name).
_ESCAPES = {"0": "\0", "a": "\a", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t", "v": "\v"}
_NUMBER = re.compile(r"(?i)0x[0-9a-f]+|\d+(?:\.\d+)?(?:e[+-]?\d+)?[dl]?(?:kb|mb|gb|tb|pb)?(?![\w.\\/:-])")
_CONSTANTS = frozenset({"true", "false", "null"})
_ORDINARY = re.compile("[^\\s;|&(){},<>`$" + SINGLE + DOUBLE + "]+")
_VARIABLE = re.compile(r"(?:(?:global|script|local|private|using|env|variable):)?[\w?]+|\$|\^|\?", re.A)
_MEMBER = re.compile(r"(?:\.|::)[\w]+", re.A)
_STARTS_EXPRESSION = frozenset("$([@0123456789!,+") | set(SINGLE) | set(DOUBLE)
KEYWORDS = frozenset("if elseif else foreach for while do until switch try catch finally function filter workflow"
                     " trap param begin process end return exit break continue throw data dynamicparam class enum"
                     " using configuration".split())
MAX_ITEMS = 400
# Windows PowerShell 5.1's built-in aliases (`Get-Alias`): what a name runs unless the script redefines it.
ALIASES = {alias: cmdlet for cmdlet, names in {
    "ForEach-Object": "% foreach", "Where-Object": "? where", "Add-Content": "ac", "Get-Content": "cat gc type",
    "Set-Location": "cd chdir sl", "Clear-Content": "clc", "Clear-Host": "clear cls", "Clear-History": "clhy",
    "Clear-Item": "cli", "Clear-ItemProperty": "clp", "Clear-Variable": "clv", "Compare-Object": "compare diff",
    "Copy-Item": "copy cp cpi", "Copy-ItemProperty": "cpp", "Invoke-WebRequest": "curl iwr wget",
    "Convert-Path": "cvpa", "Remove-Item": "del erase rd ri rm rmdir", "Get-ChildItem": "dir gci ls",
    "Write-Output": "echo write", "Export-Alias": "epal", "Export-Csv": "epcsv", "Enter-PSSession": "etsn",
    "Exit-PSSession": "exsn", "Format-Custom": "fc", "Format-Hex": "fhx", "Format-List": "fl", "Format-Table": "ft",
    "Format-Wide": "fw", "Get-Alias": "gal", "Get-Clipboard": "gcb", "Get-Command": "gcm", "Get-PSCallStack": "gcs",
    "Get-PSDrive": "gdr", "Get-History": "ghy h history", "Get-Item": "gi", "Get-ComputerInfo": "gin",
    "Get-Job": "gjb", "Get-Location": "gl pwd", "Get-Member": "gm", "Get-Module": "gmo", "Get-ItemProperty": "gp",
    "Get-Process": "gps ps", "Get-ItemPropertyValue": "gpv", "Group-Object": "group", "Get-PSSession": "gsn",
    "Get-Service": "gsv", "Get-TimeZone": "gtz", "Get-Unique": "gu", "Get-Variable": "gv", "Get-WmiObject": "gwmi",
    "Invoke-Command": "icm", "Invoke-Expression": "iex", "Invoke-History": "ihy r", "Invoke-Item": "ii",
    "Import-Alias": "ipal", "Import-Csv": "ipcsv", "Import-Module": "ipmo", "Invoke-RestMethod": "irm",
    "Invoke-WmiMethod": "iwmi", "Stop-Process": "kill spps", "Out-Printer": "lp", "Get-Help": "man help",
    "New-Item": "md mkdir ni", "Measure-Object": "measure", "Move-Item": "mi move mv", "New-PSDrive": "mount ndr",
    "Move-ItemProperty": "mp", "New-Alias": "nal", "New-Module": "nmo", "New-PSSession": "nsn",
    "New-Variable": "nv", "Out-GridView": "ogv", "Out-Host": "oh", "Pop-Location": "popd", "Push-Location": "pushd",
    "Receive-Job": "rcjb", "Remove-PSDrive": "rdr", "Rename-Item": "ren rni", "Remove-Job": "rjb",
    "Remove-Module": "rmo", "Rename-ItemProperty": "rnp", "Remove-ItemProperty": "rp", "Remove-PSSession": "rsn",
    "Remove-Variable": "rv", "Resolve-Path": "rvpa", "Remove-WmiObject": "rwmi", "Start-Job": "sajb",
    "Set-Alias": "sal", "Start-Process": "saps start", "Start-Service": "sasv", "Set-Content": "sc",
    "Set-Clipboard": "scb", "Select-Object": "select", "Set-Variable": "set sv", "Set-Item": "si",
    "Start-Sleep": "sleep", "Select-String": "sls", "Sort-Object": "sort", "Set-ItemProperty": "sp",
    "Stop-Job": "spjb", "Stop-Service": "spsv", "Set-TimeZone": "stz", "Set-WmiInstance": "swmi",
    "Tee-Object": "tee", "Wait-Job": "wjb", "Trace-Command": "trcm", "Show-Command": "shcm",
}.items() for alias in names.split()}


class PsSyntaxError(ValueError):
    """Text this reader does not model."""


@dataclass(slots=True)
class Word:
    """One argument as PowerShell passes it.

    `text` is its value as far as the text tells (unknown variables stay `$name`), `dynamic`
    whether some part is only known at run time, `param` whether it was written `-Name`
    (`value` then holds a `-Name:value` attachment), `block` whether it is a script block,
    `code` the code its evaluation runs (`$(…)`, `(…)`, a block's body), `expression` the
    source of an argument-mode expression (`$x.Delete()`), `variables` the variables it reads.
    """

    text: str = ""
    dynamic: bool = False
    param: bool = False
    value: "Word | None" = None
    block: bool = False
    code: list[str] = field(default_factory=list)
    expression: str = ""
    variables: list[str] = field(default_factory=list)
    quoted: bool = False

    def absorb(self, part: "Word") -> str:
        """Takes in what a part of this word (a string, an expansion) runs and reads; returns its text."""
        self.dynamic = self.dynamic or part.dynamic
        self.code.extend(part.code)
        self.variables.extend(part.variables)
        return part.text


@dataclass(slots=True)
class Element:
    """One pipeline element: a command (words, with a call operator `&` or `.` if given) or an expression."""

    words: list[Word] = field(default_factory=list)
    call: str = ""
    expression: str = ""
    code: list[str] = field(default_factory=list)
    redirects: list[tuple[str, str]] = field(default_factory=list)
    assigned: str = ""
    variables: list[str] = field(default_factory=list)


@dataclass(slots=True)
class Statement:
    """A pipeline, or a keyword statement (`kind`) with its parts: `code` to read again, a loop
    variable and its source for `foreach`, a name for `function`."""

    elements: list[Element] = field(default_factory=list)
    kind: str = ""
    code: list[str] = field(default_factory=list)
    variable: str = ""
    source: str = ""
    name: str = ""


@dataclass(slots=True)
class Script:
    statements: list[Statement] = field(default_factory=list)
    error: str = ""
    backtick: bool = False


class _Reader:
    def __init__(self, text: str) -> None:
        self.text = text
        self.i = 0
        self.n = len(text)
        self.items = 0
        self.backtick = False
        self.top: list[Statement] = []

    # -- low level -------------------------------------------------------------------------
    def peek(self, k: int = 0) -> str:
        j = self.i + k
        return self.text[j] if j < self.n else ""

    def blank(self, newlines: bool = False) -> None:
        """Skips spaces, line continuations and comments (and newlines when asked)."""
        text, n = self.text, self.n
        while self.i < n:
            ch = text[self.i]
            if ch in _SPACE or newlines and ch in "\r\n":
                self.i += 1
            elif ch == "`" and self.i + 1 < n and text[self.i + 1] in "\r\n":
                self.backtick = True
                self.i += 2
            elif ch == "#":
                end = text.find("\n", self.i)
                self.i = n if end < 0 else end
            elif ch == "<" and self.peek(1) == "#":
                end = text.find("#>", self.i + 2)
                if end < 0:
                    raise PsSyntaxError("unterminated block comment")
                self.i = end + 2
            else:
                break

    def matching(self, open_: str, close: str) -> str:
        """The text between an opening bracket at `i` and its match; `i` moves past the match."""
        start = self.i + 1
        depth = 0
        text, n = self.text, self.n
        j = self.i
        while j < n:
            ch = text[j]
            if ch == "`":
                self.backtick = True
                j += 2
                continue
            if ch in SINGLE:
                j = self._skip_single(j)
                continue
            if ch in DOUBLE:
                j = self._skip_double(j)
                continue
            if ch == "@" and j + 1 < n and text[j + 1] in SINGLE + DOUBLE and self._herestring_at(j):
                j = self._skip_herestring(j)
                continue
            if ch == "#" and (j == 0 or text[j - 1] in _SPACE + "\r\n;{(|"):
                end = text.find("\n", j)
                j = n if end < 0 else end
                continue
            if ch in "({[":
                depth += 1
            elif ch in ")}]":
                depth -= 1
                if depth == 0:
                    if ch != close:
                        raise PsSyntaxError(f"{open_} closed by {ch}")
                    self.i = j + 1
                    return text[start:j]
            j += 1
        raise PsSyntaxError(f"unbalanced {open_}")

    def _skip_single(self, j: int) -> int:
        text, n = self.text, self.n
        j += 1
        while j < n:
            if text[j] in SINGLE:
                if j + 1 < n and text[j + 1] in SINGLE:
                    j += 2
                    continue
                return j + 1
            j += 1
        raise PsSyntaxError("unterminated string")

    def _skip_double(self, j: int) -> int:
        text, n = self.text, self.n
        j += 1
        while j < n:
            ch = text[j]
            if ch == "`":
                self.backtick = True
                j += 2
                continue
            if ch == "$" and j + 1 < n and text[j + 1] == "(":
                saved = self.i
                self.i = j + 1
                self.matching("(", ")")
                j, self.i = self.i, saved
                continue
            if ch in DOUBLE:
                if j + 1 < n and text[j + 1] in DOUBLE:
                    j += 2
                    continue
                return j + 1
            j += 1
        raise PsSyntaxError("unterminated string")

    def _herestring_at(self, j: int) -> bool:
        k = j + 2
        while k < self.n and self.text[k] in " \t":
            k += 1
        return k < self.n and self.text[k] in "\r\n"

    def _skip_herestring(self, j: int) -> int:
        quote = self.text[j + 1]
        closing = re.compile(r"[\r\n][ \t]*" + ("['\u2018\u2019\u201a\u201b]" if quote in SINGLE else "[\"\u201c\u201d\u201e]") + "@")
        found = closing.search(self.text, j + 2)
        if found is None:
            raise PsSyntaxError("unterminated here-string")
        return found.end()

    def count(self) -> None:
        self.items += 1
        if self.items > MAX_ITEMS:
            raise PsSyntaxError("too many items")

    # -- statements ------------------------------------------------------------------------
    def statements(self, close: str = "") -> list[Statement]:
        found: list[Statement] = self.top if not close else []
        while True:
            self.blank(newlines=True)
            ch = self.peek()
            if not ch:
                if close:
                    raise PsSyntaxError(f"missing {close}")
                return found
            if ch == ";" or ch == "&" and self.peek(1) == "&" or ch == "|" and self.peek(1) == "|":
                self.i += 2 if ch in "&|" else 1
                continue
            if close and ch == close:
                return found
            if ch in ")}]":
                raise PsSyntaxError(f"unexpected {ch}")
            found.append(self.statement())

    def statement(self) -> Statement:
        self.count()
        word = re.match(r"[A-Za-z]+", self.text[self.i:self.i + 24])
        if word is not None and word.group(0).lower() in KEYWORDS:
            after = self.i + word.end()
            if after >= self.n or self.text[after] in _SPACE + "\r\n({;":
                return self.keyword(word.group(0).lower(), after)
        return Statement(self.pipeline())

    def keyword(self, kind: str, after: int) -> Statement:
        """A keyword statement: its conditions and bodies are code to read again."""
        self.i = after
        statement = Statement(kind=kind)
        if kind in ("return", "throw", "exit"):
            self.blank()
            if self.peek() and self.peek() not in "\r\n;})":
                statement.elements = self.pipeline()
            return statement
        if kind in ("break", "continue"):
            self.blank()
            if self.peek() and self.peek() not in "\r\n;})":
                self.word()
            return statement
        if kind in ("function", "filter", "workflow", "configuration", "class", "enum", "data"):
            self.blank()
            name = re.match(r"[^\s{(]+", self.text[self.i:])
            if name is not None and kind != "data":
                statement.name = name.group(0)
                self.i += name.end()
        while True:
            self.blank(newlines=kind not in ("param", "using"))
            ch = self.peek()
            if ch == "(":
                inner = self.matching("(", ")")
                if kind == "foreach":
                    loop = re.match(r"\s*\$([\w:]+)\s+in\s+(.*)", inner, re.S | re.I)
                    if loop is not None:
                        statement.variable, statement.source = loop.group(1).lower(), loop.group(2)
                        statement.code.append(loop.group(2))
                        continue
                statement.code.append(inner)
            elif ch == "{":
                statement.code.append(self.matching("{", "}"))
                if kind in ("function", "filter", "param", "class", "enum", "data", "configuration", "workflow"):
                    return statement
                self.blank(newlines=True)
                following = re.match(r"(?i)(elseif|else|catch|finally|while|until)\b", self.text[self.i:])
                if following is None:
                    return statement
                self.i += following.end()
            elif ch == "-" and kind == "switch":
                self.word()
            elif ch == "[" and kind in ("catch", "param", "using"):
                self.matching("[", "]")
            elif kind == "using" and ch:
                self.word()
            elif not ch or ch in ";\r\n})":
                return statement
            else:
                raise PsSyntaxError(f"{kind} without its parts")

    def pipeline(self) -> list[Element]:
        elements: list[Element] = []
        while True:
            self.blank()
            elements.append(self.element())
            self.blank()
            ch = self.peek()
            if ch == "|" and self.peek(1) != "|":
                self.i += 1
                self.blank(newlines=True)
                continue
            if ch == "&" and self.peek(1) != "&":
                self.i += 1
            return elements

    def element(self) -> Element:
        self.count()
        ch = self.peek()
        call = ""
        if ch in "&." and (self.peek(1) in _SPACE + "'\"{($" or ch == "&" and self.peek(1).isalnum()):
            if ch == "." and self.peek(1) not in _SPACE:
                pass
            else:
                call = ch
                self.i += 1
                self.blank()
                ch = self.peek()
        if not call and (ch in _STARTS_EXPRESSION and not (ch.isdigit() and not _NUMBER.match(self.text, self.i))
                         or ch in DASHES and self.peek(1).isdigit()
                         or ch == "-" and re.match(r"-(?:not|bnot)\b", self.text[self.i:self.i + 6], re.I)):
            return self.expression()
        element = Element(call=call)
        while True:
            self.blank()
            ch = self.peek()
            if not ch or ch in ";\r\n|)}" or ch == "&":
                break
            if ch == "<":
                raise PsSyntaxError("input redirection")
            redirect = re.match(r"(?:[*1-6])?>>?(?:&[12])?", self.text[self.i:self.i + 5])
            if redirect is not None:
                self.i += redirect.end()
                if "&" in redirect.group(0):
                    element.redirects.append((redirect.group(0), ""))
                    continue
                self.blank()
                target = self.word()
                element.redirects.append((redirect.group(0), target.text))
                element.code.extend(target.code)
                continue
            if ch == ",":
                self.i += 1
                continue
            if ch in DASHES and self.peek(1) == "-" and self.peek(2) == "%":
                self.i += 3
                end = self.text.find("\n", self.i)
                rest = self.text[self.i:] if end < 0 else self.text[self.i:end]
                self.i = self.n if end < 0 else end
                element.words.extend(Word(part, dynamic="%" in part) for part in rest.split())
                continue
            element.words.append(self.word())
        return element

    def expression(self) -> Element:
        """An expression statement; an assignment's right-hand side is read as a pipeline."""
        start = self.i
        element = Element()
        lhs = re.match(r"\$(\{[^}]{1,200}\}|[\w:]+)((?:\.\w+|\[[^\]]{0,200}\])*)\s*([-+*/%]?=)(?!=)", self.text[self.i:], re.A)
        if lhs is not None:
            element.assigned = lhs.group(1).strip("{}").lower() + ("." if lhs.group(2) else "")
            self.i += lhs.end()
            self.blank()
            element.expression = self.text[start:self.i]
            self.pipeline()
            element.code.append(self.text[start + lhs.end():self.i])
            return element
        while self.i < self.n:
            ch = self.text[self.i]
            if ch in ";\r\n|)}&":
                break
            if ch == "`":
                self.backtick = True
                self.i += 2
                continue
            if ch in SINGLE:
                self.i = self._skip_single(self.i)
                continue
            if ch in DOUBLE:
                part = self.double()
                element.code.extend(part.code)
                element.variables.extend(part.variables)
                continue
            if ch == "@" and self.peek(1) in SINGLE + DOUBLE and self._herestring_at(self.i):
                self.i = self._skip_herestring(self.i)
                continue
            if ch == "#" and self.text[self.i - 1] in _SPACE:
                end = self.text.find("\n", self.i)
                self.i = self.n if end < 0 else end
                continue
            if ch == "$" and self.peek(1) == "(":
                self.i += 1
                element.code.append(self.matching("(", ")"))
                continue
            if ch == "$":
                self.i += 1
                name = self.variable_name()
                element.variables.append(name)
                continue
            if ch in "({":
                element.code.append(self.matching(ch, ")" if ch == "(" else "}"))
                continue
            if ch == "[":
                self.matching("[", "]")
                continue
            if ch == "<":
                raise PsSyntaxError("input redirection")
            self.i += 1
        element.expression = self.text[start:self.i].strip()
        return element

    def variable_name(self) -> str:
        """Reads the name after `$` (`i` just past it); `${…}` must be a plain name."""
        if self.peek() == "{":
            inner = self.matching("{", "}")
            if not re.fullmatch(r"[\w:?() ]{1,100}", inner, re.A):
                raise PsSyntaxError("braced variable name")
            return inner.lower()
        found = _VARIABLE.match(self.text, self.i)
        if found is None:
            return ""
        self.i = found.end()
        return found.group(0).lower()

    # -- words -----------------------------------------------------------------------------
    def word(self) -> Word:
        self.count()
        ch = self.peek()
        if ch in DASHES and (self.peek(1).isalpha() or self.peek(1) == "_") :
            return self.parameter()
        if ch == "{":
            body = self.matching("{", "}")
            return Word("{" + body + "}", dynamic=True, block=True, code=[body])
        if ch == "(" or ch == "@" and self.peek(1) in "({":
            if ch == "@":
                self.i += 1
                if self.peek() == "{":
                    body = self.matching("{", "}")
                    return Word("@{" + body + "}", dynamic=True, code=[_hash_code(body)])
            inner = self.matching("(", ")")
            word = Word("(" + inner + ")", dynamic=True, code=[inner])
            self.members(word, "(" + inner + ")")
            return word
        if ch == "@" and self.peek(1) in SINGLE + DOUBLE and self._herestring_at(self.i):
            start = self.i
            self.i = self._skip_herestring(self.i)
            body = self.text[self.text.index("\n", start) + 1:self.i - 2].rstrip("\r\n")
            return Word(body, dynamic=self.text[start + 1] in DOUBLE and "$" in body, quoted=True)
        if ch == "@" and (self.peek(1).isalpha() or self.peek(1) == "_"):
            self.i += 1
            name = self.variable_name()
            return Word("-@" + name, dynamic=True, param=True, variables=[name])
        if ch == "$" and self.peek(1) != "(":
            start = self.i
            self.i += 1
            name = self.variable_name()
            if name in _CONSTANTS:
                word = Word("$" + name)
                if self.i < self.n and self.text[self.i] not in _WORD_END:
                    word.text += self.bare().text
                return word
            word = Word(dynamic=True, variables=[name])
            value = place_value(name)
            word.text, word.dynamic = (value, False) if value is not None else ("$" + name, True)
            if self.members(word, self.text[start:self.i]):
                return word
            if self.i < self.n and self.text[self.i] not in _WORD_END:
                rest = self.bare()
                word.text += rest.text
                word.dynamic = word.dynamic or rest.dynamic
                word.code.extend(rest.code)
                word.variables.extend(rest.variables)
            return word
        return self.bare()

    def members(self, word: Word, head: str) -> bool:
        """Member access and calls after a variable or parenthesis make the word an expression."""
        start = self.i
        while self.i < self.n:
            found = _MEMBER.match(self.text, self.i)
            if found is not None:
                self.i = found.end()
                if self.peek() == "(":
                    word.code.append(self.matching("(", ")"))
                continue
            if self.peek() == "[":
                self.matching("[", "]")
                continue
            break
        if self.i == start:
            return False
        word.expression = head + self.text[start:self.i]
        word.text = word.expression if not word.text or word.dynamic else word.text
        word.dynamic = True
        return True

    def parameter(self) -> Word:
        self.i += 1
        found = re.match(r"[\w?]+", self.text[self.i:], re.A)
        name = found.group(0) if found else ""
        self.i += len(name)
        word = Word("-" + name, param=True)
        if self.peek() == ":":
            self.i += 1
            word.value = self.word() if self.peek() and self.peek() not in _WORD_END else Word("")
            word.text = f"-{name}:{word.value.text}"
            word.dynamic = word.value.dynamic
            word.code.extend(word.value.code)
            word.variables.extend(word.value.variables)
        elif self.peek() and self.peek() not in _WORD_END:
            rest = self.bare()
            word.text += rest.text
            word.param = False
            word.dynamic, word.code, word.variables = rest.dynamic, rest.code, rest.variables
        return word

    def bare(self) -> Word:
        """An unquoted word (an expandable string in argument mode), with quoted parts joined on."""
        word = Word()
        parts: list[str] = []
        text, n = self.text, self.n
        while self.i < n:
            run = _ORDINARY.match(text, self.i)
            if run is not None:
                parts.append(run.group(0))
                self.i = run.end()
                continue
            ch = text[self.i]
            if ch in _WORD_END:
                break
            if ch == "`":
                self.backtick = True
                nxt = self.peek(1)
                parts.append(_ESCAPES.get(nxt, nxt))
                self.i += 2
                continue
            if ch in SINGLE:
                end = self._skip_single(self.i)
                parts.append(_single_value(text[self.i + 1:end - 1]))
                word.quoted = True
                self.i = end
                continue
            if ch in DOUBLE:
                parts.append(word.absorb(self.double()))
                word.quoted = True
                continue
            if ch == "$" and self.i + 1 < n and (text[self.i + 1].isalnum() or text[self.i + 1] in "_{(?^$:"):
                parts.append(word.absorb(self.expansion()))
                continue
            parts.append(ch)
            self.i += 1
        word.text = "".join(parts)
        return word

    def expansion(self) -> Word:
        """`$name`, `${name}` or `$(…)` inside a string or bare word (`i` at the `$`)."""
        self.i += 1
        if self.peek() == "(":
            inner = self.matching("(", ")")
            return Word("$(" + inner + ")", dynamic=True, code=[inner])
        name = self.variable_name()
        value = place_value(name)
        if value is not None:
            return Word(value, variables=[name])
        return Word("$" + name, dynamic=True, variables=[name])

    def double(self) -> Word:
        """A double-quoted string at `i`: backtick escapes, `""`, and expansions."""
        word = Word(quoted=True)
        parts: list[str] = []
        text, n = self.text, self.n
        self.i += 1
        while self.i < n:
            ch = text[self.i]
            if ch == "`":
                self.backtick = True
                nxt = self.peek(1)
                parts.append(_ESCAPES.get(nxt, nxt))
                self.i += 2
                continue
            if ch in DOUBLE:
                if self.peek(1) in DOUBLE and self.peek(1):
                    parts.append('"')
                    self.i += 2
                    continue
                self.i += 1
                word.text = "".join(parts)
                return word
            if ch == "$" and self.i + 1 < n and (text[self.i + 1].isalnum() or text[self.i + 1] in "_{(?^$:"):
                parts.append(word.absorb(self.expansion()))
                continue
            parts.append(ch)
            self.i += 1
        raise PsSyntaxError("unterminated string")


def _single_value(body: str) -> str:
    for quote in SINGLE:
        body = body.replace(quote + quote, "'")
    return body


def place_value(name: str) -> str | None:
    """The value of a variable that names a place, or None (`$env:windir`, `$HOME`)."""
    if name.startswith("env:"):
        return env_value(name[4:])
    return AUTOMATIC.get(name)


def _hash_code(body: str) -> str:
    """A hashtable literal's values as statements (`@{n='x'; e={…}}` reads `'x'` and `{…}`)."""
    return "\n".join(part.split("=", 1)[1] for part in re.split(r"[;\n]", body) if "=" in part)


def read(text: str) -> Script:
    """Reads PowerShell source; `Script.error` says why it could not be read in full (the
    statements read before the error are kept: they would run)."""
    reader = _Reader(text)
    script = Script()
    try:
        reader.statements()
    except PsSyntaxError as error:
        script.error = str(error)
    except RecursionError:
        script.error = "nested too deeply"
    script.statements = reader.top
    script.backtick = reader.backtick
    return script


def value(text: str) -> Word | None:
    """One argument-mode word read from `text` (a method argument, a loop source), or None
    when the text is not exactly one word."""
    reader = _Reader(text.strip())
    try:
        word = reader.word()
        reader.blank()
    except (PsSyntaxError, IndexError, RecursionError):
        return None
    return word if reader.i >= reader.n else None
