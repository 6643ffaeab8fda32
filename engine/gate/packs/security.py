"""The operating system's security, boot and recovery on Linux and other Unix systems.

Catastrophic, because no person can take them back once an attacker has used the gap:
switching off the firewall, SELinux, AppArmor, audit, an antivirus or EDR agent, or system
logging; deleting, emptying or editing security logs (authentication, logins, audit, the
journal); deleting system snapshots (snapper, Timeshift, btrfs, ZFS); removing boot
entries, the boot loader, the ESP's files or the kernel's modules, or Secure Boot
validation; opening accounts (empty passwords, world-writable account files, setuid
shells and interpreters, root or empty-password SSH logins, PAM and sudoers edits,
deleting a home with its user); and dumping credentials (shadow unshadowed or cracked,
memory of credential processes, mimipenguin, LaZagne). Changing one rule, one ordinary
service or one setting is dangerous: a person decides. The read-only forms of these
programs (`ufw status`, `iptables -L`, `getenforce`, `efibootmgr -v`, `snapper list`, …)
are proven by the option tables below.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from engine.gate.globs import HAS_GLOB, candidates, expand, matches
from engine.gate.memo import per_word
from engine.gate.packs.model import CATASTROPHIC, DANGEROUS, IRREVERSIBLE, Pack, Proof, rule
from engine.gate.paths import fold, is_auth_file, is_root
from engine.gate.proof import Options, options
from engine.gate.shell.view import Command, basename

# Services and processes whose stopping switches off a security control: firewalls,
# mandatory access control, audit and system logging, antivirus and EDR agents.
SECURITY_SERVICES = frozenset((
    "firewalld ufw nftables iptables ip6tables netfilter-persistent iptables-persistent shorewall shorewall6"
    " ferm csf lfd ebtables arptables pf ipfw"
    " apparmor selinux auditd audit auditbeat go-audit laurel sysmon osqueryd"
    " rsyslog rsyslogd syslog syslogd syslog-ng systemd-journald journald"
    " clamav-daemon clamav-freshclam clamd clamav-clamonacc clamonacc freshclam"
    " falcon-sensor falcond sentinelone sentinelagent cbagentd cbdaemon cb-psc-sensor mdatp wdavdaemon"
    " wazuh-agent ossec ossec-hids elastic-agent elastic-endpoint sophos-spl sav-protect ds_agent"
    " taniumclient cylancesvc qualys-cloud-agent ir_agent traps_pmd falco tetragon fail2ban sshguard"
).split())
_PROCESS = re.compile(
    r"(?<![\w.-])(?:auditd?|falcon[\w-]{0,12}|sentinel\w{0,12}|wdavdaemon|mdatp|clam\w{0,12}|freshclam|osqueryd?"
    r"|wazuh[\w-]{0,12}|ossec[\w-]{0,12}|sysmon|firewalld|fail2ban[\w-]{0,8}|apparmor|r?syslog(?:d|-ng)?"
    r"|systemd-journald|cbagentd|cbdaemon|elastic-endpoint|sophos[\w-]{0,12}|ds_agent|taniumclient|cylancesvc"
    r"|ir_agent|traps_pmd|falco|tetragon|sshguard)(?![\w-])",
    re.I,
)
_STOPS = frozenset({"stop", "disable", "mask", "kill"})
_SERVICE_MANAGERS = "systemctl service rc-service rc-update update-rc.d chkconfig sv"


@per_word()
def _unit(word: str) -> str:
    """`firewalld.service`, `/lib/systemd/system/ufw.service` and `clamd@scan` name firewalld, ufw, clamd."""
    name = word.rsplit("/", 1)[-1].lower()
    for suffix in (".service", ".socket", ".timer", ".target"):
        if name.endswith(suffix):
            name = name[: -len(suffix)]
            break
    return name.split("@", 1)[0]


def _service_off(cmd: Command) -> str | None:
    """The security service a service manager (or its init script, run directly) stops or disables."""
    name, ops = cmd.name, cmd.operands
    if name in SECURITY_SERVICES:
        return cmd.argv[0] if "/" in cmd.argv[0] and ops[:1] in (("stop",), ("disable",)) else None
    if name == "systemctl":
        verbs = [op for op in ops[:2] if op in _STOPS]
        if not verbs or verbs == ["kill"] and _signal(cmd) in _GENTLE_SIGNALS:
            return None
        units = ops
    elif name in ("service", "rc-service"):
        units = ops[:1] if ops[1:2] == ("stop",) else ()
    elif name == "rc-update":
        units = ops[1:2] if ops[:1] in (("del",), ("delete",)) else ()
    elif name == "update-rc.d":
        units = ops[:1] if ops[1:2] in (("disable",), ("remove",)) else ()
    elif name == "chkconfig":
        units = ops[:1] if ops[1:2] == ("off",) or "--del" in cmd.flags else ()
    elif name == "sv":
        units = ops[1:] if ops[:1] in (("down",), ("stop",), ("d",)) else ()
    else:
        return None
    for unit in units:
        name = _unit(unit)
        if name in SECURITY_SERVICES or HAS_GLOB.search(name) and any(
                matches(name, service) for service in candidates(name, _SERVICE_NAMES)):
            return unit
    return None


_SERVICE_NAMES = tuple(sorted(SECURITY_SERVICES))


_GENTLE_SIGNALS = frozenset({"HUP", "SIGHUP", "1", "USR1", "SIGUSR1", "10", "USR2", "SIGUSR2", "12", "CONT", "SIGCONT",
                              "18", "WINCH", "SIGWINCH", "28", "0"})


def _signal(cmd: Command) -> str:
    """The signal a kill sends (`-HUP`, `-s HUP`, `--signal=HUP`, `-1`); TERM when none is named."""
    value = _option_value(cmd.args, "-s", "--signal")
    if value is not None:
        return value.upper()
    for arg in cmd.args:
        if arg.startswith("-") and len(arg) > 1 and arg[1:].replace("SIG", "", 1).isalnum() and arg not in ("-f", "-x", "-9"):
            return arg[1:].upper()
    return "TERM"


def _kills_agent(cmd: Command) -> str | None:
    """A security, audit or logging daemon killed; HUP, USR1 and the like only ask it to reopen its logs."""
    found = _PROCESS.search(cmd.text)
    if found is None or _signal(cmd) in _GENTLE_SIGNALS:
        return None
    return found.group(0)


_DISABLED_VALUE = re.compile(r"--value[= ]disabled\b")


def _mac_off(cmd: Command) -> bool:
    if cmd.name == "aa-teardown":
        return not cmd.flags & {"-h", "--help"}
    return bool(cmd.operands) and cmd.operands[0].lower() in ("0", "permissive")


def _option_value(args: tuple[str, ...], *names: str) -> str | None:
    """The value of the first of `names` (`-t nat`, `--table=nat`, `-tnat`), or None."""
    for i, arg in enumerate(args):
        for option in names:
            if arg == option:
                return args[i + 1] if i + 1 < len(args) else ""
            if option.startswith("--") and arg.startswith(option + "="):
                return arg[len(option) + 1 :]
            if not option.startswith("--") and arg.startswith(option) and len(arg) > len(option):
                return arg[len(option) :]
    return None


_IPTABLES_MATCHES = frozenset({"-I", "-A", "--insert", "--append", "-j", "--jump", "-w", "--wait", "-t", "--table"})


def _iptables_off(cmd: Command) -> bool:
    """Flushing the filter table, an ACCEPT policy on INPUT or FORWARD, or an accept-everything rule."""
    table = (_option_value(cmd.args, "-t", "--table") or "filter").lower()
    if table != "filter":
        return False
    if cmd.flags & {"-F", "--flush"}:
        return True
    upper = [op.upper() for op in cmd.operands]
    if cmd.flags & {"-P", "--policy"}:
        return "ACCEPT" in upper and ("INPUT" in upper or "FORWARD" in upper)
    if cmd.flags & {"-I", "-A", "--insert", "--append"} and "INPUT" in upper and "ACCEPT" in upper:
        return all(arg in _IPTABLES_MATCHES or not arg.startswith("-") for arg in cmd.args)
    return False


def _nft_off(cmd: Command) -> bool:
    for statement in " ".join(cmd.operands).lower().replace("\n", ";").split(";"):
        words = statement.split()
        if words[:2] == ["flush", "ruleset"]:
            return True
        if words[:1] in (["flush"], ["delete"]) and words[1:2] == ["table"] and words[-1:] and (
                "filter" in words[-1] or "firewall" in words[-1]):
            return True
    return False


def _pfctl_off(cmd: Command) -> bool:
    if "-d" in cmd.flags:
        return True
    flush = _option_value(cmd.args, "-F")
    return flush is not None and flush.lower() in ("a", "all", "r", "rules")


def _firewall_off(cmd: Command) -> bool:
    name, ops = cmd.name, cmd.operands
    if name == "ufw":
        if ops[:1] in (("disable",), ("reset",)):
            return True
        return ops[:2] == ("default", "allow") and ops[2:3] in ((), ("incoming",))
    if name == "nft":
        return _nft_off(cmd)
    if name == "firewall-cmd":
        return _TRUSTED_ZONE.search(cmd.text) is not None
    if name == "pfctl":
        return _pfctl_off(cmd)
    return _iptables_off(cmd)


_TRUSTED_ZONE = re.compile(r"(?i)--set-default-zone[= ]trusted\b|--set-target[= ]ACCEPT\b")
_FIREWALLS = ("ufw iptables ip6tables iptables-legacy ip6tables-legacy iptables-nft ip6tables-nft nft firewall-cmd"
              " pfctl")

# Security settings in files, and what in a write to them switches the control off.
# `unseen` says whether a write whose content the gate cannot see counts as switching it off.
_SELINUX_OFF = re.compile(r"(?i)\b(?:disabled|permissive)\b")
_SSH_OPEN = re.compile(r"(?i)\bPermitRootLogin\s{1,8}yes\b|\bPermitEmptyPasswords\s{1,8}yes\b")
_KERNEL_OFF = re.compile(
    r"(?i)\b(?:selinux|enforcing|apparmor|audit|module\.sig_enforce)=0\b|\bsecurity=none\b|\blockdown=none\b"
    r"|\bmitigations=off\b")
_SECURITY_CONFIGS: tuple[tuple[re.Pattern[str], re.Pattern[str], bool], ...] = (
    (re.compile(r"/etc/selinux/config"), _SELINUX_OFF, True),
    (re.compile(r"/sys/fs/selinux/enforce"), re.compile(r"(?:^|\s)0\b"), True),
    (re.compile(r"/sys/fs/selinux/disable"), re.compile(r"(?:^|\s)1\b"), True),
    (re.compile(r"/etc/ssh/sshd_config(?:\.d/[^/]{1,200})?"), _SSH_OPEN, False),
    (re.compile(r"/etc/default/grub(?:\.d/[^/]{1,200})?|/etc/kernel/cmdline|/etc/sysconfig/grub|/boot/.{1,200}"),
     _KERNEL_OFF, False),
)
_SED_PATTERN = re.compile(r"(?<![\w])s([/|#:,@!%+~_])(?:\\.|(?!\1)[^\\]){0,2000}\1")
_COPIERS = frozenset("cp mv install ln dd rsync".split())
_IN_PLACE = frozenset({"sed", "gsed", "perl"})


def _script_text(cmd: Command) -> str:
    """The text a sed or perl script writes: its `s` commands' patterns removed (`s/enforcing/disabled/`
    writes `disabled`; `s/yes/no/` does not write `yes`)."""
    return _SED_PATTERN.sub(r"s\1", cmd.text)


def _content(cmd: Command) -> str | None:
    """What the command writes, as far as its text shows; None when the content is unseen (a copy)."""
    name = cmd.name
    if name in _IN_PLACE:
        return _script_text(cmd)
    if name in ("echo", "printf"):
        return cmd.text
    if name == "tee":
        return (cmd.upstream or "") + " " + (cmd.stdin or "")
    if cmd.stdin is not None:
        return cmd.stdin
    return None


def _joined(cmd: Command, path: str) -> str:
    if cmd.cwd is None or path.startswith(("/", "~", "$")):
        return path
    return cmd.cwd.rstrip("/") + "/" + path


def _written(cmd: Command) -> list[str]:
    """Files the command overwrites or edits: output redirections, `tee`, in-place edits, copy destinations."""
    name = cmd.name
    paths = cmd.out_targets() if cmd.redirects else []
    if name == "tee" or (name in _IN_PLACE and "-i" in cmd.flags):
        paths.extend(cmd.operands)
    elif name in _COPIERS and name != "dd" and len(cmd.operands) >= 2:
        paths.append(cmd.operands[-1])
    elif name == "dd":
        paths.extend(arg[3:] for arg in cmd.args if arg.startswith("of="))
    if cmd.cwd is None:
        return [fold(path) for path in paths if path[:1] in _ROOTED]
    return [fold(_joined(cmd, path)) for path in paths]


def _control_off(cmd: Command) -> str | None:
    """The security setting a write switches off (SELinux, kernel security, SSH root or empty-password login)."""
    if cmd.name == "grubby":
        value = _option_value(cmd.args, "--args")
        return "kernel command line" if value and _KERNEL_OFF.search(value) else None
    if cmd.name == "kernelstub":
        return "kernel command line" if cmd.flags & {"-a", "--add-options"} and _KERNEL_OFF.search(cmd.text) else None
    for path in _written(cmd):
        index = _security_config(path)
        if index < 0:
            continue
        _where, switched_off, unseen = _SECURITY_CONFIGS[index]
        content = None if cmd.name in _COPIERS else _content(cmd)
        if unseen if content is None else switched_off.search(content) is not None:
            return path
    return None


@per_word(limit=256)
def _security_config(path: str) -> int:
    """Which of `_SECURITY_CONFIGS` a (folded) path is, or -1."""
    for index, (where, _switched_off, _unseen) in enumerate(_SECURITY_CONFIGS):
        if where.fullmatch(path) is not None:
            return index
    return -1


# Security logs. A tree is deleted only as a whole (`rm -rf /var/log`); a file is also lost
# when it is overwritten, emptied, edited or replaced by a link.
_LOG_TREE = re.compile(
    r"/(?:private/)?var/log(?:/\*)?|/(?:private/)?var/log/(?:audit|journal|asl)(?:/\*)?"
    r"|/(?:private/)?var/(?:audit|db/diagnostics|db/uuidtext)(?:/\*)?|/(?:var/)?run/log/journal(?:/\*)?|/var/adm(?:/\*)?")
_LOG_FILE = re.compile(
    r"/(?:private/)?var/log/(?:(?:auth\.log|auth|authlog|secure|wtmp|btmp|utmp|lastlog|faillog|tallylog|sudo\.log)"
    r"(?:[.-][^/]{0,64})?|(?:audit|journal|asl)/.{1,200})"
    r"|/(?:private/)?var/(?:audit|db/diagnostics|db/uuidtext)/.{1,200}|/(?:var/)?run/(?:utmp|log/journal/.{1,200})"
    r"|/var/adm/.{1,200}")
LOG_SAMPLES = (
    "/var/log/auth.log", "/var/log/auth.log.1", "/var/log/secure", "/var/log/wtmp", "/var/log/btmp",
    "/var/log/lastlog", "/var/log/faillog", "/var/log/audit", "/var/log/audit/audit.log", "/var/log/journal",
    "/var/log/sudo.log", "/private/var/log/asl", "/var/audit", "/var/db/diagnostics", "/run/log/journal",
)


@per_word(limit=256)
def is_security_log(path: str) -> bool:
    """A security log file, or a glob that could name one (`/var/log/auth*`, `/var/log/*.log`)."""
    return _log_match(path, trees=False)


@per_word(limit=256)
def is_security_log_tree(path: str) -> bool:
    """A security log, or a directory that holds them (`/var/log`, `/var/log/audit`, `/var/log/*`)."""
    return _log_match(path, trees=True)


def _log_match(path: str, trees: bool) -> bool:
    for alternative in expand(path):
        folded = fold(alternative)
        if _LOG_FILE.fullmatch(folded) or trees and _LOG_TREE.fullmatch(folded):
            return True
        if HAS_GLOB.search(folded) and any(
                matches(folded, sample) and (trees or not _LOG_TREE.fullmatch(sample))
                for sample in candidates(folded, LOG_SAMPLES)):
            return True
    return False


def _operands(cmd: Command) -> list[str]:
    """Operands that can name a system path: absolute, home or variable paths, or any path once a
    `cd` moved the script (`cd /var/log && rm auth.log`). Plain relative paths stay in the workspace."""
    if cmd.cwd is None:
        return [op for op in cmd.operands[:16] if op[:1] in _ROOTED]
    return [_joined(cmd, op) for op in cmd.operands[:16]]


def _first(cmd: Command, check: Callable[[str], bool]) -> str | None:
    """The first operand that can name a system path (see `_operands`) and passes `check` (a plain loop:
    these run on every `rm`)."""
    if cmd.cwd is None:
        for op in cmd.operands[:16]:
            if op[:1] in _ROOTED and check(op):
                return op
        return None
    for op in cmd.operands[:16]:
        path = _joined(cmd, op)
        if check(path):
            return path
    return None


_ROOTED = ("/", "~", "$")


def _log_deleted(cmd: Command) -> str | None:
    if cmd.name == "find":
        if "-delete" not in cmd.text:
            return None
        roots = [arg for arg in cmd.args[:4] if not arg.startswith(("-", "(", "!"))][:1]
        return next((root for root in roots if is_security_log_tree(_joined(cmd, root))), None)
    return _first(cmd, is_security_log_tree)


def _log_overwritten(cmd: Command) -> str | None:
    name = cmd.name
    if name == "mv":
        ops = _operands(cmd)
        moved = next((op for op in ops[:-1] if is_security_log_tree(op)), None)
        return moved or (ops[-1] if len(ops) >= 2 and is_security_log(ops[-1]) else None)
    if name == "tee" and cmd.flags & {"-a", "--append"}:
        return None
    if name in _IN_PLACE and "-i" not in cmd.flags:
        return None
    return next((path for path in _written(cmd) if is_security_log(path)), None)


def _log_redirect(cmd: Command) -> str | None:
    for redirect in cmd.redirects:
        if redirect.writes and ">>" not in redirect.op and is_security_log(_joined(cmd, redirect.target)):
            return redirect.target
    return None


_SHORT_TIME = re.compile(r"(?i)\d{1,9}(?:s|sec|second|seconds|m|min|minute|minutes|h|hour|hours|us|ms)?")
_SMALL_SIZE = re.compile(r"(?i)\d{1,9}(?:b|k|kb|kib)?|[01](?:\.\d{1,3})?(?:m|mb|mib)")


def _journal_wiped(cmd: Command) -> bool:
    """`journalctl --vacuum-time` under a day or `--vacuum-size` under about a megabyte: nothing is kept."""
    time = _option_value(cmd.args, "--vacuum-time")
    size = _option_value(cmd.args, "--vacuum-size")
    return bool(time and _SHORT_TIME.fullmatch(time)) or bool(size and _SMALL_SIZE.fullmatch(size))


# Recovery: system snapshots and the places their tools keep them.
_RECOVERY = re.compile(
    r"/\.snapshots(?:/.{0,200})?|/timeshift(?:-btrfs)?(?:/.{0,200})?|/run/timeshift(?:/.{0,200})?"
    r"|[/~].{0,200}/Backups\.backupdb(?:/.{0,200})?|/\.timemachine(?:/.{0,200})?|/Volumes/\.timemachine(?:/.{0,200})?")
_BTRFS_GROUPS = ("subvolume", "filesystem", "device", "balance", "scrub", "qgroup", "quota", "property", "inspect-internal",
                 "replace", "rescue", "restore", "send", "receive", "check")


def _btrfs_word(word: str, choices: tuple[str, ...]) -> str | None:
    """btrfs takes any unambiguous prefix of a group or command (`btrfs sub del` is `subvolume delete`)."""
    found = [choice for choice in choices if choice.startswith(word)] if word else []
    return found[0] if len(found) == 1 or word in found else None


def _system_snapshot(name: str, recursive: bool) -> bool:
    """A ZFS snapshot of the system (boot environments under `ROOT`, the boot pool), or one taken of a
    whole pool and destroyed in every dataset (`-r tank@daily`). One snapshot of a data set is a backup
    a person may delete."""
    dataset, at, _ = name.partition("@")
    if not at:
        return False
    return "/ROOT" in dataset or dataset.split("/", 1)[0] in ("bpool", "boot-pool") or recursive and "/" not in dataset


def _snapshot_deleted(cmd: Command) -> str | None:
    name, ops = cmd.name, cmd.operands
    if name == "snapper":
        return next((op for op in ops[:3] if op in ("delete", "remove", "rm", "delete-config")), None)
    if name == "timeshift":
        return "timeshift --delete" if cmd.flags & {"--delete", "--delete-all"} else None
    if name == "zfs":
        return next((op for op in ops[1:] if _system_snapshot(op, bool(cmd.flags & {"-r", "-R"}))), None) \
            if ops[:1] == ("destroy",) else None
    if name == "btrfs":
        if len(ops) < 3 or _btrfs_word(ops[0], _BTRFS_GROUPS) != "subvolume":
            return None
        if _btrfs_word(ops[1], ("delete", "create", "snapshot", "show", "list", "sync", "get-default",
                                "set-default", "find-new")) != "delete":
            return None
        return next((op for op in ops[2:] if is_root(op) or "snapshot" in op.lower() or "timeshift" in op.lower()
                     or _recovery_path(op)), None)
    if name == "mv":
        return next((op for op in _operands(cmd)[:-1] if _recovery_path(op)), None)
    return _first(cmd, _recovery_path)


@per_word(limit=256)
def _recovery_path(path: str) -> bool:
    return _RECOVERY.fullmatch(fold(path)) is not None


_BOOT_FILES = re.compile(r"/efi(?:/.{0,200})?|/(?:usr/)?lib/modules(?:/\*)?|/(?:usr/)?lib/modules/(?:\$\(uname -r\)|`uname -r`)")


def _boot_files(cmd: Command) -> str | None:
    return _first(cmd, _boot_path)


@per_word(limit=256)
def _boot_path(path: str) -> bool:
    return _BOOT_FILES.fullmatch(fold(path)) is not None


# Accounts.
_SETUID = re.compile(r"0?[46][0-7]{3}|[ugoa]{0,4}[+=][rwxXst]{0,6}")
_ESCAPES = frozenset((
    "sh bash dash zsh ksh mksh csh tcsh fish ash busybox env find xargs vim vi nvim view rvim nano ed emacs less more"
    " awk gawk mawk nawk sed perl ruby irb php lua node nodejs python python2 python3 tclsh wish expect gdb strace"
    " tee dd cp mv tar zip unzip rsync socat nc ncat nmap docker git make taskset nice timeout stdbuf ionice flock"
    " script su sudo doas pkexec chmod chown install ln base64 xxd cat head tail openssl curl wget"
).split())
_VERSIONED = re.compile(r"(python|perl|ruby|php|lua|node|tclsh)[\d.]{1,8}")
_REMOVED_MODE = re.compile(r"-[rwxXst]{1,6}")
_CLAUSE = re.compile(r"([ugoa]{0,4})([+=])([rwxXst]{0,6})")
_HASHES = frozenset({"/etc/shadow", "/etc/gshadow", "/etc/shadow-", "/etc/gshadow-"})
_ROOT_OWNERS = frozenset({"root", "0", "", "shadow", "42", "wheel"})


def _mode(cmd: Command) -> str:
    """chmod's mode: its first operand, or a symbolic mode the view took for a flag (`chmod -w x`)."""
    for arg in cmd.args:
        if not arg.startswith("-") or _REMOVED_MODE.fullmatch(arg):
            return arg
    return ""


def _grants_others(mode: str, bits: str) -> bool:
    """True when a chmod mode gives others (or everyone) one of `bits` (`w`, or `r`)."""
    if mode.isdigit():
        digit = int(mode[-1]) if mode else 0
        return ("w" in bits and digit & 2 != 0) or ("r" in bits and digit & 4 != 0)
    for clause in mode.split(","):
        found = _CLAUSE.fullmatch(clause)
        if found is None:
            continue
        who, _op, perms = found.groups()
        if (not who or "o" in who or "a" in who) and any(bit in perms for bit in bits):
            return True
    return False


def _opens_account_files(cmd: Command) -> str | None:
    """World-writable account, sudo, PAM or boot files, a readable shadow, any of them given to a user, or the
    password hashes given to a group (a file's group only matters where the group may read it: the hashes)."""
    ops = [fold(_joined(cmd, op)) for op in cmd.operands[1:17]]
    if cmd.name == "chmod":
        mode = _mode(cmd)
        for path in ops:
            if is_auth_file(path) and _grants_others(mode, "w") or path in _HASHES and _grants_others(mode, "r"):
                return path
        return None
    owner = cmd.operands[0] if cmd.operands else ""
    who, _, group = owner.partition(":") if cmd.name == "chown" else ("", "", owner)
    if who and who.lower() not in _ROOT_OWNERS:
        return next((path for path in ops if is_auth_file(path)), None)
    if group and group.lower() not in _ROOT_OWNERS:
        return next((path for path in ops if path in _HASHES), None)
    return None


def _sets_uid(mode: str) -> bool:
    """True when a chmod mode sets the setuid bit (`4755`, `u+s`, `+s`, `a+s`; not the setgid `g+s` or `2755`)."""
    if not _SETUID.fullmatch(mode):
        return False
    if mode.isdigit():
        return True
    who, _, perms = mode.partition("+") if "+" in mode else mode.partition("=")
    return "s" in perms and (not who or "u" in who or "a" in who)


def _setuid_shell(cmd: Command) -> str | None:
    """chmod setting the setuid bit on a shell or interpreter, `install -m 4755` of one, or `setcap`
    giving one a capability that is as good as root."""
    if cmd.name == "setcap":
        if _ROOT_CAPABILITY.search(cmd.text) is None:
            return None
        shells = cmd.operands[1:]
    elif cmd.name == "install":
        mode = _option_value(cmd.args, "-m", "--mode")
        if mode is None or not any(_sets_uid(clause) for clause in mode.split(",")):
            return None
        shells = cmd.operands[:-1]
    else:
        if not any(_sets_uid(clause) for clause in _mode(cmd).split(",")):
            return None
        shells = cmd.operands[1:]
    for op in shells:
        base = basename(op)
        if base in _ESCAPES or _VERSIONED.fullmatch(base):
            return op
    return None


_ROOT_CAPABILITY = re.compile(r"(?i)cap_(?:setuid|setgid|sys_admin|dac_override|dac_read_search|sys_ptrace|sys_module"
                              r"|chown|fowner)|(?:^|[\s,])all[=+]")


def _empty_password(cmd: Command) -> bool:
    if cmd.name == "passwd":
        return bool(cmd.flags & {"-d", "--delete"})
    value = _option_value(cmd.args, "-p", "--password")
    return value is not None and value.strip("'\"") == ""


def _auth_edited(cmd: Command) -> str | None:
    if "-i" not in cmd.flags and "--in-place" not in cmd.flags:
        return None
    return next((op for op in cmd.operands if is_auth_file(_joined(cmd, op))), None)


def _user_deleted(cmd: Command) -> bool:
    removes_home = bool(cmd.flags & {"-r", "--remove", "--remove-home", "--remove-all-files"})
    return removes_home or any(op in ("root", "0") for op in cmd.operands)


# Credential dumping.
_DUMPERS = frozenset((
    "unshadow mimipenguin lazagne 3snake linikatz hackbrowserdata hack-browser-data swap_digger dumpcreds"
    " firefox_decrypt"
).split())
_DUMPER_FILE = re.compile(r"(?i)(?:mimipenguin|lazagne|linikatz|3snake|swap_digger|firefox_decrypt|hack-?browser-?data)"
                          r"(?:\.(?:py|sh|pl))?")
_CREDENTIAL_PROCESS = re.compile(
    r"(?i)(?<![\w-])(?:sshd|gnome-keyring(?:-daemon)?|ssh-agent|gpg-agent|keepassxc?|kwalletd\d?|lsass|gdm-password"
    r"|gdm-session-worker|lightdm|1password|bitwarden|secret-service|polkit(?:d|-agent[\w-]{0,20})?|vault)(?![\w-])")
_MEMORY = re.compile(r"(?:if=)?(?:/proc/(?!self/|thread-self/)[^/]{1,60}/mem|/dev/k?mem|/proc/kcore|/dev/crash)")


def _dump_tool(cmd: Command) -> bool:
    name = cmd.name
    if name in _DUMPERS:
        return not cmd.flags & {"--help", "-h"}
    if name in ("john", "hashcat"):
        return any(fold(op) in _HASHES for op in cmd.operands)
    script = cmd.operands[0] if cmd.operands else ""
    return 0 < len(script) <= 64 and _DUMPER_FILE.fullmatch(basename(script)) is not None


def _process_dumped(cmd: Command) -> str | None:
    if cmd.name in ("gdb", "lldb") and not cmd.flags & {"-p", "--pid", "--attach-pid", "--attach-name"} \
            and "attach" not in cmd.text:
        return None
    found = _CREDENTIAL_PROCESS.search(cmd.text)
    return found.group(0) if found else None


def _memory_read(cmd: Command) -> str | None:
    if "/proc/" in cmd.text or "/dev/" in cmd.text:
        for arg in cmd.args:
            if _MEMORY.fullmatch(arg):
                return arg
    for redirect in cmd.redirects:
        if not redirect.writes and _MEMORY.fullmatch(redirect.target):
            return redirect.target
    return None


RULES = [
    rule("security.firewall-off", CATASTROPHIC, "evasion net", "switches the firewall off or lets all traffic in",
         names=_FIREWALLS, tier=IRREVERSIBLE, test=_firewall_off,
         examples=["ufw disable", "ufw --force reset", "iptables -F", "iptables -P INPUT ACCEPT", "nft flush ruleset",
                   "firewall-cmd --set-default-zone=trusted", "pfctl -d", "iptables -I INPUT -j ACCEPT"],
         counter=["ufw allow 22", "iptables -t nat -F", "iptables -A INPUT -p tcp --dport 22 -j ACCEPT",
                  "iptables -P OUTPUT ACCEPT", "nft list ruleset", "pfctl -s rules"]),
    rule("security.firewall-change", DANGEROUS, "evasion net", "changes firewall rules or settings", names=_FIREWALLS,
         tier=IRREVERSIBLE, test=lambda c: _not_proven(c),
         examples=["ufw allow 22/tcp", "iptables -A INPUT -p tcp --dport 22 -j ACCEPT", "nft -f rules.nft",
                   "firewall-cmd --add-port=80/tcp", "pfctl -f /etc/pf.conf"],
         counter=["ufw status", "iptables -L -n", "nft list ruleset", "firewall-cmd --list-all", "pfctl -s rules"]),
    rule("security.control-change", DANGEROUS, "evasion", "changes SELinux, AppArmor or audit settings",
         names="setenforce aa-disable aa-complain aa-enforce apparmor_parser auditctl semanage setsebool augenrules",
         tier=IRREVERSIBLE, test=lambda c: _not_proven(c),
         examples=["setenforce 1", "aa-complain /etc/apparmor.d/usr.bin.x", "auditctl -w /etc/passwd -p wa",
                   "setsebool -P httpd_can_network_connect 1"],
         counter=["auditctl -l", "getenforce"]),
    rule("security.service-off", CATASTROPHIC, "evasion", "stops or disables a security service (firewall, MAC, audit, "
         "logging, antivirus)", names=_SERVICE_MANAGERS + " " + " ".join(sorted(SECURITY_SERVICES)), tier=IRREVERSIBLE,
         test=_service_off, cite=True,
         examples=["systemctl stop firewalld", "systemctl disable --now auditd", "service ufw stop",
                   "systemctl mask clamav-daemon.service", "/etc/init.d/iptables stop", "update-rc.d apparmor disable"],
         counter=["systemctl stop nginx", "systemctl restart firewalld", "service auditd status", "ufw status",
                  "systemctl kill -s HUP rsyslog"]),
    rule("security.agent-killed", CATASTROPHIC, "evasion", "kills a security, audit or logging daemon",
         names="kill pkill killall skill", tier=IRREVERSIBLE, test=_kills_agent, cite=True,
         examples=["pkill -9 falcon-sensor", "killall auditd", "kill -9 $(pidof wdavdaemon)"],
         counter=["pkill -f gunicorn", "kill 1234"]),
    rule("security.av-off", CATASTROPHIC, "evasion", "switches off an antivirus or EDR agent's protection",
         names="mdatp falconctl sentinelctl", tier=IRREVERSIBLE,
         test=lambda c: (c.name == "mdatp" and _DISABLED_VALUE.search(c.text) is not None)
         or (c.name != "mdatp" and c.operands[:1] in (("unload",), ("uninstall",), ("unprotect",))),
         examples=["mdatp config real-time-protection --value disabled", "falconctl unload", "sentinelctl unprotect"],
         counter=["mdatp health", "falconctl stats"]),
    rule("security.mac-off", CATASTROPHIC, "evasion", "switches off SELinux or AppArmor", names="setenforce aa-teardown",
         tier=IRREVERSIBLE, test=_mac_off,
         examples=["setenforce 0", "setenforce Permissive", "aa-teardown"], counter=["setenforce 1", "getenforce"]),
    rule("security.audit-off", CATASTROPHIC, "evasion", "switches off kernel auditing or deletes every audit rule",
         names="auditctl", tier=IRREVERSIBLE,
         test=lambda c: "-D" in c.flags or _option_value(c.args, "-e") == "0",
         examples=["auditctl -e 0", "auditctl -D"], counter=["auditctl -l", "auditctl -e 1"]),
    rule("security.control-off", CATASTROPHIC, "evasion", "writes a setting that switches off SELinux, kernel security "
         "or SSH root login protection", names="sed gsed perl tee cp mv install ln dd rsync grubby kernelstub",
         tier=IRREVERSIBLE, test=_control_off, cite=True,
         examples=["sed -i 's/^SELINUX=enforcing/SELINUX=disabled/' /etc/selinux/config",
                   "cp /tmp/c /etc/selinux/config", "grubby --update-kernel=ALL --args=selinux=0",
                   "sed -i 's/.*PermitRootLogin.*/PermitRootLogin yes/' /etc/ssh/sshd_config",
                   "echo 'PermitRootLogin yes' | tee -a /etc/ssh/sshd_config.d/root.conf",
                   "echo 0 | tee /sys/fs/selinux/enforce"],
         counter=["sed -i 's/^SELINUX=permissive/SELINUX=enforcing/' /etc/selinux/config",
                  "sed -i 's/^PermitRootLogin yes/PermitRootLogin no/' /etc/ssh/sshd_config",
                  "cp sshd_config /etc/ssh/sshd_config", "grubby --update-kernel=ALL --remove-args=quiet"]),
    rule("security.control-off-redirect", CATASTROPHIC, "evasion", "writes a setting that switches off SELinux, kernel "
         "security or SSH root login protection", scope="redirect", tier=IRREVERSIBLE, test=_control_off, cite=True,
         examples=["echo SELINUX=disabled > /etc/selinux/config", "echo 'PermitEmptyPasswords yes' >> /etc/ssh/sshd_config",
                   "cat /tmp/x > /etc/selinux/config", "echo 0 > /sys/fs/selinux/enforce"],
         counter=["echo 'PasswordAuthentication no' >> /etc/ssh/sshd_config", "echo x > notes.txt",
                  "echo 1 > /sys/fs/selinux/enforce"]),
    rule("security.log-delete", CATASTROPHIC, "evasion fs", "deletes security logs (logins, authentication, audit, journal)",
         names="rm unlink shred srm wipe truncate find", tier=IRREVERSIBLE, test=_log_deleted, cite=True,
         examples=["rm /var/log/auth.log", "rm -rf /var/log", "rm -f /var/log/*.log", "truncate -s0 /var/log/wtmp",
                   "shred -u /var/log/secure", "find /var/log -type f -delete", "cd /var/log && rm -f btmp"],
         counter=["rm -rf /var/log/nginx", "rm /var/log/syslog.1", "find /var/log -name '*.gz'"]),
    rule("security.log-overwrite", CATASTROPHIC, "evasion fs", "overwrites, edits, moves or links away a security log",
         names="cp mv install ln dd tee sed gsed perl rsync", tier=IRREVERSIBLE, test=_log_overwritten, cite=True,
         examples=["cp /dev/null /var/log/faillog", "ln -sf /dev/null /var/log/wtmp", "mv /var/log/auth.log /tmp/a",
                   "sed -i '/203.0.113.7/d' /var/log/auth.log", "dd if=/dev/null of=/var/log/audit/audit.log"],
         counter=["cp /var/log/auth.log /tmp/auth.bak", "tee -a /var/log/auth.log", "cp notes /var/log/audit/"]),
    rule("security.log-redirect", CATASTROPHIC, "evasion fs", "empties or overwrites a security log", scope="redirect",
         tier=IRREVERSIBLE, test=_log_redirect, cite=True,
         examples=["> /var/log/wtmp", "cat /dev/null > /var/log/btmp", "echo > /var/log/lastlog"],
         counter=["echo note >> /var/log/auth.log", "echo > /var/log/nginx/access.log"]),
    rule("security.journal-wipe", CATASTROPHIC, "evasion", "deletes all of the system journal", names="journalctl",
         tier=IRREVERSIBLE, test=_journal_wiped,
         examples=["journalctl --vacuum-time=1s", "journalctl --rotate --vacuum-size=1K", "journalctl --vacuum-time 1h"],
         counter=["journalctl --vacuum-time=2weeks", "journalctl --vacuum-size=500M", "journalctl --rotate"]),
    rule("recovery.snapshot-delete", CATASTROPHIC, "fs evasion", "deletes system snapshots or backups",
         names="snapper timeshift zfs btrfs rm shred mv", tier=IRREVERSIBLE, test=_snapshot_deleted, cite=True,
         examples=["snapper -c root delete 42", "timeshift --delete-all", "btrfs subvolume delete /.snapshots/1/snapshot",
                   "btrfs sub del /timeshift-btrfs/snapshots/x/@", "zfs destroy rpool/ROOT@autosnap", "rm -rf /.snapshots"],
         counter=["snapper list", "snapper create", "btrfs subvolume delete /mnt/data/cache", "zfs snapshot tank@now",
                  "rm -rf ./snapshots"]),
    rule("boot.entry-delete", CATASTROPHIC, "fs", "deletes firmware boot entries or the boot loader",
         names="efibootmgr bootctl", tier=IRREVERSIBLE,
         test=lambda c: bool(c.flags & {"-B", "--delete-bootnum"}) if c.name == "efibootmgr" else c.operands[:1] == ("remove",),
         examples=["efibootmgr -B -b 0001", "efibootmgr --delete-bootnum --bootnum 3", "bootctl remove"],
         counter=["efibootmgr -v", "efibootmgr -o 0001,0002", "bootctl status"]),
    rule("boot.files-delete", CATASTROPHIC, "fs", "deletes the EFI system partition's files or the kernel's modules",
         names="rm shred unlink mv", tier=IRREVERSIBLE, test=_boot_files, cite=True,
         examples=["rm -rf /efi/EFI", "rm -rf /lib/modules", "rm -rf /lib/modules/$(uname -r)"],
         counter=["rm -rf /lib/modules/5.10.0-old", "rm -rf ./efi"]),
    rule("boot.secure-boot-off", CATASTROPHIC, "evasion", "switches off Secure Boot validation", names="mokutil",
         tier=IRREVERSIBLE, test=lambda c: "--disable-validation" in c.flags,
         examples=["mokutil --disable-validation"], counter=["mokutil --sb-state", "mokutil --enable-validation"]),
    rule("boot.loader-change", DANGEROUS, "fs", "changes the boot loader, boot entries or the initramfs",
         names="grub-install grub2-install update-grub update-grub2 grub-mkconfig grub2-mkconfig efibootmgr bootctl"
         " kernel-install update-initramfs mkinitcpio dracut grubby kernelstub mokutil", tier=IRREVERSIBLE,
         test=lambda c: _not_proven(c),
         examples=["grub-install /dev/sdb", "update-grub", "efibootmgr -o 0001,0002", "bootctl install"],
         counter=["efibootmgr -v", "bootctl status", "mokutil --sb-state"]),
    rule("account.empty-password", CATASTROPHIC, "creds evasion", "removes an account's password: anyone can log in",
         names="passwd usermod", tier=IRREVERSIBLE, test=_empty_password,
         examples=["passwd -d root", "usermod -p '' alice", "usermod --password= bob"],
         counter=["passwd alice", "passwd -l root", "usermod -aG sudo alice"]),
    rule("account.open-files", CATASTROPHIC, "creds fs", "makes account, sudo, PAM or boot files writable by others, "
         "or password hashes readable", names="chmod chown chgrp", tier=IRREVERSIBLE, test=_opens_account_files, cite=True,
         examples=["chmod 777 /etc/shadow", "chmod o+w /etc/passwd", "chmod 644 /etc/shadow", "chown alice /etc/sudoers",
                   "chown -R bob:bob /etc/sudoers.d"],
         counter=["chmod 640 /etc/shadow", "chown root:shadow /etc/shadow", "chmod 644 /etc/passwd", "chmod 777 x",
                  "chgrp users /etc/group"]),
    rule("account.setuid-shell", CATASTROPHIC, "creds evasion", "makes a shell or interpreter setuid or gives it root's "
         "capabilities: any user becomes root", names="chmod install setcap", tier=IRREVERSIBLE, test=_setuid_shell,
         cite=True,
         examples=["chmod u+s /bin/bash", "chmod 4755 /usr/bin/python3", "chmod +s /usr/bin/find",
                   "install -m 4755 /bin/bash /tmp/rootsh", "setcap cap_setuid+ep /usr/bin/python3"],
         counter=["chmod +s /tmp/mytool", "chmod 755 /bin/bash", "chmod g+s /srv/shared", "install -m 755 /bin/bash x",
                  "setcap cap_net_bind_service+ep /usr/bin/node"]),
    rule("account.auth-edit", CATASTROPHIC, "creds", "edits an account, sudo, PAM or boot file in place",
         names="sed gsed perl", tier=IRREVERSIBLE, test=_auth_edited, cite=True,
         examples=["sed -i 's/^%sudo.*/%sudo ALL=(ALL) NOPASSWD:ALL/' /etc/sudoers",
                   "sed -i 's/pam_unix.so/pam_permit.so/' /etc/pam.d/common-auth", "perl -pi -e 's/x/y/' /etc/passwd"],
         counter=["sed -n p /etc/passwd", "sed -i s/a/b/ notes.txt"]),
    rule("account.delete", CATASTROPHIC, "creds fs", "deletes a user with their home directory, or the root account",
         names="userdel deluser", tier=IRREVERSIBLE, test=_user_deleted,
         examples=["userdel -r alice", "userdel root", "deluser --remove-home alice"], counter=["userdel alice"]),
    rule("creds.dump-tool", CATASTROPHIC, "creds", "runs a credential dumping or password cracking tool on the system's "
         "credentials", names="unshadow mimipenguin lazagne 3snake linikatz hackbrowserdata hack-browser-data"
         " swap_digger dumpcreds firefox_decrypt john hashcat python python2 python3 sh bash perl",
         tier=IRREVERSIBLE, test=_dump_tool,
         examples=["unshadow /etc/passwd /etc/shadow", "python3 laZagne.py all", "mimipenguin", "john /etc/shadow"],
         counter=["john hashes.txt", "python3 app.py"]),
    rule("creds.process-dump", CATASTROPHIC, "creds", "dumps the memory of a process that holds credentials",
         names="gcore gdb lldb procdump", tier=IRREVERSIBLE, test=_process_dumped, cite=True,
         examples=["gcore $(pidof sshd)", "gdb -p $(pgrep gnome-keyring-daemon) -batch -ex generate-core-file",
                   "procdump -p $(pidof ssh-agent)"],
         counter=["gdb -p 4242", "gdb ./sshd"]),
    rule("creds.memory-read", CATASTROPHIC, "creds", "reads another process's memory or the kernel's",
         names="cat dd xxd hexdump od strings head tail less more cp tar base64 grep rg", tier=IRREVERSIBLE,
         test=_memory_read, cite=True,
         examples=["cat /proc/1234/mem", "strings /dev/mem", "dd if=/proc/$(pidof sshd)/mem of=m", "cat < /proc/kcore"],
         counter=["cat /proc/self/mem", "cat /proc/1/status", "cat /proc/meminfo"]),
]


def _ufw() -> Options:
    none = options(operands=lambda ops: f"ufw: {ops[0]} is not known to be read-only" if ops else None)
    verbosity = options(operands=lambda ops: None if all(op in ("verbose", "numbered") for op in ops)
                        else "ufw status: only verbose or numbered are read-only")
    show = options(operands=lambda ops: None if len(ops) == 1 and ops[0] in _UFW_REPORTS
                   else "ufw show: not a report known to be read-only")
    app = options(subcommands={"list": none, "info": options()})
    return options("--version -h --help", subcommands={"status": verbosity, "show": show, "app": app, "version": none,
                                                       "help": none})


_UFW_REPORTS = frozenset("raw builtins before-rules user-rules after-rules logging-rules listening added".split())


def _no_statement_separators(ops: list[str]) -> str | None:
    """nft reads its words as one script: `nft list ruleset \\; flush ruleset` runs both."""
    for op in ops:
        if ";" in op or "\n" in op or "{" in op:
            return "nft: more than one statement"
    return None


def _firewall_cmd(cmd: Command) -> str | None:
    """Only `--state`, `--list-*`, `--get-*`, `--query-*` and `--info-*`, in a zone or policy, permanent or not."""
    valued = False
    for arg in cmd.args:
        name = arg.split("=", 1)[0]
        if valued and not arg.startswith("-"):
            valued = False
            continue
        valued = name in _FIREWALLD_VALUED and "=" not in arg
        if name in _FIREWALLD_FLAGS or name in _FIREWALLD_VALUED or _FIREWALLD_QUERY.fullmatch(name):
            continue
        return f"firewall-cmd: {name} is not known to be read-only"
    return None


_FIREWALLD_FLAGS = frozenset("--state --permanent --version -V -h --help -q --quiet --list-all-zones --list-all-policies".split())
_FIREWALLD_VALUED = frozenset("--zone --policy --ipset --helper --service --icmptype --direct".split())
_FIREWALLD_QUERY = re.compile(r"--(?:list|get|query|info)-[a-z-]{1,40}")


def _timeshift(cmd: Command) -> str | None:
    why = _TIMESHIFT(cmd)
    if why is not None:
        return why
    listing = {"--list", "--list-snapshots", "--list-devices", "--version", "--help", "-h"}
    return None if any(arg.split("=", 1)[0] in listing for arg in cmd.args) else "timeshift: not a listing"


_TIMESHIFT = options("--list --list-snapshots --list-devices --version --help -h --scripted --debug",
                     "--snapshot-device")


_BOOTCTL_OPTIONS = "--no-pager --print-esp-path --print-boot-path -p -x --no-variables --quiet -q --help -h --version"
_BOOTCTL_VALUED = "--esp-path --boot-path --root --image"


def _not_proven(cmd: Command) -> bool:
    proof = READ_ONLY.get(cmd.name)
    return proof is None or proof(cmd) is not None


def _bootctl() -> Options:
    plain = options(_BOOTCTL_OPTIONS, _BOOTCTL_VALUED, "--json")
    return options(_BOOTCTL_OPTIONS, _BOOTCTL_VALUED, "--json", subcommands={"": plain, "status": plain, "list": plain,
                                                                   "is-installed": plain})


_SNAPPER_GLOBAL = ("-q --quiet -v --verbose --utc --iso --no-dbus --csvout --jsonout --help -h --version"
                   " -a --all-configs --disable-used-space")
_SNAPPER_VALUED = "-c --config -t --table-style -r --root --machine-readable --separator --abbreviate"
_IPTABLES = options("-L -S -n -v -x -4 -6 -w --list --list-rules --numeric --verbose --exact --line-numbers --wait",
                    "-t --table -W --wait-interval")
_IPTABLES_SAVE = options("-c --counters -h --help -V --version", "-t --table -M --modprobe")
_NFT_FLAGS = "-a -j -n -N -s -t -S -u -y --handle --json --numeric --stateless --terse --service --guid --numeric-priority"
_LISTS = options(operands=_no_statement_separators)
_AA_STATUS = options("--enabled --profiled --enforced --complained --json --pretty-json --verbose -v --quiet --help -h"
                     " --show --count --mode --special-unconfined --process-mixed")

READ_ONLY: dict[str, Proof] = {
    "ufw": _ufw(),
    "iptables": _IPTABLES, "ip6tables": _IPTABLES, "iptables-legacy": _IPTABLES, "ip6tables-legacy": _IPTABLES,
    "iptables-nft": _IPTABLES, "ip6tables-nft": _IPTABLES,
    "iptables-save": _IPTABLES_SAVE, "ip6tables-save": _IPTABLES_SAVE,
    "nft": options(_NFT_FLAGS + " -v --version -h --help", subcommands={"list": _LISTS, "describe": _LISTS}),
    "firewall-cmd": _firewall_cmd,
    "pfctl": options("-v -g -r -q", "-s -a"),
    "getenforce": options(),
    "sestatus": options("-v -b"),
    "aa-status": _AA_STATUS, "apparmor_status": _AA_STATUS,
    "aa-enabled": options("-q --quiet -x --exclusive -h --help"),
    "auditctl": options("-l -s -v -h"),
    "efibootmgr": options("-v --verbose -V --version -h --help -q --quiet -u --unicode -y --sysprep -Y --driver"),
    "mokutil": options("--sb-state --list-enrolled -l --list-new --list-delete --pk --kek --db --dbx"
                       " --list-sbat-revocations --help -h --version"),
    "bootctl": _bootctl(),
    "snapper": options(_SNAPPER_GLOBAL, _SNAPPER_VALUED, subcommands={
        "": options(),
        "list": options("-a --all-configs --disable-used-space", "-t --type --columns"),
        "ls": options("-a --all-configs --disable-used-space", "-t --type --columns"),
        "list-configs": options("", "--columns"),
        "get-config": options("", "--columns"),
        "status": options(),
        "diff": options("-i --input"),
    }),
    "timeshift": _timeshift,
    "lastlog": options("-h --help", "-b --before -t --time -u --user -R --root"),
    "faillog": options("-a --all -h --help", "-u --user -t --time -R --root"),
}

PACK = Pack("core.security", "The OS's security, boot and recovery: firewall, MAC, audit, logs, snapshots, accounts.",
            rules=RULES, read_only=READ_ONLY, core=True)
