"""Windows command lines for the analyser: PowerShell and cmd.exe readings, and the code they hand on.

Text that names a Windows program or cmdlet, an environment root (`%SystemRoot%`, `$env:…`) or a
drive path is read three ways: as PowerShell (`engine/gate/shell/powershell.py`), as cmd.exe
(`engine/gate/shell/cmdexe.py`) and as bash, as before. Every rule any reading fires counts. The
text is proven read-only when one Windows reading proves all its commands, and every program the
other readings would start is one that reading proved (`Get-Date `x`` starts `x` in bash, which
PowerShell never sees: not proven).

The PowerShell reading resolves aliases (`ri` is `Remove-Item`), environment roots, variables
set to literals or to a listing (`$p = gci C:\\`), module-qualified names, and what a pipeline
sink acts on: `gci C:\\ -r | ri -fo` removes `C:\\` recursively, `gwmi Win32_ShadowCopy | % {
$_.Delete() }` deletes shadow copies. Script blocks, subexpressions and keyword bodies are read
as code; `Invoke-Expression` of a literal, `[ScriptBlock]::Create('…')`, `FromBase64String`
literals, `powershell -EncodedCommand` (base64 of UTF-16LE), `-Command` and `cmd /c` payloads
are read again one level deeper.
"""

from __future__ import annotations

import base64
import binascii
import posixpath
import re
import threading
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from engine.gate import paths, winpath
from engine.gate.memo import per_word
from engine.gate.packs import network as netpack
from engine.gate.packs import powershell as pspack
from engine.gate.packs import windows as winpack
from engine.gate.packs.model import Findings, Hit
from engine.gate.shell import cmdexe, powershell, pspaths
from engine.gate.shell.decode import simulate
from engine.gate.shell.parse import Redirect, SimpleCommand
from engine.gate.shell import reads
from engine.gate.shell.reads import SECRET_VARIABLE
from engine.gate.shell.view import basename
from engine.gate.text import normalise

if TYPE_CHECKING:
    from engine.gate.shell.analyse import Analyser

FOLLOWS = frozenset({"powershell", "pwsh", "powershell_ise", "cmd", "wsl"})
# Words bash takes for a program in PowerShell text (`-MaxEvents` after a `;` inside `@{…}`) that no
# search path holds.
_NOT_PROGRAMS = ("-", "{", "}", "@")
# Syntax only cmd.exe gives meaning to: `%VAR%`, `%%i`, `^`, `for /…`, `if exist`, switches on built-ins.
_CMD_EVIDENCE = re.compile(
    r"(?i)%[^%\s]{1,80}%|%%?~?[a-z0-9]\b|\^|(?:^|[&|(]\s*)@?(?:for\s+(?:/[dlrf]\s+)?%|if\s+(?:/i\s+)?(?:not\s+)?"
    r"(?:exist|defined|errorlevel)\b|echo\s+off\b|rem\s)|(?:^|[&|(]\s*)@?(?:del|erase|rd|rmdir|dir|copy|move|xcopy"
    r"|type|md|mkdir)(?:\s[^&|\n]{0,200})?\s/[a-z]\b|\b(?:rd|del)/[a-z]")
MAX_NESTING = 12
MAX_CALLS = 32
# Characters the method-call reading may scan for arguments in one PowerShell reading: nested calls rescan
# their enclosing text, so a deep nest costs the square of its length. Past it, calls are dangerous unread.
CALL_BUDGET = 60_000
_UNIX = frozenset("cat cd chdir clear cp curl diff echo history kill ls man mount mv popd ps pushd pwd rm rmdir sleep sort"
                  " tee type wget write help mkdir h r set select group measure compare dir fc lp find more tree hostname"
                  " whoami date time path at expand format where cpp for if do done then else elif fi while until case"
                  " esac function in exit shift break continue return".split()) | frozenset(
    "gm gp r lp".split())
# PowerShell aliases that are also Unix programs able to write or run code (GraphicsMagick's `gm`, PARI's
# `gp`, R's `r`, `lp`): bash would run that program, so a PowerShell proof of the alias says nothing about it.
_LOOKALIKES = frozenset("gm gp r lp cpp".split())
_VERBS = ("add|approve|assert|backup|block|build|checkpoint|clear|close|compare|complete|compress|confirm|connect|convert"
          "|convertfrom|convertto|copy|debug|deny|deploy|disable|disconnect|dismount|edit|enable|enter|exit|expand|export"
          "|find|format|foreach|get|grant|group|hide|import|initialize|install|invoke|join|limit|lock|measure|merge|mount"
          "|move|new|open|optimize|out|ping|pop|protect|publish|push|read|receive|redo|register|remove|rename|repair"
          "|request|reset|resize|resolve|restart|restore|resume|revoke|save|search|select|send|set|show|skip|split"
          "|start|step|stop|submit|suspend|switch|sync|test|trace|unblock|undo|uninstall|unlock|unprotect|unpublish"
          "|unregister|update|use|wait|watch|where|write")
_CMDLET = re.compile(rf"(?i)(?:{_VERBS})-[a-z][a-z0-9]{{1,60}}")
_SEPARATORS = re.compile(r"[;&|\n({]")
_BASH_CODE = re.compile(r"`|\$[({']|[<>]\(|<<|\\[\s'\"]")
_CMD_OPERATORS = re.compile(r"[&^%()<>]")
_PLAIN = re.compile(r"[\w./:=, -]{1,2000}")
_PLAIN_WINDOWS = re.compile(r"[\w./:=, \\*-]{1,2000}")
_PLAIN_PIPELINE = re.compile(r"[\w./:=, |;-]{1,2000}")
_PROGRAM = re.compile(r"(?:^|[;&|\n({])[ \t]*@?(?:[&.][ \t]+)?[\"']?([\w.:\\/%$-]{1,200})")
_WORD = re.compile(r"[\"']?([\w.:\\/%$-]{1,200})")
_UNC = re.compile(r"\\\\[?.]\\|\\\\[\w.-]{1,100}\\[\w$]")
_SPLIT = re.compile(r"[;&|\n({]")
_MEMBER_STATEMENT = re.compile(r"\s{0,8}\$\w{1,100}\.\w")
_PERCENT_HINT = re.compile(r"%[A-Za-z_][\w()]{2,40}%")
_DOLLAR_HINT = re.compile(r"\$(?:\{?[Ee][Nn][Vv]:|(?i:psversiontable|pshome|psitem)|_\.)")
_TYPE_HINT = re.compile(r"\[[A-Za-z][\w.]{0,100}\]\s{0,4}::")
# A Unix name that PowerShell aliases (rm, rmdir, kill) given a parameter no Unix version takes
# (`rmdir $HOME -R`, `rm ~ -Recurse`, `kill -Name MsMpEng`): PowerShell would run it.
_POWERSHELL_STYLE = re.compile(
    r"(?:^|[;&|({]\s{0,4})(?:(?i:rm)\b[^;&|\n]{0,300}?\s-(?!-)[A-Za-z]*[^rRfidIv\s\d-][A-Za-z]*(?=\s|$|:)"
    r"|(?i:rmdir)\b[^;&|\n]{0,300}?\s-(?!-)(?![pv](?:\s|$))[A-Za-z]"
    r"|(?i:kill)\b[^;&|\n]{0,300}?\s-(?![sl]\s)(?=[A-Za-z]*[a-z])[A-Za-z]{2,})")
_ALIASED_UNIX = frozenset({"rm", "rmdir", "kill"})
_SYSTEM_DIRS = frozenset({"c:/windows", "c:/windows/system32", "c:/windows/syswow64", "c:/windows/sysnative",
                          "c:/windows/system32/windowspowershell/v1.0", "c:/windows/syswow64/windowspowershell/v1.0",
                          "c:/windows/system32/wbem", "c:/program files/powershell/7",
                          "c:/program files/windows defender"})
_LISTERS = frozenset({"get-childitem", "get-item", "get-wmiobject", "get-ciminstance", "get-process", "get-service",
                      "get-localuser", "get-aduser", "get-adcomputer", "get-disk", "get-partition", "get-volume",
                      "get-eventlog", "get-winevent", "get-itemproperty", "get-physicaldisk", "get-virtualdisk",
                      "get-scheduledtask", "get-netfirewallrule", "get-netfirewallprofile", "get-localgroupmember"})
_PASSES = frozenset({"where-object", "sort-object", "select-object", "out-host", "tee-object"})
_SINKS = frozenset({"remove-item", "clear-content", "clear-item", "remove-itemproperty", "clear-itemproperty",
                    "set-content", "add-content", "move-item", "rename-item", "remove-ciminstance", "remove-wmiobject",
                    "stop-service", "set-service", "remove-service", "suspend-service", "stop-process",
                    "remove-localuser", "remove-aduser", "remove-adcomputer", "format-volume", "clear-disk",
                    "remove-partition", "initialize-disk", "remove-virtualdisk", "clear-eventlog", "remove-eventlog",
                    "disable-netfirewallrule", "remove-netfirewallrule", "set-netfirewallprofile",
                    "unregister-scheduledtask", "remove-localgroupmember", "enable-localuser", "disable-localuser",
                    "set-localuser"})
_BLOCK_RUNNERS = frozenset({"foreach-object", "where-object"})
_NETWORK = frozenset({"invoke-webrequest", "invoke-restmethod", "send-mailmessage", "start-bitstransfer",
                      "resolve-dnsname", "test-connection", "test-netconnection", "send-smtpmessage"})
# Programs whose script or pattern a POSIX shell hands over in single quotes (`awk '$2 > max'`, `sed -n '/>/p'`): no
# Windows shell has them, so a `>` inside those quotes is part of the script, as bash reads it, not cmd.exe's redirection.
_POSIX_SCRIPTED = frozenset("awk gawk mawk nawk busybox sed gsed grep egrep fgrep zgrep rg ag jq yq gojq perl ruby node"
                            " python python3 php bash sh dash zsh ksh printf xargs find".split())
# Windows programs that send a local file elsewhere (`bitsadmin /transfer … /upload`, a copy onto another host's share).
_UPLOADERS = frozenset({"bitsadmin", "copy", "xcopy", "robocopy", "copy-item", "move-item", "move"})
_LOCATION = {"set-location": "cd", "push-location": "pushd", "pop-location": "popd"}
_CALL = re.compile(r"(?i)(\[[\w.`]{1,200}\](?:\s{0,4}::\s{0,4}\w{1,100})*|\$[\w:]{1,100}|\))?\s{0,4}(?:\.|::)\s{0,4}(\w{1,100})\s{0,4}\(")
_PURE = frozenset(
    "tostring toupper tolower toupperinvariant tolowerinvariant trim trimstart trimend split replace substring contains"
    " startswith endswith indexof lastindexof padleft padright equals compareto gettype gethashcode format join"
    " isnullorempty isnullorwhitespace round floor ceiling abs max min pow sqrt log parse tryparse adddays addhours"
    " addminutes addseconds addmonths addyears tostring toshortdatestring tolongdatestring tofiletime touniversaltime"
    " tolocaltime getenumerator where foreach insert remove normalize tochararray exists getfiles getdirectories"
    " getfilesystementries enumeratefiles enumeratedirectories getfolderpath gettemppath getcurrentdirectory combine"
    " getfilename getfilenamewithoutextension getextension getdirectoryname getfullpath changeextension newguid"
    " matches match ismatch escape unescape getbytes getstring tobase64string frombase64string toarray count sum"
    " average tojson tostring getlength getvalue get_item containskey containsvalue getproperty getmethods"
    " getproperties getmembers readalltext readalllines readallbytes getlastwritetime getcreationtime"
    " getattributes getaccesscontrol getlogicaldrives getdrives getvolumelabel isdefined getnames getvalues"
    " clone invoke getawaiter" .split())
_GLOB = re.compile(r"[*?\[]")
_UPLOADS = frozenset({"uploadfile", "uploadstring", "uploaddata", "uploadvalues", "uploadfileasync",
                      "uploadstringasync", "uploaddataasync", "uploadvaluesasync", "uploadfiletaskasync"})
_READS = frozenset({"readalltext", "readalllines", "readallbytes", "getaccesscontrol", "openread", "opentext"})
_TRUE = frozenset({"$true", "1", "true"})
_HOOKS = re.compile(r"(?i)path|pathext|psmodulepath|comspec|home|userprofile|appdata|localappdata|temp|tmp|psexecutionpolicypreference"
                    r"|__pslockdownpolicy|cor_enable_profiling|cor_profiler(?:_path)?|coreclr_\w+|dotnet_\w+")


def applies(text: str) -> bool:
    """The text names a Windows program or cmdlet, an environment root or a drive path, and
    reads differently as Windows text than as bash.

    Most text is one Unix command: only its first word is looked at, and each check for
    environment roots and drive paths runs only when a character it needs is there. Plain
    words naming no alias or cmd.exe built-in (`ipconfig /all`, `Get-Volume`) read the same
    in bash's fast path, with the same rules and proofs: no second reading."""
    if _hinted(text):
        return True
    if _SEPARATORS.search(text) is None:
        first = text.split(None, 1)
        if first and first[0].lower() in _ALIASED_UNIX and " -" in text and _POWERSHELL_STYLE.match(text):
            return True
        if not first or not _windows_name(first[0].lstrip("@&").strip("'\"")):
            return False
        word = first[0].lower()
        return (_PLAIN.fullmatch(text) is None or "/" in word or word.endswith(".exe") or word in powershell.ALIASES
                or word in cmdexe.BUILTINS)
    lower = text.lower()
    if " -" in text and ("rm" in lower or "kill" in lower) and _POWERSHELL_STYLE.search(text) is not None:
        return True
    words = [_first_word(piece) for piece in _SPLIT.split(text)]
    if not any(word and _windows_name(word) for word in words):
        return False
    return _PLAIN_PIPELINE.fullmatch(text) is None or not all(
        _same_in_bash(word, index) for index, word in enumerate(w for w in words if w))


def _hinted(text: str) -> bool:
    """A drive path (`C:\\`, `C:/`), a UNC or device path, `%VAR%`, `$env:`, `[Type]::` or the `env:` drive.

    Written as `str.find` loops: patterns that start with a look-behind cost microseconds on every
    text, and most text has none of these characters."""
    if "\\" in text:
        for at in _occurrences(text, ":\\"):
            if _drive_letter(text, at):
                return True
        if "\\\\" in text and _UNC.search(text) is not None:
            return True
    if ":/" in text:
        for at in _occurrences(text, ":/"):
            if _drive_letter(text, at) and text[at + 2:at + 3] != "/":
                return True
    if "%" in text and _PERCENT_HINT.search(text) is not None:
        return True
    if "$" in text and (_DOLLAR_HINT.search(text) is not None or _MEMBER_STATEMENT.match(text) is not None):
        return True
    if "::" in text and _TYPE_HINT.search(text) is not None:
        return True
    if "nv:" in text or "NV:" in text:
        for at in _occurrences(text.lower(), "env:"):
            before = text[at - 1:at] if at else ""
            after = text[at + 4:at + 5]
            if not (before.isalnum() or before in ("$", "_", "{")) and (after in ("", "\\", "/", "*") or after.isspace()):
                return True
    return False


def _occurrences(text: str, needle: str):
    at = text.find(needle)
    while at >= 0:
        yield at
        at = text.find(needle, at + 1)


def _drive_letter(text: str, colon: int) -> bool:
    """`text[colon]` is the colon of a drive: one letter before it, and no word, path or URL before that."""
    if colon < 1 or not text[colon - 1].isalpha() or not text[colon - 1].isascii():
        return False
    before = text[colon - 2] if colon >= 2 else ""
    return not (before.isalnum() or before in "_/.@:-")


def _first_word(piece: str) -> str:
    """The word in command position of one separated piece (`& 'x'`, `. x`, `@echo` allowed for)."""
    head = piece.lstrip(" \t@")
    if head[:1] in ("&", ".") and head[1:2] in (" ", "\t"):
        head = head[1:].lstrip(" \t")
    word = _WORD.match(head)
    return word.group(1) if word is not None else ""


def _same_in_bash(word: str, index: int) -> bool:
    """A program word bash's fast reading treats as PowerShell would: a full cmdlet name (no alias to resolve)
    that is not a pipeline sink needing its source's subject, or a Windows program that is not a cmd.exe built-in."""
    lower = word.lower()
    if _CMDLET.fullmatch(lower) is not None:
        return index == 0 or lower not in _SINKS
    return lower not in powershell.ALIASES and lower not in cmdexe.BUILTINS and "/" not in lower and "." not in lower


@per_word()
def _windows_name(word: str) -> bool:
    name = basename(word)
    if name in powershell.ALIASES and not word.islower():
        return True
    return (name in WINDOWS_NAMES or "-" in name and _CMDLET.fullmatch(name) is not None
            or word.lower().endswith((".exe", ".bat", ".cmd", ".ps1", ".vbs", ".msi")))


@dataclass(slots=True)
class Binding:
    """What a variable or a pipeline's input stands for: paths or names, how it was listed."""

    texts: list[str]
    recursive: bool = False
    source: str = ""


@dataclass(slots=True)
class Trail:
    """What the commands of one call left behind for the ones after them, in every reading and at every depth
    (`cmd /c "set > e.txt" & curl -F f=@e.txt …`): accounts created or switched on, files written from secrets."""

    accounts: set[str] = field(default_factory=set)
    files: dict[str, str] = field(default_factory=dict)


_LOCAL = threading.local()


def _trails() -> list[Trail]:
    """The trails of the calls this thread is reading (one per outermost Windows reading)."""
    stack = getattr(_LOCAL, "trails", None)
    if stack is None:
        stack = _LOCAL.trails = []
    return stack


def _trail() -> Trail:
    stack = _trails()
    return stack[-1] if stack else Trail()


@dataclass(slots=True)
class Reading:
    """One reading's findings, the programs it started, and whether it could read all of the text."""

    findings: Findings
    seen: set[str] = field(default_factory=set)
    ok: bool = True
    written: dict[str, str] = field(default_factory=dict)
    evidence: bool = False
    accounts: set[str] = field(default_factory=lambda: _trail().accounts)
    files: dict[str, str] = field(default_factory=lambda: _trail().files)

    def wrote(self, name: str, argv: list[str], redirects: list[Redirect], held: list[Hit]) -> None:
        """A command that had secret material in hand wrote files (an archive, a copy, an encoded dump, a
        redirection): those files hold the secret from now on."""
        if not held:
            return
        for target in [*_outputs(name, argv), *(r.target for r in redirects if r.writes)]:
            if len(self.files) < 64 and target and target != "/dev/null":
                self.files[_file_key(target)] = held[0].detail or held[0].rule.id

    def sends_file(self, argv: list[str]) -> str | None:
        """A file written from a secret earlier in the text, named among a sender's words (`-InFile k.zip`,
        `-F f=@k.zip`, `/upload … k.zip`)."""
        if not self.files:
            return None
        for word in argv[1:]:
            for candidate in (word, word.lstrip("@<"), word.partition("=")[2].lstrip("@<")):
                if candidate and _file_key(candidate) in self.files:
                    return self.files[_file_key(candidate)]
        return None

    def account(self, analyser: "Analyser", name: str, args: list[str]) -> None:
        """Remembers accounts the text creates or switches on; one of them made an administrator is a backdoor."""
        created, members = winpack.account_changes(name, args)
        if created:
            self.accounts.add(created)
        found = next((member for member in members if member in self.accounts), None)
        if found is not None:
            analyser.hit(self.findings, "win.admin-backdoor", found)


def read(analyser: "Analyser", text: str, findings: Findings, depth: int) -> None:
    """Reads `text` as PowerShell, as cmd.exe and as bash, and merges what they found into `findings`.

    Every reading's rules count, except the bash reading's complaints about Windows syntax it
    cannot parse or Windows program names it takes for local paths (the Windows readings judge
    those). The text is proven read-only when a Windows reading proves all of it and every
    program another reading would start is one it proved; a cmd.exe reading of text that is
    plainly PowerShell (and the other way round) starts nothing worth waiting for.
    """
    stack = _trails()
    outermost = not stack
    if outermost:
        stack.append(Trail())
    try:
        _read(analyser, text, findings, depth)
    finally:
        if outermost:
            stack.pop()


def _read(analyser: "Analyser", text: str, findings: Findings, depth: int) -> None:
    want_ps, want_cmd, want_bash = plan(text)
    ps = Reading(Findings(cwd=findings.cwd))
    if want_ps:
        ps.ok = _PowerShell(analyser, ps).script(text, depth)
    cmd = Reading(Findings(cwd=findings.cwd))
    if want_cmd:
        cmd.ok = _Cmd(analyser, cmd, cmdlets_read=want_ps and ps.ok).script(text, depth)
        cmd.evidence = _CMD_EVIDENCE.search(text) is not None
    if not want_ps:
        ps.ok, ps.findings.unknown = cmd.ok, list(cmd.findings.unknown)
    if not want_cmd:
        cmd.ok, cmd.findings.unknown = ps.ok, list(ps.findings.unknown)
    bash = Findings(cwd=findings.cwd)
    if want_bash:
        analyser.script(text, bash, depth, dialects=False)
    readable = ps.ok or cmd.ok
    unparsed = any(h.rule.id == "shell.unparsed" for h in bash.hits)
    findings.hits.extend(ps.findings.hits)
    findings.hits.extend(cmd.findings.hits)
    findings.hits.extend(h for h in bash.hits if not _artefact(h, readable))
    findings.globs += ps.findings.globs + cmd.findings.globs + bash.globs
    findings.cwd = ps.findings.cwd
    provers = [r for r in (ps, cmd) if r.ok and not r.findings.unknown]
    if want_bash and _posix_proof(bash, ps, cmd, unparsed):
        return
    if not provers:
        findings.unknown.extend(dict.fromkeys([*ps.findings.unknown, *cmd.findings.unknown]))
        if not readable:
            findings.unknown.append("(unreadable Windows command)")
        return
    others: list[str] = []
    if ps not in provers and not (cmd.evidence and not ps.evidence):
        others.extend(ps.findings.unknown)
    if cmd not in provers and not (ps.evidence and not cmd.evidence):
        others.extend(cmd.findings.unknown)
    if not (unparsed and "\n" not in text.strip()):
        others.extend(bash.unknown)
    lookalikes = [name for name in bash.unknown if basename(name) in _LOOKALIKES]
    seen = set().union(*(r.seen for r in provers))
    written = {**ps.written, **cmd.written}
    findings.unknown.extend(name for name in others if basename(name) not in seen
                            and written.get(basename(name)) not in seen and not name.startswith(_NOT_PROGRAMS))
    findings.unknown.extend(lookalikes)


def _posix_proof(bash: Findings, ps: Reading, cmd: Reading, unparsed: bool) -> bool:
    """Plainly POSIX text is proven by the bash reading: bash parses it and proves every command, the Windows
    readings fire no rule, and all they leave unproven is a program whose script or pattern bash passes in
    quotes (`awk -F, '$3 > 100' C:/data/x.csv`: cmd.exe would split the awk program at its spaces; the
    program is the same, only its arguments are garbled, and a garbled script fails before it reads anything)."""
    if unparsed or bash.hits or bash.unknown or ps.findings.hits or cmd.findings.hits or not (ps.ok or cmd.ok):
        return False
    left = [*ps.findings.unknown, *cmd.findings.unknown]
    return all(basename(name) in _POSIX_SCRIPTED for name in left)


def plan(text: str) -> tuple[bool, bool, bool]:
    """Which readings can tell something the others cannot: (PowerShell, cmd.exe, bash).

    bash starts nothing when every word in command position is a Windows-only name and the
    text has no substitution, process substitution or here-document (its redirections are
    PowerShell's too). cmd.exe adds nothing to a pipeline of full cmdlet names with none of
    its own operators (`&`, `^`, `%`, parentheses, redirections). Plain Windows programs with
    switches (`ipconfig /all`, no quotes, variables or aliases) read the same in both.
    """
    words = [match.group(1) for match in _PROGRAM.finditer(text)]
    names = [basename(word) for word in words]
    windows_only = bool(names) and all(_windows_name(word) and name not in _LOOKALIKES
                                       or _CMDLET.fullmatch(name) is not None for word, name in zip(words, names))
    bash = not (windows_only and _BASH_CODE.search(text) is None)
    cmdlets = all(_CMDLET.fullmatch(basename(part.split(None, 1)[0] if part.split() else "")) is not None
                  for part in text.split("|"))
    cmd = not (cmdlets and _CMD_OPERATORS.search(text) is None)
    plain = (windows_only and _PLAIN_WINDOWS.fullmatch(text) is not None
             and not any(_CMDLET.fullmatch(name) or name in cmdexe.BUILTINS or name in powershell.ALIASES
                         for name in names))
    return not plain, cmd, bash


def _artefact(hit, readable: bool) -> bool:
    """A bash-reading hit that only says the text is not bash: a parse failure, a `.exe` or `C:\\…`
    program name, `$x.Member` in command position."""
    rule_id = hit.rule.id
    if rule_id == "shell.unparsed":
        return readable
    if rule_id in ("exec.windows-script", "exec.local-program"):
        return True
    return rule_id == "exec.dynamic-command" and re.search(r"[.:\[(]", hit.detail) is not None


def read_powershell(analyser: "Analyser", text: str, findings: Findings, depth: int) -> None:
    """Reads code known to be PowerShell (a `-Command` or decoded payload) into `findings`."""
    analyser.raw(text, findings, fallback=False)
    reading = Reading(findings)
    if not _PowerShell(analyser, reading).script(text, depth):
        findings.unknown.append("(unreadable PowerShell)")


def read_cmd(analyser: "Analyser", text: str, findings: Findings, depth: int) -> None:
    """Reads a command line known to be cmd.exe's (a `cmd /c` payload) into `findings`."""
    analyser.raw(text, findings, fallback=False)
    reading = Reading(findings)
    if not _Cmd(analyser, reading).script(text, depth):
        findings.unknown.append("(unreadable cmd.exe command)")


def follow(analyser: "Analyser", cmd, findings: Findings, depth: int,
           stages: list[tuple[list[str], str | None]]) -> bool:
    """`powershell …`, `pwsh …` and `cmd …`: the code they run is read; True (the command is handled)."""
    if cmd.name == "cmd":
        return _follow_cmd(analyser, cmd, findings, depth, stages)
    if cmd.name == "wsl":
        return _follow_wsl(analyser, cmd, findings, depth)
    return _follow_powershell(analyser, cmd, findings, depth, stages)


_WSL_VALUED = frozenset({"-d", "--distribution", "-u", "--user", "--cd", "--shell-type", "--distribution-id"})
_WSL_LISTS = frozenset({"--list", "-l", "--all", "--running", "--quiet", "-q", "--verbose", "-v", "--online", "-o",
                        "--status", "--version", "--help"})
_WSL_ADMIN = frozenset({"--install", "--unregister", "--import", "--export", "--set-default", "-s", "--set-version",
                        "--set-default-version", "--shutdown", "--terminate", "-t", "--update", "--mount", "--unmount",
                        "--uninstall", "--manage", "--import-in-place"})


def _follow_wsl(analyser: "Analyser", cmd, findings: Findings, depth: int) -> bool:
    """`wsl [options] [--|-e] command`: the Linux command it runs (shell text unless `-e`); with no command, a shell."""
    args = list(cmd.args)
    if args and all(a.lower() in _WSL_LISTS for a in args):
        return True
    i = 0
    while i < len(args):
        arg = args[i].lower()
        if arg in _WSL_ADMIN:
            analyser.hit(findings, "win.wsl-admin", " ".join(cmd.argv))
            return True
        if arg in ("-e", "--exec", "--"):
            rest = args[i + 1:]
            if rest:
                analyser.simple(SimpleCommand(rest), findings, depth + 1) if arg != "--" else \
                    analyser.script(" ".join(rest), findings, depth + 1)
                return True
            break
        if arg in _WSL_VALUED:
            i += 2
            continue
        if arg.startswith("-"):
            i += 1
            continue
        analyser.script(" ".join(args[i:]), findings, depth + 1)
        return True
    analyser.hit(findings, "exec.shell-spawn", " ".join(cmd.argv))
    return True


_PS_CLI = ("command", "encodedcommand", "file", "executionpolicy", "windowstyle", "noprofile", "noninteractive", "nologo",
           "noexit", "sta", "mta", "version", "inputformat", "outputformat", "configurationname", "encodedarguments",
           "workingdirectory", "commandwithargs", "login", "interactive", "settingsfile", "psconsolefile",
           "custompipename", "help")
_PS_VALUED = frozenset({"encodedcommand", "file", "executionpolicy", "windowstyle", "version", "inputformat",
                        "outputformat", "configurationname", "encodedarguments", "workingdirectory", "settingsfile",
                        "psconsolefile", "custompipename"})
_PS_SHORT = {"c": "command", "e": "encodedcommand", "ec": "encodedcommand", "en": "encodedcommand",
             "enc": "encodedcommand", "f": "file", "ep": "executionpolicy", "ex": "executionpolicy",
             "exec": "executionpolicy", "w": "windowstyle", "nop": "noprofile", "noni": "noninteractive",
             "nol": "nologo", "noe": "noexit", "v": "version", "cwa": "commandwithargs", "wd": "workingdirectory",
             "ea": "encodedarguments", "l": "login", "i": "interactive", "o": "outputformat", "of": "outputformat",
             "if": "inputformat", "h": "help", "?": "help"}


def _ps_parameter(arg: str) -> str | None:
    """The PowerShell command-line parameter `arg` names (`-enc`, `/c`, `–EncodedCommand`), or None."""
    if len(arg) < 2 or arg[0] not in "-/\u2013\u2014\u2015":
        return None
    name = arg[1:].lstrip("-").lower()
    if name in _PS_SHORT:
        return _PS_SHORT[name]
    if name in _PS_CLI:
        return name
    if "encodedcommand".startswith(name):
        return "encodedcommand"
    found = [p for p in _PS_CLI if p.startswith(name)]
    return found[0] if len(found) == 1 else None


def decode_base64(text: str, utf16: bool = False) -> str | None:
    """A base64 payload as text: UTF-16LE (what `-EncodedCommand` always takes, and what a payload with
    mostly zero high bytes is) or UTF-8; None if it is neither."""
    cleaned = re.sub(r"\s+", "", text.strip().strip("'\""))
    if not cleaned or len(cleaned) > 200_000:
        return None
    try:
        raw = base64.b64decode(cleaned + "=" * (-len(cleaned) % 4), validate=True)
    except (binascii.Error, ValueError):
        return None
    if utf16 or len(raw) >= 2 and raw[1::2].count(0) * 10 >= len(raw) // 2 * 6:
        return raw.decode("utf-16-le", "replace")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return None


def _follow_powershell(analyser: "Analyser", cmd, findings: Findings, depth: int,
                       stages: list[tuple[list[str], str | None]]) -> bool:
    args = list(cmd.args)
    code: str | None = None
    interactive = False
    i = 0
    while i < len(args):
        arg = args[i]
        parameter = _ps_parameter(arg)
        if parameter is None:
            if cmd.name == "pwsh" and i == len(args) - 1 and arg.lower().endswith(".ps1") or arg.lower().endswith(".ps1") and " " not in arg:
                analyser.hit(findings, "win.powershell-file", " ".join(cmd.argv))
                return True
            code = " ".join(args[i:])
            break
        if parameter in ("command", "commandwithargs"):
            code = " ".join(args[i + 1:])
            break
        if parameter == "encodedcommand":
            analyser.hit(findings, "win.powershell-encoded", " ".join(cmd.argv))
            decoded = decode_base64(args[i + 1], utf16=True) if i + 1 < len(args) else None
            if decoded is None:
                findings.unknown.append("(undecodable -EncodedCommand)")
            else:
                read_powershell(analyser, normalise(decoded), findings, depth + 1)
            i += 2
            continue
        if parameter == "file":
            analyser.hit(findings, "win.powershell-file", " ".join(cmd.argv))
            return True
        if parameter == "noexit":
            interactive = True
        i += 2 if parameter in _PS_VALUED else 1
    if code is not None and code.strip() == "-" or code is None and (cmd.stdin is not None or cmd.piped):
        text = cmd.stdin if cmd.stdin is not None else simulate(stages) if stages else None
        if cmd.piped and cmd.stdin is None:
            analyser.hit(findings, "exec.pipe-to-shell", cmd.upstream + " | " + " ".join(cmd.argv))
        if text is None:
            findings.unknown.append("(PowerShell input)")
        else:
            read_powershell(analyser, text, findings, depth + 1)
    elif code is not None:
        read_powershell(analyser, code, findings, depth + 1)
    elif not any(_ps_parameter(a) == "encodedcommand" for a in args):
        interactive = True
    if interactive:
        analyser.hit(findings, "exec.shell-spawn", " ".join(cmd.argv))
    return True


def _follow_cmd(analyser: "Analyser", cmd, findings: Findings, depth: int,
                stages: list[tuple[list[str], str | None]]) -> bool:
    args = list(cmd.args)
    for i, arg in enumerate(args):
        lower = arg.lower()
        if lower.startswith(("/c", "/k")) and not lower.startswith(("/c:", "/k:")):
            rest = ([arg[2:]] if len(arg) > 2 else []) + args[i + 1:]
            script = " ".join(f'"{a}"' if j and " " in a and not a.startswith('"') else a for j, a in enumerate(rest))
            if lower.startswith("/k"):
                analyser.hit(findings, "exec.shell-spawn", " ".join(cmd.argv))
            if script.strip():
                read_cmd(analyser, script, findings, depth + 1)
            return True
    text = cmd.stdin if cmd.stdin is not None else simulate(stages) if cmd.piped and stages else None
    if text is not None:
        if cmd.piped and cmd.stdin is None:
            analyser.hit(findings, "exec.pipe-to-shell", cmd.upstream + " | " + " ".join(cmd.argv))
        read_cmd(analyser, text, findings, depth + 1)
    else:
        analyser.hit(findings, "exec.shell-spawn", " ".join(cmd.argv))
    return True


def _path(word: str) -> str:
    """A word as the rules and the secret checks read paths: forward slashes, except registry and device paths."""
    if "\\" not in word or word.startswith("\\\\") or winpack.registry_key(word) is not None:
        return word
    return word.replace("\\", "/")


def _program(word: str, aliases: dict[str, str]) -> str:
    """The program a command word runs: aliases resolved, module and system-directory prefixes dropped."""
    text = word
    if "\\" in text or "/" in text:
        qualified = re.fullmatch(r"[\w.]+\\([A-Za-z]+-\w+)", text)
        if qualified is not None:
            text = qualified.group(1)
        else:
            folded = winpath.fold(text)
            directory, _, name = folded.rpartition("/")
            if directory in _SYSTEM_DIRS:
                return name[:-4] if name.endswith(".exe") else name
            return _path(text)
    lower = text.lower()
    if lower.endswith(".exe") and lower[:-4] in WINDOWS_NAMES | FOLLOWS:
        return lower[:-4]
    for _ in range(8):
        if lower in aliases:
            text = aliases[lower]
            lower = text.lower()
        else:
            break
    return powershell.ALIASES.get(lower, text)


class _PowerShell:
    """One PowerShell reading: statements to commands for the analyser, expressions checked here."""

    def __init__(self, analyser: "Analyser", reading: Reading) -> None:
        self.analyser = analyser
        self.reading = reading
        self.findings = reading.findings
        self.variables: dict[str, Binding] = {}
        self.tainted: dict[str, list[Hit]] = {}
        self.aliases: dict[str, str] = {}
        self.nesting = 0
        self.budget = CALL_BUDGET
        self.spent = False

    def hit(self, rule_id: str, detail: str = "") -> None:
        self.analyser.hit(self.findings, rule_id, detail)

    def script(self, text: str, depth: int, scope: dict[str, Binding] | None = None) -> bool:
        from engine.gate.shell.analyse import MAX_DEPTH

        if depth > MAX_DEPTH or self.nesting > MAX_NESTING:
            self.hit("obfuscation.deep-nesting", text)
            return True
        self.nesting += 1
        try:
            parsed = powershell.read(text)
            for statement in parsed.statements:
                self.statement(statement, depth, scope or {})
        finally:
            self.nesting -= 1
        return not parsed.error

    def deeper(self, text: str, depth: int) -> None:
        """Code handed on (`iex 'code'`, a decoded or created script block): raw-text rules, then a reading."""
        self.analyser.raw(text, self.findings, fallback=False)
        if not self.script(text, depth + 1):
            self.findings.unknown.append("(unreadable PowerShell)")

    def code(self, parts: list[str], depth: int, scope: dict[str, Binding]) -> None:
        for part in parts:
            if part.strip() and not self.script(part, depth, scope):
                self.findings.unknown.append("(unreadable PowerShell)")

    def statement(self, statement: powershell.Statement, depth: int, scope: dict[str, Binding]) -> None:
        kind = statement.kind
        if kind in ("while", "for", "do") and _endless(statement) and _starts_processes(statement.code):
            self.hit("ps.fork-bomb", " ".join(statement.code)[:200])
        if kind == "foreach" and statement.variable:
            source = self.subject_of(statement.source, depth, scope)
            inner = dict(scope)
            if source is not None:
                inner[statement.variable] = source
            self.code(statement.code[1:], depth, inner)
            self.code(statement.code[:1], depth, scope)
        else:
            self.code(statement.code, depth, scope)
        if statement.elements:
            self.pipeline(statement.elements, depth, scope)

    def subject_of(self, text: str, depth: int, scope: dict[str, Binding]) -> Binding | None:
        """What the first command of `text` hands on: a listing's items, or the value of a path expression."""
        parsed = powershell.read(text)
        if parsed.error or not parsed.statements or not parsed.statements[0].elements:
            return None
        elements = parsed.statements[0].elements
        first = elements[0]
        if first.expression:
            return self.literal(first.expression, scope)
        words = [self.word(w, scope) for w in first.words]
        if not words:
            return None
        name = basename(_program(words[0], self.aliases))
        found = _subject(name, words[1:], self.findings.cwd)
        return found if found is not None or len(elements) > 1 else self.valued(name, words[1:])

    def pipeline(self, elements: list[powershell.Element], depth: int, scope: dict[str, Binding]) -> None:
        if any(not e.words or any(w.variables or w.block or w.code or w.expression for w in e.words) for e in elements):
            self.reading.evidence = True
        stages: list[SimpleCommand] = []
        source: Binding | None = None
        literal: str | None = None
        last = len(elements) - 1
        begin = len(self.findings.hits)
        for index, element in enumerate(elements):
            upstream = _secrets(self.findings.hits[begin:]) if index else []
            if not element.words:
                self.expression(element, depth, scope, source)
                if index == 0:
                    source = self.literal(element.expression, scope) if not element.assigned else None
                    literal = source.texts[0] if source is not None and len(source.texts) == 1 else None
                continue
            built = self.command(element, depth, scope, source if index else None, stages, literal if index else None,
                                 index < last, upstream)
            if built is None:
                continue
            sc, name = built
            if index == 0:
                source = _subject(name, sc.argv[1:], self.findings.cwd)
            elif name == "where-object" and source is not None:
                source = _narrowed(source, sc.argv[1:])
            elif name not in _PASSES and source is not None and name not in _BLOCK_RUNNERS:
                source = None
            stages.append(sc)

    def word(self, word: powershell.Word, scope: dict[str, Binding]) -> str:
        """A word's text with variables bound in this reading put in (`$_`, `$p`), a parenthesised
        expression (`("Remove-" + "Item")`, `(Join-Path $env:SystemDrive Windows)`) or a member chain
        (`(Resolve-Path ~).Path`) as its value, and strings with subexpressions filled in."""
        if word.code and not word.expression and not word.block and word.text.startswith("(") and len(word.code) == 1:
            bound = self.literal(word.code[0], scope)
            if bound is not None and len(bound.texts) == 1:
                return bound.texts[0]
        if word.expression:
            bound = self.chain(word.expression, scope, 0)
            if bound is not None and bound.texts:
                return bound.texts[0]
        elif word.dynamic and (word.code or word.variables) and not word.block and not word.text.startswith("("):
            value = self.interpolated(word, scope, 0)
            if value is not None:
                return _path(value)
        if word.dynamic and word.variables:
            head = word.variables[0]
            bound = scope.get(head) or self.variables.get(head)
            if bound is not None and bound.texts and (word.expression or word.text.lower().startswith("$" + head)):
                text = word.expression or word.text
                rest = re.sub(r"(?i)^\$" + re.escape(head) + r"(?:\.(?:fullname|pspath|name|path|log|logname|id|processname"
                              r"|servicename|deviceid|number|driveletter))?", "", text) if not word.expression else ""
                return bound.texts[0] + rest
        text = _path(word.text)
        return _ENV_VARIABLE.sub(_unix_variable, text) if word.dynamic and "$env:" in text.lower() else text

    def command(self, element: powershell.Element, depth: int, scope: dict[str, Binding], source: Binding | None,
                stages: list[SimpleCommand], literal: str | None, feeds: bool,
                upstream: list[Hit] | None = None) -> tuple[SimpleCommand, str] | None:
        """One command of a pipeline; `upstream` are the secrets the stages before it put into the pipeline."""
        upstream = upstream or []
        words = element.words
        head = words[0]
        if element.call and head.block:
            self.code(head.code, depth, scope)
            return None
        argv = [self.word(w, scope) for w in words]
        dynamic = head.dynamic and argv[0] == _path(head.text) and not (
            element.call and not head.code and head.text and "$" not in head.text)
        program = argv[0] if dynamic else _program(argv[0], self.aliases)
        name = basename(program)
        if name in _LOCATION:
            program, name = _LOCATION[name], _LOCATION[name]
        argv[0] = program
        written = basename(words[0].text)
        self.reading.seen.update({written, name})
        self.reading.written[name] = written
        if _CMDLET.fullmatch(written) or written in powershell.ALIASES and written in WINDOWS_NAMES \
                and written not in cmdexe.BUILTINS:
            self.reading.evidence = True
        inner = dict(scope)
        if name in _BLOCK_RUNNERS and source is not None:
            inner["_"] = inner["psitem"] = source
        start = len(self.findings.hits)
        native = _CMDLET.fullmatch(name) is None and name not in pspack.READ_ONLY and name not in FOLLOWS
        fed = name in _BLOCK_RUNNERS and bool(upstream)
        saved = {key: self.tainted.get(key) for key in ("_", "psitem")}
        if fed:
            self.tainted["_"] = self.tainted["psitem"] = upstream
        for index, w in enumerate(words):
            self.tainted_read(w.variables)
            if native and w.block:
                argv[index] = w.code[0] if w.code else ""
                continue
            self.code(w.code, depth, inner)
        if fed:
            for key, held in saved.items():
                if held is None:
                    self.tainted.pop(key, None)
                else:
                    self.tainted[key] = held
        coded = len(self.findings.hits)
        if name in ("set-alias", "new-alias") and len(argv) >= 3:
            values = [a for a in argv[1:] if not a.startswith("-")]
            if len(values) >= 2:
                self.aliases[values[0].lower()] = values[1]
        if name == "foreach-object" and source is not None:
            member = next((a.lower() for a in argv[1:] if not a.startswith(("-", "{"))), "")
            if member in ("delete", "kill", "terminate"):
                self.call("$_", member, [], "$_." + member + "()", 0, depth, {**inner, "_": source})
        if name == "invoke-expression":
            self.invoke(argv[1:], words[1:], literal, depth)
        if name == "start-process":
            self.start_process(argv, depth)
        if source is not None and name in _SINKS and not _has_target(argv):
            argv = argv + source.texts
            if source.recursive and name == "remove-item":
                argv.append("-Recurse")
        variables = [v[4:] if v.startswith("env:") else v for w in words for v in w.variables]
        redirects = [Redirect(op, "/dev/null" if target.lower() in ("$null", "nul") else _path(target))
                     for op, target in element.redirects]
        sc = SimpleCommand(argv, redirects=redirects, upstream=stages[-16:], dynamic_name=dynamic, feeds=feeds,
                           expanded=variables, stdin=literal if name in FOLLOWS else None)
        self.analyser.simple(sc, self.findings, depth)
        self.reading.account(self.analyser, name, argv[1:])
        line = launched(name, argv)
        if line:
            read_cmd(self.analyser, line, self.findings, depth + 1)
        if name in _NETWORK or name in netpack.SENDERS or _uploads(name, argv):
            sent = self.findings.hits[start:] if name in _NETWORK else self.findings.hits[start:coded]
            leak = _leak([*upstream, *sent], _destinations(name, argv), _received(name, argv)) or \
                self.reading.sends_file(argv)
            if leak is not None:
                self.hit("ps.exfiltrate-secret", leak)
        self.reading.wrote(name, argv, redirects, [*upstream, *_secrets(self.findings.hits[start:])])
        for w in words:
            if w.expression:
                self.calls(w.expression, depth, inner, start)
        return sc, name

    def invoke(self, argv: list[str], words: list[powershell.Word], literal: str | None, depth: int) -> None:
        """`Invoke-Expression 'code'` reads the code; built at run time it cannot be read."""
        values = [w for w in words if not w.param]
        if values and not any(w.dynamic for w in values):
            self.deeper(" ".join(w.text for w in values), depth)
        elif not values and literal is not None:
            self.deeper(literal, depth)
        else:
            self.hit("exec.eval-dynamic", " ".join(argv))

    def start_process(self, argv: list[str], depth: int) -> None:
        """`Start-Process cmd -ArgumentList '/c …'`: the program it starts, with its arguments."""
        bound = pspack.bind(_view(argv), pspack.parameters(
            "filepath* argumentlist* workingdirectory* verb* windowstyle* wait nonewwindow passthru credential*"
            " redirectstandardinput* redirectstandardoutput* redirectstandarderror* loaduserprofile useshellexecute",
            "filepath argumentlist", "path=filepath args=argumentlist"))
        files = bound.get("filepath")
        if not files:
            return
        arguments = " ".join(bound.get("argumentlist", []) + bound.get("", []))
        program = files[0]
        if basename(program) == "cmd":
            self.analyser.simple(SimpleCommand([program] + arguments.split(None, 1)[:1] + arguments.split(None, 1)[1:]),
                                 self.findings, depth)
        else:
            self.analyser.simple(SimpleCommand([program] + arguments.split()), self.findings, depth)

    def literal(self, expression: str, scope: dict[str, Binding], nesting: int = 0) -> Binding | None:
        """What an expression stands for when it is a literal, a place, a bound variable, or a path
        built from those (`Join-Path`, `[IO.Path]::Combine`, `-f`, `"$(…)\\x"`, member chains)."""
        text = expression.strip()
        if nesting > 8 or len(text) > 4000:
            return None
        variable = re.fullmatch(r"\$([\w:]+)", text)
        if variable is not None:
            name = variable.group(1).lower()
            bound = scope.get(name) or self.variables.get(name)
            if bound is not None:
                return bound
            if name == "pwd":
                return self.valued("get-location", [])
        parts = _concatenated(text)
        if len(parts) > 1:
            values = [self.literal(part, scope, nesting + 1) for part in parts]
            texts = [v.texts[0] for v in values if v is not None and len(v.texts) == 1]
            if len(texts) == len(values):
                return Binding(["".join(texts)])
            return None
        template = _FORMAT.fullmatch(text)
        if template is not None:
            pattern = self.literal(template.group(1), scope, nesting + 1)
            values = [self.literal(a, scope, nesting + 1) for a in _split_top(template.group(2))]
            if pattern is None or len(pattern.texts) != 1 or any(v is None or len(v.texts) != 1 for v in values):
                return None
            value = pspaths.formatted(pattern.texts[0], [v.texts[0] for v in values if v is not None])
            return Binding([_path(value)]) if value is not None else None
        if text[:1] in "[$(" and (text[:1] != "(" or _closing_paren(text, 0) != len(text) - 1):
            cast = _CAST.fullmatch(text)
            if cast is not None:
                return self.literal(cast.group(1), scope, nesting + 1)
            chained = self.chain(text, scope, nesting + 1)
            if chained is not None or text[:1] == "[":
                return chained
        word = powershell.value(text)
        if word is None or not word.quoted and not word.dynamic and not word.param and not text[:1].isdigit():
            return self.evaluated(text, scope, nesting + 1)
        if word.param:
            return None
        if word.dynamic:
            if word.code and word.text.startswith("(") and not word.expression and len(word.code) == 1:
                return self.literal(word.code[0], scope, nesting + 1)
            if word.expression or word.block:
                return None
            value = self.interpolated(word, scope, nesting + 1)
            return Binding([_path(value)]) if value is not None else None
        return Binding([_path(word.text)])

    def interpolated(self, word: powershell.Word, scope: dict[str, Binding], nesting: int) -> str | None:
        """A string's value with its `$(…)` parts and bound variables filled in; None when one is unknown."""
        text = word.text
        for inner in word.code:
            bound = self.literal(inner, scope, nesting + 1)
            if bound is None or len(bound.texts) != 1 or "$(" + inner + ")" not in text:
                return None
            text = text.replace("$(" + inner + ")", bound.texts[0], 1)
        for name in word.variables:
            if "$" + name not in text:
                continue
            bound = scope.get(name) or self.variables.get(name)
            if bound is None or len(bound.texts) != 1:
                return None
            text = text.replace("$" + name, bound.texts[0])
        return None if "$" in text else text

    def evaluated(self, text: str, scope: dict[str, Binding], nesting: int) -> Binding | None:
        """The value of one command that computes a path (`Join-Path`, `Split-Path`, `Resolve-Path`, …)."""
        if nesting > 8:
            return None
        parsed = powershell.read(text)
        if parsed.error or len(parsed.statements) != 1 or parsed.statements[0].kind:
            return None
        elements = parsed.statements[0].elements
        if len(elements) != 1 or not elements[0].words:
            return None
        argv = [self.word(w, scope) for w in elements[0].words]
        name = basename(_program(argv[0], self.aliases))
        if name in ("get-item", "get-childitem", "get-content") and len(argv) == 2:
            variable = re.fullmatch(r"(?i)env:[\\/]?(\w{1,100})", argv[1])
            if variable is not None:
                value = winpath.env_value(variable.group(1))
                return Binding([_path(value)]) if value is not None else None
        return _subject(name, argv[1:], self.findings.cwd) or self.valued(name, argv[1:])

    def valued(self, name: str, args: list[str]) -> Binding | None:
        """What a path cmdlet returns, given its arguments' values."""
        if name in _PATH_CMDLETS:
            bound = pspack.bind(_view([name, *args]), _PATH_CMDLETS[name])
            paths_given = pspack.bound_values(bound, "path", "literalpath")
            if not paths_given or any("$" in p for p in paths_given):
                return None
            first = paths_given[0]
            if name == "join-path":
                children = pspack.bound_values(bound, "childpath") + bound.get("additionalchildpath", []) + bound.get("", [])
                return Binding([_path(pspaths.joined(first, *children))]) if children else None
            if name == "split-path":
                if pspack.on(bound.get("qualifier")):
                    drive = pspaths.root(first)
                    return Binding([drive[:2]]) if drive else None
                if any(pspack.on(bound.get(flag)) for flag in ("leaf", "leafbase", "extension", "isabsolute", "noqualifier")):
                    return None
                return Binding([_path(pspaths.parent(first))])
            if pspack.on(bound.get("relative")):
                return None
            return Binding([_path(first)])
        if name == "get-location":
            return Binding([self.findings.cwd], source="location") if self.findings.cwd else Binding([], source="location")
        if name == "get-psdrive" and args and re.fullmatch(r"[A-Za-z]:?", args[0]):
            return Binding([args[0][0].upper() + ":/"], source="drive")
        if name == "new-object" and len(args) >= 2 and _ITEM_TYPE.fullmatch(args[0].lower()):
            return Binding([args[1]])
        return None

    def chain(self, text: str, scope: dict[str, Binding], nesting: int) -> Binding | None:
        """A member chain's value: `(…)`, `$name` or `[Type]::Member(…)`, then `.Member`, `.Method(…)` or `[i]`."""
        if nesting > 8 or len(text) > 4000:
            return None
        if text.startswith("("):
            end = _closing_paren(text, 0)
            if end < 0:
                return None
            base = self.literal(text[1:end], scope, nesting + 1)
            at = end + 1
        elif text.startswith("$"):
            found = re.match(r"\$\{?([\w:]{1,100})\}?", text)
            if found is None:
                return None
            name = found.group(1).lower()
            base = scope.get(name) or self.variables.get(name)
            if base is None and name == "pwd":
                base = self.valued("get-location", [])
            elif base is None:
                value = powershell.place_value(name)
                base = Binding([_path(value)]) if value is not None else None
            at = found.end()
        else:
            found = _STATIC.match(text)
            if found is None:
                return None
            at = found.end()
            arguments = None
            if text[at:at + 1] == "(":
                end = _closing_paren(text, at)
                if end < 0:
                    return None
                arguments = _arguments(text, at)
                at = end + 1
            base = self.static(found.group(1), found.group(2), arguments, scope, nesting)
        while base is not None and at < len(text):
            member = _MEMBER_ACCESS.match(text, at)
            if member is None:
                if text[at] == "[":
                    end = text.find("]", at)
                    if end < 0:
                        return None
                    at = end + 1
                    continue
                return None
            at = member.end()
            if text[at:at + 1] == "(":
                end = _closing_paren(text, at)
                if end < 0:
                    return None
                at = end + 1
            base = _member(base, member.group(1).lower())
        return base

    def static(self, type_name: str, member: str, arguments: list[str] | None, scope: dict[str, Binding],
               nesting: int) -> Binding | None:
        """`[Environment]::GetFolderPath(…)`, `[IO.Path]::Combine(…)`, `[IO.Directory]::GetFiles(…)` and kin."""
        kind = type_name.lower().replace("`", "").removeprefix("system.")
        method = member.lower()
        if kind == "environment+specialfolder":
            return Binding([member])
        given = arguments or []
        values = [self.literal(a, scope, nesting + 1) for a in given]
        texts = [v.texts[0] if v is not None and len(v.texts) == 1 else None for v in values]
        first = texts[0] if texts else None
        value: str | None = None
        if kind == "environment":
            if method == "getfolderpath" and given:
                value = pspaths.special_folder(given[0]) or (pspaths.special_folder(first) if first else None)
            elif method == "getenvironmentvariable" and first:
                value = pspaths.environment(first)
            elif method == "expandenvironmentvariables" and first:
                value = cmdexe.expand(first, {}, [])
                value = None if "%" in value else value
            elif method == "systemdirectory":
                value = "C:\\Windows\\System32"
            elif method == "getlogicaldrives":
                return Binding(["C:/"], source="drive")
            elif method == "currentdirectory":
                return self.valued("get-location", [])
        elif kind == "io.driveinfo" and method == "getdrives":
            return Binding(["C:/"], source="drive")
        elif kind == "io.path" and method == "getpathroot" and values and values[0] is not None and \
                values[0].source == "location":
            return Binding(["C:/"], source="drive")
        elif kind == "io.path" and first is not None:
            if method == "combine" and None not in texts:
                value = pspaths.combined(*[t for t in texts if t is not None])
            elif method == "getfullpath":
                value = first
            elif method == "getpathroot":
                value = pspaths.root(first)
            elif method == "getdirectoryname":
                value = pspaths.parent(first)
        elif kind == "io.directory" and first is not None:
            if method in _ENUMERATORS:
                pattern = texts[1] if len(texts) > 1 and texts[1] else "*"
                recursive = any("alldirectories" in (a or "").lower() for a in given[2:])
                return Binding([first.rstrip("/\\") + "/" + pattern], recursive, "io.directory " + method)
            if method == "getparent":
                value = pspaths.parent(first)
            elif method == "getdirectoryroot":
                value = pspaths.root(first)
        elif _ITEM_TYPE.fullmatch(kind) and method == "new":
            value = first
        return Binding([_path(value)]) if value else None

    def expression(self, element: powershell.Element, depth: int, scope: dict[str, Binding],
                   source: Binding | None) -> None:
        inner = dict(scope)
        if source is not None:
            inner["_"] = inner["psitem"] = source
        if element.assigned:
            name = element.assigned
            if name.endswith("."):
                self.findings.unknown.append("(property assignment)")
            elif name.startswith("env:") and _HOOKS.fullmatch(name[4:]):
                self.hit("creds.env-hook", element.expression + " …")
            rhs = element.code[-1] if element.code else ""
            if not name.endswith("."):
                bound = self.subject_of(rhs, depth, inner)
                if bound is not None:
                    self.variables[name] = bound
                else:
                    self.variables.pop(name, None)
        start = len(self.findings.hits)
        self.tainted_read(element.variables)
        self.code(element.code, depth, inner)
        for variable in element.variables:
            if SECRET_VARIABLE.search(variable.removeprefix("env:")):
                self.hit("creds.secret-variable", "$" + variable)
                break
        if element.assigned and not element.assigned.endswith("."):
            held = _secrets(self.findings.hits[start:])
            if held:
                self.tainted[element.assigned] = held
            else:
                self.tainted.pop(element.assigned, None)
        if not element.assigned:
            self.calls(element.expression, depth, inner, start)

    def tainted_read(self, names: list[str]) -> None:
        """Reading a variable that holds a secret reads the secret again (`$e = gci env:; iwr … -Body $e`)."""
        for name in names:
            held = self.tainted.get(name)
            if held:
                self.findings.hits.extend(held[:4])

    def calls(self, expression: str, depth: int, scope: dict[str, Binding], start: int = -1) -> None:
        """Method calls in an expression: deletions, log clearing, decoded or created code, processes, uploads
        (`start`: where the hits of the expression's own parts begin, for the secrets an upload carries)."""
        if "(" not in expression:
            return
        for count, match in enumerate(_CALL.finditer(expression)):
            self.budget -= min(len(expression) - match.end(), 4000)
            if count >= MAX_CALLS or self.budget < 0:
                self.hit("ps.dotnet-call", expression[:200])
                if self.budget < 0 and not self.spent:
                    self.spent = True
                    self.analyser.raw(expression, self.findings, fallback=True)
                return
            receiver = (match.group(1) or "").lower().replace("`", "")
            method = match.group(2).lower()
            arguments = _arguments(expression, match.end() - 1)
            self.call(receiver, method, arguments, expression, match.start(), depth, scope, start)

    def call(self, receiver: str, method: str, arguments: list[str], expression: str, at: int, depth: int,
             scope: dict[str, Binding], start: int = -1) -> None:
        values = [self.literal(a, scope) for a in arguments]
        texts = [v.texts[0] if v is not None and v.texts else None for v in values]
        first = texts[0] if texts else None
        truthy = len(arguments) > 1 and arguments[1].strip().lower() in _TRUE
        bound = self.receiver(receiver, expression, at, depth, scope)
        text = expression[:200]
        if method in ("delete", "deletedirectory"):
            if bound is not None and "win32_shadowcopy" in bound.source:
                self.hit("ps.shadow-delete", text)
                return
            static = receiver.startswith("[")
            item = (values[0] if values else None) if static else bound
            target = item.texts[0] if item is not None and item.texts else None
            listed = bool(item is not None and item.recursive)
            if receiver.endswith("directory]"):
                recursive = truthy or listed
            elif static:
                recursive = receiver.endswith("filesystem]") or listed
            else:
                recursive = len(arguments) > 0 and arguments[0].strip().lower() in _TRUE or listed
            if "eventlog" in receiver:
                self.hit("ps.eventlog-clear", text)
            elif target is not None and (recursive and (winpath.is_root(target) or paths.is_root(target))
                                         or winpack.contents_target(target)):
                self.hit("ps.delete-root", target)
            elif target is not None and winpath.is_boot(target):
                self.hit("ps.boot-file", target)
            else:
                self.hit("ps.dotnet-delete", text)
            return
        if method in ("move", "replace", "copy", "movedirectory", "copyfile", "movefile") and static_file(receiver):
            changed = [t for t in texts[:2 if method.startswith(("move", "replace")) else 2][int(method.startswith("copy")):]
                       if t is not None]
            boot = next((t for t in changed if winpath.is_boot(t)), None)
            self.hit("ps.boot-file" if boot else "ps.dotnet-delete" if not method.startswith("copy") else "ps.dotnet-call",
                     boot or text)
            return
        if method in ("terminate", "kill") and bound is not None and (
                "win32_process" in bound.source or bound.source.startswith("get-process")):
            if bound.source.startswith("get-process"):
                every = any(winpack.vital_process(t) for t in bound.texts)
            else:
                named = re.findall(r"(?i)name\s{0,4}(?:=|-eq|like)\s{0,4}['\"]{0,2}([\w.*%?]{1,100})", bound.source)
                every = any(winpack.vital_process(n) for n in named) if named else re.search(
                    r"\s-(?:f|fi|fil|filt|filte|filter|q|qu|que|quer|query)\b", bound.source) is None
            self.hit("ps.kill-all" if every else "win.taskkill", text)
            return
        if method == "clearlog" or method == "clear" and ("eventlog" in receiver or bound is not None and "eventlog" in bound.source):
            self.hit("ps.eventlog-clear", text)
            return
        if method in ("deletesubkeytree", "deletesubkey", "deletevalue"):
            key = winpack.registry_key(("HKLM\\" if "localmachine" in receiver + expression[:at].lower() else "HKCU\\")
                                       + (first or ""))
            if method != "deletevalue" and key is not None and first is not None and winpack.system_key(key):
                self.hit("ps.delete-key", text)
            else:
                self.hit("ps.dotnet-delete", text)
            return
        if method == "create" and "scriptblock" in receiver:
            if first is not None:
                self.deeper(first, depth)
            else:
                self.hit("exec.eval-dynamic", text)
            return
        if method == "frombase64string":
            decoded = decode_base64(first) if first is not None else None
            if decoded is not None:
                self.hit("obfuscation.decoded-payload", decoded)
                self.deeper(normalise(decoded), depth)
            return
        if method == "start" and "process" in receiver:
            if first is not None:
                rest = values[1].texts[0] if len(values) > 1 and values[1] is not None else ""
                self.analyser.simple(SimpleCommand([first] + rest.split()), self.findings, depth)
            else:
                self.hit("exec.dynamic-command", text)
            return
        if method == "getenvironmentvariables":
            self.hit("creds.env-dump", text)
            return
        if method == "getenvironmentvariable" and first is not None and SECRET_VARIABLE.search(first):
            self.hit("creds.secret-variable", first)
            return
        if method == "setenvironmentvariable" and first is not None and _HOOKS.fullmatch(first):
            self.hit("creds.env-hook", text)
            return
        if method in _UPLOADS:
            self.tainted_read([name.lower() for a in arguments for name in re.findall(r"\$([\w:]{1,100})", a)])
            secret = next((t for t in texts[1:] if t is not None and paths.may_be_secret(t)), None) or next(
                (name for name in re.findall(r"(?i)\$(?:env:)?(\w+)", ",".join(arguments[1:]))
                 if SECRET_VARIABLE.search(name)), None)
            if secret is None and start >= 0:
                host = _URL_HOST.match(first or "")
                secret = _leak(_secrets(self.findings.hits[start:]), [host.group(1).lower()] if host else None, [])
            self.hit("ps.exfiltrate-secret" if secret else "ps.web", secret or text)
            return
        if method in _READS and first is not None and paths.may_be_secret(first):
            self.hit("creds.read-secret", first)
            return
        if method in ("writeallbytes", "writealltext", "writealllines", "appendalltext", "appendalllines", "openwrite",
                      "create", "createtext") and first is not None and winpath.is_device(first):
            self.hit("ps.write-device", first)
            return
        if method in ("writeallbytes", "writealltext", "writealllines", "openwrite", "create", "createtext", "encrypt",
                      "setattributes") and first is not None and winpath.is_boot(first):
            self.hit("ps.boot-file", first)
            return
        if method in _PURE:
            return
        self.hit("ps.dotnet-call", text)

    def receiver(self, receiver: str, expression: str, at: int, depth: int, scope: dict[str, Binding]) -> Binding | None:
        """What a method is called on: a bound variable, or a parenthesised listing (`(Get-Item C:\\).Delete()`)."""
        if receiver.startswith("$"):
            name = receiver[1:]
            return scope.get(name) or self.variables.get(name)
        if receiver == ")":
            start = _opening(expression, at)
            if start is not None:
                return self.subject_of(expression[start + 1:at], depth, scope)
        return None


_ENV_VARIABLE = re.compile(r"(?i)\$env:(\w{1,100})")
_FORMAT = re.compile(r"(?is)('[^']{0,2000}'|\"[^\"]{0,2000}\")\s{0,8}-f\s{1,8}(.{1,2000})")
_CAST = re.compile(r"(?is)\[\s{0,4}(?:system\.)?(?:string|object|io\.directoryinfo|io\.fileinfo)\s{0,4}\](?!\s{0,4}::)\s{0,4}(.{1,4000})")
_STATIC = re.compile(r"\[\s{0,4}([\w.+`]{1,200})\s{0,4}\]\s{0,4}::\s{0,4}(\w{1,100})")
_MEMBER_ACCESS = re.compile(r"\s{0,4}\.\s{0,4}(\w{1,100})")
_ITEM_TYPE = re.compile(r"(?:system\.)?io\.(?:directoryinfo|fileinfo)")
_ENUMERATORS = frozenset({"getfiles", "enumeratefiles", "getfilesystementries", "enumeratefilesystementries",
                          "getdirectories", "enumeratedirectories"})
_PATH_CMDLETS = {
    "join-path": pspack.parameters("path* childpath* additionalchildpath* resolve credential*", "path childpath"),
    "split-path": pspack.parameters("path* literalpath* parent leaf leafbase extension qualifier noqualifier isabsolute"
                                    " resolve credential*", "path", "pspath=literalpath lp=literalpath"),
    "resolve-path": pspack.parameters("path* literalpath* relative relativebasepath* credential*", "path",
                                      "pspath=literalpath lp=literalpath"),
    "convert-path": pspack.parameters("path* literalpath*", "path", "pspath=literalpath lp=literalpath"),
}


_PERCENT_VARIABLE = re.compile(r"%([A-Za-z_]\w{0,63})%")


def _secret_percent(word: str) -> str:
    """`%GITHUB_TOKEN%` as the Unix rules spell a variable named like a secret (`${GITHUB_TOKEN}`): cmd.exe
    expands it where bash would expand `$GITHUB_TOKEN`."""
    if "%" not in word:
        return word
    return _PERCENT_VARIABLE.sub(lambda m: "${" + m.group(1) + "}" if SECRET_VARIABLE.search(m.group(1)) else m.group(0),
                                 word)


def _unix_variable(match: re.Match[str]) -> str:
    """`$env:GITHUB_TOKEN` as the Unix rules spell an environment variable (`$GITHUB_TOKEN`)."""
    return "$" + match.group(1).upper()


def _member(base: Binding, name: str) -> Binding | None:
    """A member read off a value: the item itself (`.FullName`, `.Path`), its parent or its drive's root."""
    if name in pspaths.IDENTITY:
        return base
    if name in pspaths.PARENT:
        return Binding([_path(pspaths.parent(t)) for t in base.texts]) if base.texts else None
    if name in pspaths.ROOT:
        if base.source == "drive":
            return base
        if base.source == "location" and not base.texts:
            return Binding(["C:/"], source="drive")
        roots = [pspaths.root(t) or (None if t.startswith(("/", "\\", "$", "~")) else "C:\\") for t in base.texts]
        return Binding([_path(r) for r in roots if r], source="drive") if roots and all(roots) else None
    return None


def _bracket(text: str, open_at: int) -> tuple[int, list[str]]:
    """Where the bracket at `open_at` closes (-1 when not within 4 000 characters), quotes skipped,
    and the top-level comma-separated arguments inside it."""
    depth = 0
    quote = ""
    start = open_at + 1
    found: list[str] = []
    for j in range(open_at, min(len(text), open_at + 4000)):
        ch = text[j]
        if quote:
            if ch == quote or quote == "'" and ch in powershell.SINGLE or quote == '"' and ch in powershell.DOUBLE:
                quote = ""
            continue
        if ch in powershell.SINGLE:
            quote = "'"
        elif ch in powershell.DOUBLE:
            quote = '"'
        elif ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
            if depth == 0:
                if text[start:j].strip():
                    found.append(text[start:j])
                return j, found
        elif ch == "," and depth == 1:
            found.append(text[start:j])
            start = j + 1
    return -1, found


def _closing_paren(text: str, open_at: int) -> int:
    """The position of the `)` closing the `(` at `open_at`, quotes skipped; -1 when there is none."""
    end, _ = _bracket(text, open_at)
    return end if end >= 0 and text[end] == ")" else -1


def _split_top(text: str) -> list[str]:
    """Comma-separated values at the top level (`$a, 'b'`)."""
    return _arguments("(" + text + ")", 0)


def static_file(receiver: str) -> bool:
    """`[IO.File]`, `[System.IO.Directory]`, `[Microsoft.VisualBasic.FileIO.FileSystem]`: static file operations."""
    return receiver.startswith("[") and receiver.endswith(("file]", "directory]", "filesystem]"))


def _concatenated(text: str) -> list[str]:
    """The parts of `'a' + 'b'` at the top level (one part when there is no `+` outside quotes and brackets)."""
    parts, depth, quote, start = [], 0, "", 0
    for j, ch in enumerate(text):
        if quote:
            if ch == quote or quote == "'" and ch in powershell.SINGLE or quote == '"' and ch in powershell.DOUBLE:
                quote = ""
        elif ch in powershell.SINGLE:
            quote = "'"
        elif ch in powershell.DOUBLE:
            quote = '"'
        elif ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif ch == "+" and depth == 0:
            parts.append(text[start:j])
            start = j + 1
    parts.append(text[start:])
    return [part for part in parts if part.strip()] if len(parts) > 1 else [text]


def _view(argv: list[str]):
    from engine.gate.shell.view import Command

    return Command(tuple(argv))


def _subject(name: str, args: list[str], cwd: str | None) -> Binding | None:
    """What a listing at the head of a pipeline hands on: its paths (or names), recursion and filter."""
    if name not in _LISTERS:
        return None
    values: list[str] = []
    recursive = False
    pattern = ""
    i = 0
    while i < len(args):
        arg = args[i]
        if arg.startswith("-") and len(arg) > 1 and (arg[1].isalpha() or arg[1] == "_"):
            written, colon, attached = arg[1:].lower().partition(":")
            if "recurse".startswith(written) and written:
                recursive = attached.lower() not in ("$false", "0") if colon else True
            elif written in ("filter", "include", "f", "fi", "filt", "inc", "incl"):
                pattern = attached or (args[i + 1] if i + 1 < len(args) else "")
                i += 0 if colon else 1
            elif not colon and i + 1 < len(args) and not args[i + 1].startswith("-") and written in (
                    "path", "literalpath", "lp", "pspath", "name", "class", "classname", "namespace", "logname",
                    "identity", "id", "number", "driveletter", "disknumber", "query", "p", "pa", "pat", "n", "na", "c",
                    "cl", "cla", "clas", "li", "lit", "d", "di", "dr"):
                if written not in ("namespace",):
                    values.append(args[i + 1])
                i += 1
            elif colon and attached:
                values.append(attached)
        else:
            values.append(arg)
        i += 1
    if not values:
        values = [cwd or "."] if name in ("get-childitem", "get-item") else ["*"]
    if name == "get-childitem":
        values = [v.rstrip("/\\") + "/" + (pattern or "*") for v in values]
    return Binding(values, recursive, name + " " + " ".join(args).lower())


_NAME_TEST = re.compile(r"(?i)(?:\$_\.|\$psitem\.|^|\s)(?:name|processname|servicename)\s{1,8}-[ic]?(?:eq|like|match)\s{1,8}"
                        r"['\"]?([\w.*?-]{1,100})")


def _narrowed(source: Binding, args: list[str]) -> Binding:
    """Processes or services that `Where-Object` keeps when it tests their name against one value
    (`? { $_.Name -eq 'notepad' }`); any other test (or an `-or`) may keep them all."""
    if not source.source.startswith(("get-process", "get-service", "get-wmiobject", "get-ciminstance")):
        return source
    text = " ".join(args)
    found = _NAME_TEST.search(text)
    if found is None or re.search(r"(?i)-x?or\b|-not\b|!", text) is not None:
        return source
    value = found.group(1)
    return Binding([value], source.recursive, f"{source.source} -filter name='{value}'")


def _has_target(argv: list[str]) -> bool:
    """The command names what it acts on itself (a positional value or a path, name or id parameter)."""
    skip = False
    for arg in argv[1:]:
        if skip:
            skip = False
            continue
        if arg.startswith("-") and len(arg) > 1:
            written = arg[1:].split(":", 1)[0].lower()
            if any(p.startswith(written) for p in ("path", "literalpath", "name", "id", "inputobject", "number",
                                                   "driveletter", "disknumber", "logname", "identity", "class",
                                                   "displayname")) and len(written) >= 2:
                return True
            skip = ":" not in arg and written in ("filter", "include", "exclude", "property", "erroraction", "ea",
                                                   "value", "filesystem", "startuptype", "status", "algorithm")
            continue
        if arg.startswith("{"):
            continue
        return True
    return False


# Hits that mean secret material is now in hand: a secret file or credential store read, a variable named
# like a secret, the environment printed, hashes or saved keys dumped.
_SECRET_RULES = frozenset({"creds.read-secret", "creds.secret-variable", "creds.env-dump", "ps.env-dump",
                           "win.credential-files", "win.wifi-keys", "creds.dump-hashes", "win.registry-hive-dump",
                           "win.ntds-dump"})
_URL_HOST = re.compile(r"(?i)^\s{0,4}['\"]?[a-z][\w+.-]{0,20}://(?:[^@/\s'\"]{0,200}@)?([^/:?#\s'\"]{1,253})")
_WEB = pspack.parameters("uri* method* body* headers* infile* outfile* contenttype* form* usebasicparsing"
                         " credential* websession* sessionvariable* proxy* proxycredential* timeoutsec* useragent*"
                         " maximumredirection* certificate* certificatethumbprint* passthru resume skiphttperrorcheck"
                         " skipcertificatecheck authentication* token* to* from* subject* smtpserver* attachments* cc*"
                         " bcc* port* usessl encoding* priority* deliverynotificationoption* bodyashtml source*"
                         " destination* transfertype* displayname* description* asynchronous* dynamic", "uri",
                         "url=uri")


_ARCHIVE_OUTPUT = pspack.parameters("path* literalpath* destinationpath* destination* filepath* compressionlevel* update"
                                    " force passthru append encoding* inputobject* value* notypeinformation whatif"
                                    " confirm recurse container", "path destinationpath")


def _outputs(name: str, argv: list[str]) -> list[str]:
    """The files a command writes its input or its sources to: archives, copies, encodings, exports."""
    args = argv[1:]
    if name in ("compress-archive", "copy-item", "move-item", "out-file", "set-content", "add-content", "export-csv",
                "export-clixml", "tee-object"):
        bound = pspack.bind(_view(argv), _ARCHIVE_OUTPUT)
        if name in ("compress-archive", "copy-item", "move-item"):
            return pspack.bound_values(bound, "destinationpath", "destination") or bound.get("", [])[:1]
        return pspack.bound_values(bound, "filepath", "path", "literalpath")
    operands = [a for a in args if not a.startswith(("-", "/"))]
    if name in ("copy", "xcopy", "move", "robocopy", "makecab", "esentutl", "expand") and len(operands) > 1:
        return operands[-1:]
    if name == "certutil" and len(operands) > 1:
        return operands[-1:]
    if name in ("tar", "bsdtar"):
        for i, arg in enumerate(args):
            if arg.startswith("-") and not arg.startswith("--") and arg.endswith("f") and i + 1 < len(args):
                return [args[i + 1]]
            if arg.startswith("--file="):
                return [arg[7:]]
        return []
    if name in ("7z", "7za", "7zr", "zip", "rar") and operands:
        return operands[1:2] if name.startswith("7") or name == "rar" else operands[:1]
    return []


def _file_key(path: str) -> str:
    text = _path(path.strip().strip("'\""))
    folded = paths.fold(text)
    return posixpath.normpath(folded).lower() if folded else folded


def _uploads(name: str, argv: list[str]) -> bool:
    """A Windows tool sending a local file elsewhere: a BITS upload, a copy onto another computer's share."""
    if name not in _UPLOADERS:
        return False
    if name == "bitsadmin":
        return any(a.lower() == "/upload" for a in argv[1:])
    return any(winpack.remote_share(a) for a in argv[1:])


def _secrets(hits: list[Hit]) -> list[Hit]:
    return [hit for hit in hits if hit.rule.id in _SECRET_RULES]


def _destinations(name: str, argv: list[str]) -> list[str] | None:
    """The hosts a web cmdlet or HTTP tool sends to (lower case), or None when they cannot be told."""
    if name in netpack.SENDERS:
        return netpack.destinations(_view(argv))
    bound = pspack.bind(_view(argv), _WEB)
    urls = pspack.bound_values(bound, "uri") + ([] if name != "start-bitstransfer" else
                                                pspack.bound_values(bound, "destination", "source"))
    hosts = [found.group(1).lower() for found in (_URL_HOST.match(u) for u in urls) if found is not None]
    return hosts if hosts and name != "send-mailmessage" else None


def _received(name: str, argv: list[str]) -> list[str]:
    """Local paths the command writes what it receives to (`-OutFile`, a BITS download's `-Destination`): naming a
    secret there is not sending it."""
    if name not in _NETWORK:
        return []
    bound = pspack.bind(_view(argv), _WEB)
    received = pspack.bound_values(bound, "outfile")
    if name == "start-bitstransfer" and not any(v.lower() == "upload" for v in pspack.bound_values(bound, "transfertype")):
        received += pspack.bound_values(bound, "destination")
    return [paths.fold(p) for p in received]


def _leak(secrets: list[Hit], hosts: list[str] | None, received: list[str]) -> str | None:
    """The first secret sent off the machine: not one only received into a local file, not a token sent to the
    service that issued it (`$GITHUB_TOKEN` to api.github.com), and nothing at all when every host is this machine."""
    if hosts and all(_loopback(host) for host in hosts):
        return None
    for hit in _secrets(secrets):
        if hit.rule.id == "creds.read-secret" and paths.fold(hit.detail) in received:
            continue
        if hit.rule.id == "creds.secret-variable" and hosts:
            issuers = reads.issuers(hit.detail.lstrip("$").removeprefix("env:").removeprefix("ENV:").upper())
            if issuers and all(any(host == d or host.endswith("." + d) for d in issuers) for host in hosts):
                continue
        return hit.detail or hit.rule.id
    return None


def _loopback(host: str) -> bool:
    return host in ("localhost", "127.0.0.1", "::1", "[::1]") or host.startswith("127.")


def _endless(statement: powershell.Statement) -> bool:
    conditions = statement.code[:1] if statement.kind != "do" else statement.code[1:2]
    return any(c.strip().lower() in ("$true", "1", "") or re.fullmatch(r"[^;]*;\s*;[^;]*", c.strip()) and
               c.strip().split(";")[1].strip() == "" for c in conditions)


def _starts_processes(parts: list[str]) -> bool:
    return any(re.search(r"(?i)\b(?:start-process|saps|start|powershell|pwsh|cmd|invoke-item|ii|start-job|sajb)\b", p)
               for p in parts)


def _arguments(text: str, open_at: int) -> list[str]:
    """The top-level comma-separated arguments of the call whose `(` is at `open_at`."""
    return _bracket(text, open_at)[1]


def _opening(text: str, close_at: int) -> int | None:
    depth = 0
    for j in range(close_at, max(-1, close_at - 4000), -1):
        if text[j] == ")":
            depth += 1
        elif text[j] == "(":
            depth -= 1
            if depth == 0:
                return j
    return None


class _Cmd:
    """One cmd.exe reading: commands for the analyser, with the paths cmd would pass."""

    def __init__(self, analyser: "Analyser", reading: Reading, cmdlets_read: bool = False) -> None:
        """`cmdlets_read`: the PowerShell reading read the whole text, so a cmdlet name here (which cmd.exe
        cannot run: no program has it) is left to that reading rather than rated on cmd.exe's split of its words."""
        self.analyser = analyser
        self.reading = reading
        self.findings = reading.findings
        self.written: dict[str, list[str]] = {}
        self.cmdlets_read = cmdlets_read

    def script(self, text: str, depth: int) -> bool:
        from engine.gate.shell.analyse import MAX_DEPTH

        if depth > MAX_DEPTH:
            self.analyser.hit(self.findings, "obfuscation.deep-nesting", text)
            return True
        parsed = cmdexe.read(text)
        for command in parsed.commands:
            self.command(command, depth)
        return not parsed.error

    def command(self, command: cmdexe.CmdCommand, depth: int) -> None:
        argv = [_secret_percent(_path(w)) for w in command.argv]
        if not argv or argv[0] == "(group)":
            return
        if _GLOB.search(argv[0]):
            self.findings.unknown.append(argv[0])
            return
        name = argv[0].lower()
        if self.cmdlets_read and not command.dynamic and _CMDLET.fullmatch(name) is not None:
            self.findings.unknown.append(argv[0])
            return
        if name in ("cd", "chdir", "pushd"):
            argv = ["cd" if name == "chdir" else name] + [a for a in argv[1:] if a.lower() != "/d"]
        elif name == "start":
            argv = _started(argv)
            if not argv:
                return
        program = argv[0] if command.dynamic else _program(argv[0], {}) if "/" in argv[0] or argv[0].lower().endswith(".exe") else argv[0]
        argv[0] = program
        if command.tail and basename(program) == "cmd":
            switch = next((i for i, a in enumerate(command.argv) if a.lower().startswith(("/c", "/k"))), None)
            if switch is not None:
                argv = argv[:switch] + [command.argv[switch][:2], command.tail]
        self.remember(command)
        script = self.written.get(basename(program).removesuffix(".bat").removesuffix(".cmd"))
        if script is not None:
            text = "\n".join(script)
            self.analyser.raw(text, self.findings, fallback=False)
            self.script(text, depth + 1)
        self.reading.seen.update({basename(command.argv[0]), basename(program)})
        scripted = basename(program) in _POSIX_SCRIPTED
        redirects = [Redirect(op, "/dev/null" if target.lower() in ("nul", "nul:") else _path(target))
                     for index, (op, target) in enumerate(command.redirects)
                     if not (scripted and index in command.posix_quoted)]
        upstream = [SimpleCommand(["more" if basename(w) == "type" and i == 0 else _secret_percent(_path(w))
                                   for i, w in enumerate(stage.argv)]) for stage in command.upstream]
        variables = list(dict.fromkeys(command.variables))
        start = len(self.findings.hits)
        self.analyser.simple(SimpleCommand(argv, redirects=redirects, upstream=upstream, dynamic_name=command.dynamic,
                                           expanded=variables), self.findings, depth)
        name = basename(program)
        if name == "type":
            shown = next((a for a in argv[1:] if not a.startswith("/") and paths.may_be_secret(a)), None)
            if shown is not None:
                self.analyser.hit(self.findings, "creds.read-secret", shown)
        self.reading.account(self.analyser, name, argv[1:])
        if name in netpack.SENDERS or _uploads(name, argv):
            leak = self.reading.sends_file(argv)
            if leak is not None:
                self.analyser.hit(self.findings, "net.exfil-secret", leak)
        self.reading.wrote(name, argv, redirects, _secrets(self.findings.hits[start:]))
        line = launched(basename(program), argv)
        if line:
            read_cmd(self.analyser, line, self.findings, depth + 1)


    def remember(self, command: cmdexe.CmdCommand) -> None:
        """`echo LINE > x.bat` (and `>>`): the lines a batch file the text writes will hold."""
        if command.argv and command.argv[0].lower() == "echo":
            for op, target in command.redirects:
                if op in (">", ">>", "1>", "1>>") and target.lower().endswith((".bat", ".cmd")):
                    name = basename(target).removesuffix(".bat").removesuffix(".cmd")
                    line = " ".join(command.argv[1:])
                    self.written[name] = (self.written.get(name, []) if op.endswith(">>") else []) + [line]


def launched(name: str, argv: list[str]) -> str | None:
    """The command line a program is told to run elsewhere or later: `wmic process call create`,
    `Invoke-WmiMethod`/`Invoke-CimMethod` on Win32_Process, `schtasks /create … /tr`, `at`,
    `forfiles /c` (with `@path` as everything under `/p`) and `runas`."""
    lower = [a.lower() for a in argv[1:]]
    if name == "wmic":
        for i in range(len(lower) - 2):
            if lower[i] == "call" and lower[i + 1] == "create" and "process" in lower[:i]:
                return " ".join(argv[i + 3:])
        return None
    if name in ("invoke-wmimethod", "invoke-cimmethod"):
        text = " ".join(lower)
        if "win32_process" not in text or "create" not in text:
            return None
        for i, arg in enumerate(lower):
            if arg.startswith("-a") and "argumentlist".startswith(arg[1:]) and i + 1 < len(lower):
                return argv[i + 2]
            if "commandline" in arg:
                found = re.search(r"(?i)commandline\s{0,4}=\s{0,4}['\"]?([^'\"}]{1,2000})", argv[i + 1])
                if found:
                    return found.group(1)
        return None
    if name == "schtasks":
        return next((argv[i + 2] for i, a in enumerate(lower[:-1]) if a == "/tr"), None)
    if name == "at":
        operands = [a for a in argv[1:] if not a.startswith("/")]
        return operands[-1] if len(operands) > 1 else None
    if name == "forfiles":
        command = next((argv[i + 2] for i, a in enumerate(lower[:-1]) if a == "/c"), None)
        if command is None:
            return None
        root = next((argv[i + 2] for i, a in enumerate(lower[:-1]) if a == "/p"), ".")
        items = root.rstrip("/\\") + "/*"
        command = re.sub(r"(?i)@(?:path|file|fname|relpath)", items, command.replace("0x22", '"'))
        return command + (" /s" if "/s" in lower else "")
    if name == "runas":
        operands = [a for a in argv[1:] if not a.startswith("/")]
        return operands[-1] if operands else None
    return None


def _started(argv: list[str]) -> list[str]:
    """`start ["title"] [/b /min /wait /d dir …] program args`: the program and its arguments."""
    rest = argv[1:]
    i = 0
    if rest and rest[0] == "":
        i = 1
    while i < len(rest) and rest[i].startswith("/"):
        i += 2 if rest[i].lower() in ("/d", "/node", "/affinity") else 1
    return rest[i:]


def _windows_names() -> frozenset[str]:
    """Names that only Windows runs: the Windows packs' programs, cmdlets and aliases, less any name a
    Unix pack proves read-only (`netstat`) or a shell has (`cd`, `for`)."""
    from engine.gate.packs import PACKS

    windows_packs = (winpack.PACK.id, pspack.PACK.id)
    unix = set(_UNIX)
    for pack in PACKS:
        if pack.id not in windows_packs:
            unix.update(pack.read_only)
    ours = ({alias for alias in powershell.ALIASES} | set(cmdexe.BUILTINS) | set(winpack.READ_ONLY)
            | {name for item in (*winpack.RULES, *pspack.RULES) for name in item.names})
    return frozenset(ours - unix) | frozenset(pspack.READ_ONLY) | FOLLOWS


WINDOWS_NAMES = _windows_names()
