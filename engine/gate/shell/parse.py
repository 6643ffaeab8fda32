"""Splits a shell script into simple commands with tree-sitter-bash.

Lists, pipelines, subshells, substitutions and redirect targets are all walked, so every
program the script could start shows up as one `SimpleCommand` with its decoded argv. The
walk follows what the script defines for itself: `set --` and `shift`, `read` and `printf -v`,
loop variables (bound to every item at once), calls of functions it defined (their bodies walked
again with the call's arguments), aliases and `hash -p`.
"""

from __future__ import annotations

import posixpath
import re
import shlex
from dataclasses import dataclass, field

import tree_sitter_bash
from tree_sitter import Language, Node, Parser, Tree

from engine.gate.shell.decode import decodes, everything, listed_paths, printf, simulate, source
from engine.gate.shell.words import COUNTS, DEFAULT_IFS, SPLIT, Evaluated, WordDecoder, alternatives

MAX_NODES = 20_000
MAX_DEPTH = 150
MAX_UPSTREAM = 16
MAX_COMMANDS = 200
MAX_CALL_DEPTH = 4
MAX_INLINED = 24
MAX_ITEMS = 16
MAX_RESOLVE = 6
_BUDGETED = 1024
_CHUNK = 128
_READS_PER_CHUNK = 24
_READS_SLACK = 256
_PRINTERS = frozenset({"echo", "printf", "cat", "tee"})
_NOTHING: dict = {}  # shared and never written: a walker makes its own mapping before its first entry
_BUILTINS = frozenset("set shift printf read mapfile readarray alias hash unset".split())
_SPECIAL = _BUILTINS | _PRINTERS
_ALWAYS = frozenset({":", "true", "/bin/true", "/usr/bin/true", "[ 1 ]", "[[ 1 ]]", "((1))", "(( 1 ))", "test 1"})
_NEVER = frozenset({"false", "/bin/false", "/usr/bin/false", "! :", "! true"})
_PAUSES = frozenset({"sleep", "wait", "break", "exit", "return", "read", "timeout", "inotifywait"})
_ENDLESS_FOR = re.compile(r"for\s{0,4}\(\(\s{0,8}[^;]{0,200};\s{0,8};")
_LANGUAGE = Language(tree_sitter_bash.language())
_PARSER = Parser(_LANGUAGE)
_LEAVES = frozenset({"word", "raw_string", "number", "ansi_c_string", "simple_expansion", "special_variable_name",
                     "variable_name", "comment", "heredoc_start", "heredoc_end", "file_descriptor"})
_REDIRECTS = frozenset({"file_redirect", "heredoc_redirect", "herestring_redirect"})
_COMPOUND_STAGES = frozenset({"subshell", "compound_statement", "redirected_statement"})
_ARITHMETIC_TESTS = frozenset("-eq -ne -lt -le -gt -ge".split())
_ASSIGNING = frozenset("= += -= *= /= %= <<= >>= &= ^= |= ++ --".split())
# Builtins handed names to assign, test or unset, by the option that precedes one (None: every operand).
_NAMING = {"unset": None, "test": "-v", "[": "-v", "wait": "-p", "printf": "-v"}
_NAME = re.compile(r"[A-Za-z_]\w*")
_EVALUATING = frozenset({"arithmetic_expansion", "compound_statement", "subscript", "test_command"})
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
        """`>&` with a word that is not a descriptor (`2>&1`, `>&-`) writes a file: `cmd >& out` is `cmd &> out`."""
        if ">" not in self.op:
            return False
        if "&" in self.op and not self.op.startswith("&"):
            return bool(self.target) and not self.target.rstrip("-").isdigit() and not self.op.endswith("-")
        return True


@dataclass(slots=True)
class SimpleCommand:
    """A program the script starts, with what feeds its stdin and where its output goes.

    `feeds` says its output is piped into a later stage (`nested` that it becomes words of
    another command, `inner` lists the commands whose output becomes its own words);
    `expanded` names the variables its words take from the environment. A bare assignment
    (`PATH=tools`) is a command with no argv and that `env`. `indirect` says its name came
    from an expansion or substitution (resolved or not), `redefined` that the script made
    its name mean something else (`function`, `alias`, `hash`); `files` maps each `<(…)`
    among its words to the text it would hold, and `decoded` lists payloads its words decoded
    (`$(echo … | base64 -d)`). `sampled` says a word took a representative value of the environment
    (`${PWD%%/*}`): good for telling what the command could do, never for proving it read-only.
    `printed` is, for the first command of a compound pipeline stage (`(crontab -l; echo …) | …`),
    what that stage prints at least: the output of its commands that only print literals. `every`
    names what a word of it lists every one of (`kill $(ps -eo pid=)`: processes). `open` says an
    argument holds an expansion the analysis could not resolve that could become options or
    several words (`find $(cat args)`, `sort $X`): such a command is never proven read-only.
    `evaluated` is what Bash would run from values it evaluates as code there (arithmetic, array
    subscripts, prompt strings): code written in them and values read at run time reaching them.
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
    indirect: bool = False
    redefined: str = ""
    files: dict[str, str] | None = None
    decoded: list[str] | None = None
    sampled: bool = False
    open: bool = False
    printed: str | None = None
    every: str | None = None
    evaluated: Evaluated | None = None


@dataclass(slots=True)
class Script:
    """Every simple command of a script, and whether the parse could be trusted; `forks` names
    the functions that start copies of themselves in a pipeline or the background (fork bombs)."""

    commands: list[SimpleCommand] = field(default_factory=list)
    error: bool = False
    truncated: bool = False
    forks: list[str] = field(default_factory=list)


class _Walker:
    """One pass over the tree; a single decoder shares the script's variables.

    `defined` holds the names the script redefined (functions, aliases, `hash -p`), `written`
    the files it wrote literal text into, `feeding` the stages piped into the compound being
    walked, `resolved` each substitution worked out. Most scripts need none of them, so the
    mappings are made on first use and the counters start at class level.
    """

    nodes = 0
    inlined = 0
    resolving = 0
    feeding: list[tuple[list[str], str | None]] | None = None

    def __init__(self, source: str | None = None) -> None:
        self.script = Script()
        self.variables: dict[str, str] = {}
        self.decoder = WordDecoder(self.variables, source)
        self.decoder.resolve = self.resolve
        self.decoder.lists = self.kind
        self.defined: dict[str, tuple[str, Node | str]] = _NOTHING
        self.written: dict[str, str] = _NOTHING
        self.resolved: dict[int, tuple[str | None, bool]] = _NOTHING
        self.decoded: list[str] = []
        self.calls: list[str] = []

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
        elif kind == "unset_command":
            self.unset(node, depth, nested)
        elif kind == "function_definition":
            self.define(node, depth, nested)
        elif kind == "for_statement":
            self.loop(node, depth, nested)
        elif kind in ("while_statement", "c_style_for_statement"):
            if self.floods(node):
                self.script.forks.append(self.decoder.raw(node)[:60])
            if kind == "c_style_for_statement":
                self.evaluating(node, nested)
            self.children(node, depth, nested)
        elif kind in ("command_substitution", "process_substitution"):
            self.children(node, depth, True)
        else:
            if kind in _EVALUATING:
                self.evaluating(node, nested)
            self.children(node, depth, nested)

    def children(self, node: Node, depth: int, nested: bool) -> None:
        for child in node.children:
            self.visit(child, depth + 1, nested)

    def evaluating(self, node: Node, nested: bool) -> None:
        """Arithmetic Bash evaluates in `node`: `(( ))`, `$(( ))`, `$[ ]`, a `for (( ))` header, an array
        subscript (not of an associative array), operands of `[[ a -eq b ]]`, and names tested with `-v`.
        What it could run is kept on a command of its own, standing where the arithmetic does."""
        kind = node.type
        if kind == "subscript":
            array = node.child_by_field_name("name") or (node.named_children or [node])[0]
            if self.decoder.attributes.get(self.decoder.raw(array)) != "A":
                self.arithmetic([c for c in node.children if c != array])
        elif kind == "test_command":
            self.tested(node)
        elif kind == "c_style_for_statement":
            self.arithmetic([c for c in node.children if c.type != "do_group"])
        elif kind == "arithmetic_expansion" or node.children[0].type == "((":
            self.arithmetic(node.children)
        if self.decoder.evaluated is not None:
            self.flush(SimpleCommand([], nested=nested), emit=True)

    def tested(self, node: Node) -> None:
        """`[[ a -eq b ]]` evaluates both operands as arithmetic (`[ a -eq b ]` does not); `-v NAME` evaluates
        a subscript in NAME, with either bracket."""
        double = node.children[0].type == "[["
        stack = list(node.named_children)
        while stack:
            item = stack.pop()
            operator = next((c for c in item.children if c.type == "test_operator"), None)
            if item.type == "binary_expression" and operator is None:
                stack.extend(item.named_children)
            elif operator is None:
                continue
            elif double and self.decoder.raw(operator) in _ARITHMETIC_TESTS:
                self.arithmetic([c for c in item.children if c != operator])
            elif self.decoder.raw(operator) == "-v":
                for operand in item.named_children[1:2]:
                    self.decoder.names(self.quietly(operand))

    def arithmetic(self, nodes: list[Node]) -> None:
        """Records what evaluating these nodes as arithmetic could run: the output of their substitutions
        (unless it is a count), the values of the names they read, code written in their quoted text. A
        name assigned there holds an integer afterwards."""
        decoder = self.decoder
        stack, seen, assigned = list(nodes), 0, []
        while stack and seen < MAX_NODES // 100:
            item = stack.pop()
            seen += 1
            kind = item.type
            if kind == "command_substitution":
                text = self.resolve(item)
                raw = decoder.raw(item)
                if text is not None:
                    decoder.arithmetic(text)
                elif COUNTS.search(raw[1:-1] if raw.startswith("`") else raw[2:-1]) is None:
                    decoder.found().runtime.append(raw)
            elif kind == "variable_name":
                after = decoder.raw(item.next_sibling) if item.next_sibling is not None else ""
                before = decoder.raw(item.prev_sibling) if item.prev_sibling is not None else ""
                if after in _ASSIGNING or before in ("++", "--"):
                    assigned.append(decoder.raw(item))
                if after != "=":
                    decoder.reads(decoder.raw(item), frozenset())
            elif kind in ("word", "raw_string", "string_content"):
                text = decoder.raw(item)
                decoder.arithmetic(text[1:-1] if kind == "raw_string" else text)
            elif kind == "expansion" and len(item.children) > 1 and item.children[1].type == "#":
                continue
            elif kind not in ("process_substitution", "number", "ansi_c_string"):
                stack.extend(item.children)
        for name in assigned:
            decoder.bind(name, "integer")

    def quietly(self, node: Node) -> str:
        """The decoded text of `node`, leaving the decoder's account of the command being read untouched."""
        decoder = self.decoder
        state = decoder.dynamic, decoder.indirect, len(decoder.expanded), decoder.sampled, decoder.every
        text = decoder.text(node, quoted=True)
        decoder.dynamic, decoder.indirect, mark, decoder.sampled, decoder.every = state
        del decoder.expanded[mark:]
        return text

    def flush(self, cmd: SimpleCommand, emit: bool = False) -> None:
        """Gives `cmd` what the words read so far would have Bash evaluate as code; with `emit`, `cmd` is a
        command of its own (argv-less, as a bare assignment is), added only when there is something."""
        found = self.decoder.evaluated
        if found is None:
            return
        self.decoder.evaluated = None
        if cmd.evaluated is None:
            cmd.evaluated = found
        else:
            cmd.evaluated.extend(found)
        if emit:
            self.script.commands.append(cmd)

    def define(self, node: Node, depth: int, nested: bool) -> None:
        """Records a function so its calls can be followed; its body is walked once as written."""
        name = node.child_by_field_name("name")
        label = self.decoder.raw(name) if name is not None else ""
        body = node.child_by_field_name("body")
        self.script.commands.append(SimpleCommand(["function", label], nested=nested))
        if body is not None and label:
            self.define_name(label, ("function", body))
            if self.forks(label, body):
                self.script.forks.append(label)
        self.children(node, depth, nested)

    def forks(self, name: str, body: Node) -> bool:
        """True when the body starts itself at least twice, once in a pipeline or the background:
        each call then multiplies the processes (`:(){ :|:& };:`). Plain recursion is not one."""
        calls, spread, seen = 0, False, 0
        stack = [body]
        while stack and seen < 2000:
            node = stack.pop()
            seen += 1
            if node.type == "command":
                head = node.child_by_field_name("name")
                if head is not None and self.decoder.raw(head) == name:
                    calls += 1
                    after = node.next_sibling
                    parent = node.parent
                    spread = spread or (after is not None and after.type == "&") or (
                        parent is not None and parent.type == "pipeline")
                continue
            stack.extend(node.children)
        return calls >= 2 and spread

    def floods(self, node: Node) -> bool:
        """True for an endless loop (`while :`, `until false`, `for ((;;))`) whose body starts a job in
        the background and never waits, sleeps, reads or leaves: it starts processes without end."""
        body = node.child_by_field_name("body")
        if body is None:
            return False
        if node.type == "c_style_for_statement":
            endless = _ENDLESS_FOR.match(self.decoder.raw(node)) is not None
        else:
            head = node.children[0].type if node.children else ""
            condition = next((c for c in node.named_children if c != body), None)
            text = " ".join(self.decoder.raw(condition).split()) if condition is not None else ""
            endless = text in (_ALWAYS if head == "while" else _NEVER)
        if not endless:
            return False
        background = False
        stack, seen = [body], 0
        while stack and seen < 2000:
            item = stack.pop()
            seen += 1
            if item.type == "&":
                background = True
            elif item.type == "command_name" and self.decoder.raw(item) in _PAUSES:
                return False
            stack.extend(item.children)
        return background

    def loop(self, node: Node, depth: int, nested: bool) -> None:
        """`for NAME in ITEMS`: NAME stands for every item at once while the body is walked; items
        printed by a lister (`$(ls /)`, `$(find / …)`) are the globs it lists."""
        name_node = node.child_by_field_name("variable")
        values = node.children_by_field_name("value")
        name = self.decoder.raw(name_node) if name_node is not None else ""
        decoder = self.decoder
        collected: list[str] = []
        dynamic = decoder.dynamic
        decoder.dynamic = False
        for value in values[:MAX_ITEMS]:
            listed = self.listed(value) if value.type == "command_substitution" else None
            if listed is None and value.type == "command_substitution" and name:
                every = self.kind(value)
                if every is not None:
                    decoder.kinds[name] = every
            collected.extend(listed if listed is not None else decoder.fields(value))
        items: list[str] | None = collected
        if not values:
            items = list(decoder.positional) if decoder.positional is not None else None
        if decoder.dynamic or items is None or len(values) > MAX_ITEMS:
            items = None
        decoder.dynamic = dynamic
        if name:
            if items:
                self.variables[name] = alternatives(items[: MAX_ITEMS])
                self.decoder.bind(name)
            else:
                self.variables.pop(name, None)
                self.decoder.bind(name, "runtime" if any(self.run_time(v) for v in values) else "")
        for child in node.children:
            if child.type != "variable_name":
                self.visit(child, depth + 1, nested)

    def run_time(self, node: Node) -> bool:
        """True when a loop's item holds a value read at run time: an unresolved substitution, or a
        variable holding such a value (an unset variable or `"$@"` is given by the runtime, not the agent)."""
        raw = self.decoder.raw(node)
        if "$(" in raw or "`" in raw or "<(" in raw:
            return True
        runtime = self.decoder.runtime
        return bool(runtime) and any(name in runtime for name in _NAME.findall(raw))

    def listed(self, node: Node) -> list[str] | None:
        """The paths a substitution's lister prints (`$(ls -d /*)`), as globs, or None."""
        stages = self.stages(node)
        if stages is None:
            return None
        text = simulate(stages)
        if text is not None:
            return None
        return listed_paths(stages)

    def kind(self, node: Node) -> str | None:
        """What a substitution lists every one of (`$(ps -eo pid=)`: processes), or None."""
        if self.resolving >= MAX_RESOLVE:
            return None
        self.resolving += 1
        stages = self.stages(node)
        self.resolving -= 1
        return everything(stages) if stages else None

    def resolve(self, node: Node) -> str | None:
        """The output of a substitution whose commands only print literals (and decode them), or None.

        Each substitution is worked out once; substitutions nested more than `MAX_RESOLVE` deep are not."""
        known = self.resolved.get(node.id)
        if known is None:
            if self.resolving >= MAX_RESOLVE or len(self.resolved) >= MAX_COMMANDS:
                return None
            self.resolving += 1
            stages = self.stages(node)
            self.resolving -= 1
            text = simulate(stages) if stages is not None else None
            known = (text, text is not None and stages is not None and decodes(stages))
            if self.resolved is _NOTHING:
                self.resolved = {}
            self.resolved[node.id] = known
        text, decoded = known
        if decoded and text is not None:
            self.decoded.append(text)
        return text

    def stages(self, node: Node) -> list[tuple[list[str], str | None]] | None:
        """The (argv, stdin) of each stage of the one pipeline inside a substitution, or None."""
        statements = [child for child in node.named_children if child.type != "comment"]
        if len(statements) != 1:
            return None
        statement = statements[0]
        parts = [c for c in statement.named_children] if statement.type == "pipeline" else [statement]
        stages = []
        for part in parts[:MAX_UPSTREAM]:
            stage = self.literal_stage(part)
            if stage is None:
                return None
            stages.append(stage)
        return stages

    def literal_stage(self, node: Node) -> tuple[list[str], str | None] | None:
        """One command's argv and here-string input, if every word of it is resolved."""
        redirects: list[Node] = []
        if node.type == "redirected_statement":
            body = node.child_by_field_name("body")
            redirects = [c for c in node.children if c != body and c.is_named]
            node = body if body is not None else node
        if node.type != "command":
            return None
        decoder = self.decoder
        dynamic, indirect = decoder.dynamic, decoder.indirect
        decoder.dynamic = False
        argv: list[str] = []
        stdin = None
        for child in node.children:
            kind = child.type
            if kind == "command_name":
                argv.extend(decoder.fields(child.children[0] if child.children else child))
            elif kind in ("herestring_redirect", "heredoc_redirect") or kind == "file_redirect":
                redirects.append(child)
            elif child.is_named and kind not in _ARGUMENT_SKIP:
                argv.extend(decoder.fields(child))
        for redirect in redirects:
            if redirect.type == "herestring_redirect":
                stdin = " ".join(" ".join(decoder.fields(w)) for w in redirect.named_children)
            elif redirect.type == "heredoc_redirect":
                body = next((c for c in redirect.children if c.type == "heredoc_body"), None)
                stdin = decoder.raw(body) if body is not None else ""
            else:
                decoder.dynamic = True
        unresolved = decoder.dynamic
        decoder.dynamic, decoder.indirect = dynamic, indirect
        return None if unresolved or not argv else (argv, stdin)

    def pipeline(self, node: Node, depth: int, nested: bool, upstream: list[SimpleCommand] | None = None) -> None:
        """Each stage learns the stages before it; `upstream` is a stage already walked that feeds this
        pipeline (the command whose here-document starts `cat <<EOF | sh`)."""
        upstream = list(upstream or [])
        for child in node.children:
            if not child.is_named:
                continue
            start = len(self.script.commands)
            feeding = self.feeding
            if upstream and child.type not in ("command", "redirected_statement"):
                self.feeding = [(stage.argv, stage.stdin) for stage in upstream[-MAX_UPSTREAM:]]
            self.visit(child, depth + 1, nested)
            self.feeding = feeding
            stage = next((c for c in self.script.commands[start:] if c.nested == nested), None)
            if stage is not None:
                stage.upstream = upstream[-MAX_UPSTREAM:]
                if stage.upstream and stage.redirects and stage.argv:
                    self.remember_output(stage, stage.redirects)
                upstream.append(stage)
                if child.type in _COMPOUND_STAGES:
                    stage.printed = self.printed(child)
        for stage in upstream[:-1]:
            stage.feeds = True

    def printed(self, node: Node) -> str | None:
        """What a compound stage (`( … )`, `{ …; }`) prints at least: the output of its commands that only
        print literals, the others left out. Good for telling what a reader of it could run, never for
        proving anything (the output of what is left out is not known)."""
        body = node.child_by_field_name("body") if node.type == "redirected_statement" else node
        if body is None or body.type not in _COMPOUND_STAGES:
            return None
        texts = []
        for statement in body.named_children[:MAX_ITEMS]:
            stage = self.literal_stage(statement)
            text = simulate([stage]) if stage is not None else None
            if text:
                texts.append(text)
        return "\n".join(texts) if texts else None

    def redirected(self, node: Node, depth: int, nested: bool) -> None:
        body = node.child_by_field_name("body")
        redirects = [child for child in node.children if body is None or child != body]
        if body is not None and body.type == "command":
            self.command(body, redirects, depth, nested)
            return
        start = len(self.script.commands)
        if body is not None:
            feeding = self.feeding
            fed = next((c for r in redirects if r.type == "file_redirect" and any(t.type == "<" for t in r.children)
                        for c in r.named_children if c.type == "process_substitution"), None)
            if fed is not None:
                self.feeding = self.stages(fed) or self.feeding
            self.visit(body, depth + 1, nested)
            self.feeding = feeding
        holder = SimpleCommand([], nested=nested)
        self.attach(holder, redirects, depth, nested)
        if body is not None and body.type == "pipeline" and holder.redirects:
            last = next((c for c in reversed(self.script.commands[start:]) if c.nested == nested and c.argv), None)
            if last is not None and last.upstream:
                self.remember_output(last, holder.redirects)
        self.script.commands.append(holder)

    def assign(self, node: Node, depth: int, nested: bool, bare: bool = False, reference: bool = False) -> None:
        """Remembers the value for later words; a `bare` assignment is also a command of its own,
        as `PATH=tools` changes what every later command name finds. A `reference` (`declare -n`)
        makes the name stand for the variable its value names; assigning to a reference assigns to
        that variable."""
        name = node.child_by_field_name("name")
        value = node.child_by_field_name("value")
        if name is not None and name.text:
            sampled, self.decoder.sampled = self.decoder.sampled, False
            if value is not None and value.type == "array":
                text = SPLIT.join(f for item in value.named_children for f in self.decoder.fields(item))
            else:
                text = " ".join(self.decoder.fields(value)) if value is not None else ""
            key = self.decoder.raw(name)
            if reference:
                self.decoder.refer(key, text)
                self.decoder.sampled = sampled or self.decoder.sampled
                if value is not None:
                    self.visit(value, depth + 1, nested)
                return
            key = self.decoder.referred(key)
            if any(child.type == "+=" for child in node.children):
                text = self.variables.get(key, "") + text
            self.variables[key] = text
            if self.decoder.sampled:
                self.decoder.taint(key)
            self.decoder.sampled = sampled or self.decoder.sampled
            self.valued(key, value)
            if bare:
                holder = SimpleCommand([], env={key: text}, nested=nested)
                self.flush(holder)
                self.script.commands.append(holder)
            if name.type == "subscript":
                self.visit(name, depth + 1, nested)
        if value is not None:
            self.visit(value, depth + 1, nested)

    def valued(self, key: str, value: Node | None) -> None:
        """What an assignment means for arithmetic: a name declared integer (`declare -i`) evaluates the
        value as arithmetic and, like a value of `$(( ))`, holds an integer after it."""
        integer = self.decoder.attributes.get(key) == "i"
        if integer and value is not None:
            self.arithmetic([value])
        arithmetic = value is not None and value.type == "arithmetic_expansion"
        self.decoder.bind(key, "integer" if integer or arithmetic else "")

    def declaration(self, node: Node, depth: int, nested: bool) -> None:
        """`declare`, `local`, `export`, …: assignments are remembered; with `-n` each name becomes a
        reference to the variable its value names (`declare -n ref=cmd; $ref` reads `$cmd`)."""
        argv = []
        reference = False
        attribute = ""
        for child in node.children:
            if child.type == "variable_assignment":
                self.attribute(child.child_by_field_name("name"), attribute)
                self.assign(child, depth + 1, nested, reference=reference)
            argv.append(self.decoder.raw(child))
            if child.type == "word" and argv[-1].startswith("-"):
                reference = reference or "n" in argv[-1][1:]
                attribute = attribute or next((a for a in "iA" if a in argv[-1][1:]), "")
            elif child.is_named and child.type != "variable_assignment" and len(argv) > 1:
                self.declared(self.quietly(child), attribute)
        cmd = SimpleCommand(argv, nested=nested)
        self.flush(cmd)
        self.script.commands.append(cmd)

    def unset(self, node: Node, depth: int, nested: bool) -> None:
        """`unset NAME…` forgets each name (or function, with `-f`); a subscript in a name is evaluated."""
        argv = [self.quietly(child) if child.is_named else self.decoder.raw(child) for child in node.children]
        functions = "-f" in argv
        for word in argv[1:]:
            if word.startswith("-"):
                continue
            self.decoder.names(word)
            if functions:
                self.defined.pop(word, None)
            else:
                self.variables.pop(word, None)
                self.decoder.bind(word)
        self.children(node, depth, nested)
        cmd = SimpleCommand(argv, nested=nested)
        self.flush(cmd)
        self.script.commands.append(cmd)

    def attribute(self, name: Node | None, attribute: str) -> None:
        """`declare -i NAME` makes assignments to NAME arithmetic; `declare -A NAME` makes its subscripts keys."""
        if name is not None and attribute:
            self.decoder.attributes[self.decoder.raw(name)] = attribute

    def declared(self, word: str, attribute: str) -> None:
        """A declaration's quoted word (`declare 'a[$(id)]=1'`): its name is evaluated as a name, and with
        `-i` its value as arithmetic."""
        self.decoder.names(word)
        head, eq, value = word.partition("=")
        if attribute and "[" not in head and _NAME.fullmatch(head):
            self.decoder.attributes[head] = attribute
        if eq and attribute == "i":
            self.decoder.arithmetic(value)

    def command(self, node: Node, redirects: list[Node], depth: int, nested: bool) -> None:
        decoder = self.decoder
        mark = len(decoder.expanded)
        files = len(decoder.files)
        decoded = len(self.decoded)
        sampled, decoder.sampled = decoder.sampled, False
        every, decoder.every = decoder.every, None
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
                decoder.dynamic = decoder.indirect = False
                argv.extend(decoder.fields(word))
                cmd.dynamic_name = decoder.dynamic
                cmd.indirect = decoder.indirect
                if word.type not in _LEAVES:
                    self.visit(word, depth + 1, nested)
            elif kind in _REDIRECTS:
                inner_redirects.append(child)
            elif child.is_named and kind not in _ARGUMENT_SKIP:
                dynamic, decoder.dynamic = decoder.dynamic, False
                argv.extend(decoder.fields(child))
                if decoder.dynamic and _open(kind, decoder.raw(child), "--" in argv[1:-1]):
                    cmd.open = True
                decoder.dynamic = dynamic or decoder.dynamic
                if kind not in _LEAVES:
                    self.visit(child, depth + 1, nested)
        if len(decoder.files) > files:
            cmd.files = dict(decoder.files[files:])
        if inner_redirects or redirects:
            self.attach(cmd, inner_redirects + redirects, depth, nested)
        if len(decoder.expanded) > mark:
            cmd.expanded = decoder.expanded[mark:]
        if len(self.decoded) > decoded:
            cmd.decoded = self.decoded[decoded:]
        if decoder.sampled:
            cmd.sampled = True
        decoder.sampled = sampled or decoder.sampled
        if decoder.every is not None:
            cmd.every = decoder.every
        decoder.every = every or decoder.every
        if argv and (argv[0] in _SPECIAL or self.defined or self.written):
            self.effects(cmd, depth, nested)
        if argv and (argv[0] in _NAMING or argv[0] in ("let", "getopts")):
            self.evaluated_words(argv)
        self.flush(cmd)
        if argv and argv[0] == "git" and self.variables:
            self.config_env(cmd)
        if len(self.script.commands) > own:
            cmd.inner = [c for c in self.script.commands[own:] if c.nested]

    def evaluated_words(self, argv: list[str]) -> None:
        """Words builtins evaluate: every argument of `let` as arithmetic, and the names `unset`, `test -v`,
        `wait -p`, `printf -v` and `getopts` are handed, whose subscripts are (`read` and `mapfile` are
        read with their options)."""
        name = argv[0]
        if name == "let":
            for arg in argv[1:]:
                self.decoder.arithmetic(arg)
            return
        if name == "getopts":
            names = argv[2:3]
        elif _NAMING[name] is None:
            names = [arg for arg in argv[1:] if not arg.startswith("-")]
        else:
            flag = _NAMING[name]
            names = [argv[i + 1] for i in range(1, len(argv) - 1) if argv[i] == flag]
        for word in names[:MAX_ITEMS]:
            self.decoder.names(word)

    def config_env(self, cmd: SimpleCommand) -> None:
        """`git --config-env=KEY=NAME` takes KEY's value from the variable NAME: one the script set is put
        into the command's environment, as if given in front of it."""
        for arg in cmd.argv[1:]:
            if arg.startswith("--config-env="):
                name = arg.rpartition("=")[2]
                if name in self.variables and name not in cmd.env:
                    cmd.env[name] = self.variables[name]

    def effects(self, cmd: SimpleCommand, depth: int, nested: bool) -> None:
        """What a command means for the rest of the script: files it runs that the script wrote,
        builtins that bind names, calls of names the script defined, literal text written to files."""
        argv = cmd.argv
        if self.written:
            for word in [*argv, *cmd.env.values()] if cmd.env else argv:
                if "/" in word and posixpath.normpath(word) in self.written or word in self.written:
                    if cmd.files is None:
                        cmd.files = {}
                    cmd.files[word] = self.written.get(word) or self.written[posixpath.normpath(word)]
        if argv[0] in _BUILTINS or self.defined:
            self.builtin(cmd, depth, nested)
        if argv[0] in _PRINTERS and (cmd.redirects or argv[0] == "tee"):
            self.remember(cmd)
        elif self.written and cmd.redirects:
            for redirect in cmd.redirects:
                if redirect.writes:
                    self.written.pop(posixpath.normpath(redirect.target or "."), None)

    def builtin(self, cmd: SimpleCommand, depth: int, nested: bool) -> None:
        """What a command changes for the rest of the script, and the code a call of a name the
        script defined runs (walked here, with the call's arguments)."""
        argv = cmd.argv
        name = argv[0]
        meaning = self.defined.get(name)
        if meaning is not None and not cmd.dynamic_name:
            kind, what = meaning
            if isinstance(what, Node):
                self.call(cmd, what, depth, nested)
            elif kind == "alias":
                self.alias(cmd, what, depth, nested)
            else:
                argv[0] = what
                cmd.redefined = "hash"
            return
        if name == "set":
            args = argv[1:]
            if "--" in args:
                self.decoder.positional = args[args.index("--") + 1 :]
            elif args and not args[0].startswith(("-", "+")):
                self.decoder.positional = args
        elif name == "shift" and self.decoder.positional is not None:
            count = argv[1] if len(argv) > 1 else "1"
            self.decoder.positional = self.decoder.positional[int(count) if count.isdigit() else 1 :]
        elif name == "printf" and len(argv) > 3 and argv[1] == "-v":
            self.variables[argv[2]] = printf(argv[3:])
            self.decoder.bind(argv[2])
        elif name in ("read", "mapfile", "readarray"):
            self.read(cmd)
        elif name == "alias":
            for arg in argv[1:]:
                key, eq, value = arg.partition("=")
                if eq and key:
                    self.define_name(key, ("alias", value))
        elif name == "hash" and "-p" in argv:
            at = argv.index("-p")
            if at + 2 < len(argv):
                self.define_name(argv[at + 2], ("hash", argv[at + 1]))
        elif name == "unset":
            for arg in argv[1:]:
                if "-f" in argv:
                    self.defined.pop(arg, None)
                else:
                    self.variables.pop(arg, None)
                    self.decoder.bind(arg)

    def define_name(self, name: str, meaning: tuple[str, Node | str]) -> None:
        if self.defined is _NOTHING:
            self.defined = {}
        self.defined[name] = meaning

    def remember(self, cmd: SimpleCommand) -> None:
        """A literal the script writes into a file (`echo 'rm -rf /' > x.sh`, `cat > x <<EOF`) is what
        a later command running that file runs."""
        if self.written is _NOTHING:
            self.written = {}
        if cmd.argv[0] == "tee" and cmd.stdin is not None:
            for operand in cmd.argv[1:]:
                if not operand.startswith("-") and len(self.written) < MAX_ITEMS:
                    self.written[posixpath.normpath(operand)] = cmd.stdin
        for redirect in cmd.redirects:
            if redirect.writes and redirect.target and redirect.fd in ("", "1"):
                text = source(cmd.argv, cmd.stdin)
                target = posixpath.normpath(redirect.target)
                if text is None or len(self.written) >= MAX_ITEMS:
                    self.written.pop(target, None)
                    continue
                previous = self.written.get(target, "") if redirect.op == ">>" else ""
                self.written[target] = (previous + "\n" + text) if previous else text

    def remember_output(self, stage: SimpleCommand, redirects: list) -> None:
        """A pipeline whose output is known (`echo B64 | base64 -d > /tmp/.a`) wrote that text to the file
        it redirects to (its last stage's or the whole pipeline's): a later `sh /tmp/.a` runs it."""
        targets = [posixpath.normpath(r.target) for r in redirects if r.writes and r.target and r.fd in ("", "1")]
        if not targets:
            return
        text = simulate([(s.argv, s.stdin) for s in stage.upstream] + [(stage.argv, stage.stdin)])
        if self.written is _NOTHING:
            self.written = {}
        for target in targets:
            if text is None or len(self.written) >= MAX_ITEMS:
                self.written.pop(target, None)
            else:
                self.written[target] = text

    def call(self, cmd: SimpleCommand, body: Node, depth: int, nested: bool) -> None:
        """Walks a function's body again with `$1…` bound to the call's arguments; recursion and
        more than `MAX_INLINED` calls per script are not followed."""
        cmd.redefined = "function"
        name = cmd.argv[0]
        if name in self.calls or len(self.calls) >= MAX_CALL_DEPTH or self.inlined >= MAX_INLINED:
            return
        self.inlined += 1
        saved = self.decoder.positional
        self.decoder.positional = cmd.argv[1:]
        self.calls.append(name)
        self.visit(body, depth + 1, nested)
        self.calls.pop()
        self.decoder.positional = saved

    def alias(self, cmd: SimpleCommand, text: str, depth: int, nested: bool) -> None:
        """An alias call is the alias's text followed by the call's arguments, parsed again (alias and
        function calls together are followed at most `MAX_INLINED` times per script)."""
        cmd.redefined = "alias"
        if self.inlined >= MAX_INLINED:
            return
        self.inlined += 1
        line = text + " " + " ".join(shlex.quote(arg) for arg in cmd.argv[1:])
        inner = _Walker(None)
        inner.variables.update(self.variables)
        inner.defined = {key: value for key, value in self.defined.items() if value[0] == "function"}
        inner.decoder.positional = self.decoder.positional
        tree, line, cut = _tree(line)
        inner.nodes = self.nodes
        inner.visit(tree.root_node, depth, nested)
        self.nodes = inner.nodes
        self.script.error = self.script.error or tree.root_node.has_error
        self.script.truncated = self.script.truncated or cut
        self.script.commands.extend(inner.script.commands[:MAX_COMMANDS])

    def read(self, cmd: SimpleCommand) -> None:
        """`read NAMES` binds what it reads: a here-string's words, the lines a literal pipeline
        prints, or the globs a lister feeding the loop prints; otherwise the names are unknown."""
        names: list[str] = []
        args = cmd.argv[1:]
        reading = cmd.argv[0] == "read"
        valued = "adinNptu" if reading else "dnOsuCc"
        array = None
        i = 0
        while i < len(args):
            arg = args[i]
            if arg == "--":
                names.extend(args[i + 1 :])
                break
            if arg.startswith("-") and len(arg) > 1:
                if arg[-1] in valued and arg[-1] != arg[0]:
                    if arg[-1] == "a" and reading and i + 1 < len(args):
                        array = args[i + 1]
                    i += 2
                else:
                    i += 1
                continue
            names.append(arg)
            i += 1
        if not reading:
            array, names = (names[-1:] or ["MAPFILE"])[0], []
        names = names or ([] if array else ["REPLY"])
        for word in (names + [array] if array else names)[:MAX_ITEMS]:
            self.decoder.names(word)
        text = cmd.stdin
        globs = None
        if text is None and self.feeding is not None:
            text = simulate(self.feeding)
            if text is None:
                globs = listed_paths(self.feeding)
                every = everything(self.feeding) if globs is None and names else None
                if every is not None:
                    self.decoder.kinds[names[0]] = every
        if text is None:
            for key in names + ([array] if array else []):
                if globs is not None and key == names[0]:
                    self.variables[key] = alternatives(globs)
                    self.decoder.bind(key)
                else:
                    self.variables.pop(key, None)
                    self.at_run_time(key)
            return
        lines = [line for line in text.split("\n") if line.strip()] or [""]
        ifs = cmd.env.get("IFS", self.variables.get("IFS", DEFAULT_IFS))
        if array:
            items = lines[:MAX_ITEMS] if not reading else [f for f in self.decoder.split(lines[0]).split(SPLIT) if f]
            self.variables[array] = SPLIT.join(items)
            return
        if len(names) == 1:
            self.variables[names[0]] = alternatives([line.strip() for line in lines[:MAX_ITEMS]])
            return
        fields = _split_fields(lines[0], ifs, len(names))
        for key, value in zip(names, fields + [""] * len(names)):
            self.variables[key] = value

    def at_run_time(self, key: str) -> None:
        """`key` now holds a value read at run time; one declared integer (`declare -i`) evaluated it."""
        self.decoder.bind(key, "runtime")
        if self.decoder.attributes.get(key) == "i":
            self.decoder.found().runtime.append(key)

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
                    if child.type == "pipeline":
                        cmd.feeds = True
                        self.pipeline(child, depth + 1, nested, [cmd])
                    elif child.type not in ("heredoc_body", "heredoc_start", "heredoc_end"):
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
                before = len(decoder.files)
                target = " ".join(decoder.fields(targets[0]))
                cmd.redirects.append(Redirect(op, target, fd))
                for raw, content in decoder.files[before:]:
                    if op == "<" and raw == target:
                        cmd.stdin = content
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


def _split_fields(line: str, ifs: str, count: int) -> list[str]:
    """`read`'s split of one line into `count` fields: the last takes the rest of the line."""
    if not ifs:
        return [line]
    fields: list[str] = []
    current = ""
    rest = line.strip(" \t\n") if set(ifs) <= set(DEFAULT_IFS) else line
    for ch in rest:
        if ch in ifs and len(fields) < count - 1:
            if current or ch not in DEFAULT_IFS:
                fields.append(current)
            current = ""
            continue
        if len(fields) == count - 1 and not current and ch in ifs and ch in DEFAULT_IFS:
            continue
        current += ch
    fields.append(current)
    return fields


_QUOTED_DELIMITER = re.compile(r"""['"\\]""")
_BACKQUOTED = re.compile(r"`([^`]{1,4000})`")


def _tree(text: str) -> tuple[Tree, str, bool]:
    """The syntax tree of `text`, the exact text it was parsed from, and whether the parse was cut short.

    tree-sitter-bash takes ~60 µs instead of ~5 µs on a pipeline of three or more stages
    that ends at end of input, so a final newline is tried first. In valid input it only
    terminates the last statement; in broken input it could steer error recovery, so then
    (and after a trailing backslash, which it would turn into a line join) the text is
    parsed as given.
    """
    if not text.endswith(("\n", "\\")):
        terminated = text + "\n"
        tree, cut = _budgeted(terminated.encode("utf-8", "surrogatepass"))
        if cut or not tree.root_node.has_error:
            return tree, terminated, cut
    tree, cut = _budgeted(text.encode("utf-8", "surrogatepass"))
    return tree, text, cut


def _budgeted(data: bytes) -> tuple[Tree, bool]:
    """Parses `data` within a budget of work proportional to its length; True when the parse was cut.

    tree-sitter's error recovery is quadratic in the number of errors: 3 000 repetitions of
    `.a()` (12 KB) take 0.3 s, `)` repeated 12 000 times 0.7 s, and no option of the binding
    stops a parse. The lexer reads the text through a callback each time it moves into a chunk
    it does not hold, and error recovery re-reads the same chunks over and over: valid text
    reads each 128-byte chunk two or three times, such input hundreds of times. Past
    `_READS_PER_CHUNK` reads a chunk on average, the callback reports the end of the text, so
    tree-sitter finishes at once; counting reads, not time, keeps the cut the same on every
    machine. Text under `_BUDGETED` bytes (at worst a few milliseconds) is parsed directly.
    """
    if len(data) <= _BUDGETED:
        return _PARSER.parse(data), False
    budget = _READS_PER_CHUNK * (len(data) // _CHUNK + 1) + _READS_SLACK
    reads = 0

    def read(offset: int, _point: tuple[int, int]) -> bytes:
        nonlocal reads
        reads += 1
        return data[offset : offset + _CHUNK] if reads <= budget else b""

    tree = _PARSER.parse(read)
    return tree, reads > budget


def parse(text: str, positional: list[str] | None = None, environment: dict[str, str] | None = None) -> Script:
    """Parses a (normalised) script; `error` is set when tree-sitter had to recover. `positional`
    are its `$0 $1 …` when known (`sh -c 'rm -rf "$1"' _ /`), `environment` variables the caller
    set for it (`x=rm sh -c '$x -rf /'`)."""
    tree, text, cut = _tree(text)
    walker = _Walker(text if text.isascii() else None)
    if environment:
        walker.variables.update(environment)
    if positional:
        walker.variables["0"] = positional[0]
        walker.decoder.positional = positional[1:]
    walker.visit(tree.root_node, 0)
    if walker.decoder.evaluated is not None:
        walker.flush(SimpleCommand([]), emit=True)
    walker.script.error = walker.script.error or tree.root_node.has_error
    walker.script.truncated = walker.script.truncated or cut
    return walker.script


_KNOWN_PATH = re.compile(r'"(?:\$\{?(?:PWD|HOME|OLDPWD|TMPDIR)\}?|\$\((?:pwd|git rev-parse --show-toplevel)\))(?:[/"])')


_TOKEN_PRINTERS = re.compile(r"\$\((?:date \+[^\s)'\"$`]{1,40}|whoami|id -[ug]n?|hostname|uname(?: -[rmsn])?|nproc|pwd"
                             r"|git rev-parse(?: --short)? HEAD|git branch --show-current)\)")


def _open(kind: str, raw: str, ended: bool) -> bool:
    """Whether an argument with an unresolved expansion could become an option or several words:
    unquoted it may split (a process substitution never does: it is a `/dev/fd` path; nor does a word whose
    only expansions are substitutions printing one token, `log-$(date +%F).txt`, `$(pwd)/x`); quoted, only if the expansion starts the word (`"$X"`, not `"./$X"`) and
    no `--` came before it, unless what starts it is a directory the shell knows (`"$(pwd)"`, `"$HOME/x"`)."""
    if kind == "process_substitution":
        return False
    if kind != "string":
        return raw[:1] == "-" or "$" in _TOKEN_PRINTERS.sub("", raw) or "`" in raw
    return not ended and raw[1:2] in ("$", "`") and _KNOWN_PATH.match(raw) is None
