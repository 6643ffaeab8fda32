"""The running system looked at, not changed: processes, logs, services, network state and hardware.

Read-only proofs only (the rules for changing these live in the execution, network and
security packs; disks, firewalls and keys have their tables in core.disks, core.security
and core.secrets). Left out on purpose: `dmesg -c/-C/-D/-E/-n`, `journalctl --vacuum-*`,
`--rotate`, `--flush`, `--sync`, `--relinquish-var`, `--setup-keys`, `--update-catalog`,
`--cursor-file` (it writes the cursor) and `--image`; `systemctl -H` (ssh to another host)
and every verb but status/show/cat/list-*/is-*; `ss -K` (kills sockets) and `-D` (writes a
dump); `ip -batch` and `-force`, `ip netns exec` and `ip xfrm` (prints IPsec keys); `sysctl
-w/-p` and any `key=value`; `lspci -M/-H/-Q` (bus probing, DNS queries); `lsof -D` (writes
a device cache); any `SYSTEMD_*` variable in front of a systemd tool (pagers) but a pager set to
nothing or `cat`; `dmidecode --dump-bin` (writes); `busctl call|emit|set-property|tree|introspect`
(calls or activates services) and `-H/-M`; resolvectl's setters (`dns`, `domain`, …) and `query`
(a DNS lookup); `nmcli -s/--show-secrets`, `device wifi show-password`, every command that changes
a connection, device, radio or the network, and a prefix nmcli could read as one of those
(`nmcli device s` may be `set`); `ethtool -s/-K/-E/-t/…` (they change or test the link);
`ifconfig`, `iwconfig` and `arp` with more than an interface (they set it); `route add|del` and
`route get NAME` (a DNS lookup); resolvectl's setters (`dns IFACE SERVER…`); `coredumpctl
dump|debug` (they write a core or start gdb); `udevadm` but `info`; `bridge … add|del|set`; `sar -o` (writes); `fuser -k` (kills); `crontab` but `-l`; `stty`
settings; `nvidia-smi` but its queries (`-pm`, `-pl`, `-r`, `-c`, `--gom`, `-ac`, `-rac`, `-e`, `-mig`, `-lgc` and
the other setters change the GPU; `-f/--filename` and `--debug` write a file) and `topo -m`; `systemd-analyze
verify`, `condition`, `cat-config`, `inspect-elf`, `set-log-*`, `--generators` (it runs them), `--man`,
`--root`, `--image`, `--offline`, `--security-policy`, `--profile` and `-H/-M`; `tput` but `cols`, `lines`, `colors` and `longname` (`tput init` runs the terminal's
init program, which `~/.terminfo` can name) and `TERMINFO*`. journalctl's
`-n` and `-b` count as taking their value only when it is attached (`-n100`): journalctl takes
the next word only when it is a number, so a table that always took it could skip an option.
"""

from __future__ import annotations

from collections.abc import Iterable

from engine.gate.packs.model import Pack, Proof
from engine.gate.proof import Options, anything, at_most, options, unless_env

_GNU = " --help --version"


def _no_assignment(operands: list[str]) -> str | None:
    for word in operands:
        if "=" in word:
            return f"sysctl: {word} sets a kernel parameter"
    return None


_JOURNALCTL = unless_env(options(
    "-mkrxafqeNhVl --system --user --merge --dmesg --reverse --show-cursor --utc --catalog --no-hostname"
    " --no-full --full --all --follow --no-tail --quiet --no-pager --pager-end --force --fields --list-boots"
    " --disk-usage --verify --header --list-catalog --dump-catalog --list-namespaces --truncate-newline" + _GNU,
    "-MDSUcutpgoF --machine --directory --file --root --namespace --since --until --cursor --after-cursor --unit"
    " --user-unit --identifier --exclude-identifier --priority --facility --grep --output --output-fields"
    " --interval --verify-key --field --invocation",
    "-b -n --boot --lines --case-sensitive", numeric=True), "SYSTEMD_*")

_SYSTEMCTL_OPTIONS = (
    "-alrqi --system --user --failed --all --full --recursive --reverse --with-dependencies --show-types --value"
    " --quiet --no-pager --no-legend --plain --no-ask-password --global" + _GNU,
    "-tpPMno --type --state --property --machine --lines --output --legend --timestamp",
)
_SYSTEMCTL_READ = options(*_SYSTEMCTL_OPTIONS)
_SYSTEMCTL = unless_env(Options(
    _SYSTEMCTL_READ.flags, _SYSTEMCTL_READ.valued,
    subcommands={verb: _SYSTEMCTL_READ for verb in (
        "status show cat help list-units list-unit-files list-sockets list-timers list-jobs list-dependencies"
        " list-machines list-automounts list-paths is-active is-enabled is-failed is-system-running get-default"
        " show-environment whoami").split()} | {"": _SYSTEMCTL_READ},
), "SYSTEMD_*")

_CTL_OPTIONS = ("-aplqr --all --full --no-pager --no-legend --no-ask-password --value --quiet --system --user" + _GNU,
                "-pPMno --property --machine --lines --output --legend")


_RESOLVECTL = options(*_CTL_OPTIONS, operands=at_most(1))


_ANALYZE = options("--no-pager --system --user --global --order --require -q --quiet -h" + _GNU,
                   "--fuzz --iterations --base-time --from-pattern --to-pattern --json --threshold")
_ANALYZE_VERBS = ("time blame critical-chain plot dot dump unit-files unit-paths exit-status capability syscall-filter"
                  " filesystems calendar timestamp timespan compare-versions security")
_NVIDIA_SMI = options("-h -help -version -L -list-gpus -B -list-excluded-gpus -q -query -u -unit -x -xml-format -dtd",
                      "-i -id -d -display -l -loop -lms -loop-ms -query-gpu -query-compute-apps -query-accounted-apps"
                      " -query-retired-pages -query-remapped-rows -query-supported-clocks -format", single=True)


def _ctl(verbs: str) -> Proof:
    """A systemd `*ctl` reduced to the verbs that only show (the default verb shows status)."""
    table = options(*_CTL_OPTIONS)
    return unless_env(Options(table.flags, table.valued,
                              subcommands={verb: table for verb in ["", *verbs.split()]}), "SYSTEMD_*")


_IP_GLOBAL = options(
    "-4 -6 -0 -B -M -s -stats -statistics -d -details -r -resolve -h -human -human-readable -iec -o -oneline -t"
    " -timestamp -ts -tshort -j -json -p -pretty -br -brief -N -Numeric -V -Version -a -all -c -color",
    "-f -family -l -loops -n -netns -rc -rcvbuf", "-color", single=True)
_IP_SHOW = options("-4 -6", single=True)
_IP_OBJECTS = {
    ("a", "ad", "add", "addr", "addre", "addres", "address"): "show list lst sh s ls l",
    ("r", "ro", "rou", "rout", "route"): "show list lst sh ls get",
    ("l", "li", "lin", "link"): "show list lst sh ls",
    ("n", "ne", "nei", "neig", "neigh", "neighbor", "neighbour"): "show list lst sh ls get",
    ("ru", "rul", "rule"): "show list lst sh ls",
    ("m", "ma", "mad", "madd", "maddr", "maddress"): "show list lst sh ls",
    ("netc", "netconf"): "show list lst sh ls",
    ("netns",): "list list-id identify pids",
    ("mon", "moni", "monit", "monito", "monitor"): "all link address route neigh rule",
}
_IP = Options(
    _IP_GLOBAL.flags, _IP_GLOBAL.valued, _IP_GLOBAL.attached, single=True,
    subcommands={name: Options(single=True, subcommands={verb: _IP_SHOW for verb in ["", *verbs.split()]})
                 for names, verbs in _IP_OBJECTS.items() for name in names} | {"": _IP_SHOW},
)


def _prefixes(*words: str) -> dict[str, str]:
    """nmcli takes any prefix of an object or command: every prefix of `words` that names only one of them."""
    found: dict[str, str] = {}
    for word in words:
        for end in range(1, len(word) + 1):
            found[word[:end]] = word
    return found


def _nmcli_table(read: Iterable[str], everything: tuple[str, ...]) -> dict[str, str]:
    """The prefixes of the read-only commands that no other command of the object starts with (nmcli takes the
    first match in its own order, which a table here cannot promise)."""
    table: dict[str, str] = {}
    for prefix, word in _prefixes(*read).items():
        if all(not other.startswith(prefix) for other in everything if other != word):
            table[prefix] = word
    return table


_NMCLI_GLOBAL = options("-t -p -e -v -h --terse --pretty --version --help", "-m -c -f -g -w --mode --colors --fields"
                        " --get-values --escape --wait")
_NMCLI_LEAF = options("--active --order", "", operands=at_most(2))
_NMCLI_BARE = options(operands=at_most(0))
_NMCLI_OBJECTS: dict[str, tuple[dict[str, Options], tuple[str, ...]]] = {
    "general": ({"status": _NMCLI_BARE, "hostname": _NMCLI_BARE, "permissions": _NMCLI_BARE, "logging": _NMCLI_BARE},
                ("status", "hostname", "permissions", "logging", "reload")),
    "networking": ({"connectivity": _NMCLI_BARE}, ("on", "off", "connectivity")),
    "radio": ({"all": _NMCLI_BARE, "wifi": _NMCLI_BARE, "wwan": _NMCLI_BARE}, ("all", "wifi", "wwan")),
    "connection": ({"show": _NMCLI_LEAF}, ("show", "up", "down", "add", "modify", "clone", "edit", "delete", "monitor",
                                          "reload", "load", "import", "export", "migrate")),
    "device": ({"status": _NMCLI_BARE, "show": options(operands=at_most(1)), "lldp": _NMCLI_BARE,
                "wifi": Options(subcommands={"list": options("", "--rescan --ifname --bssid", operands=at_most(0))})},
               ("status", "show", "set", "up", "connect", "reapply", "modify", "down", "disconnect", "delete",
                "monitor", "wifi", "lldp")),
}
_NMCLI = Options(_NMCLI_GLOBAL.flags, _NMCLI_GLOBAL.valued, subcommands={
    prefix: Options(subcommands={"": options(), **{short: table[word] for short, word in
                                                   _nmcli_table(table, commands).items()}})
    for prefix, name in _nmcli_table(dict.fromkeys(_NMCLI_OBJECTS), (*_NMCLI_OBJECTS, "agent", "monitor")).items()
    for table, commands in [_NMCLI_OBJECTS[name]]
} | {"": options()})


def _route(operands: list[str]) -> str | None:
    """The routing table (`route -n`), one route looked up (`route -n get default`) or Windows' `route print`."""
    if not operands or operands[0] == "print" or operands[0] == "get" and len(operands) == 2 and (
            operands[1] == "default" or all(ch in "0123456789abcdefABCDEF.:/" for ch in operands[1])):
        return None
    return f"route: {operands[0]} is not known to be read-only"


_ETHTOOL = options(
    "-iSkgaclTP --driver --statistics --show-features --show-offload --show-ring --show-pause --show-coalesce"
    " --show-channels --show-time-stamping --show-permaddr --show-eee --show-fec --show-priv-flags --show-tunnels"
    " --json -I --include-statistics -h --help --version", operands=at_most(1))

READ_ONLY: dict[str, Proof] = {
    "ps": anything,
    "pgrep": options("-lavwcfinoxLAhV --list-name --list-full --inverse --lightweight --count --full --ignore-case"
                     " --newest --oldest --exact --logpidfile --ignore-ancestors" + _GNU,
                     "-dgGOPstuUFr --delimiter --pgroup --group --older --parent --session --terminal --euid --uid"
                     " --pidfile --runstates --cgroup --ns --nslist --env --signal"),
    "pidof": options("-scnxzqw", "-o -d"),
    "pstree": options("-aAcgGhlnpsStTuUVZ --arguments --ascii --compact-not --show-pgids --vt100 --highlight-all"
                      " --long --numeric-sort --show-pids --show-parents --ns-changes --thread-names --hide-threads"
                      " --uid-changes --unicode --version --security-context", "-CHN --color --highlight-pid"
                      " --ns-sort"),
    "pmap": options("-xXcdqphV --extended --read-rc --device --quiet --show-path" + _GNU,
                    "-CA --read-rc-from --range"),
    "pwdx": options("-hV" + _GNU),
    "lsof": options("-?abhlnNOPRtUvVwxXEKQ", "-cdpukmAe", "-iTfFgrosLSz"),
    "top": options("-bcHiOSs1V --batch-mode --cmdline-toggle --threads-show --idle-toggle --list-fields"
                   " --accum-time-toggle --secure-mode --single-cpu-toggle" + _GNU,
                   "-dnopuUeEl --delay --iterations --sort-override --pid --filter-any-user --filter-only-euser"
                   " --scale-summary-mem --scale-task-mem", "-w --width"),
    "free": options("-bkmghltvwV --bytes --kilo --mega --giga --tera --peta --kibi --mebi --gibi --tebi --pebi"
                    " --human --si --lohi --total --committed --wide" + _GNU, "-sc --seconds --count"),
    "uptime": options("-phsV --pretty --since" + _GNU),
    "vmstat": options("-afmnsdDwtyhV --active --forks --slabs --one-header --stats --disk --disk-sum --wide"
                      " --timestamp --no-first" + _GNU, "-pS --partition --unit"),
    "iostat": options("-cdhkmNtxyzHs --compact --human --pretty --dec", "-pgjo --dec"),
    "mpstat": options("-AHnuT --dec", "-IPNo"),
    "w": options("-husfoipV --no-header --no-current --short --from --old-style --ip-addr --pids" + _GNU),
    "who": options("-abdHlmpqrstTwu --all --boot --dead --heading --ips --login --lookup --process --count"
                   " --runlevel --short --time --mesg --users --message --writable" + _GNU),
    "users": options(_GNU),
    "last": options("-adFiRwxhV --hostlast --dns --fulltimes --ip --nohostname --fullnames --system" + _GNU,
                    "-fnstp --file --limit --since --until --present --time-format", numeric=True),
    "id": options("-aZgGnruz --context --group --groups --name --real --user --zero" + _GNU),
    "groups": options(_GNU),
    "whoami": options(_GNU),
    "logname": options(_GNU),
    "uname": options("-asnrvmpio --all --kernel-name --nodename --kernel-release --kernel-version --machine"
                     " --processor --hardware-platform --operating-system" + _GNU),
    "arch": options(_GNU),
    "nproc": options("--all" + _GNU, "--ignore"),
    "getconf": options("-a", "-v"),
    "locale": options("-amckv?V --all-locales --charmaps --category-name --keyword-name --verbose --usage" + _GNU),
    "dmesg": options("-HJkLPprSuwWxdeTt --human --json --kernel --nopager --force-prefix --raw --noescape --syslog"
                     " --userspace --follow --follow-new --decode --show-delta --reltime --ctime --notime" + _GNU,
                     "-Fflns --file --facility --level --buffer-size --time-format --since --until", "--color"),
    "journalctl": _JOURNALCTL,
    "systemctl": _SYSTEMCTL,
    "loginctl": _ctl("list-sessions session-status show-session list-users user-status show-user list-seats"
                     " seat-status show-seat"),
    "timedatectl": _ctl("status show list-timezones timesync-status show-timesync"),
    "hostnamectl": _ctl("status"),
    "localectl": _ctl("status list-locales list-keymaps list-x11-keymap-models list-x11-keymap-layouts"
                      " list-x11-keymap-variants list-x11-keymap-options"),
    "networkctl": _ctl("list status lldp label"),
    "ip": _IP,
    "ss": options("-hVnraloempTisbEZzN460tMSudwxHO --numeric --resolve --all --listening --options --extended"
                  " --memory --processes --threads --info --tipcinfo --summary --tos --cgroup --bpf --events --context"
                  " --contexts --ipv4 --ipv6 --packet --tcp --mptcp --sctp --udp --dccp --raw --unix --tipc --vsock"
                  " --xdp --no-header --oneline --inet-sockopt" + _GNU, "-fAFN --family --query --socket --filter"
                  " --net"),
    "netstat": options("-rigsMvWnNepoclaFCZ46tuwx --route --interfaces --groups --statistics --masquerade --verbose"
                       " --wide --numeric --numeric-hosts --numeric-ports --numeric-users --symbolic --extend"
                       " --programs --timers --continuous --listening --all --fib --cache --context --tcp --udp"
                       " --raw --unix" + _GNU, "-A --protocol"),
    "lsblk": options("-ADJMOPSTabdfilmnprstyzhV --noempty --discard --json --merge --output-all --pairs --scsi --all"
                     " --bytes --nodeps --fs --ascii --list --perms --noheadings --paths --raw --inverse --topology"
                     " --shell --zoned" + _GNU, "-EIeowx --dedup --include --exclude --output --width --sort --sysroot",
                     "--tree"),
    "lscpu": options("-abBCcJepxyhV --all --online --bytes --offline --json --hex --physical --output-all" + _GNU,
                     "-s --sysroot", "--caches --extended --parse"),
    "lsmem": options("-JPabnrhV --json --pairs --all --bytes --noheadings --output-all --raw" + _GNU,
                     "-oSs --output --split --sysroot", "--summary"),
    "lsns": options("-JlnruWhV --json --list --noheadings --output-all --raw --notruncate --nowrap" + _GNU,
                    "-optT --output --task --type --tree"),
    "lslocks": options("-bJinruhV --bytes --json --noinaccessible --noheadings --output-all --raw --notruncate" + _GNU,
                       "-op --output --pid"),
    "lsipc": options("-mqsgbceJnloPrtyhV --shmems --queues --semaphores --global --noheadings --notruncate --bytes"
                     " --creator --export --json --newline --list --numeric-perms --raw --time --shell" + _GNU,
                     "-i --id --time-format", "--output"),
    "nvidia-smi": Options(_NVIDIA_SMI.flags, _NVIDIA_SMI.valued, single=True, subcommands={
        "": _NVIDIA_SMI, "topo": options("-m -matrix -mp -matrix_pci -h -help", single=True)}),
    "getcap": options("-h -l -n -r -v"),
    "runlevel": options(_GNU, operands=at_most(1)),
    "systemd-analyze": unless_env(Options(_ANALYZE.flags, _ANALYZE.valued, subcommands={
        verb: _ANALYZE for verb in ["", *_ANALYZE_VERBS.split()]}), "SYSTEMD_*"),
    "lsirq": options("-JPnShV --json --pairs --noheadings --softirq" + _GNU, "-os --output --sort"),
    "lsusb": options("-vtV --verbose --tree --version", "-sdD"),
    "lspci": options("-mtvknxbDP", "-sdAip"),
    "sysctl": options("-aAXbeNnoxdhV --all --deprecated --binary --ignore --names --values --quiet" + _GNU,
                      "-r --pattern", operands=_no_assignment),
    "busybox": options(operands=at_most(0)),
    "lsmod": options(_GNU, operands=at_most(0)),
    "sar": options("-ABbdFHhpqrSTtuvWwyz --human --pretty -V", "-nPIfsemij --dec --iface --int --fs"),
    "fuser": options("-vaumMsw46V --verbose --all --user --mount --ismountpoint --silent --writeonly" + _GNU,
                     "-n --namespace"),
    "crontab": options("-l", "-u", requires="-l", operands=at_most(0)),
    "stty": options("-ag --all --save" + _GNU, "-F --file", operands=lambda words: next(
        (f"stty: {word} changes the terminal" for word in words if word != "size"), None)),
    "tput": unless_env(options("-V", "-T", operands=lambda words: None if len(words) == 1 and words[0] in (
        "cols", "lines", "colors", "longname") else "tput: only cols, lines, colors and longname only print"),
        "TERMINFO*"),
    "uuidgen": options("-rtxV --random --time --hex --md5 --sha1" + _GNU, "-nNC --namespace --name --count"),
    "modinfo": options("-adlpn0Vh --author --description --license --parameters --filename --null" + _GNU,
                       "-Fkb --field --set-version --basedir"),
    "dmidecode": options("-quVh --quiet --dump --no-sysfs" + _GNU, "-tsH --type --string --handle --from-dump"
                         " --oem-string"),
    "busctl": unless_env(Options(frozenset("-l -a --full --no-pager --no-legend --user --system --unique --acquired"
                                            " --activatable --show-machine --help --version -h".split()),
                                 subcommands={"list": options("-l -a --full --no-pager --no-legend --user --system"
                                                              " --unique --acquired --activatable --show-machine"),
                                              "status": options("--no-pager --user --system", operands=at_most(1))}),
                         "SYSTEMD_*"),
    "resolvectl": unless_env(Options(_RESOLVECTL.flags, _RESOLVECTL.valued, subcommands={
        "": _RESOLVECTL, "status": _RESOLVECTL, "statistics": _RESOLVECTL,
        **{verb: options(*_CTL_OPTIONS, operands=at_most(1)) for verb in (
            "dns", "domain", "default-route", "llmnr", "mdns", "dnssec", "dnsovertls", "nta")}}), "SYSTEMD_*"),
    "pidstat": options("-dHhIlRrsuvwtU --human --dec", "-CeGpT"),
    "bridge": Options(subcommands={obj: Options(subcommands={verb: options("-d -s -j -p -c -n --json --pretty --details"
                                                                           " --statistics --color", "dev")
                                                             for verb in ("", "show", "list", "lst", "sh", "ls")})
                                   for obj in ("link", "fdb", "vlan", "mdb")}),
    "coredumpctl": unless_env(Options(frozenset({"-h", "--help", "--version", "--no-pager", "--no-legend", "-r",
                                                 "--reverse", "-q", "--quiet", "--json"}), subcommands={
        verb: options("-r --reverse -q --quiet --no-pager --no-legend -1", "-S -U --since --until --json -F --field")
        for verb in ("", "list", "info")}), "SYSTEMD_*"),
    "udevadm": Options(subcommands={"info": options("-a -r -x -e -h -V --attribute-walk --root --export --export-db"
                                                    " --help --version --tree", "-q -p -n -d -P --query --path --name"
                                                    " --device-id-of-file --export-prefix --property")}),
    "nmcli": _NMCLI,
    "iwconfig": options(_GNU, operands=at_most(1)),
    "ethtool": _ETHTOOL,
    "ifconfig": options("-asvlLmudr" + _GNU, operands=at_most(1)),
    "arp": options("-anevD --all --numeric --verbose" + _GNU, "-iHt --device --hw-type"),
    "route": options("-neCFv46 --numeric --extend --cache --fib --verbose --ee" + _GNU, "-A", operands=_route),
}

PROVEN = (
    "ps aux --sort=-%mem", "pgrep -fl nginx", "pidof sshd", "pstree -p", "pmap -x 1234", "pwdx 1234",
    "lsof -i :8080", "top -b -n 1", "free -h", "uptime -p", "vmstat 1 5", "iostat -x 2 3", "mpstat -P ALL 1 1",
    "w", "who -b", "users", "last -n 10", "id -un", "groups", "whoami", "logname", "uname -a",
    "arch", "nproc --all", "getconf PAGE_SIZE", "locale -a",
    "dmesg -T --level=err,warn", "journalctl -u nginx --since '1 hour ago' --no-pager", "journalctl -b -1 -p err",
    "systemctl status nginx --no-pager", "systemctl list-units --type=service --state=failed",
    "systemctl is-active docker", "loginctl list-sessions", "timedatectl", "hostnamectl status", "localectl",
    "networkctl list", "ip -br addr", "ip route get 1.1.1.1", "ip -s link show eth0", "ss -tlnp", "netstat -rn",
    "lsblk -f", "lscpu -J", "lsmem --summary", "lsns -t net", "lslocks", "lsipc -m", "lsirq", "lsusb -t",
    "lspci -k", "sysctl net.ipv4.ip_forward", "busybox", "lsmod", "modinfo e1000e", "dmidecode -t system",
    "busctl list", "resolvectl status", "nmcli general status", "nmcli con show --active", "nmcli dev wifi list",
    "iwconfig", "ethtool -i eth0", "ifconfig -a", "arp -an", "route -n", "sar -u 1 3", "fuser -v /var/lib/dpkg/lock",
    "crontab -l", "stty size", "tput cols", "uuidgen", "resolvectl dns", "pidstat 1 3", "bridge link show",
    "coredumpctl list", "udevadm info /dev/sda", "nvidia-smi --query-gpu=name,memory.used --format=csv",
    "nvidia-smi -q -i 0", "nvidia-smi -L", "getcap -r /usr/bin", "runlevel", "systemd-analyze blame",
    "systemd-analyze critical-chain",
)

PACK = Pack("system", "The running system looked at, not changed: processes, logs, services, network state and "
            "hardware.", read_only=READ_ONLY, proven=PROVEN)
