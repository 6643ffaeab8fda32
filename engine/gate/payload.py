"""Reads inline code (python -c, node -e, perl -e, code.run, …) for what it can do.

No interpreter runs: regular expressions with bounded repetition pick out shell strings
handed to system()/exec, deleted and written paths, sockets, native loading and decoding.
"""

from __future__ import annotations

import base64
import binascii
import re
from dataclasses import dataclass, field

_Q = r"""(?:'([^'\n]{0,4000})'|"([^"\n]{0,4000})")"""
_SHELL_CALL = re.compile(
    r"(?:os\.system|os\.popen|os\.exec\w{0,3}|subprocess\.\w{1,16}|commands\.getoutput|pty\.spawn|\bsystem|\bexec"
    r"|execSync|spawnSync|\bspawn|execFileSync|execFile|shell_exec|passthru|\bpopen|proc_open|IO\.popen|%x"
    r"|callCommand|run-shell-command|os\.execute|io\.popen|Runtime\.getRuntime\(\)\.exec|\bqx|open3\.\w{1,12})"
    r"\s{0,4}[\(\{]?\s{0,4}\[?\s{0,4}(?:r|b)?" + _Q
)
_SHELL_LIST = re.compile(r"(?:subprocess\.\w{1,16}|spawnSync|execFileSync|\bspawn|os\.exec\w{0,3})\s{0,4}\(\s{0,4}\[([^\]]{0,2000})\]")
_BACKTICK = re.compile(r"`([^`\n]{1,4000})`")
_QUOTED = re.compile(_Q)
_DELETE = re.compile(
    r"(?:shutil\.rmtree|os\.remove|os\.unlink|os\.rmdir|os\.removedirs|FileUtils\.rm_rf|FileUtils\.rm_r|FileUtils\.rm"
    r"|FileUtils\.remove_dir|FileUtils\.remove_entry\w{0,8}|File\.delete|Dir\.delete|fs\.rmSync|fs\.rmdirSync"
    r"|fs\.unlinkSync|\.unlinkSync|\.rmSync|\.rmdirSync|fs\.promises\.rm|fs\.rm|fs\.unlink|fs\.rmdir|rimraf\w{0,5}|\bunlink|\brmdir|remove_tree|rmtree"
    r"|os\.RemoveAll|os\.Remove|Files\.delete\w{0,8})\s{0,4}\(?\s{0,4}(?:r|b|Path\()?" + _Q
)
_WRITE = re.compile(
    r"(?:\bopen|io\.open|fopen|File\.open|File\.new)\s{0,4}\(\s{0,4}(?:r|b)?" + _Q + r"\s{0,4},\s{0,4}['\"](?:[wa]|r\+|w\+)"
    r"|(?:writeFileSync|appendFileSync|writeFile|appendFile|file_put_contents|File\.write|IO\.write|write_text"
    r"|write_bytes|openout|copyfile|shutil\.copy\w{0,4}|shutil\.move|os\.rename|os\.replace|\bcp|\bmv)"
    r"\s{0,4}\(\s{0,4}(?:r|b|Path\()?" + _Q
)
_NETWORK = re.compile(
    r"\b(?:socket|urllib\w{0,2}|requests\.\w{1,8}|http\.client|httpx|aiohttp|fetch\s{0,2}\(|XMLHttpRequest|Net::HTTP"
    r"|TCPSocket|UDPSocket|IO::Socket|fsockopen|curl_exec|curl_init|net\.connect|net\.Socket|net\.createConnection"
    r"|https?\.(?:get|request)|urlopen|LWP|HTTP::Tiny|WebSocket|smtplib|ftplib|paramiko|Socket\.new"
    r"|socket\.connect|dgram|dns\.resolve)\b|https?://|ftp://",
)
_SOCKET = re.compile(r"\b(?:socket|TCPSocket|IO::Socket|fsockopen|net\.connect|net\.Socket|Socket\.new|createConnection|ztcp)\b")
_SPAWN = re.compile(r"dup2|pty\.spawn|/bin/(?:ba|z|da|k)?sh\b|cmd\.exe|powershell|\bpopen|subprocess|\bexec\w{0,4}\s{0,2}\(|spawn|\bsystem\s{0,2}\(|\.gets\b.{0,80}\bpopen")
_NATIVE = re.compile(r"\b(?:ctypes|cdll|CDLL|dlopen|Fiddle|ffi\.|LoadLibrary|System\.load\w{0,7}|DynaLoader|ctypes\.util)\b|LD_PRELOAD")
_OBFUSCATED = re.compile(
    r"\b(?:eval|exec|compile|Function)\s{0,2}\(|b64decode|base64\.|atob\s{0,2}\(|fromCharCode|unhexlify"
    r"|codecs\.decode|\\x[0-9a-fA-F]{2}\\x[0-9a-fA-F]{2}|\bchr\s{0,2}\(\s{0,2}\d{2,3}\s{0,2}\)\s{0,2}\+|__import__|getattr\s{0,2}\(",
)
_B64_LITERAL = re.compile(r"['\"]([A-Za-z0-9+/]{16,8000}={0,2})['\"]")


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
    decoded: list[str] = field(default_factory=list)


def _first(match: re.Match[str], start: int = 1) -> str:
    return next((g for g in match.groups()[start - 1 :] if g is not None), "")


def inspect(code: str) -> Payload:
    """Finds shell strings, deletions, writes, sockets and decoding in `code`."""
    found = Payload()
    for match in _SHELL_CALL.finditer(code):
        found.shell.append(_first(match))
    for match in _SHELL_LIST.finditer(code):
        parts = [_first(m) for m in _QUOTED.finditer(match.group(1))]
        if parts:
            found.shell.append(" ".join(parts))
    if "`" in code:
        found.shell.extend(m.group(1) for m in _BACKTICK.finditer(code))
    found.deletes = [_first(m) for m in _DELETE.finditer(code)]
    found.writes = [_first(m) for m in _WRITE.finditer(code)]
    found.network = _NETWORK.search(code) is not None
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
