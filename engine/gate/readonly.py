"""The read-only allowlist: commands that only read, with the flags that would make them write or run.

A command is safe only if it is on this list (or the policy's) and none of its forbidden
flags or arguments appear; everything else that no rule rated is treated as dangerous.
Flags that hand a listed program something to run, or a file of instructions that could
say what to run (`man -P`, `less -k`, `sed -f`, `hash -p`, `kubectl --kubeconfig`), are
forbidden too: the agent may have written that file.
"""

from __future__ import annotations

import re
from typing import Callable

from engine.gate.shell.view import Command

_ANY = re.compile(r"(?!)")
PLAIN: dict[str, re.Pattern[str]] = {
    name: _ANY
    for name in (
        "ls dir vdir cat tac head tail wc pwd echo stat file du df which whereis type basename dirname"
        " readlink realpath cal whoami id groups uname uptime ps pgrep true false test [ [[ sleep cut tr nl od"
        " hexdump comm join paste column diff cmp md5sum sha1sum sha256sum sha512sum b2sum cksum sum"
        " info help locale nproc free lsblk lscpu lsusb lspci fold fmt expand unexpand rev numfmt"
        " seq factor expr jq yq tree cd pushd popd dirs jobs wait printf getconf tty logname users who w last"
        " lsof top htop vmstat iostat uniq strings look apropos whatis zcat zless zgrep bzcat xzcat md5 shasum"
        " : function exit return shift unset local"
    ).split()
}
PLAIN.update(
    {
        "grep": re.compile(r"--pre\b|--hostname-bin|--pre-glob"),
        "egrep": _ANY, "fgrep": _ANY, "ag": _ANY, "ack": re.compile(r"--pager"),
        "rg": re.compile(r"--pre\b|--pre=|--hostname-bin|--pre-glob"),
        "sort": re.compile(r"(?:^|\s)(?:-o\S*|--output\S*|--compress-program\S*|-\w*o\S*)(?:\s|$)"),
        "base64": re.compile(r"(?:^|\s)(?:-o\S*|--output\S*)(?:\s|$)"),
        "tree": re.compile(r"(?:^|\s)-o(?:\s|$)|--output"),
        "date": re.compile(r"(?:^|\s)(?:-s|--set)"),
        "hostname": re.compile(r"^(?!-[fsdiIaA]\b)\S|\s[^-]"),
        "xxd": re.compile(r"(?:^|\s)-r"),
        "env": re.compile(r"\S"),
        "hash": re.compile(r"(?:^|\s)-\w*p"),
        "man": re.compile(r"(?:^|\s)(?:-\w*[PHlR]|--pager|--html|--local-file|--recode)"),
        "less": re.compile(r"(?:^|\s)(?:-\w*k|--lesskey)"),
        "more": _ANY,
        "dmesg": re.compile(r"-c|-C|--clear|--console"),
        "uniq": re.compile(r"^(?:-\S+\s+)*[^-\s]\S*\s+[^-\s]"),
        "ps": re.compile(r"(?!)"),
        "git": _ANY,
        "kill": re.compile(r"^(?!-l\b)"),
    }
)
_SED_WRITE = re.compile(r"(?:^|\s)(?:-i\S*|--in-place\S*|-\w*i\w*)(?:\s|$)|(?:^|[;{}\n])\s{0,4}[wWe]\s|/[gpIiMm0-9]{0,6}[we](?:\s|;|$|')")
_AWK_WRITE = re.compile(r"system|\bgetline\b|[>|]|@load|ENVIRON|close\s*\(|fflush|PROCINFO")
_GIT_READ = frozenset(
    "status log diff show help rev-parse ls-files ls-tree blame describe shortlog grep whatchanged version"
    " cat-file count-objects show-ref for-each-ref name-rev merge-base cherry rev-list var check-ignore".split()
)
_GIT_FORBIDDEN = re.compile(r"--output|--ext-diff|--exec|(?:^|\s)-o(?:\s|$)|--upload-pack|--open-files-in-pager|(?:^|\s)-O")
_FIND_FORBIDDEN = re.compile(r"(?:^|\s)-(?:delete|fprint0?|fprintf|fls|exec|execdir|ok|okdir)(?:\s|$)")
_FIND_PRIMARY = re.compile(
    r"-(?:name|iname|path|ipath|wholename|iwholename|regex|iregex|regextype|type|xtype|size|perm|user|group|uid|gid"
    r"|nouser|nogroup|mtime|mmin|atime|amin|ctime|cmin|newer|anewer|cnewer|newer[acmBt]{2}|empty|readable|writable"
    r"|executable|links|inum|samefile|lname|ilname|maxdepth|mindepth|depth|prune|print|print0|printf|ls|quit|daystart"
    r"|follow|xdev|mount|noleaf|fstype|true|false|not|and|or|a|o|used|context|H|L|P|D|O\d|ignore_readdir_race"
    r"|noignore_readdir_race|warn|nowarn|help|version)"
)
_FIND_FLAG_ONLY = re.compile(
    r"-(?:empty|readable|writable|executable|nouser|nogroup|prune|print|print0|ls|quit|daystart|follow|xdev|mount"
    r"|noleaf|true|false|not|and|or|a|o|depth|ignore_readdir_race|noignore_readdir_race|warn|nowarn|help|version)"
)
_VERBS_READ = re.compile(
    r"(?:list|ls|get|describe|show|info|status|version|logs?|lookup|whoami|about|lsjson|lsd|lsl|lsf|size|stats"
    r"|snapshots|check|diff|inspect|ping|health|view|read|find|search|explain|top|images|ps|history|cluster_status"
    r"|report|head|tree|cat|environment|api-resources|api-versions|cluster-info|config-view|context)"
    r"(?:[-_].*)?"
)
_SUBCOMMAND_CLIS = frozenset(
    "aws gcloud az kubectl helm docker podman vault nats op doppler circleci velero borg restic rclone"
    " rabbitmqctl rabbitmq-diagnostics rabbitmqadmin gh glab npm pip pip3 cargo brew apt apt-cache dpkg"
    " systemctl journalctl terraform consul nomad redis-cli etcdctl minikube kind".split()
)
_CLI_FORBIDDEN = re.compile(
    r"(?:^|\s)(?:--(?:delete|purge|force|remove|yes|exec|execute|alter|create|add|reset-offsets|output-file|out"
    r"|to-file|outfile|pre|post|kubeconfig|config)|-o\s+\S+\.\w+|--output[= ]\S+\.\w+|>)|get-secret-value-to-file"
    r"|download(?!.*--no-file)"
)
_KAFKA = re.compile(r"--(?:list|describe)\b")
_KAFKA_WRITE = re.compile(r"--(?:delete|alter|create|add|remove|reset-offsets|execute|topic-white-list-write)\b")
_LOOPBACK_URL = re.compile(r"(?:https?://)?(?:localhost|127(?:\.\d{1,3}){3}|\[::1\])(?::\d{1,5})?(?:[/?#][^\s]*)?")
_CURL_WRITE = re.compile(
    r"(?:^|\s)(?:-[a-zA-Z]*[dFTouOKK]\S*|--(?:data\S*|form\S*|upload-file|output|remote-name\S*|config|engine|json"
    r"|cookie-jar|dump-header|trace\S*|libcurl|stderr|write-out|create-dirs|proxy\S*)|-X\s*(?!GET\b|HEAD\b)\S+"
    r"|--request[= ](?!GET\b|HEAD\b)\S+)(?:\s|$)"
)


_ASSIGNMENT = re.compile(r"[A-Za-z_]\w*=.*", re.S)
_VERB = re.compile(r"[a-z][a-z0-9_-]{1,40}")
_VERBS_WRITE = re.compile(
    r"(?:delete|remove|rm|rb|purge|destroy|drop|create|put|update|set|exec|run|apply|push|sync"
    r"|restore|prune|forget|unlock|kill|stop|start|restart|enable|disable|install|uninstall"
    r"|revoke|mount|move|copy|cp|mv|send|publish|invoke)(?:[-_].*)?"
)
_CURL_VALUES = frozenset("-X --request -H --header -A --user-agent -e --referer -m --max-time --connect-timeout -w -b --cookie --retry -r --range -u --user".split())


def read_only(cmd: Command, extra: frozenset[str] = frozenset()) -> bool:
    """True when `cmd` (launchers already removed) only reads."""
    name = cmd.name
    if not name:
        return True
    if name in extra:
        return True
    argv = cmd.argv
    if len(argv) == 2 and argv[1] in ("--version", "--help") and "/" not in argv[0]:
        return True
    if "=" in name and _ASSIGNMENT.fullmatch(argv[0]):
        return True
    check = _CHECKS.get(name)
    if check is not None:
        return check(cmd)
    if name.startswith("kafka-"):
        return name == "kafka-broker-api-versions" or (
            _KAFKA.search(cmd.text) is not None and _KAFKA_WRITE.search(cmd.text) is None
        )
    pattern = PLAIN.get(name)
    return pattern is not None and pattern.search(cmd.text) is None


def _sed(cmd: Command) -> bool:
    return _SED_WRITE.search(cmd.text) is None and not cmd.flags & {"-f", "--file"}


def _awk(cmd: Command) -> bool:
    return _AWK_WRITE.search(cmd.text) is None and not any(f in cmd.flags for f in ("-i", "-f", "--load"))


def _command(cmd: Command) -> bool:
    return bool(cmd.flags & {"-v", "-V"}) and len(cmd.operands) <= 1


def _rsync(cmd: Command) -> bool:
    return "--list-only" in cmd.flags or bool({"-n", "--dry-run"} & cmd.flags)


def _busybox(cmd: Command) -> bool:
    return not cmd.operands


def _always(cmd: Command) -> bool:
    return True


def _find(cmd: Command) -> bool:
    """Every expression word must be a known primary, an operator, or a primary's value."""
    if _FIND_FORBIDDEN.search(cmd.text):
        return False
    started = False
    expect_value = 0
    for arg in cmd.args:
        if expect_value:
            expect_value -= 1
            continue
        if arg in ("(", ")", "!", "\\(", "\\)", ",") or arg in ("-H", "-L", "-P") and not started:
            started = started or arg not in ("-H", "-L", "-P")
            continue
        if arg.startswith("-") and len(arg) > 1:
            if not _FIND_PRIMARY.fullmatch(arg):
                return False
            started = True
            expect_value = 0 if _FIND_FLAG_ONLY.fullmatch(arg) else 1
            continue
        if started:
            return False
    return True


def _git(cmd: Command) -> bool:
    if _GIT_FORBIDDEN.search(cmd.text):
        return False
    ops = cmd.operands
    if not ops:
        return not cmd.flags - {"--version", "--help", "-h"}
    sub = ops[0]
    if sub in _GIT_READ:
        return True
    if sub == "branch":
        return len(ops) == 1 and not cmd.flags & {"-d", "-D", "-m", "-M", "-c", "-C", "--delete", "--move", "--copy",
                                                   "-f", "--force", "-u", "--set-upstream-to", "--unset-upstream",
                                                   "--edit-description"}
    if sub in ("stash", "worktree", "remote", "submodule", "notes", "reflog"):
        return len(ops) == 1 and sub != "stash" or (len(ops) > 1 and ops[1] in ("list", "show", "status"))
    if sub == "tag":
        return len(ops) == 1 or bool(cmd.flags & {"-l", "--list"})
    if sub == "config":
        return bool(cmd.flags & {"--get", "--list", "-l", "--get-all", "--get-regexp"})
    if sub == "clean":
        return bool(cmd.flags & {"-n", "--dry-run"}) and not cmd.flags & {"-f", "--force"}
    return False


def _curl(cmd: Command) -> bool:
    urls, skip = [], False
    for arg in cmd.args:
        if skip:
            skip = False
        elif arg in _CURL_VALUES:
            skip = True
        elif not arg.startswith("-"):
            urls.append(arg)
    if not urls or _CURL_WRITE.search(cmd.text):
        return False
    return all(_LOOPBACK_URL.fullmatch(url) for url in urls)


_CHECKS: dict[str, Callable[[Command], bool]] = {
    "git": _git, "find": _find, "sed": _sed, "gsed": _sed, "awk": _awk, "gawk": _awk, "mawk": _awk, "nawk": _awk,
    "command": _command, "curl": _curl, "rsync": _rsync, "parallel": _always, "xargs": _always, "busybox": _busybox,
}


def _cli(cmd: Command) -> bool:
    if _CLI_FORBIDDEN.search(cmd.text):
        return False
    if cmd.name == "rclone" and cmd.flags & {"--dry-run", "-n"}:
        return True
    if cmd.name == "rabbitmq-diagnostics":
        return True
    verbs = [op for op in cmd.operands[:3] if _VERB.fullmatch(op)]
    if cmd.name == "doppler" and cmd.sub("secrets", "download"):
        return "--no-file" in cmd.flags
    return any(_VERBS_READ.fullmatch(v) for v in verbs) and not any(_VERBS_WRITE.fullmatch(v) for v in verbs)


_CHECKS.update({name: _cli for name in _SUBCOMMAND_CLIS})
