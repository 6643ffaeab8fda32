"""Walks every command of a script through the rule bank, following code it hands on.

`sh -c`, `eval`, heredocs, here-strings and `<(…)` fed to shells or `source`, decoded
pipelines, `ssh host CMD`, `find -exec`, `xargs`, `parallel`, detached terminals, `at`,
ad-hoc configuration management, parallel shells, awk's `system()` and interpreter payloads
are all analysed again, at most `MAX_DEPTH` levels deep. A command is also read where it
really acts: relative paths after a `cd` against that directory, and a glob at a root as the
root it covers (`/[a-z]*` is `/*`); what that reading finds catastrophic counts.
"""

from __future__ import annotations

import posixpath
import re

import shlex
from typing import Callable

from engine.gate import payload
from engine.gate.codeproof import invocation
from engine.gate.globs import HAS_GLOB, candidates, expand, has_letters, matches
from engine.gate.memo import per_word
from engine.gate.paths import fold, is_auth_file, is_device, is_root, is_startup, is_system, is_system_program
from engine.gate.packs import Bank
from engine.gate.packs.model import CATASTROPHIC, SAFE, Check, Findings, Hit
from engine.gate.packs.obfuscation import HEX_WORD
from engine.gate.shell import elsewhere, escapes, reads, windows
from engine.gate.shell.decode import SED_SUBSTITUTE, awk_call, everything, listed_paths, sed_substitute, simulate, source
from engine.gate.shell.parse import SimpleCommand, parse
from engine.gate.shell.unwrap import LAUNCHERS, PRIVILEGED, SHELL_WHEN_BARE, skip_options, unwrap
from engine.gate.shell.view import Command, basename
from engine.gate.shell.words import Evaluated

Files = dict[str, str]
MAX_DEPTH = 5
ANY_WORDS = frozenset("echo printf test [ [[ true false : basename dirname exit return shift sleep unset".split())
MAX_FOLLOWED = 16
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
    "ex": frozenset({"-c", "--cmd"}), "view": frozenset({"-c", "--cmd"}), "rvim": frozenset({"-c", "--cmd"}),
    "gvim": frozenset({"-c", "--cmd"}), "vimdiff": frozenset({"-c", "--cmd"}), "tclsh": frozenset(),
    "wish": frozenset(), "jimsh": frozenset(),
    "bpftrace": frozenset({"-e"}), "dc": frozenset({"-e"}),
}
_PY = re.compile(r"python(?:\d(?:\.\d{1,2})?)?|pypy3?")
# Editors and debuggers whose commands can run the shell, by family, with the options that give a command.
MODULE_FLAGS: dict[str, frozenset[str]] = {"python": frozenset({"-m"})}
"""The flag that makes an interpreter run an installed module, not a script file (`python -m venv .venv`)."""
_EDITORS = {"gdb": "gdb", **dict.fromkeys(("vim", "vi", "nvim", "ex", "view", "rvim", "gvim", "vimdiff"), "vim")}
_EDITOR_OPTIONS = {"gdb": {"-ex": "", "--eval-command": "", "-iex": "", "--init-eval-command": ""},
                   "vim": {"-c": "", "--cmd": ""}}
_SCRIPTED = frozenset({"-e", "-es", "-E", "-Es", "-s", "--batch", "-batch"})
_TCL = frozenset({"expect", "tclsh", "wish", "jimsh"})
_DECLARING = frozenset({"export", "declare", "typeset", "readonly", "local"})
_CLIENTS = frozenset({"psql", "mysql", "mariadb", "sqlite3"})
_SSH_CLIENTS = frozenset({"ssh", "scp", "sftp", "autossh", "sshfs", "slogin"})
_HIDING = escapes.PROGRAMS | _DECLARING | {"tee"}
PRINTED = "\x00printed"
"""The key, among a command's `files`, of what a compound stage feeding it prints at least."""
_VERSIONED = re.compile(r"(perl|ruby|php|lua|node)\d[\d.]*")
_BARE_IFS = re.compile(r"\$IFS(?!\w)")
_SUBSTITUTION = re.compile(r"^\$\((.*)\)$|^`(.*)`$", re.S)
_XARGS_VALUES = frozenset("-I -a -d -E -L -n -P -s --arg-file --delimiter --max-args --max-procs --max-lines --eof".split())
_PARALLEL_VALUES = frozenset("-j -S -a --jobs --sshlogin --results --arg-file --joblog --tmpdir --delay --timeout -N --colsep -d --sshloginfile --basefile --workdir --env".split())
_SETS_VARIABLES = frozenset("export declare typeset readonly local printf read mapfile readarray getopts".split())
_SSH_VALUES = frozenset("-b -c -D -E -e -F -I -i -J -L -l -m -O -o -p -Q -R -S -W -w -B".split())
STDIN_PATHS = frozenset({"/dev/stdin", "/dev/fd/0", "/proc/self/fd/0", "-"})
AWKS = frozenset("awk gawk mawk nawk original-awk one-true-awk goawk".split())
_CODE_RUNNERS = frozenset({"eval", "source", ".", "xargs", "parallel"}) | SHELLS
_PINNED_OPERANDS = 4
# Concrete roots a glob is tried against (`/???` covers `/etc`, `/*/*` covers `/usr/bin`).
ROOT_SAMPLES = ("/bin", "/boot", "/dev", "/etc", "/home", "/lib", "/lib64", "/opt", "/root", "/sbin", "/srv", "/usr",
                "/var", "/usr/bin", "/usr/lib", "/usr/local", "/usr/share", "/usr/sbin", "/var/lib")
_TMUX_ALIASES = {"new": "new-session", "neww": "new-window", "splitw": "split-window", "respawnp": "respawn-pane",
                 "respawnw": "respawn-window", "run": "run-shell", "popup": "display-popup", "send": "send-keys"}
_TMUX_VALUES = {
    "new-session": frozenset("-c -e -F -f -n -s -t -x -y".split()), "new-window": frozenset("-c -e -F -n -t".split()),
    "split-window": frozenset("-c -e -F -l -t -p".split()), "respawn-pane": frozenset("-c -e -t".split()),
    "respawn-window": frozenset("-c -e -t".split()), "run-shell": frozenset("-c -d -t".split()),
    "display-popup": frozenset("-b -c -d -e -h -s -S -t -T -w -x -y".split()), "send-keys": frozenset("-c -N -t".split()),
}
_TMUX_GLOBAL = frozenset("-L -S -f -T".split())
_TMUX_KEYS = {"enter": "\n", "c-m": "\n", "kpenter": "\n", "c-j": "\n", "space": " ", "tab": "\t"}
_SCREEN_VALUE_LETTERS = frozenset("SceohpTt")
_SCREEN_WORDS = frozenset({"-ls", "-list", "-wipe", "-version", "-v"})
_REMOTE_VALUES = {
    "pdsh": frozenset("-w -x -g -X -l -R -f -t -u -F -e -o".split()),
    "clush": frozenset("-w -x -g -X -l -f -t -u -R -o -O -E --worker --user --options --hostfile --group".split()),
    "pssh": frozenset("-h -H -l -p -o -e -t -O -x -X --hosts --host --user --par --outdir --errdir --timeout".split()),
    "parallel-ssh": frozenset("-h -H -l -p -o -e -t -O -x -X --hosts --host --user --par --outdir --errdir".split()),
}
_ANSIBLE_SHELLS = frozenset("command shell raw script win_shell win_command".split())
_HYPERFINE_COMMANDS = frozenset("-s --setup -p --prepare -c --cleanup --conclude".split())
_HYPERFINE_VALUES = frozenset(
    "-w --warmup -m --min-runs -M --max-runs -r --runs -S --shell -u --time-unit -n --command-name -D"
    " --parameter-step-size --export-asciidoc --export-csv --export-json --export-markdown --export-orgmode --output"
    " --style --sort --input".split())
_WATCH_VALUES = frozenset("-n --interval -q --equexit".split())


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
        self.programs: tuple[str, ...] = ()
        self.globs: dict[str, list[str]] = {}
        self.moves: Directories | None = None

    def directories(self, findings: Findings) -> Directories:
        """Where the script analysed into `findings` has been (one call's analysis at a time)."""
        if self.moves is None or self.moves.owner is not findings:
            self.moves = Directories(findings)
        return self.moves

    def hit(self, findings: Findings, rule_id: str, detail: str = "") -> None:
        findings.hits.append(Hit(self.bank[rule_id], detail[:200]))

    def runs_script(self, findings: Findings, cmd: Command, operands: list[str]) -> None:
        """Names the script a shell or an interpreter is given: its operands up to the first that looks
        like a file (a `.` or a `/` in it), at most `_PINNED_OPERANDS`, since an option's value comes
        first (`sh -o errexit run.sh`, `python3 -W ignore x.py`); and a file redirected to its input
        (`bash < run.sh`). Pinning a word that names no file costs nothing: it is pinned as absent."""
        for operand in operands[:_PINNED_OPERANDS]:
            self.runs_file(findings, cmd, operand)
            if "." in operand or "/" in operand:
                break
        for redirect in cmd.redirects:
            if redirect.op == "<" and redirect.fd in ("", "0") and redirect.target not in STDIN_PATHS:
                self.runs_file(findings, cmd, redirect.target)

    @staticmethod
    def runs_file(findings: Findings, cmd: Command, path: str) -> None:
        """Names a file `cmd` runs as code, read from where the script is then (`cd sub && sh x` runs
        `sub/x`); the approval pins its contents. A path the script reaches through a home or an
        expansion is named as written: the environment says it cannot pin it."""
        if not path:
            return
        where = path if cmd.cwd is None or path.startswith(("/", "~", "$")) else posixpath.join(cmd.cwd, path)
        where = posixpath.normpath(where)
        if where not in findings.code:
            findings.code.append(where)

    def script(self, text: str, findings: Findings, depth: int = 0, positional: list[str] | None = None,
               environment: dict[str, str] | None = None, dialects: bool = True) -> None:
        """Analyses shell source; never returns without at least an `unknown` or a hit for odd input.

        `positional` are the script's `$0 $1 …` when the caller knows them (`sh -c CODE NAME ARGS`),
        `environment` the variables it was started with. Windows text is also read as PowerShell
        and cmd.exe (`engine/gate/shell/windows.py`) unless `dialects` is off (that reading's own bash pass)."""
        if depth > MAX_DEPTH:
            self.hit(findings, "obfuscation.deep-nesting", text)
            return
        self.raw(text, findings, fallback=False)
        if len(text) > MAX_TEXT:
            self.hit(findings, "shell.too-large", f"{len(text)} characters")
            self.raw(text, findings, fallback=True)
            return
        if dialects and windows.applies(text):
            windows.read(self, text, findings, depth)
            return
        if "$IFS" in text:
            text = _BARE_IFS.sub("${IFS}", text)
        argv = _plain_argv(text) if not positional and not environment else None
        if argv is not None:
            if argv:
                self.simple(SimpleCommand(argv), findings, depth)
            return
        if sum(map(text.count, _SEPARATORS)) > MAX_SEPARATORS:
            self.hit(findings, "shell.too-complex", f"over {MAX_SEPARATORS} command separators or substitutions")
            self.raw(text, findings, fallback=True)
            return
        parsed = parse(text, positional, environment)
        if parsed.error or parsed.truncated:
            self.hit(findings, "shell.unparsed" if parsed.error else "shell.too-complex", text)
            self.raw(text, findings, fallback=True)
            if parsed.error and "{" in text and depth < MAX_DEPTH:
                spread = _BRACED_COMMAND.sub(_spread, text)
                if spread != text:
                    self.script(spread, findings, depth + 1)
        for name in parsed.forks:
            self.hit(findings, "exec.fork-bomb", name)
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
            stages = [((unwrap(stage.argv).argv or stage.argv) if stage.argv and basename(stage.argv[0]) in LAUNCHERS
                       else stage.argv, stage.stdin) for stage in sc.upstream]
        else:
            upstream, stages = "", []
        cmd = Command(tuple(un.argv), tuple(sc.redirects), {**sc.env, **un.env}, sc.stdin, bool(sc.upstream),
                      tuple(un.launchers), sc.dynamic_name and not un.launchers, upstream, un.name, cwd=findings.cwd)
        for launcher in un.launchers:
            if launcher in PRIVILEGED:
                self.hit(findings, "exec.privileged", " ".join(sc.argv))
            if LAUNCHERS[launcher].rule:
                self.hit(findings, LAUNCHERS[launcher].rule, " ".join(sc.argv))
        if sc.indirect or sc.redefined or sc.decoded or sc.feeds or sc.nested:
            self.indirection(sc, un.name, findings)
        if un.argv and HAS_GLOB.search(un.argv[0]) and not sc.dynamic_name and depth <= MAX_DEPTH:
            for program in self.globbed(un.argv[0]):
                self.hit(findings, "exec.dynamic-command", un.argv[0])
                self.simple(SimpleCommand([program, *un.argv[1:]], redirects=sc.redirects, stdin=sc.stdin),
                            findings, depth + 1)
        files = sc.files
        if sc.upstream and sc.upstream[-1].printed is not None:
            files = {**(files or {}), PRINTED: sc.upstream[-1].printed}
        self.command(cmd, findings, depth, via, stages, files)
        self.reads(sc, un.argv, un.name, findings)
        if sc.evaluated is not None:
            self.evaluated(sc.evaluated, findings, depth)
        if sc.every is not None and destroys(sc.every, un.argv):
            self.hit(findings, "exec.destroy-listed", " ".join(sc.argv))
        if sc.sampled and un.argv:
            findings.unknown.append(un.argv[0])
            findings.reasons.setdefault(un.argv[0], f"{un.argv[0]}: an argument takes a value from the environment")
        elif sc.open and un.argv and un.name not in ANY_WORDS:
            findings.unknown.append(un.argv[0])
            findings.reasons.setdefault(
                un.argv[0], f"{un.argv[0]}: an argument the analysis cannot resolve could hold options or several words")

    def evaluated(self, found: Evaluated, findings: Findings, depth: int) -> None:
        """Values Bash evaluates as code (arithmetic, array subscripts, prompt strings): code written in one
        is analysed as the command it runs and is never safe; a value read at run time reaching one could
        hold any code, so it is never safe either."""
        cwd = findings.cwd
        for code in found.hidden[:MAX_FOLLOWED]:
            self.hit(findings, "exec.code-in-value", code)
            self.script(code, findings, depth + 1)
        findings.cwd = cwd
        if found.runtime:
            self.hit(findings, "exec.arithmetic-value", ", ".join(found.runtime[:4]))
        if found.prompts:
            self.hit(findings, "exec.prompt-value", ", ".join(found.prompts[:4]))

    def globbed(self, word: str) -> list[str]:
        """The known programs a glob in command position could name (`/bin/r?` is `rm`), at most eight
        (remembered for the last 256 words: `[` is a glob too)."""
        known = self.globs.get(word)
        if known is not None:
            return known
        directory, _, pattern = word.rpartition("/")
        if HAS_GLOB.search(directory):
            directory = "/usr/bin"
        names = self.programs or self.known_programs()
        found = [name for name in candidates(pattern, names) if name != pattern and matches(pattern, name)][:8]
        if len(self.globs) >= 256:
            self.globs.clear()
        known = self.globs[word] = [(directory + "/" if directory else "") + name for name in found]
        return known

    def known_programs(self) -> tuple[str, ...]:
        """Program names the bank knows: those with a catastrophic form first, shells next, shorter
        names before longer (a glob is tried against at most eight of them)."""
        names = set(self.bank.by_name) | SHELLS | set(INLINE_FLAGS) | set(LAUNCHERS)
        worst = {name for name, rules in self.bank.by_name.items() if any(r.level is CATASTROPHIC for r in rules)}
        self.programs = tuple(sorted(names, key=lambda name: (name not in worst, name not in SHELLS, len(name), name)))
        return self.programs

    def indirection(self, sc: SimpleCommand, name: str, findings: Findings) -> None:
        """A program name the script built or redefined is never vouched for, even once resolved;
        a payload decoded into code that runs is named."""
        if sc.indirect and not sc.dynamic_name and sc.argv:
            self.hit(findings, "exec.indirect-command", " ".join(sc.argv))
        if sc.redefined:
            self.hit(findings, "exec.redefined-command", f"{sc.redefined} {sc.argv[0]}")
        if sc.decoded and (sc.indirect or name in _CODE_RUNNERS or interpreter(name) is not None):
            self.hit(findings, "obfuscation.decoded-payload", sc.decoded[0])
        if (sc.feeds or sc.nested) and name in ("echo", "printf") and HEX_WORD.search(" ".join(sc.argv)):
            self.hit(findings, "obfuscation.hex-escapes", " ".join(sc.argv))

    def reads(self, sc: SimpleCommand, program: list[str], name: str, findings: Findings) -> None:
        """Secrets the command could read, environment variables named like secrets, and where a `cd` goes."""
        if name in ("cd", "pushd", "popd") and not sc.nested:
            findings.cwd = self.directories(findings).move(findings.cwd, program, sc.env)
            return
        if not sc.nested and (sc.env or name in _DECLARING) and "CDPATH" in " ".join((*sc.env, *sc.argv)):
            self.directories(findings).search_path(sc.env, program)
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
                stages: list[tuple[list[str], str | None]] | None = None, files: dict[str, str] | None = None) -> None:
        """Rates one command; `files` maps each `<(…)` among its words to the text it holds."""
        stages = stages or []
        matched = named = False
        hits = findings.hits
        argv = cmd.argv
        for item, match in self.generic(cmd):
            found = match(cmd)
            if found:
                hits.append(Hit(item, found if item.cite and isinstance(found, str) else " ".join(argv)))
                matched = True
        if argv and "/" in argv[0] and not cmd.dynamic_name and not is_system_program(argv[0]):
            self.runs_file(findings, cmd, argv[0])
        if not argv:
            if any(w in SHELL_WHEN_BARE for w in cmd.wrappers):
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
                if item.level is not SAFE:  # a safe rule only adds a tier: the command must still be proven
                    matched = named = True
        if cmd.operands and (cmd.cwd is not None or HAS_GLOB.search(cmd.text)):
            where = relocated(cmd)
            if where is not None:
                for item, match in self.bank.candidates(where.name, where.operands[0] if where.operands else None):
                    if item.level is CATASTROPHIC and match(where):
                        hits.append(Hit(item, " ".join(where.argv)))
                        matched = named = True
        if cmd.env or cmd.name in _HIDING or cmd.redirects and escapes.later_hint(cmd.redirects):
            self.hidden(cmd, findings, depth, stages, files or {})
        handled = self.follow(cmd, findings, depth, via, stages, named, files or {})
        if not matched and not handled:
            why = self.bank.prove(cmd, self.extra)
            if why is not None:
                findings.unknown.append(cmd.argv[0])
                findings.reasons.setdefault(cmd.argv[0], why)

    def hidden(self, cmd: Command, findings: Findings, depth: int, stages: list[tuple[list[str], str | None]],
               files: Files) -> None:
        """Command lines hidden in the command's settings, options and the scripts it reads (a pager in
        `PAGER=`, `ssh -o ProxyCommand=`, a makefile's recipes, a crontab line, a database client's
        `\\!`) are read as shell code: their level is the command's too. The setting keeps its own rule."""
        texts: list[str] = []
        if cmd.env:
            texts.extend(escapes.variable_commands(cmd.env, files, cmd.stdin))
        name = cmd.name
        if name in _DECLARING:
            texts.extend(escapes.variable_commands(escapes.declared(cmd.args), files, cmd.stdin))
        if name == "tee" or cmd.redirects and escapes.later_hint(cmd.redirects):
            texts.extend(self.runs_later(cmd, stages, files))
        if name in escapes.PROGRAMS:
            texts.extend(escapes.option_commands(name, cmd.args, cmd.env, cmd.text))
            if name in _SSH_CLIENTS:
                for _option, config in escapes.option_values(cmd.args, {"-F": ""}):
                    text = files.get(config) if config in files else self.fed(cmd, stages, files) if config in STDIN_PATHS else None
                    if text is not None:
                        texts.extend(escapes.ssh_config_commands(text))
            if name in ("make", "gmake"):
                texts.extend(self.makefiles(cmd, stages, files))
            elif name == "crontab":
                table = self.crontab(cmd, stages, files)
                if table is not None:
                    texts.extend(escapes.crontab_commands(table))
            elif name in escapes.PAGERS:
                fed = self.fed(cmd, stages, files)
                if fed is not None and "!" in fed:
                    texts.extend(line.strip()[1:] for line in fed.split("\n")[:MAX_FOLLOWED] if line.strip().startswith("!"))
            elif name in _CLIENTS:
                scripts = escapes.client_scripts(name, cmd.args)
                fed = self.fed(cmd, stages, files)
                if fed is not None:
                    scripts.append(fed)
                texts.extend(escapes.client_commands(name, "\n".join(scripts)))
        if not texts:
            return
        cwd = findings.cwd
        for text in texts[:MAX_FOLLOWED]:
            self.script(text, findings, depth + 1)
        findings.cwd = cwd

    def runs_later(self, cmd: Command, stages: list[tuple[list[str], str | None]], files: Files) -> list[str]:
        """The commands of literal text written where something runs it later: a shell start-up file, a
        cron table or script, an init script, a git hook, a systemd unit (`echo 'rm -rf ~' >> ~/.bashrc`)."""
        targets = [r.target for r in cmd.redirects if r.writes and r.target and r.fd in ("", "1") and "/" in r.target]
        if cmd.name == "tee":
            targets.extend(op for op in cmd.operands if "/" in op)
        if not targets:
            return []
        text = self.fed(cmd, stages, files) if cmd.name == "tee" else source(list(cmd.argv), cmd.stdin)
        if text is None:
            return []
        return [command for target in targets[:4] for command in escapes.later_commands(fold(target), text)]

    @staticmethod
    def fed(cmd: Command, stages: list[tuple[list[str], str | None]], files: Files) -> str | None:
        """What the command reads on standard input when the script shows it: a here-string or
        here-document, a pipeline of literals, or (at least) the literals a compound stage prints."""
        if cmd.stdin is not None:
            return cmd.stdin
        text = simulate(stages) if stages else None
        return text if text is not None else files.get(PRINTED)

    def makefiles(self, cmd: Command, stages: list[tuple[list[str], str | None]], files: Files) -> list[str]:
        """The commands of makefile text given inline (`--eval`, `-E`) or read from standard input or a `<(…)`."""
        texts = [value for _option, value in escapes.option_values(cmd.args, {"--eval": "", "-E": ""})]
        for _option, makefile in escapes.option_values(cmd.args, {"-f": "", "--file": "", "--makefile": ""}):
            text = files.get(makefile) if makefile in files else self.fed(cmd, stages, files) if makefile in STDIN_PATHS else None
            if text is not None:
                texts.append(text)
        return [command for text in texts[:4] for command in escapes.makefile_commands(text)]

    def crontab(self, cmd: Command, stages: list[tuple[list[str], str | None]], files: Files) -> str | None:
        """The table `crontab` installs: its file operand (`-`, `/dev/stdin` or a `<(…)`), or standard input
        when it is given no file and no listing, editing or removal flag."""
        if cmd.flags & {"-l", "-e", "-r", "-i", "-V"}:
            return None
        operands = [op for op in cmd.operands if op not in ("-u",)]
        source = operands[-1] if operands else "-"
        if source in files:
            return files[source]
        return self.fed(cmd, stages, files) if source in STDIN_PATHS else None

    def editor(self, cmd: Command, family: str, findings: Findings, depth: int,
               stages: list[tuple[list[str], str | None]], files: Files) -> None:
        """Commands an editor or debugger is given (`vim -c`, `vim +cmd`, `gdb -ex`, `--eval-command=`, and
        the lines it reads on standard input in batch mode) run shell commands through `:!`, `shell`,
        `pipe` or `system()`: each is read as shell code or as a payload."""
        args = cmd.args
        commands = [value for _option, value in escapes.option_values(args, _EDITOR_OPTIONS[family])]
        if family == "vim":
            commands.extend(arg[1:] for arg in args if arg.startswith("+") and len(arg) > 1)
        if family == "gdb" or cmd.name == "ex" or _SCRIPTED.intersection(args):
            fed = self.fed(cmd, stages, files)
            if fed is not None:
                commands.extend(fed.split("\n"))
        for command in commands[:MAX_FOLLOWED]:
            shells, codes = escapes.editor_commands(family, command)
            for text in shells:
                self.script(text, findings, depth + 1)
            for code in codes:
                if "(" in code:
                    self.code(code, findings, depth + 1)

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
               stages: list[tuple[list[str], str | None]], named: bool, files: dict[str, str]) -> bool:
        """Analyses code a command hands on; True when that code decides the command's risk.

        `named` says whether a rule for the program's own name already matched `cmd`.
        """
        name = cmd.name
        if files and cmd.argv[0] in files:
            self.script(files[cmd.argv[0]], findings, depth + 1)
        if name in windows.FOLLOWS:
            return windows.follow(self, cmd, findings, depth, stages)
        if name in SHELLS:
            return self.shell(cmd, findings, depth, via, stages, files)
        family = interpreter(name)
        if family is not None:
            return self.interpreter(cmd, family, findings, depth, stages, files)
        if name == "eval":
            self.eval(cmd, findings, depth)
            return True
        if name == "find":
            return self.find(cmd, findings, depth, named)
        if name == "xargs":
            return self.xargs(cmd, findings, depth, stages, files)
        if name == "parallel":
            return self.parallel(cmd, findings, depth, stages)
        handler = self.FOLLOWERS.get(name)
        return bool(handler(self, cmd, findings, depth, stages, files)) if handler is not None else False

    def sourced(self, cmd: Command, findings: Findings, depth: int, stages: list[tuple[list[str], str | None]],
                files: Files) -> None:
        """`source FILE`: the text of a `<(…)` or of the standard input it reads, when known."""
        operand = cmd.operands[0] if cmd.operands else ""
        if operand in files:
            self.script(files[operand], findings, depth + 1)
        elif operand and operand not in STDIN_PATHS:
            self.runs_file(findings, cmd, operand)
        elif operand in STDIN_PATHS:
            if cmd.stdin is not None:
                self.script(cmd.stdin, findings, depth + 1)
            elif cmd.piped:
                self.hit(findings, "exec.pipe-to-shell", cmd.upstream + " | " + " ".join(cmd.argv))
                self.decoded(stages, findings, depth)

    def sed(self, cmd: Command, findings: Findings, depth: int, stages: list[tuple[list[str], str | None]],
            files: Files) -> None:
        """sed's `e COMMAND` runs COMMAND, a bare `e` and the `s///e` flag run the pattern space:
        each is read as shell code (the pattern space from the input, when it is known)."""
        args = list(cmd.args)
        scripts: list[str] = []
        operands: list[str] = []
        extended = False
        i = 0
        while i < len(args):
            arg = args[i]
            if arg in ("-e", "--expression") or (arg[:1] == "-" and arg[1:2] != "-" and arg.endswith("e") and arg[1:].isalpha()):
                if i + 1 < len(args):
                    scripts.append(args[i + 1])
                i += 2
                continue
            if arg.startswith("--expression="):
                scripts.append(arg.partition("=")[2])
            elif arg in ("-f", "--file", "-l", "--line-length"):
                i += 2
                continue
            elif arg.startswith("-") and len(arg) > 1:
                extended = extended or arg in ("-E", "-r", "--regexp-extended") or (arg[1] != "-" and bool(set(arg[1:]) & {"E", "r"}))
            else:
                operands.append(arg)
            i += 1
        if not scripts and operands:
            scripts.append(operands[0])
        text = cmd.stdin if cmd.stdin is not None else simulate(stages) if stages else None
        for script in scripts[:4]:
            if "e" not in script:
                continue
            for match in list(_SED_EXEC.finditer(script))[:MAX_FOLLOWED]:
                self.hit(findings, "injection.sed-exec", script)
                if match.group(1) and match.group(1).strip():
                    self.script(match.group(1).strip(), findings, depth + 1)
                elif text is not None:
                    self.script(text, findings, depth + 1)
            for match in SED_SUBSTITUTE.finditer(script):
                if "e" not in match.group(4):
                    continue
                self.hit(findings, "injection.sed-exec", script)
                result = sed_substitute(match, text, extended) if text is not None else None
                if result is not None:
                    self.script(result, findings, depth + 1)

    def container(self, cmd: Command, findings: Findings, depth: int, stages: list[tuple[list[str], str | None]],
                  files: Files) -> None:
        """A command run in a container that mounts host paths (`docker run -v /:/host … rm -rf
        /host`, `kubectl debug node/… -- chroot /host …`) is read with those paths on the host."""
        args = list(cmd.args)
        mounts: list[tuple[str, str]] = []
        verb = next((a for a in args[:6] if a in ("exec", "debug", "run", "create")), None)
        if verb == "exec" or cmd.name == "kubectl" and verb == "run":
            self.host_reached(cmd, args, findings, depth)
            return
        if cmd.name == "kubectl":
            if "debug" not in args or not any(a.startswith("node/") for a in args) or "--" not in args:
                return
            inner = args[args.index("--") + 1 :]
            mounts.append(("/host", "/"))
        else:
            if "run" not in args[:3] and "create" not in args[:3]:
                return
            rest = args[args.index("run" if "run" in args[:3] else "create") + 1 :]
            i = 0
            while i < len(rest) and rest[i].startswith("-"):
                arg = rest[i]
                head, eq, value = arg.partition("=")
                if head in _DOCKER_VALUES and not eq:
                    value = rest[i + 1] if i + 1 < len(rest) else ""
                    i += 1
                if head in ("-v", "--volume") or (head.startswith("-v") and len(head) > 2 and not head.startswith("--")):
                    value = value or arg[2:]
                    source, _, target = value.partition(":")
                    if source.startswith(("/", "~", "$")) and target:
                        mounts.append((target.split(":")[0], source))
                elif head == "--mount":
                    parts = dict(p.partition("=")[::2] for p in value.split(","))
                    source = parts.get("source") or parts.get("src", "")
                    target = parts.get("target") or parts.get("destination") or parts.get("dst", "")
                    if source.startswith(("/", "~")) and target:
                        mounts.append((target, source))
                i += 1
            inner = rest[i + 1 :]
        if not mounts or not inner:
            return
        mapped = [_on_host(arg, mounts) for arg in inner]
        if mapped != inner:
            self.simple(SimpleCommand(mapped), findings, depth)

    def host_reached(self, cmd: Command, args: list[str], findings: Findings, depth: int) -> None:
        """A command run in a container (`kubectl exec POD -- …`, `docker exec CTR …`) acts on the
        container, unless it enters the host: `chroot` into a host mount, or `nsenter` into process 1's
        namespaces (also inside a `sh -c` line). Such a command is read as run on the host."""
        if "--" in args:
            inner = args[args.index("--") + 1 :]
        else:
            rest = skip_options(args[args.index("exec") + 1 :], _DOCKER_VALUES) if "exec" in args else []
            inner = rest[1:]
        if any(_HOST_ENTRY.search(word) for word in inner[:MAX_FOLLOWED]):
            self.simple(SimpleCommand(inner), findings, depth)

    def awk(self, cmd: Command, findings: Findings, depth: int, stages: list[tuple[list[str], str | None]],
            files: Files) -> None:
        """awk's `system()`, `cmd | getline` and `print | cmd` run shell commands; `print | "sh"`
        runs the lines awk reads."""
        call = awk_call(list(cmd.args))
        if call.program is None:
            return
        variables, program = call.variables, call.program
        text = cmd.stdin if cmd.stdin is not None else simulate(stages) if stages else None
        lines = text.split("\n") if text is not None else (listed_paths(stages) if stages else None)
        found = payload.awk(program, variables, [line for line in lines if line.strip()] if lines else None)
        for command in dict.fromkeys(found.shell[:8]):
            self.script(command, findings, depth + 1)
        if found.runs_input:
            if text is not None:
                self.script(text, findings, depth + 1)
            else:
                self.hit(findings, "exec.pipe-to-shell", (cmd.upstream + " | " if cmd.upstream else "") + " ".join(cmd.argv))

    def watch(self, cmd: Command, findings: Findings, depth: int, stages: list[tuple[list[str], str | None]], files: Files) -> bool:
        """`watch CMD` runs CMD through `sh -c` (or as an argv with `-x`) again and again."""
        args = list(cmd.args)
        execute = any(a in ("-x", "--exec") or (a.startswith("-") and not a.startswith("--") and "x" in a) for a in args
                      if a.startswith("-"))
        rest = skip_options(args, _WATCH_VALUES)
        if not rest:
            return False
        if execute:
            self.simple(SimpleCommand(rest), findings, depth)
        else:
            self.script(" ".join(rest), findings, depth + 1)
        return True

    def tmux(self, cmd: Command, findings: Findings, depth: int, stages: list[tuple[list[str], str | None]],
             files: Files) -> None:
        """tmux starts shell commands in sessions and types keys into them; each `;`-separated
        command of one invocation is read."""
        args = list(cmd.args)
        i = 0
        while i < len(args) and args[i].startswith("-"):
            if args[i] == "-c" and i + 1 < len(args):
                self.script(args[i + 1], findings, depth + 1)
            i += 2 if args[i] in _TMUX_GLOBAL or args[i] == "-c" else 1
        segment: list[str] = []
        followed = 0
        for arg in args[i:] + [";"]:
            if arg in (";", "\\;"):
                if segment and followed < MAX_FOLLOWED:
                    self.tmux_command(segment, findings, depth)
                    followed += 1
                segment = []
            else:
                segment.append(arg)

    def tmux_command(self, words: list[str], findings: Findings, depth: int) -> None:
        sub = _TMUX_ALIASES.get(words[0], words[0])
        values = _TMUX_VALUES.get(sub)
        if values is None:
            return
        rest = skip_options(words[1:], values)
        if not rest:
            return
        if sub == "send-keys":
            literal = "-l" in words
            text = "".join(k if literal else _TMUX_KEYS.get(k.lower(), k) for k in rest)
            self.script(text, findings, depth + 1)
        else:
            self.script(" ".join(rest), findings, depth + 1)

    def screen(self, cmd: Command, findings: Findings, depth: int, stages: list[tuple[list[str], str | None]],
               files: Files) -> None:
        """`screen [-dmS name] CMD ARGS` runs CMD; `screen -X stuff TEXT` types TEXT into a session."""
        args = list(cmd.args)
        i = 0
        while i < len(args) and args[i].startswith("-"):
            arg = args[i]
            if arg == "-X":
                rest = args[i + 1 :]
                if len(rest) > 1 and rest[0] == "stuff":
                    self.script(rest[1].replace("^M", "\n").replace("\\n", "\n").replace("\\r", "\n"),
                                findings, depth + 1)
                elif len(rest) > 1 and rest[0] in ("exec", "screen"):
                    inner = [w for w in rest[1:] if not set(w) <= set("!.|:")]
                    if inner:
                        self.simple(SimpleCommand(inner), findings, depth)
                return
            if arg in _SCREEN_WORDS:
                return
            i += 2 if arg == "-Logfile" or arg[-1] in _SCREEN_VALUE_LETTERS and len(arg) <= 4 else 1
        if i < len(args):
            self.simple(SimpleCommand(args[i:]), findings, depth)

    def scheduled(self, cmd: Command, findings: Findings, depth: int, stages: list[tuple[list[str], str | None]],
                  files: Files) -> None:
        """`at`/`batch` run the commands they read on standard input (or from `-f FILE`) later."""
        script = next((value for _option, value in escapes.option_values(cmd.args, {"-f": ""})), None)
        text = files.get(script) if script in files else self.fed(cmd, stages, files) if script is None or script in STDIN_PATHS else None
        if text is not None:
            self.script(text, findings, depth + 1)

    def ansible(self, cmd: Command, findings: Findings, depth: int, stages: list[tuple[list[str], str | None]],
                files: Files) -> None:
        """`ansible HOSTS [-m command|shell|raw] -a CMD` runs CMD on every host."""
        args = list(cmd.args)
        module, command = "command", None
        for i, arg in enumerate(args):
            value = args[i + 1] if i + 1 < len(args) else None
            if arg in ("-m", "--module-name") and value is not None:
                module = value
            elif arg.startswith("--module-name="):
                module = arg.partition("=")[2]
            elif arg.startswith("-m") and len(arg) > 2 and not arg.startswith("--"):
                module = arg[2:]
            elif arg in ("-a", "--args") and value is not None:
                command = value
            elif arg.startswith("--args="):
                command = arg.partition("=")[2]
        if command is not None and module.rsplit(".", 1)[-1] in _ANSIBLE_SHELLS:
            self.script(command, findings, depth + 1)

    def salt(self, cmd: Command, findings: Findings, depth: int, stages: list[tuple[list[str], str | None]],
             files: Files) -> None:
        """`salt TARGET cmd.run CMD` (and `salt-ssh … -r CMD`) runs CMD on every minion."""
        args = list(cmd.args)
        for i, arg in enumerate(args[:-1]):
            if arg.startswith("cmd.") and arg[4:].split(".")[0] in ("run", "run_all", "run_stdout", "shell", "exec_code_all",
                                                                     "script", "run_bg", "powershell"):
                self.script(args[i + 1], findings, depth + 1)
            elif arg in ("-r", "--raw", "--raw-shell"):
                self.script(args[-1], findings, depth + 1)

    def fanout(self, cmd: Command, findings: Findings, depth: int, stages: list[tuple[list[str], str | None]],
               files: Files) -> None:
        """pdsh, clush and pssh run the rest of their line as a shell command on every host."""
        rest = skip_options(list(cmd.args), _REMOTE_VALUES.get(cmd.name, frozenset()))
        if cmd.name in ("pssh", "parallel-ssh") and rest and rest[0] == "-i":
            rest = rest[1:]
        if rest:
            self.script(" ".join(rest), findings, depth + 1)

    def entr(self, cmd: Command, findings: Findings, depth: int, stages: list[tuple[list[str], str | None]],
             files: Files) -> None:
        """`entr UTILITY ARGS` runs UTILITY whenever a file changes; with `-s` the argument is shell code."""
        args = list(cmd.args)
        shell = any(a.startswith("-") and "s" in a for a in args if not a.startswith("--"))
        rest = skip_options(args, frozenset())
        if not rest:
            return
        if shell:
            self.script(rest[0], findings, depth + 1)
        else:
            self.simple(SimpleCommand(rest), findings, depth)

    def hyperfine(self, cmd: Command, findings: Findings, depth: int, stages: list[tuple[list[str], str | None]],
                  files: Files) -> None:
        """hyperfine runs each command argument, and the setup, prepare and cleanup commands, in a shell."""
        args = list(cmd.args)
        i = ran = 0
        while i < len(args):
            arg = args[i]
            head = arg.split("=", 1)[0]
            if head in _HYPERFINE_COMMANDS:
                text = arg.partition("=")[2] if "=" in arg else args[i + 1] if i + 1 < len(args) else ""
                self.script(text, findings, depth + 1)
                i += 1 if "=" in arg else 2
            elif head in ("-P", "--parameter-scan"):
                i += 4
            elif head in ("-L", "--parameter-list"):
                i += 3
            elif head in _HYPERFINE_VALUES:
                i += 1 if "=" in arg else 2
            elif arg.startswith("-"):
                i += 1
            else:
                if ran < MAX_FOLLOWED:
                    self.script(arg, findings, depth + 1)
                    ran += 1
                i += 1

    def trap(self, cmd: Command, findings: Findings, depth: int, stages: list[tuple[list[str], str | None]],
             files: Files) -> None:
        """`trap CODE SIGNALS` runs CODE when a signal (or EXIT) arrives."""
        args = [a for a in cmd.args if a != "--"]
        if len(args) > 1 and args[0] not in ("-", "-p", "-l", ""):
            self.script(args[0], findings, depth + 1)

    def coproc(self, cmd: Command, findings: Findings, depth: int, stages: list[tuple[list[str], str | None]],
               files: Files) -> None:
        """`coproc [NAME] COMMAND` runs COMMAND in the background (tree-sitter reads it as words)."""
        args = list(cmd.args)
        if "{" in args:
            args = args[args.index("{") + 1 :]
        if args:
            self.simple(SimpleCommand(args), findings, depth)

    def sg(self, cmd: Command, findings: Findings, depth: int, stages: list[tuple[list[str], str | None]],
           files: Files) -> None:
        """`sg GROUP [-c] CMD` runs CMD through `sh -c` with another group."""
        rest = [a for a in cmd.args if a != "-"][1:]
        if rest and rest[0] == "-c":
            rest = rest[1:]
        if rest:
            self.script(" ".join(rest), findings, depth + 1)


    def shell(self, cmd: Command, findings: Findings, depth: int, via: str,
              stages: list[tuple[list[str], str | None]], files: dict[str, str] | None = None) -> bool:
        args = list(cmd.args)
        for i, arg in enumerate(args):
            if arg.startswith("-") and not arg.startswith("--") and "c" in arg[1:] and len(arg) <= 6:
                if i + 1 >= len(args):
                    self.hit(findings, "exec.shell-spawn", " ".join(cmd.argv))
                    return True
                if via:
                    self.hit(findings, "exec.xargs-shell", f"{via} {' '.join(cmd.argv)}")
                self.substituted(args[i + 1], findings, depth, cmd.stdin)
                self.script(args[i + 1], findings, depth + 1, args[i + 2 :] or None, cmd.env or None)
                return True
        operands = [a for a in cmd.operands if a != "-"]
        if operands and files and operands[0] in files:
            self.script(files[operands[0]], findings, depth + 1)
            return True
        if operands and operands[0] in STDIN_PATHS:
            operands = []
        self.runs_script(findings, cmd, operands)
        if operands:
            self.hit(findings, "exec.script", " ".join(cmd.argv))
            return True
        if cmd.stdin is not None:
            self.script(cmd.stdin, findings, depth + 1)
            return True
        if cmd.piped:
            self.hit(findings, "exec.pipe-to-shell", cmd.upstream + " | " + " ".join(cmd.argv))
            self.decoded(stages, findings, depth, (files or {}).get(PRINTED))
            return True
        self.hit(findings, "exec.shell-spawn", " ".join(cmd.argv))
        return True

    def decoded(self, stages: list[tuple[list[str], str | None]], findings: Findings, depth: int,
                printed: str | None = None) -> None:
        """Reads what a pipeline feeds a shell: its literal output (named when a stage decoded it), or at
        least what a compound stage prints (`(cat x; echo …) | sh`)."""
        text = simulate(stages)
        if text is not None and len(stages) > 1:
            self.hit(findings, "obfuscation.decoded-payload", text)
        if text is None:
            text = printed
        if text is not None:
            self.script(text, findings, depth + 1)

    def substituted(self, text: str, findings: Findings, depth: int, stdin: str | None = None) -> None:
        """Reads the code a `$(…)` passed as a script prints, when its pipeline prints literals; a first
        stage that reads standard input (`$(cat)`) is taken to read `stdin`, the command's here-string
        (bash expands the word before it redirects, so this reading only ever rates the command up)."""
        match = _SUBSTITUTION.match(text.strip())
        if match is None:
            return
        inner = parse(match.group(1) or match.group(2) or "")
        top = [sc for sc in inner.commands if not sc.nested]
        if top:
            last = top[-1]
            stages = [(s.argv, s.stdin) for s in last.upstream] + [(last.argv, last.stdin)]
            if stdin is not None and not last.argv and any(r.op == "<" and r.target in STDIN_PATHS for r in last.redirects):
                stages = [(["cat"], stdin)]
            if stdin is not None and stages[0][1] is None and _reads_stdin(stages[0][0]):
                stages[0] = (stages[0][0], stdin)
            self.decoded(stages, findings, depth)

    def interpreter(self, cmd: Command, family: str, findings: Findings, depth: int,
                    stages: list[tuple[list[str], str | None]], files: dict[str, str] | None = None) -> bool:
        flags = INLINE_FLAGS.get(family, frozenset())
        args = list(cmd.args)
        if family in _EDITORS:
            self.editor(cmd, _EDITORS[family], findings, depth, stages, files or {})
        code = None
        for i, arg in enumerate(args):
            if arg in flags and i + 1 < len(args):
                code = " ".join(args[i + 1 :]) if family in ("pwsh", "powershell") else args[i + 1]
                break
            if len(arg) > 2 and arg[:2] in flags and family not in ("pwsh", "powershell", "gdb", "emacs"):
                code = arg[2:]
                break
        operands = [a for a in cmd.operands if a not in STDIN_PATHS]
        if code is None and files and cmd.operands and cmd.operands[0] in files:
            code = files[cmd.operands[0]]
        if code is None and cmd.stdin is not None and not operands:
            code = cmd.stdin
        if code is None:
            if invocation.without_payload(family, cmd) is None:
                return True
            if cmd.piped and not operands:
                self.hit(findings, "exec.pipe-to-shell", cmd.upstream + " | " + " ".join(cmd.argv))
                text = simulate(stages)
                if text is not None:
                    self.code(text, findings, depth)
                text = text if text is not None else (files or {}).get(PRINTED)
                if family in _TCL and text is not None:
                    for command in escapes.tcl_commands(text):
                        self.script(command, findings, depth + 1)
                return True
            self.runs_script(findings, cmd, list(cmd.operands))
            if cmd.flags & MODULE_FLAGS.get(family, frozenset()):
                self.hit(findings, "exec.module", " ".join(cmd.argv))
                return True
            if cmd.operands:
                self.hit(findings, "exec.script", " ".join(cmd.argv))
                return True
            return False
        if family in _TCL:
            for text in escapes.tcl_commands(code):
                self.script(text, findings, depth + 1)
        if invocation.with_payload(family, cmd, code) is None:
            proven = Findings()
            self.code(code, proven, depth)
            findings.hits.extend(hit for hit in proven.hits if hit.rule.level is CATASTROPHIC)
            return True
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
            rule = ("code.delete-root" if is_root(path) or covered_root(path) else "code.delete-auth"
                    if is_auth_file(path) else "code.delete-system" if is_system(path) else "code.delete")
            self.hit(findings, rule, path)
        for path in found.writes:
            rule = ("code.write-device" if is_device(path) else "code.write-auth" if is_auth_file(path)
                    else "code.write-system" if is_system(path) or is_startup(path) else "code.write")
            self.hit(findings, rule, path)
        if found.forks:
            self.hit(findings, "code.fork-loop", code)
        if found.kills_all:
            self.hit(findings, "code.kill-all", code)
        if found.secrets or found.environment:
            self.hit(findings, "code.exfiltrate", found.secrets[0] if found.secrets else "the environment")
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
        self.hit(findings, "exec.eval", text)
        if "$" in text or "`" in text:
            self.hit(findings, "exec.eval-dynamic", text)
            for arg in cmd.args:
                self.substituted(arg, findings, depth, cmd.stdin)
        self.script(text, findings, depth + 1)

    def nested_string(self, cmd: Command, findings: Findings, depth: int, stages: list[tuple[list[str], str | None]],
                      files: Files) -> None:
        args = list(cmd.args)
        if cmd.name == "ssh":
            rest = skip_options(args, _SSH_VALUES)
            if len(rest) > 1:
                self.script(" ".join(rest[1:]), findings, depth + 1)
        elif cmd.name == "sg" and "-c" not in args:
            self.sg(cmd, findings, depth, stages, files)
        elif cmd.name in ("su", "runuser", "flock", "script", "sg"):
            for i, arg in enumerate(args):
                cluster = len(arg) > 2 and arg[0] == "-" and arg[1] != "-" and arg.endswith("c") and arg[1:].isalpha()
                if (arg in ("-c", "--command", "--session-command") or cluster) and i + 1 < len(args):
                    self.script(args[i + 1], findings, depth + 1)
                elif arg.startswith(("--command=", "--session-command=")):
                    self.script(arg.partition("=")[2], findings, depth + 1)
        elif cmd.name == "alias":
            for arg in args:
                if "=" in arg:
                    self.script(arg.split("=", 1)[1], findings, depth + 1)
        elif cmd.name == "cmd":
            rest = [a for a in args if a.lower() not in ("/c", "/k", "/q", "/s")]
            if rest:
                self.script(" ".join(rest), findings, depth + 1)

    def run_elsewhere(self, cmd: Command, findings: Findings, depth: int, stages: list[tuple[list[str], str | None]],
                  files: Files) -> None:
        """Cloud CLIs, `ip netns exec` and package runners: what they run elsewhere is read as a command."""
        found = elsewhere.read(cmd.name, list(cmd.args))
        if found is None:
            return
        for text in found.scripts[:MAX_FOLLOWED]:
            self.script(text, findings, depth + 1)
        for argv in found.argvs[:MAX_FOLLOWED]:
            if argv:
                self.simple(SimpleCommand(argv), findings, depth + 1)

    FOLLOWERS: dict[str, Callable[..., bool | None]] = {
        "source": sourced, ".": sourced, "sed": sed, "gsed": sed, "docker": container, "podman": container,
        "nerdctl": container, "kubectl": container, "watch": watch, "tmux": tmux, "screen": screen, "at": scheduled,
        "batch": scheduled, "ansible": ansible, "salt": salt, "salt-ssh": salt, "salt-call": salt, "pdsh": fanout,
        "clush": fanout, "pssh": fanout, "parallel-ssh": fanout, "entr": entr, "hyperfine": hyperfine, "trap": trap,
        "coproc": coproc, **dict.fromkeys(AWKS, awk),
        **dict.fromkeys(("ssh", "su", "script", "flock", "runuser", "sg", "cmd", "alias"), nested_string),
        **dict.fromkeys(elsewhere.PROGRAMS, run_elsewhere),
    }
    """The followers of other programs' code, by program name: each reads what the program runs."""

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
        why = None if named else self.bank.prove(own, self.extra)
        if why is not None:
            findings.unknown.append("find")
            findings.reasons.setdefault("find", why)
        return True

    def xargs(self, cmd: Command, findings: Findings, depth: int, stages: list[tuple[list[str], str | None]],
              files: dict[str, str]) -> bool:
        args = list(cmd.args)
        replace = None
        i = 0
        while i < len(args) and args[i].startswith("-"):
            arg = args[i]
            head = arg.split("=", 1)[0]
            if head in ("-I", "--replace") or arg.startswith(("-i", "-I")):
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
        source = next((args[j + 1] for j in range(min(i, len(args)) - 1) if args[j] in ("-a", "--arg-file")), None)
        if source is not None and source in files:
            text = files[source]
        delimiter = "\0" if {"-0", "--null"} & set(args[:i]) else None
        if text is not None and delimiter:
            tokens = [item for item in text.split(delimiter) if item.strip()][:16]
        else:
            tokens = _items(text, bool(replace)) if text is not None else (listed_paths(stages) or []) if stages else []
        kind = everything(stages) if text is None and stages else None
        if kind is not None and destroys(kind, inner):
            self.hit(findings, "exec.destroy-listed", (cmd.upstream + " | " if cmd.upstream else "") + " ".join(cmd.argv))
        if tokens and replace:
            for token in tokens[:4]:
                self.simple(SimpleCommand([a.replace(replace, token) for a in inner]), findings, depth, via="xargs")
        else:
            self.simple(SimpleCommand(inner + tokens), findings, depth, via="xargs")
        if text is None and reads.reveals(inner) and self.opaque_input(cmd, stages):
            self.hit(findings, "creds.read-secret", "paths read at run time: " + (cmd.upstream or " ".join(cmd.argv)))
        return True

    @staticmethod
    def opaque_input(cmd: Command, stages: list[tuple[list[str], str | None]]) -> bool:
        """True when xargs's items could be any path: read from a file, or printed by a program
        that does not only print names it was given (`cat list | xargs cat`)."""
        if cmd.flags & {"-a", "--arg-file"} or any(not r.writes and r.op.startswith("<") for r in cmd.redirects):
            return True
        return any(reads.opaque(argv) for argv, _stdin in stages)

    def parallel(self, cmd: Command, findings: Findings, depth: int,
                 stages: list[tuple[list[str], str | None]] | None = None) -> bool:
        """GNU parallel runs its template once per item (after `:::`, or the lines it reads), through a
        shell, with the item quoted in place of `{}` (or after it); a template given as one word holding a
        command line (`parallel 'rm -rf {}'`) is read as that shell line. With no template each item is a command."""
        stages = stages or []
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
        if sep == len(rest):
            text = simulate(stages) if stages else cmd.stdin
            values = _items(text, True) if text is not None else (listed_paths(stages) or []) if stages else []
        if not template:
            for value in values[:8]:
                self.script(value, findings, depth + 1)
            return True
        line = len(template) == 1 and _SHELL_TEXT.search(template[0]) is not None and "-q" not in args[:i]
        for value in (values[:8] or [""]):
            if line:
                text = _PLACEHOLDER.sub(lambda _m: _quoted_item(value), " ".join(template))
                if value and not _PLACEHOLDER.search(" ".join(template)):
                    text += " " + _quoted_item(value)
                self.script(text, findings, depth + 1)
                continue
            argv = [_PLACEHOLDER.sub(lambda _m: value, a) for a in template]
            if value and not any(_PLACEHOLDER.search(a) for a in template):
                argv.append(value)
            self.simple(SimpleCommand(argv), findings, depth, via="parallel")
        return True


WORST_CWD = "/"
"""Where a script whose directory cannot be known is taken to be: deleting `*` there is deleting a root."""
_KNOWN_PLACE = re.compile(r"\$\((?:pwd|mktemp(?:\s[^)$`]*)?|git rev-parse --show-toplevel)\)|\$\{?PWD\}?")
_PLAIN_RELATIVE = re.compile(r"(?![./~])")


class Directories:
    """Where `cd`, `pushd` and `popd` take one script, for the moves that depend on where it was: `cd -`
    (the directory before the last move), `popd` and `pushd` with no directory or `+N` (the stack), and a
    relative `cd` while `CDPATH` is set. What the script itself did not set (`cd -` or `popd` first, a
    `CDPATH` search, a directory read at run time: `cd $(cat f)`, `cd "$d"`) could be anywhere: it is
    taken to be the worst place, `/`."""

    __slots__ = ("owner", "previous", "stack", "cdpath", "moved")

    def __init__(self, owner: Findings) -> None:
        self.owner = owner
        self.previous: str | None = None
        self.stack: list[str | None] = []
        self.cdpath = False
        self.moved = False

    def move(self, here: str | None, argv: list[str], env: dict[str, str]) -> str | None:
        """Where the command leaves the script, which was at `here` (None: where it started)."""
        name = basename(argv[0])
        operands = [a for a in argv[1:] if not a.startswith("-") or a == "-"]
        rotates = any(a[:1] in "+-" and a[1:].isdigit() for a in argv[1:])
        if name == "popd":
            if "-n" in argv:
                return here
            there = self.stack.pop() if self.stack and not rotates else WORST_CWD
        elif name == "pushd" and (rotates or not operands):
            there = self.stack.pop() if self.stack and not rotates else WORST_CWD
            self.stack.append(here)
        elif operands[:1] == ["-"]:
            there = self.previous if self.moved else WORST_CWD
        else:
            there = self.target(here, argv, operands, bool(env.get("CDPATH")) or self.cdpath)
            if name == "pushd":
                self.stack.append(here)
        self.previous, self.moved = here, True
        return there

    @staticmethod
    def target(here: str | None, argv: list[str], operands: list[str], cdpath: bool) -> str | None:
        """The directory `cd DIR`/`pushd DIR` goes to: anywhere for a value read at run time or a name
        looked up in `CDPATH`; the script's own directory for `$(pwd)` or a fresh `$(mktemp -d)`."""
        target = operands[0] if operands else ""
        if target and _KNOWN_PLACE.fullmatch(target):
            return here
        if "$" in target or "`" in target or cdpath and target and _PLAIN_RELATIVE.match(target):
            return WORST_CWD
        return reads.moved(here, [argv[0], *operands[:1]])

    def search_path(self, env: dict[str, str], argv: list[str]) -> None:
        """Follows `CDPATH` set for the rest of the script (`CDPATH=/`, `export CDPATH=/`, `unset CDPATH`)."""
        if not argv and "CDPATH" in env:
            self.cdpath = bool(env["CDPATH"])
        for arg in argv[1:]:
            if arg.startswith("CDPATH="):
                self.cdpath = bool(arg.partition("=")[2].strip("'\""))


_HOST_ENTRY = re.compile(r"(?:^|[\s;&|(/])(?:chroot|nsenter)(?:\s|$)")
_SHELL_TEXT = re.compile(r"[\s;&|<>$`()]")
_PLACEHOLDER = re.compile(r"\{(?:\d{1,2})?(?:\.|/|//|/\.)?\}")
_PLAIN_ITEM = re.compile(r"[\w@%+=:,./~-]{1,4000}")


def _quoted_item(value: str) -> str:
    """An input item as GNU parallel puts it into the shell line: quoted unless plain (`~` stays bare
    so the home directory it stands for here still reads as one)."""
    return value if _PLAIN_ITEM.fullmatch(value) else shlex.quote(value)


_SED_EXEC = re.compile(
    r"(?:^|[;\n{}])\s{0,8}(?:\d{1,9}|\$|/[^/\n]{0,200}/)?(?:\s{0,4},\s{0,4}(?:\d{1,9}|\$|/[^/\n]{0,200}/))?\s{0,4}!?\s{0,4}"
    r"e(?:\s{1,8}([^;\n}]{0,4000}))?(?=$|[;\n}])"
)
_DOCKER_VALUES = frozenset(
    "-v --volume --mount -e --env --env-file -w --workdir -u --user --name --network --net -p --publish -h --hostname"
    " --entrypoint -l --label --cpus -m --memory --pid --ipc --uts --cap-add --cap-drop --device --security-opt"
    " --restart --add-host --dns --platform --runtime --log-driver --log-opt --tmpfs --ulimit --userns --cgroupns"
    " --gpus --shm-size --stop-signal --label-file --volumes-from -a --attach --cidfile --ip --expose --group-add"
    " --pull".split())


def _on_host(word: str, mounts: list[tuple[str, str]]) -> str:
    """`word` with container paths under a bind mount written as the host paths they are."""
    for target, origin in mounts:
        target = target.rstrip("/") or "/"
        if target == "/":
            continue
        pattern = re.compile(r"(?<![\w.-])" + re.escape(target) + r"(?=/|$|\s|['\";])")
        word = pattern.sub(lambda m: origin.rstrip("/") if word[m.end() : m.end() + 1] == "/" else origin, word)
    return word


_BRACED_COMMAND = re.compile(r"(?:^|(?<=[;&|\n(]))(\s{0,8})\{([^{}\s;&|]{0,400},[^{}\s;&|]{0,400})\}")


def _spread(match: re.Match[str]) -> str:
    """`{rm,-rf,/}` at the start of a command is brace-expanded by bash into the words `rm -rf /`."""
    return match.group(1) + " ".join(shlex.quote(word) for word in match.group(2).split(","))


_SNAPSHOT_DESTROYERS = {"zfs": ("destroy",), "tmutil": ("delete", "deletelocalsnapshots"), "btrfs": ("subvolume", "delete"),
                        "snapper": ("delete",), "timeshift": ("--delete",)}


def destroys(kind: str, argv: list[str]) -> bool:
    """True when `argv` destroys things of `kind` (processes, snapshots, volumes, accounts) it is given."""
    unwrapped = unwrap(argv).argv if argv and basename(argv[0]) in LAUNCHERS else argv
    if not unwrapped:
        return False
    name, args = basename(unwrapped[0]), unwrapped[1:]
    if kind == "processes":
        return name in ("kill", "skill")
    if kind == "snapshots":
        verbs = _SNAPSHOT_DESTROYERS.get(name)
        words = [a for a in args if a != "sudo"]
        return name == "lvremove" or verbs is not None and all(verb in words for verb in verbs)
    if kind == "volumes":
        return name in ("lvremove", "vgremove")
    if kind == "accounts":
        return name in ("userdel", "deluser")
    return False


def _reads_stdin(argv: list[str]) -> bool:
    """A stage that prints what it reads on standard input (`cat`, `cat -`, `head -c 999`, `cat /dev/stdin`)."""
    if not argv or basename(argv[0]) not in ("cat", "head", "tail", "tee"):
        return False
    return all(arg.startswith("-") or arg in STDIN_PATHS or arg.isdigit() for arg in argv[1:])


def _items(text: str, lines: bool) -> list[str]:
    """The items xargs reads from `text`: whole lines with `-I`, else words (quotes honoured)."""
    if lines:
        return [line.strip() for line in text.split("\n") if line.strip()][:16]
    try:
        return shlex.split(text)[:16]
    except ValueError:
        return text.split()[:16]


@per_word(limit=256)
def covered_root(word: str) -> str | None:
    """The root a glob covers (`/[a-z]*`, `/???` and `/e*` cover entries of `/`, `~/[a-z]*` the
    home directory, `/etc/[a-z]*` all of `/etc`), or None."""
    if HAS_GLOB.search(word) is None:
        return None
    for alternative in expand(word):
        folded = fold(alternative)
        if is_root(folded):
            return folded
        if folded.startswith("~/"):
            rest = folded[2:]
            if "/" not in rest and not has_letters(rest):
                return "~/*"
            continue
        if not folded.startswith("/"):
            continue
        for sample in candidates(folded, ROOT_SAMPLES):
            if matches(folded, sample):
                return sample
        parent, _, last = folded.rpartition("/")
        if parent and is_root(parent) and not has_letters(last):
            return parent + "/*"
    return None


def relocated(cmd: Command) -> Command | None:
    """The command with relative operands read against the directory the script moved to and
    globs at a root written as the root they cover; None when nothing changes."""
    args = list(cmd.args)
    operands = set(cmd.operands)
    cwd = cmd.cwd if cmd.cwd is not None and cmd.cwd.startswith(("/", "~")) else None
    changed = False
    for i, arg in enumerate(args):
        if arg not in operands:
            continue
        where = reads.join(cwd, arg) if cwd is not None and not arg.startswith(("/", "~", "$", "-")) else arg
        where = covered_root(where) or where
        if where != arg:
            args[i] = where
            changed = True
    if not changed:
        return None
    return Command((cmd.argv[0], *args), cmd.redirects, cmd.env, cmd.stdin, cmd.piped, cmd.wrappers,
                   cmd.dynamic_name, cmd.upstream, cmd.name, cwd=cmd.cwd)


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
