"""Reads inline code (python -c, node -e, perl -e, code.run, awk programs, …) for what it can do.

No interpreter runs: regular expressions with bounded repetition pick out shell strings
handed to system()/exec (one string or an argv of literals), deleted and written paths
(also through a variable holding a literal, a home-directory expression, or a walk of a tree
with a delete inside), sockets, native loading, decoding and processes started in an endless
loop. Literals the code decodes itself (rot13, reversal, base64, hex) are folded first, so
`os.system(codecs.decode('ez -es /', 'rot13'))` reads as the command it runs.
"""

from __future__ import annotations

import base64
import binascii
import bz2
import codecs
import lzma
import re
import shlex
import zlib
from dataclasses import dataclass, field

from engine.gate.paths import is_secret

_Q = r"""(?:'((?:[^'\\\n]|\\.){0,4000})'|"((?:[^"\\\n]|\\.){0,4000})")"""
_SHELL_CALL = re.compile(
    r"(?:os\.system|os\.popen|os\.exec\w{0,3}|subprocess\.\w{1,16}|commands\.getoutput|pty\.spawn|\bsystem|\bexec"
    r"|execSync|spawnSync|\bspawn|execFileSync|execFile|shell_exec|passthru|\bpopen|proc_open|IO\.popen|%x"
    r"|callCommand|run-shell-command|os\.execute|io\.popen|Runtime\.getRuntime\(\)\.exec|\bqx|open3\.\w{1,12}"
    r"|shell-command(?:-to-string)?|Deno\.run|new\s{1,4}Deno\.Command|doShellScript)"
    r"\s{0,4}[\(\{]?\s{0,4}\[?\s{0,4}(?:r|b)?" + _Q
)
_SHELL_LIST = re.compile(
    r"(?:subprocess\.\w{1,16}|spawnSync|execFileSync|\bspawn|os\.exec\w{0,3}"
    r"|\b\w{1,20}\.(?:call|run|check_call|check_output|Popen|getoutput))\s{0,4}\(\s{0,4}\[([^\]]{0,2000})\]"
)
_ARGV_CALL = re.compile(
    r"(?:\bsystem|\bexec|os\.exec\w{1,3}|os\.spawn\w{1,3}|spawnSync|execFileSync|execFile|\bspawn|Process\.spawn"
    r"|subprocess\.\w{1,16}|IO\.popen|Open3\.\w{1,12}|pcntl_exec)\s{0,4}\(([^()]{0,2000})\)"
)
_LITERAL = r"""(?:'(?:[^'\\\n]|\\.){0,4000}'|"(?:[^"\\\n]|\\.){0,4000}")"""
_ARGV_BARE = re.compile(r"\b(?:system|exec)\s{1,4}(" + _LITERAL + r"(?:\s{0,4},\s{0,4}" + _LITERAL + r"){1,30})")
_KEYWORD = re.compile(r"\w{1,30}\s{0,2}[=:]\s{0,2}" + _Q)
_BACKTICK = re.compile(r"`([^`\n]{1,4000})`")
_QX = re.compile(r"qx\s{0,2}(?:\(([^)\n]{1,4000})\)|\{([^}\n]{1,4000})\}|\[([^\]\n]{1,4000})\]|([/|!#])([^/|!#\n]{1,4000})\4)")
_QUOTED = re.compile(_Q)
_DELETE = re.compile(
    r"(?:shutil\.rmtree|os\.remove|os\.unlink|os\.rmdir|os\.removedirs|FileUtils\.rm_rf|FileUtils\.rm_r|FileUtils\.rm"
    r"|FileUtils\.remove_dir|FileUtils\.remove_entry\w{0,8}|File\.delete|Dir\.delete|fs\.rmSync|fs\.rmdirSync"
    r"|fs\.unlinkSync|\.unlinkSync|\.rmSync|\.rmdirSync|fs\.promises\.rm|fs\.rm|fs\.unlink|fs\.rmdir|rimraf\w{0,5}|\bunlink|\brmdir|remove_tree|rmtree"
    r"|os\.RemoveAll|os\.Remove|Files\.delete\w{0,8}|Deno\.remove\w{0,4}|\brm(?=\s{0,4}\())\s{0,4}\(?\s{0,4}"
    r"(?:(?:str|os\.fspath|Path|pathlib\.Path|normalizePath)\(\s{0,4})?(?:r|b)?" + _Q
)
_PATH_METHOD = re.compile(r"Path\(\s{0,4}(?:r|b)?" + _Q + r"\s{0,4}\)\.(rmdir|unlink|write_text|write_bytes|open\(\s{0,4}['\"][wax])")
_WRITE = re.compile(
    r"(?:\bopen|io\.open|fopen|File\.open|File\.new|openSync)\s{0,4}\(\s{0,4}(?:r|b)?" + _Q
    + r"\s{0,4},\s{0,4}(?:mode\s{0,2}=\s{0,2})?['\"](?:[wax]|r[bt]?\+)"
    r"|(?:writeFileSync|appendFileSync|writeFile|appendFile|createWriteStream|file_put_contents|File\.write|IO\.write"
    r"|File\.binwrite|IO\.binwrite|write_text|write_bytes|openout|copyfile|shutil\.copy\w{0,4}|shutil\.move|os\.rename"
    r"|os\.replace|\bcp|\bmv)\s{0,4}\(\s{0,4}(?:r|b|Path\()?" + _Q
)
_OS_OPEN = re.compile(r"os\.open\s{0,4}\(\s{0,4}(?:r|b)?" + _Q + r"\s{0,4},[^)]{0,120}O_(?:WRONLY|RDWR|APPEND|TRUNC)")
_PERL_OPEN = re.compile(
    r"\bopen\s{0,4}\(?\s{0,4}(?:my\s{1,4})?[$\w]{1,40}\s{0,4},\s{0,4}['\"](?:>{1,2}|\+[<>])['\"]\s{0,4},\s{0,4}" + _Q
    + r"|\bopen\s{0,4}\(?\s{0,4}(?:my\s{1,4})?[$\w]{1,40}\s{0,4},\s{0,4}['\"](?:>{1,2}|\+[<>])\s{0,4}([^'\"\s]{1,400})['\"]"
)
_HOME_EXPRESSION = re.compile(
    r"os\.path\.expanduser\(\s{0,4}['\"]~/?['\"]\s{0,4}\)|(?:pathlib\.)?Path\.home\(\)|Path\(['\"]~['\"]\)\.expanduser\(\)"
    r"|os\.environ\[\s{0,4}['\"]HOME['\"]\s{0,4}\]|os\.environ\.get\(\s{0,4}['\"]HOME['\"]\s{0,4}\)"
    r"|os\.getenv\(\s{0,4}['\"]HOME['\"]\s{0,4}\)|Dir\.home\b(?:\(\))?|ENV\[\s{0,4}['\"]HOME['\"]\s{0,4}\]"
    r"|\$ENV\{\s{0,4}['\"]?HOME['\"]?\s{0,4}\}|(?:require\(\s{0,4}['\"](?:node:)?os['\"]\s{0,4}\)|\bos)\.homedir\(\)"
    r"|process\.env\.HOME\b|process\.env\[\s{0,4}['\"]HOME['\"]\s{0,4}\]|File\.expand_path\(\s{0,4}['\"]~['\"]\s{0,4}\)"
    r"|\bhomedir\(\)|Deno\.env\.get\(\s{0,4}['\"]HOME['\"]\s{0,4}\)|Bun\.env\.HOME\b|path\.expand\(\s{0,4}['\"]~/?['\"]\s{0,4}\)"
    r"|Sys\.getenv\(\s{0,4}['\"]HOME['\"]\s{0,4}\)|\bgetenv\(\s{0,4}['\"]HOME['\"]\s{0,4}\)|\$_(?:SERVER|ENV)\[\s{0,4}['\"]HOME['\"]\s{0,4}\]"
    r"|os\.UserHomeDir\(\)"
)
_ASSIGNMENT = re.compile(r"(?:\b(?:my|our|local|const|let|var)\s{1,4})?[$@]?\b([A-Za-z_]\w{0,40})\s{0,4}=(?![=~])\s{0,4}(?:r|b)?" + _Q)
_WALK = re.compile(
    r"(?:os\.walk|os\.scandir|os\.listdir|glob\.i?glob|Path|pathlib\.Path|Dir\.glob|Dir\.children|Dir\.each_child"
    r"|Dir\.entries|Find\.find|readdirSync|fs\.readdir|fs\.opendir|glob\.sync|globSync)\s{0,4}\(\s{0,4}(?:r|b)?" + _Q
    + r"|\bDir\[\s{0,4}" + _Q + r"|\bfind(?:depth)?\s{0,4}\(\s{0,4}(?:sub\s{0,4}\{[^}]{0,300}\}|\\&\w{1,40})\s{0,4},\s{0,4}" + _Q
    + r"|\bglob\s{0,4}\(?\s{0,4}" + _Q
)
_WALKING = re.compile(r"\.(?:rglob|glob|iterdir|walk)\s{0,4}\(|os\.walk|os\.scandir|os\.listdir|glob|Dir\.|Find\.find"
                      r"|\bfind(?:depth)?\s{0,4}\(|readdir|opendir")
_DELETING = re.compile(
    r"\b(?:rmtree|remove_tree|rm_rf|rm_r|unlink\w{0,5}|rmdir\w{0,5}|os\.remove|removedirs|rmSync|rmdirSync|RemoveAll"
    r"|File\.delete|FileUtils\.rm\w{0,3}|shred)\b|\.unlink\s{0,4}\(|\.rmdir\s{0,4}\(|\bfs\.rm\s{0,4}\("
)
_ENDLESS = re.compile(
    r"\bwhile\s{0,4}\(?\s{0,4}(?:True|true|1|:|fork)\b\s{0,4}\)?|\bfor\s{0,4}\(\s{0,4};\s{0,4};\s{0,4}\)"
    r"|\bloop\s{0,4}(?:\{|do\b)|\buntil\s{0,4}\(?\s{0,4}(?:False|false|0)\b|setInterval\s{0,4}\("
    r"|\bfor\s{1,4}\w{1,20}\s{1,4}in\s{1,4}(?:(?:itertools\.)?(?:count|repeat|cycle)\s{0,2}\(|iter\s{0,2}\(\s{0,4}(?:int|lambda\b))"
)
_SPAWN_CALL = re.compile(r"\bfork\b|pcntl_fork|\bspawn\s{0,4}\(|Process\.spawn|Popen\s{0,4}\(|os\.spawn\w{0,3}\s{0,4}\(\s{0,4}os\.P_NOWAIT|\bforkpty\b")
_WAITS = re.compile(r"\bsleep\b|\bwait\w{0,4}\s{0,4}\(|\.join\s{0,4}\(|communicate|\bwaitpid\b|\bbreak\b|\bexit\b")
_MODIFIER_FORK = re.compile(r"\bfork\b[ \t]{0,4}(?:\([ \t]{0,2}\))?[ \t]{0,4}(?:while|until)\b|\b1[ \t]{1,4}while[ \t]{1,4}fork\b")
_NETWORK = re.compile(
    r"\b(?:socket|urllib\w{0,2}|requests\.\w{1,8}|http\.client|httpx|aiohttp|fetch\s{0,2}\(|XMLHttpRequest|Net::HTTP"
    r"|TCPSocket|UDPSocket|IO::Socket|fsockopen|curl_exec|curl_init|net\.connect|net\.Socket|net\.createConnection"
    r"|https?\.(?:get|request)|urlopen|LWP|HTTP::Tiny|WebSocket|smtplib|ftplib|paramiko|Socket\.new"
    r"|socket\.connect|dgram|dns\.resolve)\b|https?://|ftp://"
    r"|require\(\s{0,4}['\"](?:node:)?(?:https?|net|tls|dgram|axios|node-fetch)['\"]\s{0,4}\)",
)
_SOCKET = re.compile(r"\b(?:socket|TCPSocket|IO::Socket|fsockopen|net\.connect|net\.Socket|Socket\.new|createConnection|ztcp"
                     r"|Deno\.connect\w{0,4}|Deno\.listen\w{0,4}|Bun\.connect|Bun\.listen)\b"
                     r"|require\(\s{0,4}['\"](?:node:)?(?:net|tls|dgram)['\"]\s{0,4}\)")
_SPAWN = re.compile(r"dup2|fdopen|Deno\.Command|Deno\.run|\bsystem\s{0,2}\$|\bexec\s{0,2}\$|pty\.spawn|/bin/(?:ba|z|da|k)?sh\b|cmd\.exe|powershell|\bpopen|subprocess|\bexec\w{0,4}\s{0,2}\(|spawn|\bsystem\s{0,2}\(|\.gets\b.{0,80}\bpopen")
_NATIVE = re.compile(r"\b(?:ctypes|cdll|CDLL|dlopen|Fiddle|ffi\.|LoadLibrary|System\.load\w{0,7}|DynaLoader|ctypes\.util)\b|LD_PRELOAD")
_OBFUSCATED = re.compile(
    r"\b(?:eval|exec|compile|Function)\s{0,2}\(|b64decode|base64\.|atob\s{0,2}\(|fromCharCode|unhexlify"
    r"|codecs\.decode|\\x[0-9a-fA-F]{2}\\x[0-9a-fA-F]{2}|\bchr\s{0,2}\(\s{0,2}\d{2,3}\s{0,2}\)\s{0,2}\+|__import__|getattr\s{0,2}\(",
)
_KILL_ALL = re.compile(
    r"\bkill\w{0,2}\s{0,4}\(\s{0,4}-1\s{0,4}[,)]|\bkillpg\s{0,4}\(\s{0,4}(?:-?[01]\b|os\.getpg(?:id\(\s{0,4}0?\s{0,4}\)|rp\(\)))"
    r"|Process\.kill\(\s{0,4}[^,()]{1,24},\s{0,4}-1\s{0,4}\)"
    r"|\bkill\s{0,4}\(?\s{0,4}(?:-?\d{1,2}|['\"][A-Z]{2,8}['\"]|-?SIG[A-Z]{2,6})\s{0,4}(?:,|=>)\s{0,4}-1\b"
)
"""Signals sent to every process the user may signal (pid -1) or to the whole process group."""
_WHOLE_ENVIRONMENT = re.compile(
    r"\bos\.environ\b(?!\s{0,4}(?:\[|\.get\b|\.setdefault\b|\.pop\b))|\bprocess\.env\b(?!\s{0,4}(?:\.\w|\[))"
    r"|\bENV\.(?:to_h|to_a|each|map|inspect)\b|%ENV\b|\bgetenv\(\s{0,4}\)|Deno\.env\.toObject\(\)"
)
"""The whole environment (with its tokens) taken as one value, not one named variable read."""
_TILDE_CALL = re.compile(r"(?:expanduser|expand_path|expand)\(\s{0,4}" + _Q)
_HOME_JOIN = re.compile(r"(?:homedir\(\)|Path\.home\(\)|Dir\.home|process\.env\.HOME|os\.environ\[\s{0,4}['\"]HOME['\"]\s{0,4}\])"
                        r"\s{0,4}(?:\+|/|,)\s{0,4}" + _Q)
_B64_LITERAL = re.compile(r"['\"]([A-Za-z0-9+/]{16,8000}={0,2})['\"]")
MAX_VARIABLES = 16
_ROT13 = re.compile(r"codecs\.(?:decode|encode)\(\s{0,4}" + _Q + r"\s{0,4},\s{0,4}['\"]rot_?13['\"]\s{0,4}\)")
_REVERSED = re.compile(
    r"\bscalar\s{1,4}reverse\s{0,4}\(?\s{0,4}" + _Q + r"\s{0,4}\)?|(?<![\w\]])" + _Q + r"\s{0,2}\[\s{0,2}::\s{0,2}-1\s{0,2}\]"
    r"|(?<![\w\]])" + _Q + r"\.reverse\b(?:\(\))?|(?<![\w\]])" + _Q
    + r"\.split\(\s{0,2}['\"]{2}\s{0,2}\)\.reverse\(\)\.join\(\s{0,2}['\"]{2}\s{0,2}\)"
)
_BASE64_CALL = re.compile(
    r"(?:base64\.b64decode|b64decode|atob|Base64\.decode64|decode_base64|MIME::Base64::decode)\s{0,2}\(\s{0,4}(?:b)?" + _Q
    + r"\s{0,4}\)(?:\.decode\(\s{0,4}(?:['\"][\w-]{1,10}['\"])?\s{0,4}\))?"
    r"|Buffer\.from\(\s{0,4}" + _Q + r"\s{0,4},\s{0,4}['\"]base64['\"]\s{0,4}\)\.toString\(\s{0,4}(?:['\"][\w-]{1,10}['\"])?\s{0,4}\)"
)
_HEX_CALL = re.compile(
    r"bytes\.fromhex\(\s{0,4}" + _Q + r"\s{0,4}\)\.decode\(\s{0,4}(?:['\"][\w-]{1,10}['\"])?\s{0,4}\)"
    r"|\bpack\s{0,4}\(\s{0,4}['\"]H\*['\"]\s{0,4},\s{0,4}" + _Q + r"\s{0,4}\)"
    r"|\[\s{0,4}" + _Q + r"\s{0,4}\]\.pack\(\s{0,4}['\"]H\*['\"]\s{0,4}\)"
    r"|Buffer\.from\(\s{0,4}" + _Q + r"\s{0,4},\s{0,4}['\"]hex['\"]\s{0,4}\)\.toString\(\s{0,4}(?:['\"][\w-]{1,10}['\"])?\s{0,4}\)"
)


# Code handed to the interpreter as a literal string: `exec('…')`, `eval("…")`, `compile('…', …)`.
_EVALUATED = re.compile(r"\b(?:exec|eval|compile)\s{0,4}\(\s{0,4}(?:r|b)?" + _Q)
_APPLE_STRING = r'"(?:[^"\\\n]|\\.){0,4000}"'
_APPLE_TERM = r"(?:quoted\s{1,4}form\s{1,4}of\s{1,4})?" + _APPLE_STRING
_APPLESCRIPT = re.compile(r"\bdo\s{1,4}shell\s{1,4}script\s{1,4}(" + _APPLE_TERM + r"(?:\s{0,4}&\s{0,4}" + _APPLE_TERM + r"){0,16})")
_APPLE_PART = re.compile(r"(quoted\s{1,4}form\s{1,4}of\s{1,4})?(" + _APPLE_STRING + r")")
_SYSTEM2 = re.compile(r"\bsystem2\(\s{0,4}" + _Q + r"\s{0,4},\s{0,4}(?:args\s{0,2}=\s{0,2})?c\(([^()]{0,2000})\)")
_DENO_ARGV = re.compile(r"new\s{1,4}Deno\.Command\(\s{0,4}" + _Q + r"\s{0,4},\s{0,4}\{[^{}]{0,400}?\bargs\s{0,4}:\s{0,4}\[([^\]]{0,2000})\]")


def applescript_text(expression: str) -> str:
    """The shell text of AppleScript's `do shell script` argument: string literals joined by `&`,
    `quoted form of "…"` quoted for the shell."""
    parts = []
    for match in _APPLE_PART.finditer(expression):
        value = re.sub(r"\\(.)", lambda m: m.group(1), match.group(2)[1:-1])
        parts.append(shlex.quote(value) if match.group(1) else value)
    return "".join(parts)


@dataclass
class Payload:
    """What a piece of inline code reaches for, as far as its literal text shows."""

    shell: list[str] = field(default_factory=list)
    deletes: list[str] = field(default_factory=list)
    writes: list[str] = field(default_factory=list)
    network: bool = False
    reverse_shell: bool = False
    native: bool = False
    obfuscated: bool = False
    forks: bool = False
    decoded: list[str] = field(default_factory=list)
    kills_all: bool = False
    secrets: list[str] = field(default_factory=list)
    environment: bool = False


_ESCAPE = re.compile(r"\\(x[0-9a-fA-F]{2}|[ntr0\\'\"])")
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "0": "\0", "\\": "\\", "'": "'", '"': '"'}


def _first(match: re.Match[str], start: int = 1) -> str:
    """The first quoted literal a match captured, its escapes (`\\n`, `\\'`, `\\x72`) decoded."""
    text = next((g for g in match.groups()[start - 1 :] if g is not None), "")
    return _ESCAPE.sub(_escaped, text) if "\\" in text else text


def _escaped(match: re.Match[str]) -> str:
    code = match.group(1)
    return chr(int(code[1:], 16)) if code[0] == "x" else _ESCAPES[code]


def _quote(text: str) -> str:
    return "'" + text.replace("'", "").replace("\n", " ") + "'"


def _folded(match: re.Match[str], decode) -> str:
    try:
        return _quote(decode(_first(match)))
    except (binascii.Error, ValueError, UnicodeDecodeError):
        return match.group(0)


def fold_literals(code: str, decoded: list[str] | None = None) -> str:
    """The code with literals it decodes itself replaced by their decoded text (rot13, reversed
    strings, base64, hex and compressed data decoded in place, through chains such as
    `zlib.decompress(base64.b64decode('…'))`); each decoded text is also added to `decoded`."""
    if "__import__" in code or "getattr" in code or "import_module" in code:
        code = _plain_names(code)
    if "rot" in code:
        code = _ROT13.sub(lambda m: _folded(m, lambda t: codecs.decode(t, "rot13")), code)
    if "reverse" in code or "::" in code:
        code = _REVERSED.sub(lambda m: _folded(m, lambda t: t[::-1]), code)
    if "chr" in code or "CharCode" in code or "bytes([" in code:
        code = _CODES.sub(lambda m: _folded(m, _from_codes), code)
    if _DECODER_HINT.search(code):
        code = _chains(code, decoded)
    if "64" in code or "atob" in code:
        code = _BASE64_CALL.sub(lambda m: _folded(m, lambda t: base64.b64decode(t + "=" * (-len(t) % 4)).decode("utf-8")),
                                code)
    if "hex" in code or "pack" in code:
        code = _HEX_CALL.sub(lambda m: _folded(m, lambda t: bytes.fromhex(t).decode("utf-8")), code)
    return code


_NUMBERS = r"\[?\s{0,4}(\d{1,3}(?:\s{0,4},\s{0,4}\d{1,3}){0,2000})\s{0,4},?\s{0,4}\]?"
# Text spelled as character codes: `''.join(map(chr, [114, 109]))`, `''.join(chr(c) for c in […])`,
# `bytes([114, 109]).decode()`, `String.fromCharCode(114, 109)`.
_CODES = re.compile(
    r"(?:''|\"\")\.join\(\s{0,4}map\(\s{0,4}chr\s{0,4},\s{0,4}" + _NUMBERS + r"\s{0,4}\)\s{0,4}\)"
    r"|(?:''|\"\")\.join\(\s{0,4}\[?\s{0,4}chr\(\s{0,4}\w{1,20}\s{0,4}\)\s{1,4}for\s{1,4}\w{1,20}\s{1,4}in\s{1,4}"
    + _NUMBERS + r"\s{0,4}\]?\s{0,4}\)"
    r"|bytes\(\s{0,4}" + _NUMBERS + r"\s{0,4}\)\.decode\(\s{0,4}(?:['\"][\w-]{1,10}['\"])?\s{0,4}\)"
    r"|String\.fromCharCode\(\s{0,4}(?:\.\.\.)?" + _NUMBERS + r"\s{0,4}\)"
)


def _from_codes(digits: str) -> str:
    return "".join(chr(int(number)) for number in re.findall(r"\d{1,3}", digits))


_IMPORTED = re.compile(r"(?:__import__|importlib\.import_module|import_module)\(\s{0,4}['\"]([\w.]{1,60})['\"]\s{0,4}\)")
_GETATTR = re.compile(r"\bgetattr\(\s{0,4}([\w.]{1,80})\s{0,4},\s{0,4}['\"](\w{1,60})['\"]\s{0,4}\)")


def _plain_names(code: str) -> str:
    """`__import__('os')`, `importlib.import_module('os')` and `getattr(os, 'system')` written as the
    names they stand for (`os`, `os.system`)."""
    code = _IMPORTED.sub(lambda m: m.group(1), code)
    for _ in range(4):
        folded = _GETATTR.sub(lambda m: m.group(1) + "." + m.group(2), code)
        if folded == code:
            break
        code = folded
    return code


_DECODER_HINT = re.compile(r"decompress|b64decode|decodebytes|fromhex|unhexlify|a2b_hex|a2b_base64")
_HOLE = "\x00"
_DECODER = re.compile(
    r"(?:base64\.b64decode|base64\.urlsafe_b64decode|base64\.decodebytes|b64decode|binascii\.a2b_base64"
    r"|zlib\.decompress|gzip\.decompress|lzma\.decompress|bz2\.decompress|bytes\.fromhex|binascii\.unhexlify"
    r"|binascii\.a2b_hex|unhexlify)\(\s{0,4}(?:b?" + _Q + r"|\x00(\d{1,3})\x00)\s{0,4}(?:,[^()]{0,40})?\)"
    r"(?:\.decode\(\s{0,4}(?:['\"][\w-]{1,12}['\"])?\s{0,4}\))?"
)
MAX_DECODED = 64_000


def _chains(code: str, decoded: list[str] | None) -> str:
    """Folds calls of decoders (base64, hex, zlib, gzip, lzma, bz2) on literals, innermost first; a result
    that is text replaces the outermost call as a literal, a result still binary leaves the code as it was."""
    values: list[bytes] = []

    def one(match: re.Match[str]) -> str:
        head = match.group(0).split("(", 1)[0]
        hole = match.group(3)
        data = values[int(hole)] if hole is not None else _first(match).encode("latin-1", "replace")
        try:
            out = _decode_step(head, data)
        except (binascii.Error, ValueError, zlib.error, lzma.LZMAError, OSError, EOFError):
            return match.group(0)
        if out is None or len(values) >= 32:
            return match.group(0)
        values.append(out[:MAX_DECODED])
        return _HOLE + str(len(values) - 1) + _HOLE

    folded = code
    for _ in range(6):
        step = _DECODER.sub(one, folded)
        if step == folded:
            break
        folded = step
    if not values:
        return code

    def text(match: re.Match[str]) -> str:
        data = values[int(match.group(1))]
        try:
            value = data.decode("utf-8")
        except UnicodeDecodeError:
            return match.group(0)
        if decoded is not None and len(decoded) < 8:
            decoded.append(value)
        return _quote(value)

    folded = re.sub(r"\x00(\d{1,3})\x00", text, folded)
    return code if _HOLE in folded else folded


def _decode_step(head: str, data: bytes) -> bytes | None:
    if "b64" in head or "base64" in head or "decodebytes" in head:
        compact = b"".join(data.split())
        if b"-" in compact or b"_" in compact:
            return base64.urlsafe_b64decode(compact + b"=" * (-len(compact) % 4))
        return base64.b64decode(compact + b"=" * (-len(compact) % 4))
    if "hex" in head:
        return bytes.fromhex(data.decode("latin-1"))
    if head.startswith("zlib"):
        return zlib.decompressobj(47).decompress(data, MAX_DECODED)
    if head.startswith("gzip"):
        return zlib.decompressobj(47).decompress(data, MAX_DECODED)
    if head.startswith("lzma"):
        return lzma.LZMADecompressor().decompress(data, MAX_DECODED)
    if head.startswith("bz2"):
        return bz2.BZ2Decompressor().decompress(data, MAX_DECODED)
    return None


_JOINED = re.compile(_LITERAL + r"\s{0,4}(?:\.\.?|\+|&)\s{0,4}" + _LITERAL)


def _join_literals(code: str) -> str:
    """String literals joined by `.`, `..`, `+` or `&` (`"rm -rf " . '~'`) written as one literal."""
    for _ in range(8):
        folded = _JOINED.sub(lambda m: _quote(_unquoted(m.group(0))), code, count=1)
        if folded == code:
            break
        code = folded
    return code


_PAIR = re.compile(_Q + r"\s{0,4}(?:\.\.?|\+|&)\s{0,4}" + _Q)


def _unquoted(text: str) -> str:
    """The text of two joined literals."""
    match = _PAIR.search(text)
    if match is None:
        return text
    left = next(g for g in match.groups()[:2] if g is not None)
    right = next(g for g in match.groups()[2:] if g is not None)
    return left + right


def resolved(code: str, decoded: list[str] | None = None) -> str:
    """The code with decoded literals folded (each also added to `decoded`), home-directory expressions
    written as `'~'` and names bound to one literal (`p = '/'`) written as that literal where they are
    passed to a call."""
    code = fold_literals(code, decoded)
    if "HOME" in code or "home" in code or "expand" in code or "UserHomeDir" in code:
        code = _HOME_EXPRESSION.sub("'~'", code)
    if _JOINED.search(code) is not None:
        code = _join_literals(code)
    if "=" not in code:
        return code
    bound: dict[str, str] = {}
    for match in _ASSIGNMENT.finditer(code):
        value = _first(match, 2)
        if "'" not in value and '"' not in value:
            bound[match.group(1)] = value
        if len(bound) >= MAX_VARIABLES:
            break
    if not bound:
        return code
    names = "|".join(map(re.escape, sorted(bound, key=len, reverse=True)))
    use = re.compile(r"(?<=[(,\[])(\s{0,4})[$@]?(" + names + r")\b(?=\s{0,4}[,)\]])")
    return use.sub(lambda m: m.group(1) + "'" + bound[m.group(2)] + "'", code)


def inspect(code: str) -> Payload:
    """Finds shell strings, deletions, writes, sockets, fork loops and decoding in `code`."""
    found = Payload()
    code = resolved(code, found.decoded)
    if "exec" in code or "eval" in code or "compile" in code:
        found.decoded.extend(_first(m) for m in _EVALUATED.finditer(code))
    if "shell script" in code:
        found.shell.extend(text for m in _APPLESCRIPT.finditer(code) if (text := applescript_text(m.group(1))))
    if "system2" in code:
        for match in _SYSTEM2.finditer(code):
            found.shell.append(" ".join(shlex.quote(part) for part in [_first(match)] + [
                _first(m) for m in _QUOTED.finditer(match.group(3))]))
    if "Deno" in code:
        for match in _DENO_ARGV.finditer(code):
            found.shell.append(" ".join(shlex.quote(part) for part in [_first(match)] + [
                _first(m) for m in _QUOTED.finditer(match.group(3))]))
    for match in _SHELL_CALL.finditer(code):
        found.shell.append(_first(match))
    for match in _SHELL_LIST.finditer(code):
        parts = [_first(m) for m in _QUOTED.finditer(match.group(1))]
        if parts:
            found.shell.append(" ".join(parts))
    for match in (*_ARGV_CALL.finditer(code), *_ARGV_BARE.finditer(code)):
        parts = [_first(m) for m in _QUOTED.finditer(_KEYWORD.sub("", match.group(1)))]
        if len(parts) > 1:
            found.shell.append(" ".join(shlex.quote(part) for part in parts))
    if "`" in code:
        found.shell.extend(m.group(1) for m in _BACKTICK.finditer(code))
    if "qx" in code:
        start = 0
        for _ in range(MAX_VARIABLES):
            at = code.find("qx", start)
            if at == -1:
                break
            quoted = _QX.match(code, at)
            if quoted is not None:
                found.shell.append(quoted.group(1) or quoted.group(2) or quoted.group(3) or quoted.group(5))
            start = at + 2
    found.deletes = [_first(m) for m in _DELETE.finditer(code)]
    found.writes = [_first(m) for m in _WRITE.finditer(code)]
    found.writes.extend(_first(m) for m in _OS_OPEN.finditer(code))
    found.writes.extend(_first(m) for m in _PERL_OPEN.finditer(code))
    for match in _PATH_METHOD.finditer(code):
        target = found.deletes if match.group(3) in ("rmdir", "unlink") else found.writes
        target.append(_first(match))
    if _WALKING.search(code) and _DELETING.search(code):
        found.deletes.extend(_first(m) for m in _WALK.finditer(code))
    found.forks = _forks(code)
    found.network = _NETWORK.search(code) is not None
    if "kill" in code:
        found.kills_all = _KILL_ALL.search(code) is not None
    if found.network:
        found.secrets = _secret_literals(code)
        found.environment = ("env" in code or "ENV" in code) and _WHOLE_ENVIRONMENT.search(code) is not None
    found.reverse_shell = _SOCKET.search(code) is not None and _SPAWN.search(code) is not None
    found.native = _NATIVE.search(code) is not None
    found.obfuscated = _OBFUSCATED.search(code) is not None
    if found.obfuscated:
        for match in _B64_LITERAL.finditer(code):
            try:
                text = base64.b64decode(match.group(1), validate=True).decode("utf-8")
            except (binascii.Error, UnicodeDecodeError, ValueError):
                continue
            if text.isprintable() or "\n" in text:
                found.decoded.append(text)
    return found


def _secret_literals(code: str) -> list[str]:
    """Secret locations named by the code's string literals (`'~/.ssh/id_rsa'`, `'/etc/shadow'`, a
    home expression joined with `'.aws/credentials'`); only asked when the code also talks to the network."""
    found = []
    for match in _HOME_JOIN.finditer(code):
        path = "~/" + _first(match).lstrip("/")
        if is_secret(path):
            found.append(path)
    for match in (*_TILDE_CALL.finditer(code), *_QUOTED.finditer(code)):
        text = _first(match)
        if ("/" in text or text.startswith("~")) and len(text) < 400 and is_secret(text):
            found.append(text)
        if len(found) >= MAX_VARIABLES:
            break
    return found


def _enclosing(code: str, at: int) -> int:
    """Where the bracket around a comprehension's `for` opens (`[os.fork() for _ in count()]`), or `at`."""
    depth = 0
    for index in range(at - 1, max(-1, at - 121), -1):
        ch = code[index]
        if ch in ")]":
            depth += 1
        elif ch in "([":
            if depth == 0:
                return index
            depth -= 1
    return at


def _forks(code: str) -> bool:
    """True when processes are started in a loop that never waits or ends (`while True: os.fork()`,
    `fork while 1`, `loop { fork }`, `setInterval(() => child_process.fork(…))`)."""
    if "fork" not in code and "spawn" not in code and "Popen" not in code:
        return False
    if _MODIFIER_FORK.search(code):
        return True
    for index, match in enumerate(_ENDLESS.finditer(code)):
        if index >= 64:
            break
        start = _enclosing(code, match.start()) if match.group(0).startswith("for") else match.start()
        window = code[start : match.end() + 200]
        if _SPAWN_CALL.search(window) and not _WAITS.search(window):
            return True
    return False


_AWK_STRING = r'"(?:[^"\\\n]|\\.){0,400}"'
_AWK_TERM = r"(?:" + _AWK_STRING + r"|ENVIRON\[\s{0,4}\"\w{1,40}\"\s{0,4}\]|[A-Za-z_]\w{0,30}|\$\d{1,2})"
_AWK_EXPRESSION = _AWK_TERM + r"(?:\s{0,4}" + _AWK_TERM + r"){0,8}"
_AWK_SYSTEM = re.compile(r"\bsystem\s{0,4}\(\s{0,4}(" + _AWK_EXPRESSION + r")\s{0,4}\)")
_AWK_GETLINE = re.compile(r"(" + _AWK_EXPRESSION + r")\s{0,4}\|\s{0,4}getline\b")
_AWK_PIPE = re.compile(r"\bprintf?\b\s{0,4}(" + _AWK_EXPRESSION + r")?\s{0,4}\|\s{0,4}(" + _AWK_EXPRESSION + r")")
_AWK_TOKEN = re.compile(_AWK_TERM)
_AWK_ASSIGN = re.compile(r"\b([A-Za-z_]\w{0,30})\s{0,4}=(?!=)\s{0,4}(" + _AWK_EXPRESSION + r")")
_AWK_FIELD = re.compile(r"\$\d")
_AWK_ESCAPE = re.compile(r"\\(.)", re.S)
_AWK_ESCAPES = {"n": "\n", "t": "\t", "\\": "\\", '"': '"', "/": "/"}
AWK_SHELLS = frozenset("sh bash dash zsh ksh ash busybox".split())


@dataclass
class AwkPayload:
    """The shell commands an awk program runs: `system()`, `cmd | getline`, `print | cmd`; and
    whether it pipes its input lines (`print | "sh"`) into a shell."""

    shell: list[str] = field(default_factory=list)
    runs_input: bool = False


def awk(program: str, variables: dict[str, str], lines: list[str] | None = None) -> AwkPayload:
    """Reads an awk program; `variables` are the `-v name=value` assignments given to it and
    `lines` its input when known (`$0`, `$1`, … are then read from each of the first four)."""
    found = AwkPayload()
    if "system" not in program and "|" not in program:
        return found
    records: list[str | None] = [line for line in (lines or [])[:4]] or [None]
    for record in records:
        bound = dict(variables)
        for match in _AWK_ASSIGN.finditer(program):
            value = awk_value(match.group(2), bound, record)
            if value is not None:
                bound[match.group(1)] = value
        for pattern in (_AWK_SYSTEM, _AWK_GETLINE):
            for match in pattern.finditer(program):
                found.shell.append(awk_value(match.group(1), bound, record) or match.group(1))
        for match in _AWK_PIPE.finditer(program):
            command = awk_value(match.group(2), bound, record) or match.group(2)
            printed = awk_value(match.group(1), bound, record) if match.group(1) else None
            if command.split()[:1] and command.split()[0].rsplit("/", 1)[-1] in AWK_SHELLS:
                if printed is not None:
                    found.shell.append(printed)
                else:
                    found.runs_input = True
            else:
                found.shell.append(command)
    return found


def awk_value(expression: str, bound: dict[str, str], record: str | None = None) -> str | None:
    """The text an awk concatenation of literals, bound names, `ENVIRON[…]` and fields of `record`
    stands for, or None."""
    parts = []
    for token in _AWK_TOKEN.findall(expression):
        if token.startswith('"'):
            parts.append(_AWK_ESCAPE.sub(lambda m: _AWK_ESCAPES.get(m.group(1), m.group(1)), token[1:-1]))
        elif token.startswith("ENVIRON"):
            name = token.split('"')[1]
            parts.append("~" if name == "HOME" else "$" + name)
        elif token.startswith("$"):
            if record is None:
                return None
            index = int(token[1:])
            fields = record.split()
            parts.append(record if index == 0 else fields[index - 1] if index <= len(fields) else "")
        elif token in bound:
            parts.append(bound[token])
        else:
            return None
    return "".join(parts)


_AWK_PRINT_ONLY = re.compile(r"\s{0,8}\{\s{0,8}print\s{1,4}(" + _AWK_EXPRESSION + r")\s{0,8};?\s{0,8}\}\s{0,8}")


def awk_prints(program: str, text: str) -> str | None:
    """What `awk '{print EXPR}'` writes for `text` when EXPR is literals and fields, or None."""
    match = _AWK_PRINT_ONLY.fullmatch(program)
    if match is None:
        return None
    out = []
    for line in text.split("\n")[:64]:
        if not line:
            continue
        value = awk_value(match.group(1), {}, line)
        if value is None:
            return None
        out.append(value)
    return "\n".join(out)
