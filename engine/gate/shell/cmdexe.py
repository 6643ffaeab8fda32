"""Reads cmd.exe command lines into commands, as cmd.exe would.

`%NAME%` is expanded first (a variable that names a place stands for its usual value, see
`engine/gate/winpath.py`; one set earlier in the text by `set NAME=…` for its value; any
other stays as written and makes the command dynamic). Then `^` escapes the next character
outside quotes, `"` quotes without escapes (so `"C:\\"` is `C:\\`; an unclosed quote runs to the end
of the line), and `&`, `&&`, `||` and
`|` split commands; `>`, `>>`, `2>` and `<` are redirections. `@` is dropped; `rem` and `::`
are comments; `if … command`, `for … do command` (with the loop variable replaced by its
set), `call command` and `start ["title"] command` give the command they run. Built-ins
take switches glued to their name or to each other (`rd/s/q`). Text this reader cannot
place (an unbalanced parenthesis, `for` without its parts) sets `CmdScript.error`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from engine.gate.winpath import env_value

BUILTINS = frozenset(
    "assoc break call cd chdir cls color copy date del dir echo endlocal erase exit for ftype goto if md mkdir mklink"
    " move path pause popd prompt pushd rd rem ren rename rmdir set setlocal shift start time title type ver verify"
    " vol".split()
)
_GLUED = re.compile(r"(?i)(del|erase|rd|rmdir|dir|copy|move|md|mkdir|type|cd|chdir|echo)([/.\\]\S*)")
_PERCENT = re.compile(r"%%~?[a-z$:]*[a-z]|%~[a-z$:]*[0-9*]|%[0-9*]|%([^%\s=]{1,80})%", re.I)
_UNKNOWN = re.compile(r"%[^%\s]{1,80}%|![^!\s]{1,80}!|%~?[0-9*]|%%?~?[a-z]\b", re.I)
_SET = re.compile(r'(?i)^\s*@?set\s+(?:/a\s+)?"?([^=\s"]{1,80})=([^"&|\n]*)"?')
MAX_COMMANDS = 200
MAX_NESTING = 8


class CmdSyntaxError(ValueError):
    """Text this reader does not place."""


@dataclass(slots=True)
class CmdCommand:
    """One command: its words (quotes removed), redirections, the stages piped into it, and whether
    any word is only known at run time."""

    argv: list[str]
    redirects: list[tuple[str, str]] = field(default_factory=list)
    upstream: list["CmdCommand"] = field(default_factory=list)
    dynamic: bool = False
    variables: list[str] = field(default_factory=list)
    tail: str = ""
    posix_quoted: list[int] = field(default_factory=list)


@dataclass(slots=True)
class CmdScript:
    commands: list[CmdCommand] = field(default_factory=list)
    error: str = ""


@dataclass(slots=True)
class _Token:
    text: str
    op: bool = False
    quoted: bool = False
    start: int = -1
    end: int = -1
    posix_quoted: bool = False


def posix_single_quoted(line: str) -> set[int]:
    """Positions a POSIX shell reads inside `'…'` (closed quotes only): cmd.exe gives `'` no meaning, so a
    `>` there is a redirection to cmd.exe and a character of an awk or sed program to bash."""
    inside: set[int] = set()
    if "'" not in line:
        return inside
    i, n, double = 0, len(line), False
    while i < n:
        ch = line[i]
        if ch == "\\" and i + 1 < n:
            i += 2
            continue
        if ch == '"':
            double = not double
        elif ch == "'" and not double:
            end = line.find("'", i + 1)
            if end < 0:
                break
            inside.update(range(i + 1, end))
            i = end
        i += 1
    return inside


def expand(line: str, assigned: dict[str, str], variables: list[str]) -> str:
    """`%NAME%` replaced where its value is known (set earlier, or a variable that names a place)."""

    def one(match: re.Match[str]) -> str:
        name = match.group(1)
        if name is None:
            return match.group(0)
        variables.append(name)
        value = assigned.get(name.lower())
        return value if value is not None else env_value(name) or match.group(0)

    return _PERCENT.sub(one, line) if "%" in line else line


def tokens(line: str) -> list[_Token]:
    """Splits one expanded line into words and operators (`^` escapes, `"` quotes)."""
    found: list[_Token] = []
    word: list[str] = []
    quoted = False
    in_quotes = False
    start = -1
    i, n = 0, len(line)
    posix = posix_single_quoted(line) if "'" in line and ("<" in line or ">" in line) else set()

    def flush() -> None:
        nonlocal quoted
        if word or quoted:
            found.append(_Token("".join(word), quoted=quoted, start=start, end=i))
            word.clear()
            quoted = False

    while i < n:
        ch = line[i]
        if not word and not quoted and ch not in " \t":
            start = i
        if in_quotes:
            if ch == '"':
                in_quotes = False
            else:
                word.append(ch)
            i += 1
            continue
        if ch == '"':
            in_quotes = quoted = True
            i += 1
            continue
        if ch == "^":
            if i + 1 < n:
                word.append(line[i + 1])
            i += 2
            continue
        if ch in " \t":
            flush()
            i += 1
            continue
        redirect = re.match(r"[0-9]?>>?(?:&[0-9])?|[0-9]?<(?:&[0-9])?", line[i:i + 4]) if ch in "0123456789<>" else None
        if redirect is not None and (ch in "<>" or not word):
            flush()
            found.append(_Token(redirect.group(0), op=True, posix_quoted=i + redirect.end() - 1 in posix))
            i += redirect.end()
            continue
        if ch in "&|":
            flush()
            double = i + 1 < n and line[i + 1] == ch
            found.append(_Token(ch * 2 if double else ch, op=True))
            i += 2 if double else 1
            continue
        if ch in "()":
            flush()
            found.append(_Token(ch, op=True))
            i += 1
            continue
        word.append(ch)
        i += 1
    flush()
    return found


class _Reader:
    def __init__(self) -> None:
        self.commands: list[CmdCommand] = []
        self.depth = 0
        self.line = ""

    def add(self, command: CmdCommand) -> None:
        if len(self.commands) >= MAX_COMMANDS:
            raise CmdSyntaxError("too many commands")
        self.commands.append(command)

    def sequence(self, items: list[_Token], variables: list[str]) -> None:
        """Commands joined by `&`, `&&`, `||`, with `|` pipelines and `( … )` groups."""
        self.depth += 1
        if self.depth > MAX_NESTING:
            raise CmdSyntaxError("nested too deeply")
        try:
            self._sequence(items, variables)
        finally:
            self.depth -= 1

    def _sequence(self, items: list[_Token], variables: list[str]) -> None:
        stages: list[CmdCommand] = []
        current: list[_Token] = []
        i = 0
        while i <= len(items):
            item = items[i] if i < len(items) else None
            if item is not None and item.op and item.text == "(":
                j = _closing(items, i)
                if _words(current):
                    current.extend(items[i:j + 1])
                    i = j + 1
                    continue
                start = len(self.commands)
                self.sequence(items[i + 1:j], variables)
                group = self.commands[start:]
                if group:
                    group[0].upstream = stages[-16:] + group[0].upstream
                    stages.append(CmdCommand(["(group)"] + [w for c in group for w in c.argv]))
                i = j + 1
                continue
            if item is None or item.op and item.text in ("&", "&&", "||", "|", ")"):
                if item is not None and item.text == ")":
                    raise CmdSyntaxError("unbalanced parenthesis")
                if current:
                    command = self.command(current, variables)
                    if command is not None:
                        command.upstream = stages[-16:] + command.upstream
                        stages.append(command)
                if item is None or item.text != "|":
                    stages = []
                current = []
                i += 1
                continue
            current.append(item)
            i += 1

    def command(self, items: list[_Token], variables: list[str]) -> CmdCommand | None:
        head = next((k for k, item in enumerate(items) if not item.op), None)
        if head is None:
            return None
        first = items[head].text.lstrip("@")
        if not first and not items[head].quoted:
            return self.command(items[head + 1:], variables)
        glued = _GLUED.fullmatch(first)
        if glued is not None:
            items = items[:head] + [_Token(glued.group(1)), _Token(glued.group(2))] + items[head + 1:]
            first = glued.group(1)
        lower = first.lower()
        if lower in ("rem", "::") or first.startswith(":"):
            return None
        if lower == "if":
            return self.branch(items[head + 1:], variables)
        if lower == "for":
            return self.loop(items[head + 1:], variables)
        if lower == "call" and head + 1 < len(items):
            return self.command(items[head + 1:], variables)
        words: list[str] = []
        redirects: list[tuple[str, str]] = []
        posix_quoted: list[int] = []
        i = 0
        while i < len(items):
            item = items[i]
            if item.op and item.text not in "()":
                target = items[i + 1].text if i + 1 < len(items) and not items[i + 1].op else ""
                if item.posix_quoted:
                    posix_quoted.append(len(redirects))
                redirects.append((item.text, target))
                i += 2 if target or "&" not in item.text else 1
                continue
            words.append(first if i == head else item.text)
            i += 1
        if not words:
            return None
        if lower in BUILTINS:
            words = [words[0]] + [part for word in words[1:] for part in _switches(word)]
        dynamic = bool(_UNKNOWN.search(words[0]))
        command = CmdCommand(words, redirects, dynamic=dynamic, variables=variables, tail=self.tail(items, head),
                             posix_quoted=posix_quoted)
        self.add(command)
        return command

    def tail(self, items: list[_Token], head: int) -> str:
        """For `cmd … /c REST`: REST as written, as cmd.exe takes it (outer quotes stripped)."""
        name = items[head].text.lower().rsplit("\\", 1)[-1].removesuffix(".exe")
        if name != "cmd":
            return ""
        for item in items[head + 1:]:
            if not item.op and item.text.lower().startswith(("/c", "/k")) and item.start >= 0 and item.text[2:3] != ":":
                rest = self.line[item.start + 2:].strip()
                end = max((i.end for i in items if not i.op), default=-1)
                if 0 <= end < len(self.line) and end > item.start:
                    rest = self.line[item.start + 2:end].strip()
                if len(rest) > 1 and rest[0] == '"' and rest[-1] == '"':
                    rest = rest[1:-1]
                return rest
        return ""

    def branch(self, items: list[_Token], variables: list[str]) -> CmdCommand | None:
        """`if [/i] [not] condition command [else command]`: the commands it may run."""
        words = [item.text.lower() if not item.op else "" for item in items]
        i = 0
        while i < len(items) and words[i] in ("/i", "not"):
            i += 1
        if i < len(items) and words[i] in ("exist", "defined", "errorlevel", "cmdextversion"):
            i += 2
        elif i + 2 < len(items) and words[i + 1] in ("equ", "neq", "lss", "leq", "gtr", "geq"):
            i += 3
        elif i < len(items) and "==" in words[i]:
            i += 1 if not words[i].endswith("==") else 2
        elif i + 1 < len(items) and words[i + 1] == "==":
            i += 3
        else:
            i += 1
        rest = items[i:]
        split = len(rest)
        depth = 0
        for k, item in enumerate(rest):
            if item.op and item.text == "(":
                depth += 1
            elif item.op and item.text == ")":
                depth -= 1
            elif depth == 0 and not item.op and item.text.lower() == "else":
                split = k
                break
        start = len(self.commands)
        self.sequence(rest[:split], variables)
        if split + 1 < len(rest):
            self.sequence(rest[split + 1:], variables)
        return self.commands[start] if len(self.commands) > start else None

    def loop(self, items: list[_Token], variables: list[str]) -> CmdCommand | None:
        """`for [/d|/r root|/l|/f opts] %x in (set) do command`: the command once per item of the set."""
        lower = [item.text.lower() if not item.op else item.text for item in items]
        if "in" not in lower or "do" not in lower:
            raise CmdSyntaxError("for without in or do")
        at_in = lower.index("in")
        options = lower[:at_in - 1]
        variable = items[at_in - 1].text if at_in else ""
        if at_in + 1 >= len(items) or items[at_in + 1].text != "(":
            raise CmdSyntaxError("for without a set")
        close = _closing(items, at_in + 1)
        values = [item for item in items[at_in + 2:close] if not item.op]
        if close + 1 >= len(items) or lower[close + 1] != "do" or not variable:
            raise CmdSyntaxError("for without do")
        body = items[close + 2:]
        recursive = "/r" in options
        root = ""
        if recursive:
            after = options.index("/r") + 1
            root = items[after].text if after < len(options) else ""
        texts = [item.text for item in values]
        if "/f" in options or "/l" in options:
            listed = None
            joined = " ".join(item.text for item in values)
            if joined[:1] in ("'", "`") and joined[-1:] == joined[:1] and len(joined) > 1:
                self.sequence(tokens(joined[1:-1]), variables)
                listed = _dir_listing(joined[1:-1])
            else:
                for item in values:
                    if item.text.startswith(("'", "`")) and len(item.text) > 1:
                        self.sequence(tokens(item.text[1:-1]), variables)
            texts = [listed[0]] if listed else ["%loop%"]
            recursive = recursive or bool(listed and listed[1])
        start = len(self.commands)
        for value in texts[:8] or ["%loop%"]:
            if recursive:
                value = (root.rstrip("\\") + "\\" if root else "") + value
            argv = [_Token(item.text.replace(variable, value), item.op, item.quoted) for item in body]
            if recursive and argv and argv[0].text.lower() in ("del", "erase", "rd", "rmdir"):
                argv.append(_Token("/s"))
            self.sequence(argv, variables)
        return self.commands[start] if len(self.commands) > start else None


def _dir_listing(command: str) -> tuple[str, bool] | None:
    """`dir /s /b C:\\` in a `for /f` set: every path under the folder it lists (and whether it recurses)."""
    words = [item.text for item in tokens(command) if not item.op]
    if not words or words[0].lower() != "dir":
        return None
    switches = [w.lower() for w in words[1:] if w.startswith("/")]
    folders = [w for w in words[1:] if not w.startswith("/")]
    if "/b" not in switches or len(folders) > 1:
        return None
    folder = folders[0] if folders else "."
    listed = folder if any(ch in folder for ch in "*?") else folder.rstrip("\\/") + "\\*"
    return listed, "/s" in switches


def _closing(items: list[_Token], i: int) -> int:
    """The index of the `)` matching the `(` at `i`."""
    depth = 0
    for j in range(i, len(items)):
        if items[j].op and items[j].text == "(":
            depth += 1
        elif items[j].op and items[j].text == ")":
            depth -= 1
            if depth == 0:
                return j
    raise CmdSyntaxError("unbalanced parenthesis")


def _words(items: list[_Token]) -> bool:
    return any(not item.op for item in items)


def _switches(word: str) -> list[str]:
    """`/s/q` is two switches to a built-in; a path keeps its slashes."""
    if word.startswith("/") and "\\" not in word and ":" not in word and word.count("/") > 1:
        return ["/" + part for part in word.split("/") if part]
    return [word]


def read(text: str) -> CmdScript:
    """Reads cmd.exe text line by line; `set NAME=value` on one line is seen by the lines after it."""
    script = CmdScript()
    reader = _Reader()
    assigned: dict[str, str] = {}
    try:
        for line in re.split(r"\r?\n", text.replace("^\r\n", "").replace("^\n", "")):
            if not line.strip():
                continue
            variables: list[str] = []
            reader.line = expand(line, assigned, variables)
            reader.sequence(tokens(reader.line), variables)
            for match in (_SET.match(part) for part in re.split(r"&&?|\|\|?", line)):
                if match is not None:
                    assigned[match.group(1).lower()] = match.group(2).strip()
    except CmdSyntaxError as error:
        script.error = str(error)
    except RecursionError:
        script.error = "nested too deeply"
    script.commands = reader.commands
    return script
