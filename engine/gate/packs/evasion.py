"""Evasion and persistence rules: start-up files, scheduled jobs, log wiping, security switches."""

from __future__ import annotations

from engine.gate.paths import is_startup, is_tool_config, is_unseen_config
from engine.gate.packs import macos, security
from engine.gate.packs.model import DANGEROUS, IRREVERSIBLE, Pack, any_operand, rule
from engine.gate.shell.modes import sets_privilege_bits
from engine.gate.shell.view import Command
from engine.gate.shell.writes import WRITERS, written


def _log_path(path: str) -> bool:
    return path.startswith(("/var/log", "/var/adm"))


def _writes_startup(cmd) -> bool:
    if not cmd.redirects and cmd.name not in WRITERS:
        return False
    for path in written(cmd):
        if is_startup(path):
            return True
    return False


def _writes_tool_config(cmd) -> str | None:
    """The first tool configuration file the command writes, named for the approver."""
    if not cmd.redirects and cmd.name not in WRITERS:
        return None
    for path in written(cmd):
        if is_tool_config(path):
            return path
    return None


def _writes_unseen_config(cmd) -> str | None:
    """The first hook or hidden setting the command writes (`is_unseen_config`), named for the approver."""
    found = _writes_tool_config(cmd)
    return next((path for path in written(cmd) if is_unseen_config(path)), None) if found else None


def _switches_off(cmd: Command) -> bool:
    """Any use but the status and listing forms the security and macOS packs prove read-only."""
    if cmd.name == "sysctl":
        return "-w" in cmd.flags or "=" in cmd.text
    proof = security.READ_ONLY.get(cmd.name) or macos.READ_ONLY.get(cmd.name)
    return proof is None or proof(cmd) is not None


RULES = [
    rule("fs.write-tool-config", DANGEROUS, "exec injection", "writes a tool's configuration, hooks or build script (later "
         "commands run what it names)", test=_writes_tool_config, cite=True,
         examples=["echo '[core] fsmonitor = ./x' >> .git/config", "cp x .git/hooks/pre-commit", "tee Makefile",
                   "sed -i s/a/b/ package.json", "cd .git && echo x >> config", "mkdir -p .vscode"],
         counter=["echo x >> notes.txt", "cat .git/config", "cp notes.txt notes.bak"]),
    rule("fs.write-unseen-config", DANGEROUS, "exec injection", "writes hooks or settings that git, an editor or the "
         "shell run unseen, outside the sandbox", test=_writes_unseen_config, cite=True, tier=IRREVERSIBLE,
         examples=["echo '[core] fsmonitor = ./x' >> .git/config", "cp x .git/hooks/pre-commit", "tee .envrc",
                   "mkdir -p .vscode"],
         counter=["tee Makefile", "sed -i s/a/b/ package.json", "echo x >> notes.txt", "cat .git/config"]),
    rule("evasion.startup-file", DANGEROUS, "evasion", "changes a shell start-up file, autostart entry or service unit",
         test=_writes_startup, tier=IRREVERSIBLE,
         examples=["echo backdoor >> ~/.bashrc", "cp evil.service /etc/systemd/system/", "tee -a ~/.ssh/authorized_keys"],
         counter=["cat ~/.bashrc", "echo x >> notes.txt"]),
    rule("evasion.crontab", DANGEROUS, "evasion", "edits or replaces scheduled jobs", names="crontab",
         test=lambda c: "-l" not in c.flags or bool(c.flags - {"-l", "-u"}), tier=IRREVERSIBLE,
         examples=["crontab -e", "crontab -r", "crontab jobs.txt"], counter=["crontab -l"]),
    rule("evasion.service-enable", DANGEROUS, "evasion", "enables a service to start at boot",
         names="systemctl update-rc.d chkconfig launchctl rc-update", args=r"\b(?:enable|defaults|on|load|bootstrap|add)\b",
         examples=["systemctl enable malware.service", "launchctl load ~/Library/LaunchAgents/x.plist"],
         counter=["systemctl is-enabled x"]),
    rule("evasion.history-wipe", DANGEROUS, "evasion", "clears or disables shell history",
         raw="always", needles="history histfile histsize +o", args=r"\bhistory\s{1,4}-[cwd]|\bunset\s{1,4}HISTFILE|HISTFILE=/dev/null|HISTSIZE=0|set\s{1,4}\+o\s{1,4}history",
         examples=["history -c", "unset HISTFILE", "export HISTFILE=/dev/null"], counter=["history | tail"]),
    rule("evasion.log-wipe", DANGEROUS, "evasion fs", "deletes, truncates or rotates away system logs",
         names="rm shred truncate journalctl wevtutil logrotate cp mv", tier=IRREVERSIBLE,
         test=lambda c: any_operand(c, _log_path)
         or "--vacuum" in c.text or "--rotate" in c.text or (c.name == "wevtutil" and "cl" in c.operands),
         examples=["rm /var/log/auth.log", "shred -vfz /var/log/secure", "journalctl --vacuum-time=1s"],
         counter=["tail /var/log/syslog"]),
    rule("evasion.log-redirect", DANGEROUS, "evasion fs", "overwrites a log file", tier=IRREVERSIBLE, scope="redirect",
         test=lambda c: any(t.startswith(("/var/log", "/var/adm")) for t in c.out_targets()),
         examples=["echo > /var/log/wtmp", ": > /var/log/auth.log"], counter=["echo > app.log"]),
    rule("evasion.security-off", DANGEROUS, "evasion", "turns off a security control (SELinux, AppArmor, audit, Defender)",
         names="setenforce aa-teardown auditctl aa-disable aa-complain spctl csrutil Set-MpPreference sysctl",
         tier=IRREVERSIBLE, test=lambda c: _switches_off(c),
         examples=["setenforce 0", "auditctl -D", "sysctl -w kernel.randomize_va_space=0", "csrutil disable",
                   "spctl --master-disable"],
         counter=["sysctl -a", "auditctl -l", "auditctl -s", "csrutil status", "spctl --status",
                  "spctl --assess -v /Applications/Safari.app"]),
    rule("evasion.setuid", DANGEROUS, "evasion", "sets the setuid/setgid bit (a privilege escalation foothold)",
         names="chmod install", test=sets_privilege_bits, tier=IRREVERSIBLE, cite=True,
         examples=["chmod +s /bin/bash", "chmod 4755 /tmp/sh", "chmod g+s x", "chmod 3755 x", "chmod u=rwxs x",
                   "install -m 4755 /usr/bin/id ./id-suid", "install --mode=2755 a b"],
         counter=["chmod 755 x", "chmod u-s x", "chmod 1777 shared", "chmod o+s x", "install -m 755 a b"]),
    rule("evasion.immutable", DANGEROUS, "evasion", "makes files immutable or hides them from deletion", names="chattr",
         args=r"\+[ia]", examples=["chattr +i /etc/resolv.conf"], counter=["lsattr x"]),
    rule("evasion.kernel-module", DANGEROUS, "evasion exec", "loads or removes kernel modules",
         names="insmod rmmod modprobe kextload kmutil", test=lambda c: not c.flags & {"-n", "--dry-run", "-c"},
         tier=IRREVERSIBLE, examples=["insmod rootkit.ko", "modprobe -r x"], counter=["lsmod"]),
    rule("evasion.alias", DANGEROUS, "evasion injection", "redefines a command name with an alias", names="alias",
         test=lambda c: any("=" in a for a in c.args), examples=["alias ls='rm -rf'"], counter=["alias"]),
    rule("evasion.function-shadow", DANGEROUS, "evasion injection", "defines a function that shadows a common command",
         names="function", test=lambda c: len(c.argv) > 1 and c.argv[1] in (
             "cd ls cat echo sudo rm cp mv git ssh curl wget grep ps kill exit source test command type which"
             " python python3 pip npm make".split()),
         examples=["function cd() { echo 'hello'; }", "sudo() { echo x; }"], counter=["greet() { echo hi; }"]),
    rule("evasion.timestomp", DANGEROUS, "evasion", "backdates file timestamps", names="touch",
         args=r"(?:^|\s)(?:-d|-t|-r|--date|--reference)", examples=["touch -r /bin/ls /tmp/implant"], counter=["touch new.txt"]),
    rule("evasion.hosts-file", DANGEROUS, "evasion net", "changes name resolution (hosts file, resolver)", scope="redirect",
         test=lambda c: any(t in ("/etc/hosts", "/etc/resolv.conf", "/etc/nsswitch.conf") for t in c.out_targets()),
         examples=["echo '1.2.3.4 bank.example' >> /etc/hosts"], counter=["cat /etc/hosts"]),
]

PACK = Pack("core.evasion", "Covering tracks: log wiping, history clearing, security tools switched off.", rules=RULES, core=True)
