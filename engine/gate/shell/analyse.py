"""Walks every command of a script through the rule bank, following code it hands on.

`sh -c`, `eval`, heredocs and here-strings fed to shells, decoded pipelines, `ssh host
CMD`, `find -exec`, `xargs`, `parallel` and interpreter payloads are all analysed again,
at most `MAX_DEPTH` levels deep.
"""

from __future__ import annotations

import re

from engine.gate import payload, readonly
from engine.gate.memo import per_word
from engine.gate.paths import is_auth_file, is_root, is_startup, is_system
from engine.gate.packs import Bank
from engine.gate.packs.model import Check, Findings, Hit
from engine.gate.shell import reads
from engine.gate.shell.decode import simulate
from engine.gate.shell.parse import SimpleCommand, parse
from engine.gate.shell.unwrap import PRIVILEGED, skip_options, unwrap
from engine.gate.shell.view import Command

MAX_DEPTH = 5
MAX_TEXT = 16_000
MAX_SEPARATORS = 400
_SEPARATORS = ("|", ";", "&", "\n", "$(", "`", "<(", ">(")
SHELLS = frozenset("sh bash zsh dash ash ksh mksh oksh pdksh csh tcsh fish yash posh rbash".split())
INLINE_FLAGS: dict[str, frozenset[str]] = {
    "python": frozenset({"-c"}), "node": frozenset({"-e", "--eval", "-p", "--print"}), "nodejs": frozenset({"-e", "--eval", "-p"}),
    "deno": frozenset({"eval"}), "bun": frozenset({"-e", "--eval"}), "perl": frozenset({"-e", "-E"}),
    "ruby": frozenset({"-e"}), "irb": frozenset({"-e"}), "php": frozenset({"-r"}), "lua": frozenset({"-e"}),
    "luajit": frozenset({"-e"}), "r": frozenset({"-e"}), "rscript": frozenset({"-e"}), "jrunscript": frozenset({"-e"}),
    "jjs": frozenset({"-e"}), "guile": frozenset({"-c"}), "clisp": frozenset({"-x"}), "sbcl": frozenset({"--eval"}),
    "ghc": frozenset({"-e"}), "ghci": frozenset({"-e"}), "osascript": frozenset({"-e"}),
    "julia": frozenset({"-e", "--eval"}), "scala": frozenset({"-e"}), "groovy": frozenset({"-e"}),
    "pwsh": frozenset({"-c", "-command", "-Command"}), "powershell": frozenset({"-c", "-command", "-Command"}),
    "gdb": frozenset({"-ex", "--eval-command"}), "emacs": frozenset({"--eval"}), "vim": frozenset({"-c", "--cmd"}),
    "vi": frozenset({"-c", "--cmd"}), "nvim": frozenset({"-c", "--cmd"}), "expect": frozenset({"-c"}),
    "bpftrace": frozenset({"-e"}), "dc": frozenset({"-e"}),
}
_PY = re.compile(r"python(?:\d(?:\.\d{1,2})?)?|pypy3?")
_VERSIONED = re.compile(r"(perl|ruby|php|lua|node)\d[\d.]*")
_BARE_IFS = re.compile(r"\$IFS(?!\w)")
_SUBSTITUTION = re.compile(r"^\$\((.*)\)$|^`(.*)`$", re.S)
_XARGS_VALUES = frozenset("-I -a -d -E -L -n -P -s --arg-file --delimiter --max-args --max-procs --max-lines --eof".split())
_PARALLEL_VALUES = frozenset("-j -S -a --jobs --sshlogin --results --arg-file --joblog --tmpdir --delay --timeout -N --colsep -d --sshloginfile --basefile --workdir --env".split())
_SETS_VARIABLES = frozenset("export declare typeset readonly local printf read mapfile readarray getopts".split())
_SSH_VALUES = frozenset("-b -c -D -E -e -F -I -i -J -L -l -m -O -o -p -Q -R -S -W -w -B".split())


@per_word()
def interpreter(name: str) -> str | None:
    """The interpreter family of a program name (python3.11 → python), or None."""
    if _PY.fullmatch(name):
        return "python"
    if name in INLINE_FLAGS:
        return name
    versioned = _VERSIONED.fullmatch(name)
    return versioned.group(1) if versioned else None


class Analyser:
    """Analyses shell text into `Findings` against one rule bank and read-only list."""

    def __init__(self, bank: Bank, read_only_extra: frozenset[str] = frozenset()) -> None:
        self.bank = bank
        self.extra = read_only_extra

    def hit(self, findings: Findings, rule_id: str, detail: str = "") -> None:
        findings.hits.append(Hit(self.bank[rule_id], detail[:200]))

    def script(self, text: str, findings: Findings, depth: int = 0) -> None:
        """Analyses shell source; never returns without at least an `unknown` or a hit for odd input."""
        if depth > MAX_DEPTH:
            self.hit(findings, "obfuscation.deep-nesting", text)
            return
        self.raw(text, findings, fallback=False)
        if len(text) > MAX_TEXT:
            self.hit(findings, "shell.too-large", f"{len(text)} characters")
            self.raw(text, findings, fallback=True)
            return
        if "$IFS" in text:
            text = _BARE_IFS.sub("${IFS}", text)
        argv = _plain_argv(text)
        if argv is not None:
            if argv:
                self.simple(SimpleCommand(argv), findings, depth)
            return
        if sum(map(text.count, _SEPARATORS)) > MAX_SEPARATORS:
            self.hit(findings, "shell.too-complex", f"over {MAX_SEPARATORS} command separators or substitutions")
            self.raw(text, findings, fallback=True)
            return
        parsed = parse(text)
        if parsed.error or parsed.truncated:
            self.hit(findings, "shell.unparsed" if parsed.error else "shell.too-complex", text)
            self.raw(text, findings, fallback=True)
        for sc in parsed.commands:
            self.simple(sc, findings, depth)

    def raw(self, text: str, findings: Findings, fallback: bool) -> None:
        lowered = text.lower()
        if not fallback and self.bank.raw_needles is not None and self.bank.raw_needles.search(lowered) is None:
            return
        for item in self.bank.raw_fallback if fallback else self.bank.raw_always:
            if item.scan(text, lowered):
                findings.hits.append(Hit(item, text[:200]))

    def simple(self, sc: SimpleCommand, findings: Findings, depth: int, via: str = "") -> None:
        un = unwrap(sc.argv)
        if sc.upstream:
            upstream = " | ".join(" ".join(stage.argv) for stage in sc.upstream)
            stages = [(stage.argv, stage.stdin) for stage in sc.upstream]
        else:
            upstream, stages = "", []
        cmd = Command(tuple(un.argv), tuple(sc.redirects), {**sc.env, **un.env}, sc.stdin, bool(sc.upstream),
                      tuple(un.launchers), sc.dynamic_name and not un.launchers, upstream, un.name, cwd=findings.cwd)
        for launcher in un.launchers:
            if launcher in PRIVILEGED:
                self.hit(findings, "exec.privileged", " ".join(sc.argv))
        self.command(cmd, findings, depth, via, stages)
        self.reads(sc, un.argv, un.name, findings)

    def reads(self, sc: SimpleCommand, program: list[str], name: str, findings: Findings) -> None:
        """Secrets the command could read, environment variables named like secrets, and where a `cd` goes."""
        if name in ("cd", "pushd", "popd") and not sc.nested:
            findings.cwd = reads.moved(findings.cwd, program)
            return
        targets = [r.target for r in sc.redirects] if sc.redirects else []
        found = reads.secret_read(sc.argv, program, name, targets, findings, sc.nested or sc.feeds,
                                  [c.argv for c in sc.inner] if sc.inner else [])
        if found is not None:
            self.hit(findings, "creds.read-secret", found)
        for variable in sc.expanded:
            if reads.SECRET_VARIABLE.search(variable):
                self.hit(findings, "creds.secret-variable", "$" + variable)
                break

    def command(self, cmd: Command, findings: Findings, depth: int, via: str = "",
                stages: list[tuple[list[str], str | None]] | None = None) -> None:
        stages = stages or []
        matched = named = False
        hits = findings.hits
        argv = cmd.argv
        for item, match in self.generic(cmd):
            found = match(cmd)
            if found:
                hits.append(Hit(item, found if item.cite and isinstance(found, str) else " ".join(argv)))
                matched = True
        if not argv:
            if any(w in ("chroot", "su", "sudo", "doas", "runuser") for w in cmd.wrappers):
                self.hit(findings, "exec.shell-spawn", " ".join(cmd.wrappers))
            if "env" in cmd.wrappers:
                self.hit(findings, "creds.env-dump", " ".join(cmd.wrappers))
            return
        if cmd.dynamic_name:
            self.hit(findings, "exec.dynamic-command", argv[0])
            matched = True
        for item, match in self.bank.candidates(cmd.name, cmd.operands[0] if cmd.operands else None):
            found = match(cmd)
            if found:
                hits.append(Hit(item, found if item.cite and isinstance(found, str) else " ".join(argv)))
                matched = named = True
        handled = self.follow(cmd, findings, depth, via, stages, named)
        if not matched and not handled and not readonly.read_only(cmd, self.extra):
            findings.unknown.append(cmd.argv[0])

    def generic(self, cmd: Command) -> list[Check]:
        """Rules for any program, plus those scoped to redirects, environment or a path-named program."""
        generic = self.bank.generic_checks
        scoped = self.bank.scoped_checks
        if cmd.redirects:
            generic = generic + scoped.get("redirect", [])
        if cmd.env or cmd.name in _SETS_VARIABLES:
            generic = generic + scoped.get("env", [])
        if cmd.argv and ("/" in cmd.argv[0] or "." in cmd.argv[0]):
            generic = generic + scoped.get("path", [])
        return generic

    def follow(self, cmd: Command, findings: Findings, depth: int, via: str,
               stages: list[tuple[list[str], str | None]], named: bool) -> bool:
        """Analyses code a command hands on; True when that code decides the command's risk.

        `named` says whether a rule for the program's own name already matched `cmd`.
        """
        name = cmd.name
        if name in SHELLS:
            return self.shell(cmd, findings, depth, via, stages)
        family = interpreter(name)
        if family is not None:
            return self.interpreter(cmd, family, findings, depth, stages)
        if name == "eval":
            self.eval(cmd, findings, depth)
            return True
        if name == "find":
            return self.find(cmd, findings, depth, named)
        if name == "xargs":
            return self.xargs(cmd, findings, depth, stages)
        if name == "parallel":
            return self.parallel(cmd, findings, depth)
        if name in ("ssh", "su", "watch", "script", "flock", "runuser", "sg", "cmd", "alias"):
            self.nested_string(cmd, findings, depth)
        return False

    def shell(self, cmd: Command, findings: Findings, depth: int, via: str,
              stages: list[tuple[list[str], str | None]]) -> bool:
        args = list(cmd.args)
        for i, arg in enumerate(args):
            if arg.startswith("-") and not arg.startswith("--") and "c" in arg[1:] and len(arg) <= 6:
                if i + 1 >= len(args):
                    self.hit(findings, "exec.shell-spawn", " ".join(cmd.argv))
                    return True
                if via:
                    self.hit(findings, "exec.xargs-shell", f"{via} {' '.join(cmd.argv)}")
                self.substituted(args[i + 1], findings, depth)
                self.script(args[i + 1], findings, depth + 1)
                return True
        operands = [a for a in cmd.operands if a != "-"]
        if operands:
            self.hit(findings, "exec.script", " ".join(cmd.argv))
            return True
        if cmd.stdin is not None:
            self.script(cmd.stdin, findings, depth + 1)
            return True
        if cmd.piped:
            self.hit(findings, "exec.pipe-to-shell", cmd.upstream + " | " + " ".join(cmd.argv))
            self.decoded(stages, findings, depth)
            return True
        self.hit(findings, "exec.shell-spawn", " ".join(cmd.argv))
        return True

    def decoded(self, stages: list[tuple[list[str], str | None]], findings: Findings, depth: int) -> None:
        text = simulate(stages)
        if text is not None and len(stages) > 1:
            self.hit(findings, "obfuscation.decoded-payload", text)
        if text is not None:
            self.script(text, findings, depth + 1)

    def substituted(self, text: str, findings: Findings, depth: int) -> None:
        match = _SUBSTITUTION.match(text.strip())
        if match is None:
            return
        inner = parse(match.group(1) or match.group(2) or "")
        top = [sc for sc in inner.commands if not sc.nested]
        if top:
            last = top[-1]
            stages = [(s.argv, s.stdin) for s in last.upstream] + [(last.argv, last.stdin)]
            self.decoded(stages, findings, depth)

    def interpreter(self, cmd: Command, family: str, findings: Findings, depth: int,
                    stages: list[tuple[list[str], str | None]]) -> bool:
        flags = INLINE_FLAGS.get(family, frozenset())
        args = list(cmd.args)
        code = None
        for i, arg in enumerate(args):
            if arg in flags and i + 1 < len(args):
                code = " ".join(args[i + 1 :]) if family in ("pwsh", "powershell") else args[i + 1]
                break
            if len(arg) > 2 and arg[:2] in flags and family not in ("pwsh", "powershell", "gdb", "emacs"):
                code = arg[2:]
                break
        if code is None and cmd.stdin is not None and not cmd.operands:
            code = cmd.stdin
        if code is None:
            if cmd.piped and not cmd.operands:
                self.hit(findings, "exec.pipe-to-shell", cmd.upstream + " | " + " ".join(cmd.argv))
                text = simulate(stages)
                if text is not None:
                    self.code(text, findings, depth)
                return True
            if cmd.operands:
                self.hit(findings, "exec.script", " ".join(cmd.argv))
                return True
            return False
        self.hit(findings, "exec.inline-code", code)
        self.code(code, findings, depth)
        return True

    def code(self, code: str, findings: Findings, depth: int) -> None:
        """Applies the payload findings of inline code (shared with the `code.run` tool)."""
        if depth > MAX_DEPTH:
            self.hit(findings, "obfuscation.deep-nesting", code)
            return
        found = payload.inspect(code)
        for text in found.shell:
            self.script(text, findings, depth + 1)
        for path in found.deletes:
            rule = "code.delete-root" if is_root(path) else "code.delete-system" if is_system(path) else "code.delete"
            self.hit(findings, rule, path)
        for path in found.writes:
            rule = ("code.write-auth" if is_auth_file(path) else "code.write-system"
                    if is_system(path) or is_startup(path) else "code.write")
            self.hit(findings, rule, path)
        if found.reverse_shell:
            self.hit(findings, "code.reverse-shell", code)
        elif found.network:
            self.hit(findings, "code.network", code)
        if found.native:
            self.hit(findings, "code.native", code)
        if found.obfuscated:
            self.hit(findings, "code.obfuscated", code)
        for text in found.decoded:
            self.code(text, findings, depth + 1)
            self.script(text, findings, depth + 1)

    def eval(self, cmd: Command, findings: Findings, depth: int) -> None:
        text = " ".join(cmd.args)
        if "$" in text or "`" in text:
            self.hit(findings, "exec.eval-dynamic", text)
            for arg in cmd.args:
                self.substituted(arg, findings, depth)
        self.script(text, findings, depth + 1)

    def nested_string(self, cmd: Command, findings: Findings, depth: int) -> None:
        args = list(cmd.args)
        if cmd.name == "ssh":
            rest = skip_options(args, _SSH_VALUES)
            if len(rest) > 1:
                self.script(" ".join(rest[1:]), findings, depth + 1)
        elif cmd.name in ("su", "runuser", "flock", "script", "sg"):
            for i, arg in enumerate(args):
                if arg in ("-c", "--command", "--session-command") and i + 1 < len(args):
                    self.script(args[i + 1], findings, depth + 1)
        elif cmd.name == "watch":
            rest = skip_options(args, frozenset({"-n", "--interval", "-d", "--differences"}))
            if rest:
                self.script(" ".join(rest), findings, depth + 1)
        elif cmd.name == "alias":
            for arg in args:
                if "=" in arg:
                    self.script(arg.split("=", 1)[1], findings, depth + 1)
        elif cmd.name == "cmd":
            rest = [a for a in args if a.lower() not in ("/c", "/k", "/q", "/s")]
            if rest:
                self.script(" ".join(rest), findings, depth + 1)

    def find(self, cmd: Command, findings: Findings, depth: int, named: bool) -> bool:
        args = list(cmd.args)
        roots = []
        for arg in args:
            if arg.startswith(("-", "(", "!", "\\(")):
                break
            roots.append(arg)
        roots = roots or ["."]
        kept: list[str] = []
        i = 0
        while i < len(args):
            if args[i] in ("-exec", "-execdir", "-ok", "-okdir"):
                end = next((j for j in range(i + 1, len(args)) if args[j] in (";", "\\;", "+")
                            and (args[j] != "+" or args[j - 1] == "{}")), None)
                inner = args[i + 1 : end] if end is not None else args[i + 1 :]
                if end is None or not inner:
                    self.hit(findings, "exec.find-malformed", " ".join(cmd.argv))
                for root in roots[:4]:
                    argv = tuple(a.replace("{}", root) for a in inner)
                    if argv:
                        self.simple(SimpleCommand(list(argv)), findings, depth, via="")
                i = (end + 1) if end is not None else len(args)
                continue
            kept.append(args[i])
            i += 1
        same = len(kept) == len(args) and cmd.argv[0] == "find"  # nothing was cut: the view is already built
        own = cmd if same else Command(("find", *kept), cmd.redirects)
        if not readonly.read_only(own, self.extra) and not named:
            findings.unknown.append("find")
        return True

    def xargs(self, cmd: Command, findings: Findings, depth: int, stages: list[tuple[list[str], str | None]]) -> bool:
        args = list(cmd.args)
        replace = None
        i = 0
        while i < len(args) and args[i].startswith("-"):
            arg = args[i]
            head = arg.split("=", 1)[0]
            if head in ("-I", "--replace") or arg.startswith("-i"):
                replace = (arg.split("=", 1)[1] if "=" in arg else args[i + 1] if head == "-I" and i + 1 < len(args)
                           else arg[2:] or "{}")
                i += 2 if head == "-I" and "=" not in arg else 1
                continue
            if head in _XARGS_VALUES and "=" not in arg and len(arg) == 2:
                i += 2
                continue
            i += 1
        inner = args[i:] or ["echo"]
        text = simulate(stages) if stages else cmd.stdin
        if text is not None:
            tokens = text.split()[:16]
            if replace:
                inner = [a.replace(replace, tokens[0]) if tokens else a for a in inner]
            else:
                inner = inner + tokens
        self.simple(SimpleCommand(inner), findings, depth, via="xargs")
        if text is None and reads.opaque(inner) and self.opaque_input(cmd, stages):
            self.hit(findings, "creds.read-secret", "paths read at run time: " + (cmd.upstream or " ".join(cmd.argv)))
        return True

    @staticmethod
    def opaque_input(cmd: Command, stages: list[tuple[list[str], str | None]]) -> bool:
        """True when xargs's items could be any path: read from a file, or printed by a program
        that does not only print names it was given (`cat list | xargs cat`)."""
        if cmd.flags & {"-a", "--arg-file"} or any(not r.writes and r.op.startswith("<") for r in cmd.redirects):
            return True
        return any(reads.opaque(argv) for argv, _stdin in stages)

    def parallel(self, cmd: Command, findings: Findings, depth: int) -> bool:
        args = list(cmd.args)
        i = 0
        while i < len(args) and args[i].startswith("-") and args[i] not in (":::", "::::"):
            head = args[i].split("=", 1)[0]
            if head in ("-S", "--sshlogin", "--sshloginfile") or args[i].startswith("-S"):
                self.hit(findings, "exec.remote-parallel", " ".join(cmd.argv))
            i += 2 if head in _PARALLEL_VALUES and "=" not in args[i] and len(args[i]) <= 2 or head.startswith("--") and head in _PARALLEL_VALUES and "=" not in args[i] else 1
        rest = args[i:]
        sep = next((j for j, a in enumerate(rest) if a in (":::", "::::", ":::+")), len(rest))
        template, values = rest[:sep], [a for a in rest[sep + 1 :] if a not in (":::", "::::", ":::+")]
        if not template:
            for value in values[:8]:
                self.script(value, findings, depth + 1)
            return True
        for value in (values[:8] or [""]):
            argv = [a.replace("{}", value).replace("{1}", value) for a in template]
            if value and not any("{}" in a or "{1}" in a for a in template):
                argv.append(value)
            self.simple(SimpleCommand(argv), findings, depth, via="parallel")
        return True


_PLAIN = re.compile(r"""[^$`;&|<>(){}\n\\#!\[\]]{1,2000}""")
_PLAIN_WORDS = re.compile(r"""[ \t]*+(?:(?:[^\s'"]++|'[^']*+'|"[^"]*+")++[ \t]*+)*+""")
_TOKEN = re.compile(r"""(?:[^\s'"]++|'[^']*+'|"[^"]*+")++""")
_QUOTES = re.compile(r"'([^']*)'|\"([^\"]*)\"")


def _plain_argv(text: str) -> list[str] | None:
    """The argv of a text that needs no parser, or None.

    Such text is words and simple quotes only: no expansions, operators or escapes.
    Without quotes it splits exactly like `str.split`.
    """
    if (_PLAIN.fullmatch(text) is None or _PLAIN_WORDS.fullmatch(text) is None
            or "=" in text.lstrip().split(" ", 1)[0]):
        return None
    if "'" in text or '"' in text:
        return [_QUOTES.sub(_unquote, token) if "'" in token or '"' in token else token
                for token in _TOKEN.findall(text)]
    return text.split()


def _unquote(match: re.Match[str]) -> str:
    return match.group(1) if match.group(1) is not None else match.group(2)
