"""Launchers, tracers, multiplexers, schedulers and fan-out tools in front of a catastrophic command (issue 12).

Whatever runs the command — a profiler, a transient unit, another namespace, a detached terminal,
`at`, a configuration-management ad-hoc command, a parallel shell — the command inside is rated
as if it stood alone, and the launcher keeps its own dangerous rule where it adds risk. These
strings are data: they are only ever classified, never run.
"""

from __future__ import annotations

import pytest

from engine.gate.verdict import Level

TRACERS = [
    "valgrind rm -rf /",
    "valgrind --leak-check=full --trace-children=yes rm -rf /",
    "valgrind -q --tool=memcheck rm -rf ~",
    "strace -f rm -rf /",
    "strace -f -o /tmp/t.log rm -rf /",
    "strace -e trace=file rm -rf /",
    "strace -ff -s 200 -e trace=%file -o out rm -rf /",
    "ltrace -f rm -rf /",
    "ltrace -o /tmp/l.txt -e malloc rm -rf /",
    "perf record -- rm -rf /",
    "perf stat rm -rf /",
    "perf record -g -o /tmp/p.data rm -rf /",
    "perf stat -e cycles -- dd if=/dev/zero of=/dev/sda",
    "gdb --args rm -rf /",
    "gdb -q -batch -ex run --args rm -rf /",
]

SERVICES_AND_NAMESPACES = [
    "systemd-run rm -rf /",
    "systemd-run --scope -p MemoryMax=1G -- rm -rf /",
    "systemd-run --user --wait -- rm -rf ~",
    "systemd-run --unit wipe --on-active=30 rm -rf /",
    "nsenter -t 1 -m -u -i -n -p -- rm -rf /",
    "nsenter --target 1 --mount rm -rf /",
    "nsenter -t 1 -a rm -rf /",
    "unshare -r rm -rf /",
    "unshare --mount --pid --fork rm -rf /",
    "setpriv --reuid=0 --regid=0 --init-groups rm -rf /",
    "capsh -- -c 'rm -rf /'",
    "capsh --drop=cap_net_raw -- -c 'rm -rf /'",
    "pkexec rm -rf /",
    "pkexec --user root rm -rf /",
    "runuser -u root -- rm -rf /",
    "chpst -u root rm -rf /",
    "sg wheel -c 'rm -rf /'",
    "sg wheel 'rm -rf /'",
    "proot -0 rm -rf /",
    "proot -r / -b /dev rm -rf /",
    "fakeroot rm -rf /",
    "fakeroot -- rm -rf /",
]

TERMINALS_AND_SCHEDULERS = [
    "script -c 'rm -rf /' /dev/null",
    "script -q -c 'rm -rf /'",
    "tmux new -d 'rm -rf /'",
    "tmux new-session -d -s x 'rm -rf /'",
    "tmux new-window 'rm -rf /'",
    "tmux split-window -h 'rm -rf ~'",
    "tmux send-keys -t 0 'rm -rf /' Enter",
    "tmux send -t main:0 'rm -rf /' C-m",
    "tmux run-shell 'rm -rf /'",
    "screen -dm rm -rf /",
    "screen -dmS job rm -rf /",
    "screen -dmS job bash -c 'rm -rf /'",
    "screen -S job -X stuff 'rm -rf /\\n'",
    "echo 'rm -rf /' | at now",
    "at now <<< 'rm -rf /'",
    "at now + 1 minute <<< 'rm -rf /'",
    "batch <<< 'rm -rf /'",
    "at midnight <<EOF\nrm -rf /\nEOF",
    "watch -n 1 'rm -rf /'",
    "watch -x rm -rf /",
    "watch -d -n 5 rm -rf /",
    "ls | entr rm -rf /",
    "ls | entr -s 'rm -rf /'",
]

REMOTE_FANOUT = [
    "ansible all -m shell -a 'rm -rf /'",
    "ansible all -m command -a 'rm -rf /'",
    "ansible all -m raw -a 'rm -rf /'",
    "ansible all -a 'rm -rf /'",
    "ansible webservers -b -m ansible.builtin.shell -a 'rm -rf /'",
    "salt '*' cmd.run 'rm -rf /'",
    "salt -G 'os:Ubuntu' cmd.run 'rm -rf /'",
    "salt-ssh '*' cmd.run 'rm -rf /'",
    "pdsh -w host[1-9] rm -rf /",
    "pdsh -w web1 'rm -rf /'",
    "clush -a 'rm -rf /'",
    "clush -w node[1-4] -b rm -rf /",
    "sshpass -p secret ssh root@host 'rm -rf /'",
    "sshpass -f pw.txt ssh host rm -rf /",
]

PLAIN_LAUNCHERS = [
    "unbuffer rm -rf /",
    "faketime '2020-01-01' rm -rf /",
    "faketime -f '+2d' rm -rf /",
    "xvfb-run -a rm -rf /",
    "dbus-run-session -- rm -rf /",
    "torsocks rm -rf /",
    "proxychains4 -q rm -rf /",
    "busybox sh -c 'rm -rf /'",
    "env -S 'rm -rf /'",
    "stdbuf -oL rm -rf /",
    "numactl --interleave=all rm -rf /",
    "numactl -C 0 rm -rf /",
    "hyperfine 'rm -rf /'",
    "hyperfine --runs 1 'rm -rf /'",
    "hyperfine -p 'rm -rf /' 'ls'",
    "time rm -rf /",
    "time -p rm -rf /",
    "nice -n 19 ionice -c3 strace -f rm -rf /",
    "sudo -u root valgrind rm -rf /",
    "strace -f mkfs.ext4 /dev/sda",
    "systemd-run dd if=/dev/zero of=/dev/sda",
]

CATASTROPHIC = TRACERS + SERVICES_AND_NAMESPACES + TERMINALS_AND_SCHEDULERS + REMOTE_FANOUT + PLAIN_LAUNCHERS

DANGEROUS = [
    "strace -c ls",
    "strace -p 1234",
    "valgrind ./a.out",
    "perf stat ls",
    "gdb --args ./prog",
    "systemd-run --scope ls",
    "nsenter -t 1 -m ls",
    "unshare -r",
    "fakeroot",
    "capsh --",
    "tmux new -d 'sleep 100'",
    "screen -dmS job sleep 100",
    "at now <<< 'ls'",
    "ansible all -m shell -a 'uptime'",
    "salt '*' cmd.run 'uptime'",
    "pdsh -w web1 uptime",
    "tmux new -d",
    "hyperfine 'ls'",
    "watch -x rm notes.txt",
]

NOT_CATASTROPHIC = [
    "tmux ls",
    "tmux list-sessions",
    "screen -ls",
    "at -l",
    "ansible all -m ping",
    "ansible-inventory --list",
]

SAFE = [
    "time ls",
    "nice -n 10 ls -la",
    "stdbuf -oL grep foo notes.txt",
    "timeout 5 cat notes.txt",
    "watch -n 1 ls",
]


@pytest.mark.parametrize("command", CATASTROPHIC)
def test_launched_catastrophe_is_catastrophic(shell, command: str) -> None:
    verdict = shell(command)
    assert verdict.level is Level.CATASTROPHIC, f"{command!r}: {verdict.level.label} {verdict.rules}"


@pytest.mark.parametrize("command", DANGEROUS)
def test_launcher_keeps_its_own_risk(shell, command: str) -> None:
    verdict = shell(command)
    assert verdict.level is Level.DANGEROUS, f"{command!r}: {verdict.level.label} {verdict.rules}"


@pytest.mark.parametrize("command", NOT_CATASTROPHIC)
def test_listing_sessions_and_jobs_is_not_catastrophic(shell, command: str) -> None:
    assert shell(command).level is not Level.CATASTROPHIC


@pytest.mark.parametrize("command", SAFE)
def test_plain_launcher_of_a_read_only_command_stays_safe(shell, command: str) -> None:
    verdict = shell(command)
    assert verdict.level is Level.SAFE, f"{command!r}: {verdict.level.label} {verdict.rules}"


def test_tracer_names_its_rule(shell) -> None:
    verdict = shell("strace -f rm -rf /")
    assert "exec.debugger" in verdict.rules and "fs.rm-root" in verdict.rules


def test_fanout_names_its_rule(shell) -> None:
    verdict = shell("ansible all -m shell -a 'rm -rf /'")
    assert "exec.remote-fanout" in verdict.rules and "fs.rm-root" in verdict.rules


def test_detached_terminal_names_its_rule(shell) -> None:
    assert "exec.detached" in shell("tmux new -d 'rm -rf /'").rules
