"""Turns tree-sitter word nodes into the strings the shell would pass to a program.

Quoting, backslashes, `$'…'` escapes, `$IFS` and variables assigned earlier in the same
script are all resolved here, so `r"m"`, `\\rm`, `'r''m'` and `a=rm; $a` all read `rm`.
"""

from __future__ import annotations

import re

from tree_sitter import Node

SPLIT = "\x00"
_BACKSLASH = re.compile(r"\\(.)", re.S)
_DQ_ESCAPE = re.compile(r'\\([\\"$`\n])')
_NAME = re.compile(r"\w+")
_VARIABLE = re.compile(r"!?([A-Za-z_]\w*)")
_ANSI_C = re.compile(r"\\(x[0-9a-fA-F]{1,2}|u[0-9a-fA-F]{1,4}|U[0-9a-fA-F]{1,8}|[0-7]{1,3}|c.|.)", re.S)
_SIMPLE_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "a": "\a", "b": "\b", "e": "\x1b", "E": "\x1b",
                   "f": "\f", "v": "\v", "\\": "\\", "'": "'", '"': '"', "?": "?"}
WELL_KNOWN = {"SHELL": "sh", "BASH": "bash"}


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


class WordDecoder:
    """Decodes words against the variables assigned so far in one script.

    `source` is the parsed text when it is pure ASCII: byte offsets are then character
    offsets, and slicing it is several times cheaper than decoding `node.text`. Variables
    the script did not assign itself come from the environment; their names are kept in
    `expanded`.
    """

    def __init__(self, variables: dict[str, str], source: str | None = None) -> None:
        self.variables = variables
        self.source = source
        self.dynamic = False
        self.expanded: list[str] = []

    def raw(self, node: Node) -> str:
        """The source text of `node`."""
        if self.source is not None:
            return self.source[node.start_byte : node.end_byte]
        return node.text.decode("utf-8", "replace") if node.text is not None else ""

    def fields(self, node: Node) -> list[str]:
        """The argv entries one word node becomes (unquoted `$IFS` and variables split)."""
        text = self.text(node, quoted=False)
        if SPLIT not in text:
            return [text]
        return [part for part in text.split(SPLIT) if part]

    def text(self, node: Node, quoted: bool) -> str:
        kind = node.type
        if kind == "word":
            raw = self.raw(node)
            return _unescape(raw) if "\\" in raw else raw
        if kind in ("string", "translated_string"):
            return "".join(self._string_part(child) for child in node.named_children)
        if kind == "concatenation":
            return "".join(self.text(child, quoted) for child in node.children)
        raw = self.raw(node)
        if kind == "raw_string":
            return raw[1:-1]
        if kind == "ansi_c_string":
            return ansi_c(raw[2:-1])
        if kind in ("simple_expansion", "expansion"):
            return self._expansion(node, raw, quoted)
        if kind in ("command_substitution", "process_substitution", "arithmetic_expansion"):
            self.dynamic = True
            return raw
        return raw

    def _string_part(self, node: Node) -> str:
        if node.type == "string_content":
            text = self.raw(node)
            return _DQ_ESCAPE.sub(_first_group, text) if "\\" in text else text
        if node.type == "string":
            return self.text(node, quoted=True)
        return self.text(node, quoted=True)

    def _expansion(self, node: Node, raw: str, quoted: bool) -> str:
        name = raw.strip("${}")
        if name.startswith("IFS"):
            return " " if quoted else SPLIT
        if name in self.variables:
            value = self.variables[name]
            return value if quoted else value.replace(" ", SPLIT).replace("\t", SPLIT).replace("\n", SPLIT)
        if name in WELL_KNOWN:
            return WELL_KNOWN[name]
        self.dynamic = True
        variable = _VARIABLE.match(name)
        if variable is not None:
            self.expanded.append(variable.group(1))
        return "$" + name if _NAME.fullmatch(name) else raw


def _unescape(raw: str) -> str:
    """A bare word's backslashes: line continuations vanish, `\\x` reads `x`."""
    return _BACKSLASH.sub(_first_group, raw.replace("\\\n", ""))


def _first_group(match: re.Match[str]) -> str:
    return match.group(1)
