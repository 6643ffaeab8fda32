"""Splits a shell script into simple commands with tree-sitter-bash.

Lists, pipelines, subshells, substitutions and redirect targets are all walked, so every
program the script could start shows up as one `SimpleCommand` with its decoded argv.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import tree_sitter_bash
from tree_sitter import Language, Node, Parser, Tree

from engine.gate.shell.words import WordDecoder

MAX_NODES = 20_000
MAX_DEPTH = 150
MAX_UPSTREAM = 16
MAX_COMMANDS = 200
_LANGUAGE = Language(tree_sitter_bash.language())
_PARSER = Parser(_LANGUAGE)
_LEAVES = frozenset({"word", "raw_string", "number", "ansi_c_string", "simple_expansion", "special_variable_name",
                     "variable_name", "comment", "heredoc_start", "heredoc_end", "file_descriptor"})
_REDIRECTS = frozenset({"file_redirect", "heredoc_redirect", "herestring_redirect"})
_ARGUMENT_SKIP = {"command_name", "variable_assignment", "file_redirect", "heredoc_redirect",
                  "herestring_redirect", "comment"}


@dataclass(slots=True)
class Redirect:
    """One redirection: operator, decoded target and the file descriptor it names."""

    op: str
    target: str
    fd: str = ""

    @property
    def writes(self) -> bool:
        return ">" in self.op and not self.op.endswith("&") and self.op != ">&"


@dataclass(slots=True)
class SimpleCommand:
    """A program the script starts, with what feeds its stdin and where its output goes.

    `feeds` says its output is piped into a later stage (`nested` that it becomes words of
    another command, `inner` lists the commands whose output becomes its own words);
    `expanded` names the variables its words take from the environment. A bare assignment
    (`PATH=tools`) is a command with no argv and that `env`.
    """

    argv: list[str]
    env: dict[str, str] = field(default_factory=dict)
    redirects: list[Redirect] = field(default_factory=list)
    stdin: str | None = None
    upstream: list["SimpleCommand"] = field(default_factory=list)
    dynamic_name: bool = False
    nested: bool = False
    feeds: bool = False
    expanded: list[str] = field(default_factory=list)
    inner: list["SimpleCommand"] = field(default_factory=list)


@dataclass(slots=True)
class Script:
    """Every simple command of a script, and whether the parse could be trusted."""

    commands: list[SimpleCommand] = field(default_factory=list)
    error: bool = False
    truncated: bool = False


class _Walker:
    """One pass over the tree; a single decoder shares the script's variables."""

    def __init__(self, source: str | None = None) -> None:
        self.script = Script()
        self.variables: dict[str, str] = {}
        self.decoder = WordDecoder(self.variables, source)
        self.nodes = 0

    def visit(self, node: Node, depth: int, nested: bool = False) -> None:
        self.nodes += 1
        kind = node.type
        if kind in _LEAVES:
            return
        if self.nodes > MAX_NODES or depth > MAX_DEPTH or len(self.script.commands) > MAX_COMMANDS:
            self.script.truncated = True
            return
        if kind == "ERROR" or node.is_missing:
            self.script.error = True
        if kind == "command":
            self.command(node, [], depth, nested)
        elif kind == "redirected_statement":
            self.redirected(node, depth, nested)
        elif kind == "pipeline":
            self.pipeline(node, depth, nested)
        elif kind == "variable_assignment":
            self.assign(node, depth, nested, bare=True)
        elif kind == "declaration_command":
            self.declaration(node, depth, nested)
        elif kind == "function_definition":
            name = node.child_by_field_name("name")
            label = self.decoder.raw(name) if name is not None else ""
            self.script.commands.append(SimpleCommand(["function", label], nested=nested))
            self.children(node, depth, nested)
        elif kind in ("command_substitution", "process_substitution"):
            self.children(node, depth, True)
        else:
            self.children(node, depth, nested)

    def children(self, node: Node, depth: int, nested: bool) -> None:
        for child in node.children:
            self.visit(child, depth + 1, nested)

    def pipeline(self, node: Node, depth: int, nested: bool) -> None:
        upstream: list[SimpleCommand] = []
        for child in node.children:
            if not child.is_named:
                continue
            start = len(self.script.commands)
            self.visit(child, depth + 1, nested)
            stage = next((c for c in self.script.commands[start:] if c.nested == nested), None)
            if stage is not None:
                stage.upstream = upstream[-MAX_UPSTREAM:]
                upstream.append(stage)
        for stage in upstream[:-1]:
            stage.feeds = True

    def redirected(self, node: Node, depth: int, nested: bool) -> None:
        body = node.child_by_field_name("body")
        redirects = [child for child in node.children if body is None or child != body]
        if body is not None and body.type == "command":
            self.command(body, redirects, depth, nested)
            return
        if body is not None:
            self.visit(body, depth + 1, nested)
        holder = SimpleCommand([], nested=nested)
        self.attach(holder, redirects, depth, nested)
        self.script.commands.append(holder)

    def assign(self, node: Node, depth: int, nested: bool, bare: bool = False) -> None:
        """Remembers the value for later words; a `bare` assignment is also a command of its own,
        as `PATH=tools` changes what every later command name finds."""
        name = node.child_by_field_name("name")
        value = node.child_by_field_name("value")
        if name is not None and name.text:
            text = " ".join(self.decoder.fields(value)) if value is not None else ""
            key = self.decoder.raw(name)
            self.variables[key] = text
            if bare:
                self.script.commands.append(SimpleCommand([], env={key: text}, nested=nested))
        if value is not None:
            self.visit(value, depth + 1, nested)

    def declaration(self, node: Node, depth: int, nested: bool) -> None:
        argv = []
        for child in node.children:
            if child.type == "variable_assignment":
                self.assign(child, depth + 1, nested)
            argv.append(self.decoder.raw(child))
        self.script.commands.append(SimpleCommand(argv, nested=nested))

    def command(self, node: Node, redirects: list[Node], depth: int, nested: bool) -> None:
        decoder = self.decoder
        mark = len(decoder.expanded)
        cmd = SimpleCommand([], nested=nested)
        self.script.commands.append(cmd)
        own = len(self.script.commands)
        argv = cmd.argv
        inner_redirects: list[Node] = []
        for child in node.children:
            kind = child.type
            if kind == "word":
                argv.extend(decoder.fields(child))
            elif kind == "variable_assignment":
                name = child.child_by_field_name("name")
                value = child.child_by_field_name("value")
                if name is not None and name.text:
                    text = " ".join(decoder.fields(value)) if value is not None else ""
                    cmd.env[decoder.raw(name)] = text
                self.children(child, depth, nested)
            elif kind == "command_name":
                word = child.children[0] if child.children else child
                decoder.dynamic = False
                argv.extend(decoder.fields(word))
                cmd.dynamic_name = decoder.dynamic
                if word.type not in _LEAVES:
                    self.visit(word, depth + 1, nested)
            elif kind in _REDIRECTS:
                inner_redirects.append(child)
            elif child.is_named and kind not in _ARGUMENT_SKIP:
                argv.extend(decoder.fields(child))
                if kind not in _LEAVES:
                    self.visit(child, depth + 1, nested)
        if inner_redirects or redirects:
            self.attach(cmd, inner_redirects + redirects, depth, nested)
        if len(decoder.expanded) > mark:
            cmd.expanded = decoder.expanded[mark:]
        if len(self.script.commands) > own:
            cmd.inner = [c for c in self.script.commands[own:] if c.nested]

    def attach(self, cmd: SimpleCommand, redirects: list[Node], depth: int, nested: bool) -> None:
        decoder = self.decoder
        for node in redirects:
            kind = node.type
            if kind == "heredoc_redirect":
                body = next((c for c in node.children if c.type == "heredoc_body"), None)
                text = decoder.raw(body) if body is not None else ""
                if any(c.type == "<<-" for c in node.children):
                    text = "\n".join(line.lstrip("\t") for line in text.split("\n"))
                cmd.stdin = text
                for child in node.children:
                    if child.type not in ("heredoc_body", "heredoc_start", "heredoc_end"):
                        self.visit(child, depth + 1, nested)
                start = next((c for c in node.children if c.type == "heredoc_start"), None)
                if body is not None and start is not None and not _QUOTED_DELIMITER.search(decoder.raw(start)):
                    self.heredoc(body, depth)
                continue
            if kind == "herestring_redirect":
                words = [c for c in node.children if c.is_named]
                cmd.stdin = " ".join(" ".join(decoder.fields(w)) for w in words)
                self.children(node, depth, nested)
                continue
            if kind != "file_redirect":
                self.visit(node, depth + 1, nested)
                continue
            fd, op, targets = "", "", []
            for child in node.children:
                if child.type == "file_descriptor":
                    fd = decoder.raw(child)
                elif not child.is_named:
                    op += decoder.raw(child)
                else:
                    targets.append(child)
                    if child.type not in _LEAVES:
                        self.visit(child, depth + 1, nested)
            if targets:
                cmd.redirects.append(Redirect(op, " ".join(decoder.fields(targets[0])), fd))
                for extra in targets[1:]:
                    cmd.argv.extend(decoder.fields(extra))
            else:
                cmd.redirects.append(Redirect(op, "", fd))

    def heredoc(self, body: Node, depth: int) -> None:
        """An unquoted here-document expands: its `$(…)` and backquotes run, its `$VAR`s are read.

        tree-sitter parses the `$(…)` and variables; backquotes it leaves as text, so those are
        parsed here."""
        for child in body.named_children:
            if child.type in ("simple_expansion", "expansion"):
                self.decoder.text(child, quoted=True)
            elif child.type != "heredoc_content":
                self.visit(child, depth + 1, True)
        for inner in _BACKQUOTED.findall(self.decoder.raw(body))[:MAX_COMMANDS]:
            found = parse(inner)
            self.script.error = self.script.error or found.error
            for sub in found.commands:
                sub.nested = True
                self.script.commands.append(sub)


_QUOTED_DELIMITER = re.compile(r"""['"\\]""")
_BACKQUOTED = re.compile(r"`([^`]{1,4000})`")


def _tree(text: str) -> tuple[Tree, str]:
    """The syntax tree of `text`, and the exact text it was parsed from.

    tree-sitter-bash takes ~60 µs instead of ~5 µs on a pipeline of three or more stages
    that ends at end of input, so a final newline is tried first. In valid input it only
    terminates the last statement; in broken input it could steer error recovery, so then
    (and after a trailing backslash, which it would turn into a line join) the text is
    parsed as given.
    """
    if not text.endswith(("\n", "\\")):
        terminated = text + "\n"
        tree = _PARSER.parse(terminated.encode("utf-8", "surrogatepass"))
        if not tree.root_node.has_error:
            return tree, terminated
    return _PARSER.parse(text.encode("utf-8", "surrogatepass")), text


def parse(text: str) -> Script:
    """Parses a (normalised) script; `error` is set when tree-sitter had to recover."""
    tree, text = _tree(text)
    walker = _Walker(text if text.isascii() else None)
    walker.visit(tree.root_node, 0)
    walker.script.error = walker.script.error or tree.root_node.has_error
    return walker.script
