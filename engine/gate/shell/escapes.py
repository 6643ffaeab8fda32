"""Command lines hidden in other programs' options, settings and scripts.

A pager, an editor, an ssh proxy, a remote shell, a tar checkpoint action, a makefile recipe, a
crontab line, a Tcl `exec`, a database client's `\\!`, a debugger's `shell` and an editor's `:!`
are all shell text some program runs. Each function here returns that text (no shell is parsed
here): the analyser reads it with the same rules as any other command, so what it does decides
the level. Every reader is bounded: at most `MAX_COMMANDS` command lines from one source, and
patterns with bounded repetition.
"""

from __future__ import annotations

import re
import shlex

MAX_COMMANDS = 16
MAX_LINES = 256
MAX_SOURCE = 64_000
MAX_TCL_READ = 16_000

# Variables whose value is a command line some program runs (pagers, editors, ssh and proxy
# commands, prompts that expand substitutions); `BASH_ENV` and `ENV` name a file bash or sh sources.
COMMAND_VARIABLES = frozenset(
    "EDITOR VISUAL PAGER MANPAGER GIT_PAGER GIT_EDITOR GIT_SEQUENCE_EDITOR GIT_SSH_COMMAND GIT_SSH GIT_EXTERNAL_DIFF"
    " GIT_ASKPASS GIT_PROXY_COMMAND SSH_ASKPASS SUDO_ASKPASS SUDO_EDITOR SYSTEMD_PAGER SYSTEMD_EDITOR KUBE_EDITOR"
    " FCEDIT HGEDITOR SVN_EDITOR SVN_SSH CVS_RSH RSYNC_RSH AWS_PAGER PSQL_PAGER PSQL_EDITOR LESSOPEN LESSCLOSE"
    " BROWSER PROMPT_COMMAND PS0 PS1 PS2 PS4 GIT_CONFIG_PARAMETERS LESS".split())
SOURCED_VARIABLES = frozenset({"BASH_ENV", "ENV"})
_PROMPTS = frozenset({"PS0", "PS1", "PS2", "PS4"})
_GIT_CONFIG_VALUE = re.compile(r"GIT_CONFIG_VALUE_(\d{1,3})")

# git configuration keys whose value is a command line (keys are case-insensitive); `alias.*` and
# `credential.*helper` only when the value starts with `!`.
_GIT_COMMAND_KEY = re.compile(
    r"(?i)core\.(?:pager|editor|sshcommand|fsmonitor|askpass|gitproxy|alternaterefscommand)|sequence\.editor"
    r"|diff\.external|diff\..{1,80}\.(?:command|textconv)|(?:difftool|mergetool|browser|man)\..{1,80}\.cmd"
    r"|merge\..{1,80}\.driver|filter\..{1,80}\.(?:clean|smudge|process)|pager\..{1,80}|gpg\.(?:.{1,80}\.)?program"
    r"|sendemail\.(?:tocmd|cccmd|smtpserver)|uploadpack\.packobjectshook|remote\..{1,80}\.(?:uploadpack|receivepack)"
)
_GIT_BANG_KEY = re.compile(r"(?i)alias\..{1,80}|credential\.(?:.{1,200}\.)?helper")
_BOOLEANS = frozenset({"true", "false", "yes", "no", "on", "off", "1", "0", ""})
_HG_COMMAND_KEY = re.compile(r"(?i)hooks\..{1,80}|ui\.(?:editor|ssh|merge)|merge-tools\..{1,80}\.executable|pager\.pager")
_SSH_COMMAND_KEYS = frozenset({"proxycommand", "localcommand", "knownhostscommand", "remotecommand"})
_APT_HOOK = re.compile(r"(?i).{0,80}(?:pre|post)-invoke.{0,40}|.{0,80}pre-install-pkgs.{0,40}")

# Options whose value is a command line, by program: "text" runs the value itself; the other kinds
# hold it inside a setting (`ssh -o ProxyCommand=…`, tar's `exec=…`, apt's `…::Pre-Invoke::=…`, hg `--config`).
_TAR = {"--checkpoint-action": "checkpoint", "--to-command": "text", "--use-compress-program": "text",
        "-I": "text", "--info-script": "text", "-F": "text", "--new-volume-script": "text", "--rsh-command": "text"}
_SSH = {"-o": "ssh"}
_SSH_COPY = {"-o": "ssh", "-S": "text"}
_APT = {"-o": "apt", "--option": "apt"}
OPTIONS: dict[str, dict[str, str]] = {
    "ssh": _SSH, "scp": _SSH_COPY, "sftp": _SSH_COPY, "autossh": _SSH, "sshfs": _SSH, "slogin": _SSH,
    "rsync": {"-e": "text", "--rsh": "text", "--rsync-path": "text"},
    "tar": _TAR, "gtar": _TAR, "bsdtar": _TAR,
    "zip": {"-TT": "text", "--unzip-command": "text"},
    "man": {"-P": "text", "--pager": "text", "-H": "text", "--html": "text"},
    "sort": {"--compress-program": "text"},
    "rg": {"--pre": "text"},
    "fzf": {"--preview": "text"},
    "svn": {"--editor-cmd": "text"},
    "hg": {"--config": "hg"},
    "apt-get": _APT, "apt": _APT, "aptitude": _APT, "apt-cache": _APT,
    "dpkg": {"--pre-invoke": "text", "--post-invoke": "text"},
    "mysql": {"--pager": "text"}, "mariadb": {"--pager": "text"},
}
PROGRAMS = frozenset(OPTIONS) | {"git", "less", "more", "make", "gmake", "crontab", "psql", "mysql", "mariadb", "sqlite3"}
PAGERS = frozenset({"less", "more"})


def variable_commands(env: dict[str, str], files: dict[str, str] | None = None,
                      stdin: str | None = None) -> list[str]:
    """The command lines the variables in `env` make programs run: a pager or editor's command,
    `LESSOPEN`'s preprocessor, each `BROWSER` entry, `PROMPT_COMMAND`, the substitutions of a prompt,
    the file `BASH_ENV` names when its text is known (a `<(…)` in `files`, or `/dev/stdin`), and
    git configuration given through the environment."""
    found: list[str] = []
    for key, value in env.items():
        if key in SOURCED_VARIABLES:
            if files and value in files:
                found.append(files[value])
            elif value in ("/dev/stdin", "/dev/fd/0", "/proc/self/fd/0") and stdin is not None:
                found.append(stdin)
            continue
        if key not in COMMAND_VARIABLES or not value.strip():
            match = _GIT_CONFIG_VALUE.fullmatch(key)
            if match is not None and _git_value(env.get("GIT_CONFIG_KEY_" + match.group(1), ""), value) is not None:
                found.append(_git_value(env["GIT_CONFIG_KEY_" + match.group(1)], value) or "")
            continue
        if key == "GIT_CONFIG_PARAMETERS":
            for item in _split(value):
                name, _, setting = item.partition("=")
                command = _git_value(name, setting)
                if command is not None:
                    found.append(command)
        elif key in _PROMPTS:
            if "$(" in value or "`" in value:
                found.append(value)
        elif key == "LESS":
            if "+!" in value:
                found.append(value.split("+!", 1)[1])
        elif key in ("LESSOPEN", "LESSCLOSE"):
            found.append(value.lstrip("|-").replace("%s", "notes.txt"))
        elif key == "BROWSER":
            found.extend(part.replace("%s", "https://x.example") for part in value.split(":") if part.strip())
        else:
            found.append(value)
    return found[:MAX_COMMANDS]


def declared(args: tuple[str, ...]) -> dict[str, str]:
    """The variables `export NAME=VALUE` (and declare, typeset, local, readonly) set; the parser leaves
    these words as written, so their quotes are taken off here."""
    found: dict[str, str] = {}
    for arg in args:
        key, eq, value = arg.partition("=")
        if eq and key and not key.startswith("-"):
            found[key.rstrip("+")] = " ".join(_split(value)) if "'" in value or '"' in value else value
    return found


def option_commands(name: str, args: tuple[str, ...], env: dict[str, str], text: str = "") -> list[str]:
    """The command lines `name`'s options and settings hand to another program; `text` is the arguments
    joined, for a first look that skips the walk when no option of interest is there."""
    found: list[str] = []
    if name == "git":
        if text and "-c" not in text and "--config-env" not in text and "config" not in text and "ext::" not in text:
            return found
        return git_commands(args, env)
    if name == "less":
        for arg in args:
            body = arg.lstrip("+") if arg.startswith("+") else ""
            if body.startswith("!"):
                found.append(body[1:])
        return found[:MAX_COMMANDS]
    table = OPTIONS.get(name)
    if table is None or text and not any(option in text for option in table):
        return found
    for option, value in option_values(args, table):
        kind = table[option]
        if kind == "text":
            found.append(value)
        elif kind == "checkpoint":
            action, eq, command = value.partition("=")
            if eq and action == "exec":
                found.append(command)
        elif kind == "ssh":
            key, command = _ssh_option(value)
            if key in _SSH_COMMAND_KEYS and command:
                found.append(command)
        elif kind == "apt":
            key, _, command = value.partition("=")
            if _APT_HOOK.fullmatch(key) and command:
                found.append(command)
        elif kind == "hg":
            key, _, command = value.partition("=")
            if _HG_COMMAND_KEY.fullmatch(key) or key.lower().startswith("alias.") and command.startswith("!"):
                found.append(command.lstrip("!"))
    return [text for text in found if text.strip()][:MAX_COMMANDS]


def option_values(args: tuple[str, ...] | list[str], table: dict[str, str]) -> list[tuple[str, str]]:
    """(option, value) for each option of `table` among `args`: `--opt=v`, `--opt v`, `-ov`, `-o v`,
    and a short option closing a cluster (`rsync -avze CMD`)."""
    found: list[tuple[str, str]] = []
    i = 0
    while i < len(args):
        arg = args[i]
        following = args[i + 1] if i + 1 < len(args) else None
        i += 1
        if arg == "--" or not arg.startswith("-") or arg == "-":
            continue
        if arg.startswith("--"):
            head, eq, value = arg.partition("=")
            if head in table:
                if eq:
                    found.append((head, value))
                elif following is not None:
                    found.append((head, following))
                    i += 1
            continue
        if arg in table:
            if following is not None:
                found.append((arg, following))
                i += 1
            continue
        for option in table:
            if option.startswith("--") or not arg.startswith(option):
                continue
            value = arg[len(option) :]
            found.append((option, value[1:] if value.startswith("=") and len(option) > 2 else value))
            break
        else:
            letters = arg[1:]
            if len(letters) > 1 and letters.isalpha() and "-" + letters[-1] in table and following is not None:
                found.append(("-" + letters[-1], following))
                i += 1
    return found


def _ssh_option(value: str) -> tuple[str, str]:
    """`Key=Value` or `Key Value` of an ssh `-o` option, the key lower-cased."""
    match = re.match(r"\s{0,8}([A-Za-z]{1,40})\s{0,8}(?:=|\s)\s{0,8}(.*)", value, re.S)
    return (match.group(1).lower(), match.group(2)) if match is not None else ("", "")


def _git_value(key: str, value: str) -> str | None:
    """The command line a git configuration setting runs, or None."""
    key = key.strip()
    if _GIT_BANG_KEY.fullmatch(key):
        return value[1:] if value.startswith("!") else None
    if _GIT_COMMAND_KEY.fullmatch(key) and value.strip().lower() not in _BOOLEANS:
        return value
    return None


def git_commands(args: tuple[str, ...], env: dict[str, str]) -> list[str]:
    """Command lines given to git by `-c key=value`, `--config-env=key=VARIABLE` and `git config key value`."""
    found: list[str] = []
    i = 0
    while i < len(args):
        arg = args[i]
        following = args[i + 1] if i + 1 < len(args) else None
        i += 1
        setting = None
        if arg in ("-c", "--config-env") and following is not None:
            setting, i = following, i + 1
            if arg == "--config-env":
                key, _, variable = setting.partition("=")
                setting = key + "=" + env.get(variable, "")
        elif arg.startswith("-c") and len(arg) > 2:
            setting = arg[2:]
        elif arg.startswith("--config-env="):
            key, _, variable = arg.partition("=")[2].partition("=")
            setting = key + "=" + env.get(variable, "")
        elif arg in ("-C", "--git-dir", "--work-tree", "--namespace", "--exec-path"):
            i += 1
            continue
        elif not arg.startswith("-"):
            if arg == "config":
                found.extend(_git_config(args[i:]))
            found.extend(_ext_command(word) for word in args[i:] if word.startswith("ext::"))
            break
        if setting is not None:
            key, _, value = setting.partition("=")
            command = _git_value(key, value)
            if command is not None:
                found.append(command)
    return [text for text in found if text.strip()][:MAX_COMMANDS]


def _ext_command(url: str) -> str:
    """The command of git's `ext::` transport (`ext::sh -c rm% -rf% /`) as a shell line: words split at
    unescaped spaces, `% ` a space inside a word, `%%` a percent sign, `%s`/`%S`/`%G`/`%V` what git fills in."""
    words = re.split(r"(?<!%) ", url[5:])
    return " ".join(shlex.quote(re.sub(r"%(.)", lambda m: {" ": " ", "%": "%"}.get(m.group(1), "x"), word))
                    for word in words if word)


_CONFIG_VALUED = frozenset({"-f", "--file", "--blob", "--type", "--default", "--comment"})


def _git_config(args: tuple[str, ...]) -> list[str]:
    """`git config [options] KEY VALUE` (and `git config set KEY VALUE`)."""
    words: list[str] = []
    i = 0
    while i < len(args):
        arg = args[i]
        i += 1
        if arg in _CONFIG_VALUED:
            i += 1
        elif arg.startswith("-"):
            if arg in ("--get", "--get-all", "--get-regexp", "--list", "-l", "--unset", "--unset-all", "-e", "--edit"):
                return []
        else:
            words.append(arg)
    if words[:1] in (["set"], ["add"]):
        words = words[1:]
    if len(words) >= 2:
        command = _git_value(words[0], words[1])
        return [command] if command is not None else []
    return []


def _split(value: str) -> list[str]:
    try:
        return shlex.split(value)[:MAX_COMMANDS]
    except ValueError:
        return value.split()[:MAX_COMMANDS]


_ASSIGNMENT = re.compile(r"\s{0,8}(?:(?:export|override|private)\s{1,8})*([A-Za-z_][\w.-]{0,80})\s{0,8}(::?=|:::=|\?=|\+=|!=|=)\s{0,8}(.*)", re.S)
_RULE = re.compile(r"[^:#=\t][^:#=]{0,400}?::?(?!=)[^;=\n]{0,400};(.*)", re.S)
_MAKE_SHELL = re.compile(r"\$[({]shell\s{1,8}([^(){}]{1,4000})[)}]")
_MAKE_VARIABLE = re.compile(r"\$(?:\(([A-Za-z_][\w.-]{0,80})\)|\{([A-Za-z_][\w.-]{0,80})\}|([A-Za-z_@<^*?]))")


def makefile_commands(text: str) -> list[str]:
    """The shell commands a makefile runs: its recipe lines (after a tab, or after `;` on a rule line),
    `!=` assignments and `$(shell …)` calls, with simple variables it defines filled in."""
    text = text[:MAX_SOURCE].replace("\\\n", " ")
    variables: dict[str, str] = {}
    found: list[str] = []
    for line in text.split("\n")[:MAX_LINES]:
        if line.startswith("\t"):
            found.append(_make_expand(line.strip().lstrip("@-+ \t"), variables))
            continue
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        assignment = _ASSIGNMENT.fullmatch(line)
        if assignment is not None:
            name, operator, value = assignment.groups()
            value = _make_expand(value.strip(), variables)
            if operator == "!=":
                found.append(value)
            elif operator == "+=":
                variables[name] = (variables.get(name, "") + " " + value).strip()
            elif operator != "?=" or name not in variables:
                variables[name] = value
            continue
        rule = _RULE.fullmatch(line)
        if rule is not None:
            found.append(_make_expand(rule.group(1).strip().lstrip("@-+ \t"), variables))
    found.extend(_make_expand(match.group(1), variables) for match in _MAKE_SHELL.finditer(text))
    return [command for command in dict.fromkeys(found) if command.strip()][:MAX_COMMANDS]


def _make_expand(text: str, variables: dict[str, str]) -> str:
    """`$(NAME)`, `${NAME}` and `$N` of the makefile's own variables filled in (twice, for one level of
    nesting); `$$` is a dollar sign the shell sees."""
    if "$" not in text:
        return text
    text = text.replace("$$", "\x00")
    for _ in range(2):
        text = _MAKE_VARIABLE.sub(lambda m: variables.get(m.group(1) or m.group(2) or m.group(3), m.group(0)), text)
    return text.replace("\x00", "$")


_CRON_ENVIRONMENT = re.compile(r"[A-Za-z_]\w{0,80}\s{0,8}=")
_CRON_PERCENT = re.compile(r"(?<!\\)%")


def crontab_commands(text: str, users: bool = False) -> list[str]:
    """The command of each crontab line (after five time fields or an `@reboot`-style nickname, and the
    user in a system table such as `/etc/crontab` when `users`); cron ends it at the first unescaped `%`."""
    found: list[str] = []
    extra = 1 if users else 0
    for line in text[:MAX_SOURCE].split("\n")[:MAX_LINES]:
        line = line.strip()
        if not line or line.startswith("#") or _CRON_ENVIRONMENT.match(line):
            continue
        parts = line.split(None, 1 + extra) if line.startswith("@") else line.split(None, 5 + extra)
        if len(parts) != (2 + extra if line.startswith("@") else 6 + extra):
            continue
        command = _CRON_PERCENT.split(parts[-1], 1)[0].replace("\\%", "%")
        if command.strip():
            found.append(command)
    return found[:MAX_COMMANDS]


_TCL_SWITCHES = {
    "exec": frozenset({"-ignorestderr", "-keepnewline", "--"}),
    "spawn": frozenset({"-noecho", "-console", "-nottycopy", "-nottyinit", "-pty", "-open", "-leaveopen", "-ignore", "--"}),
}
_TCL_OPERATORS = re.compile(r"\|&?|[<>]{1,2}@?\S{0,40}|2>@?\S{0,40}|&")


_SHELLS = frozenset("sh bash zsh dash ksh ash fish tcsh csh".split())


def tcl_commands(text: str) -> list[str]:
    """Shell command lines a Tcl or expect script starts: `exec` and `spawn` (an argv, with Tcl's
    `|` pipes and redirections), expect's `system` (shell text), `open "|cmd …"`, and what `send`
    types into a shell it spawned; commands inside `[…]` substitutions, braces and `eval` are read too,
    reading at most `MAX_TCL_READ` characters in all (nested bodies are read again)."""
    found: list[str] = []
    todo = [text[:MAX_SOURCE]]
    seen = 0
    shell = False
    budget = MAX_TCL_READ
    while todo and seen < MAX_LINES and budget > 0:
        source = todo.pop()[:budget]
        budget -= len(source) + 1
        for words, nested in _tcl_script(source):
            seen += 1
            todo.extend(nested)
            if not words:
                continue
            head = words[0]
            if head in ("exec", "spawn", "exp_spawn"):
                switches = _TCL_SWITCHES["spawn" if head == "exp_spawn" else head]
                rest = words[1:]
                while rest and rest[0] in switches:
                    rest = rest[1:]
                if rest:
                    found.append(" ".join(w if _TCL_OPERATORS.fullmatch(w) else shlex.quote(w) for w in rest))
                    shell = shell or head != "exec" and rest[0].rsplit("/", 1)[-1] in _SHELLS
            elif head == "system" and len(words) > 1:
                found.append(" ".join(words[1:]))
            elif head == "open" and len(words) > 1 and words[1].startswith("|"):
                found.append(" ".join(shlex.quote(w) for w in _tcl_list(words[1][1:])))
            elif head in ("send", "exp_send") and shell and len(words) > 1:
                found.append(words[-1].replace("\r", "\n"))
            elif head in ("eval", "uplevel"):
                todo.append(" ".join(words[1:]))
            elif head in ("if", "while", "for", "foreach", "proc", "catch", "after", "expect", "interact", "switch",
                          "try"):
                todo.extend(w for w in words[1:] if any(ch in w for ch in " \n;["))
            if len(found) >= MAX_COMMANDS:
                return found
    return found


def _tcl_script(text: str) -> list[tuple[list[str], list[str]]]:
    """Splits Tcl source into commands of words (braces and quotes grouping, `;` and newlines
    ending a command); with each command, the texts of the `[…]` substitutions in its words."""
    commands: list[tuple[list[str], list[str]]] = []
    words: list[str] = []
    nested: list[str] = []
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch in " \t\r":
            i += 1
            continue
        if ch in "\n;":
            commands.append((words, nested))
            words, nested = [], []
            i += 1
            continue
        if ch == "#" and not words:
            end = text.find("\n", i)
            i = n if end == -1 else end
            continue
        if ch == "{":
            end = _closing(text, i, "{", "}")
            words.append(text[i + 1 : end])
            i = end + 1
            continue
        if ch == '"':
            end = i + 1
            while end < n and text[end] != '"':
                end += 2 if text[end] == "\\" else 1
            word = text[i + 1 : end]
            nested.extend(_brackets(word))
            words.append(_tcl_unescape(word))
            i = end + 1
            continue
        end = i
        while end < n and text[end] not in " \t\r\n;":
            if text[end] == "[":
                end = _closing(text, end, "[", "]") + 1
                continue
            end += 2 if text[end] == "\\" else 1
        word = text[i:end]
        nested.extend(_brackets(word))
        words.append(_tcl_unescape(word))
        i = end
    commands.append((words, nested))
    return commands


def _closing(text: str, start: int, opening: str, closing: str) -> int:
    """The index of the bracket closing the one at `start` (or the end of the text)."""
    depth = 0
    i = start
    while i < len(text):
        ch = text[i]
        if ch == "\\":
            i += 2
            continue
        if ch == opening:
            depth += 1
        elif ch == closing:
            depth -= 1
            if depth == 0:
                return i
        i += 1
    return len(text)


def _brackets(word: str) -> list[str]:
    """The command texts of the `[…]` substitutions in a word."""
    found: list[str] = []
    start = word.find("[")
    while start != -1 and len(found) < MAX_COMMANDS:
        end = _closing(word, start, "[", "]")
        found.append(word[start + 1 : end])
        start = word.find("[", end)
    return found


def _tcl_unescape(word: str) -> str:
    return re.sub(r"\\(.)", lambda m: {"n": "\n", "t": "\t", "r": "\r"}.get(m.group(1), m.group(1)), word) if "\\" in word else word


def _tcl_list(text: str) -> list[str]:
    words = [w for w, _ in _tcl_script(text)[:1]]
    return words[0] if words else []


_PSQL = re.compile(r"\\!\s{0,8}([^\n]{1,4000})|(?i:\bprogram)\s{1,8}'((?:[^']|''){1,4000})'|\\[ogw]\s{0,8}\|\s{0,8}([^\n]{1,4000})")
_MYSQL = re.compile(r"(?:^|[;\n])\s{0,8}(?:system|\\!|pager|\\P)\s{1,8}([^\n]{1,4000})", re.I)
_SQLITE = re.compile(r"(?:^|\n)\s{0,8}\.(?:shell|system)\s{1,8}([^\n]{1,4000})"
                     r"|(?:^|\n)\s{0,8}\.(?:once|output|excel)\s{1,8}(?:-\w{1,8}\s{1,8}){0,3}['\"]?\|([^\n'\"]{1,4000})")


def client_commands(program: str, text: str) -> list[str]:
    """Shell command lines in the commands a database client reads: psql's `\\!`, `\\o |cmd` and
    `COPY … PROGRAM '…'`, mysql's `system`, `\\!` and `pager`, sqlite3's `.shell`, `.system` and
    `.once |cmd`."""
    text = text[:MAX_SOURCE]
    found: list[str] = []
    if program == "psql":
        for match in _PSQL.finditer(text):
            found.append(match.group(1) or (match.group(2) or "").replace("''", "'") or match.group(3) or "")
    elif program in ("mysql", "mariadb"):
        found.extend(match.group(1).rstrip().rstrip(";") for match in _MYSQL.finditer(text))
    elif program == "sqlite3":
        for match in _SQLITE.finditer(text):
            if match.group(1):
                found.append(" ".join(_split(match.group(1))))
            else:
                found.append(match.group(2))
    return [command for command in found if command.strip()][:MAX_COMMANDS]


def client_scripts(program: str, args: tuple[str, ...]) -> list[str]:
    """The command texts a database client is given on its command line: psql `-c`, mysql `-e`,
    sqlite3's `-cmd` and the arguments after the database file."""
    if program == "psql":
        return [value for _option, value in option_values(args, {"-c": "", "--command": ""})]
    if program in ("mysql", "mariadb"):
        return [value for _option, value in option_values(args, {"-e": "", "--execute": ""})]
    found = [value for _option, value in option_values(args, {"-cmd": ""})]
    operands = [arg for arg in args if not arg.startswith("-") and arg not in found]
    return found + operands[1:]


_EX_SHELL = re.compile(r"\s{0,8}:?\s{0,8}[\d.,$%'<>]{0,20}\s{0,8}(?:sil(?:ent)?!?\s{0,8})?"
                       r"(?:r(?:ead)?|w(?:rite)?|\d{0,9})?\s{0,8}!\s{0,8}(.{1,4000})", re.S)
_EX_TERMINAL = re.compile(r"\s{0,8}:?\s{0,8}(?:sil(?:ent)?!?\s{1,8})?ter(?:m|mi|min|mina|minal)?!?\s{1,8}(?:\+\+\w{1,20}\s{1,8}){0,4}(.{1,4000})", re.S)
_EX_EXECUTE = re.compile(r"\s{0,8}:?\s{0,8}(?:sil(?:ent)?!?\s{1,8})?exe(?:c|cu|cut|cute)?\s{1,8}(['\"])(.{1,4000})\1\s{0,8}", re.S)
_GDB_SHELL = re.compile(r"\s{0,8}(?:shell\b|!)\s{0,8}(.{1,4000})", re.S)
_GDB_PIPE = re.compile(r"\s{0,8}(?:pipe\b|\|)[^|]{0,400}\|\s{0,8}(.{1,4000})", re.S)
_GDB_PYTHON = re.compile(r"\s{0,8}(?:python|py|pi|python-interactive)\b\s{0,8}(.{1,4000})", re.S)


def editor_commands(family: str, command: str) -> tuple[list[str], list[str]]:
    """(shell command lines, code) one editor or debugger command runs: vim's `:!cmd`, `:r !cmd`,
    `:terminal cmd` and `:execute "!cmd"`; gdb's `shell`, `!`, `pipe … | cmd` and `python …`. Anything
    else is returned as code, so calls such as `system("…")` in it are read as a payload."""
    if family == "gdb":
        for pattern in (_GDB_SHELL, _GDB_PIPE):
            match = pattern.match(command)
            if match is not None:
                return [match.group(1)], []
        match = _GDB_PYTHON.match(command)
        return [], [match.group(1) if match is not None else command]
    execute = _EX_EXECUTE.match(command)
    if execute is not None:
        command = execute.group(2)
    for pattern in (_EX_SHELL, _EX_TERMINAL):
        match = pattern.match(command)
        if match is not None:
            return [match.group(1)], []
    return [], [command]


_LATER_SCRIPT = re.compile(
    r"~/\.(?:bashrc|bash_profile|bash_login|bash_logout|profile|zshrc|zprofile|zshenv|zlogin|zlogout|kshrc|mkshrc"
    r"|xprofile|xinitrc|xsession|config/fish/config\.fish|ssh/rc)"
    r"|/etc/(?:profile|profile\.d/[^/]{1,200}|bash\.bashrc|bashrc|zsh/[^/]{1,200}|zshrc|zprofile|rc\.local"
    r"|init\.d/[^/]{1,200}|cron\.(?:hourly|daily|weekly|monthly)/[^/]{1,200}|update-motd\.d/[^/]{1,200}"
    r"|NetworkManager/dispatcher\.d/[^/]{1,200}|X11/Xsession\.d/[^/]{1,200})"
    r"|(?:[^\n]{0,400}/)?\.git/hooks/[^/]{1,200}"
)
_LATER_SYSTEM_TABLE = re.compile(r"/etc/(?:crontab|cron\.d/[^/]{1,200})")
_LATER_USER_TABLE = re.compile(r"/var/spool/cron/(?:crontabs/)?[^/]{1,200}")
_LATER_UNIT = re.compile(r"(?:~/\.config|/etc|/usr/lib|/lib)/systemd/[^\n]{1,400}\.service|(?:~/\.config|/etc/xdg)/autostart/[^/]{1,200}\.desktop")
_UNIT_EXEC = re.compile(r"(?m)^\s{0,8}(?:Exec(?:Start(?:Pre|Post)?|Stop(?:Post)?|Reload)?|ExecCondition)\s{0,8}=\s{0,8}[-@:+!]{0,4}(.{1,4000})$")


_LATER_HINT = re.compile(r"rc\b|profile|cron|init\.d|hooks/|systemd|autostart|motd|dispatcher|Xsession|log(?:in|out)|zshenv"
                         r"|xinit|xsession|config\.fish|config\b|gitconfig")


def later_hint(redirects) -> bool:
    """A cheap first look: does some redirection target look like a file that something runs later?"""
    for redirect in redirects:
        if _LATER_HINT.search(redirect.target) is not None:
            return True
    return False


def later_commands(path: str, text: str) -> list[str]:
    """The commands a file written with `text` makes something run later: a shell start-up file, a cron
    script or init script (the text is shell code), a cron table (its lines' commands), a systemd unit
    or autostart entry (its `Exec…=` lines), a git or ssh configuration (settings that run programs).
    `path` is folded (`~` for any home)."""
    if _LATER_SCRIPT.fullmatch(path):
        return [text]
    if _LATER_SYSTEM_TABLE.fullmatch(path):
        return crontab_commands(text, users=True)
    if _LATER_USER_TABLE.fullmatch(path):
        return crontab_commands(text)
    if _LATER_UNIT.fullmatch(path):
        return [match.group(1) for match in _UNIT_EXEC.finditer(text[:MAX_SOURCE])][:MAX_COMMANDS]
    if _LATER_GIT_CONFIG.fullmatch(path):
        return git_file_commands(text)
    if _LATER_SSH_CONFIG.fullmatch(path):
        return ssh_config_commands(text)
    return []


_LATER_GIT_CONFIG = re.compile(r"(?:[^\n]{0,400}/)?\.git/config|(?:[^\n]{0,400}/)?\.gitconfig|~/\.config/git/config|/etc/gitconfig")
_LATER_SSH_CONFIG = re.compile(r"~/\.ssh/config|/etc/ssh/ssh_config(?:\.d/[^/]{1,200})?")
_GIT_SECTION = re.compile(r"\[\s{0,8}([\w.-]{1,80})(?:\s{1,8}\"((?:[^\"\\]|\\.){0,200})\")?\s{0,8}\]")


def git_file_commands(text: str) -> list[str]:
    """The command lines a git configuration file's settings run (`[core] pager = …`, `[alias] x = !…`)."""
    found: list[str] = []
    section = ""
    for line in text[:MAX_SOURCE].split("\n")[:MAX_LINES]:
        line = line.strip()
        header = _GIT_SECTION.match(line)
        if header is not None:
            section = header.group(1) + ("." + header.group(2) if header.group(2) is not None else "")
            line = line[header.end() :].strip()
        if not line or line[0] in "#;" or "=" not in line or not section:
            continue
        key, _, value = line.partition("=")
        value = value.strip()
        if len(value) > 1 and value[0] == value[-1] == '"':
            value = value[1:-1]
        command = _git_value(section + "." + key.strip(), value)
        if command is not None:
            found.append(command)
    return found[:MAX_COMMANDS]


_SSH_CONFIG_LINE = re.compile(r"(?im)^\s{0,16}(proxycommand|localcommand|knownhostscommand|remotecommand)\s{0,8}(?:=|\s)\s{0,8}(.{1,4000})$")


def ssh_config_commands(text: str) -> list[str]:
    """The commands an ssh configuration runs (`ProxyCommand`, `LocalCommand`, `KnownHostsCommand`, `RemoteCommand`)."""
    return [match.group(2) for match in _SSH_CONFIG_LINE.finditer(text[:MAX_SOURCE])][:MAX_COMMANDS]
