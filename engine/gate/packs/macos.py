"""macOS: its disks, its system volumes, and its security, boot and recovery switches.

Catastrophic: erasing, zeroing or repartitioning a disk (`diskutil`, `asr --erase`, `gpt
destroy`), deleting an APFS container, volume or snapshot, deleting a volume's root, the
system or data volume, `/private/var`, or the user's Library or keychains; switching off SIP,
Gatekeeper, quarantine, the application firewall, FileVault, AMFI or a security agent
(XProtect, MRT, CrowdStrike, SentinelOne, Defender, …); granting privacy permissions by
writing the TCC database; deleting Time Machine backups or local snapshots or switching
backups off; erasing the unified log; dumping the keychain's secrets; creating a second uid 0
account or deleting a user with their home. Mounting, renaming, one app's quarantine flag,
app preferences, boot-args, the startup disk and single passwords are dangerous: a person
decides. The read-only forms (`tmutil listbackups`, `csrutil status`, `spctl --assess`,
`launchctl list`, `log show`, `defaults read`, `diskutil list`, `codesign -dv`, `plutil -p`,
`mdfind`, `scutil --get`, `networksetup -get…`, `pmset -g`, `ioreg`, …) are proven by the tables
below. Left out on purpose: `pbpaste` (the clipboard is where password managers put passwords),
`codesign --sign/--remove-signature/--extract-certificates/--file-list` and `-r`/`--entitlements`
to a file, `plutil -convert/-insert/-replace/-remove/-extract` (they write), `mdls -plist FILE`,
`scutil -r` (a DNS lookup) and `--set`, `networksetup -set…`, `pmset` without `-g`, `xcrun TOOL`
(it runs the tool), `lipo -create/-output`, `java_home --exec` (it runs the program), PlistBuddy commands but `Print`,
`defaults` but `read`, `read-type`, `domains`, `find` and `help` (`export` writes a file; only `write`,
`delete`, `import` and `rename` fire `macos.setting`), `pkgutil --forget/--expand/--flatten/--learn/--bom/--repair`
(they change receipts, permissions or write files) and `softwareupdate` but `--list`, `--list-full-installers`
and `--history` (`--schedule`, `--dump-state`, `-i`, `--fetch-full-installer` change or write).
"""

from __future__ import annotations

import re

from engine.gate.memo import per_word
from engine.gate.packs.model import CATASTROPHIC, DANGEROUS, IRREVERSIBLE, Pack, Proof, rule
from engine.gate.paths import fold
from engine.gate.proof import Reading, at_most, options, subcommands
from engine.gate.shell.view import Command

_DISK_ERASES = frozenset(
    "erasedisk erasevolume secureerase zerodisk randomdisk partitiondisk reformat mergepartitions splitpartition"
    " erasecd".split())
_APFS_DESTROYS = frozenset("deletecontainer deletevolume erasevolume deletevolumegroup deletesnapshot".split())
_DISK_READS = frozenset("list info information activity listfilesystems verifyvolume verifydisk".split())
_APFS_READS = frozenset("list listcryptousers listsnapshots listvolumegroups listusers".split())


def _disk_destroyed(cmd: Command) -> str | None:
    """diskutil's erases and repartitions, and deleting an APFS container, volume, group or snapshot."""
    ops = [op.lower() for op in cmd.operands[:2]]
    if not ops:
        return None
    if ops[0] in _DISK_ERASES:
        return cmd.operands[0]
    if ops[0] in ("apfs", "ap") and ops[1:] and ops[1] in _APFS_DESTROYS:
        return cmd.operands[1]
    if ops[0] in ("appleraid", "ar", "corestorage", "cs") and ops[1:] and ops[1] in ("delete", "deletevolume", "revert"):
        return cmd.operands[1]
    return None


def _disk_changed(cmd: Command) -> bool:
    ops = [op.lower() for op in cmd.operands[:2]]
    if not ops:
        return False
    if ops[0] in ("apfs", "ap", "cs", "corestorage", "appleraid", "ar"):
        return not (ops[1:] and ops[1] in _APFS_READS)
    return ops[0] not in _DISK_READS


_SYSTEM_TREES = re.compile(
    r"/Volumes/[^/]{1,255}(?:/\*)?|/System(?:/Volumes(?:/[^/]{1,255})?|/Library|/Applications)?(?:/\*)?"
    r"|/private/(?:var|etc)(?:/\*)?|~/Library(?:/\*)?|~?/Library/Keychains(?:/.{0,200})?")


def _system_deleted(cmd: Command) -> str | None:
    ops = cmd.operands[:16]
    for op in ops[:-1] if cmd.name == "mv" else ops:
        if op[:1] in ("/", "~", "$") and _system_tree(op):
            return op
    return None


@per_word(limit=256)
def _system_tree(path: str) -> bool:
    return _SYSTEM_TREES.fullmatch(fold(path)) is not None


def _sip_off(cmd: Command) -> bool:
    ops = cmd.operands
    return ops[:1] == ("disable",) or ops[:2] == ("authenticated-root", "disable") \
        or ops[:1] == ("enable",) and "--without" in cmd.flags


def _gatekeeper_off(cmd: Command) -> bool:
    if cmd.name == "defaults":
        write = _defaults_write(cmd)
        return write is not None and write[0].endswith("com.apple.launchservices") and write[1] == "lsquarantine" \
            and write[2] in _FALSE
    if cmd.flags & {"--master-disable", "--global-disable"}:
        return True
    if "--disable" in cmd.flags:
        return not cmd.operands and not cmd.flags & {"--label", "--rule", "-t", "--type"}
    return cmd.operands[:2] == ("kext-consent", "disable")


_FALSE = frozenset({"0", "false", "no", "off"})


def _defaults_write(cmd: Command) -> tuple[str, str, str] | None:
    """(domain, key, last value) of `defaults [-currentHost] write DOMAIN KEY [-type] VALUE`, lower-cased."""
    ops = [op.lower() for op in cmd.operands]
    if "write" not in ops[:3]:
        return None
    rest = ops[ops.index("write") + 1 :]
    if len(rest) < 3:
        return None
    domain = rest[0][: -len(".plist")] if rest[0].endswith(".plist") else rest[0]
    return domain, rest[1], rest[-1]


def _firewall_off(cmd: Command) -> bool:
    if cmd.name == "socketfilterfw":
        value = next((cmd.args[i + 1] for i, arg in enumerate(cmd.args[:-1]) if arg == "--setglobalstate"), "")
        return value.lower() in _FALSE
    ops = [op.lower() for op in cmd.operands]
    if ops[:1] == ["delete"] and any(op.endswith(("com.apple.alf", "com.apple.alf.plist")) for op in ops[1:2]):
        return True
    write = _defaults_write(cmd)
    return write is not None and write[0].endswith("com.apple.alf") and write[1] == "globalstate" and write[2] in _FALSE


_AGENTS = re.compile(
    r"(?i)com\.apple\.(?:alf|xprotect|mrt|syspolicy|security|trustd|auditd|tccd|endpointsecurity|amfid|gatekeeper)"
    r"|crowdstrike|falcon|sentinel|com\.microsoft\.(?:wdav|fresno|dlp)|wdav|com\.jamf\.protect|sophos|carbonblack"
    r"|objective-see|littlesnitch|obdev|malwarebytes|com\.eset|symantec|mcafee|trendmicro|paloaltonetworks"
    r"|elastic\.endpoint|kaspersky|bitdefender|cisco\.amp|com\.avast|com\.google\.santa|northpolesec|osquery")
_LAUNCHD_OFF = frozenset({"unload", "bootout", "disable", "remove", "kill"})


def _agent_off(cmd: Command) -> str | None:
    ops = cmd.operands
    if not ops or ops[0] not in _LAUNCHD_OFF:
        return None
    for op in ops[1:]:
        found = _AGENTS.search(op)
        if found:
            return op
    return None


_AMFI_OFF = re.compile(r"(?i)amfi_get_out_of_my_way|cs_enforcement_disable|amfi=0x|ipc_control_port_options=0")
_TCC_WRITE = re.compile(r"(?i)\b(?:insert|update|replace)\b")
_BACKUPS_OFF = frozenset("delete deletelocalsnapshots thinlocalsnapshots disable disablelocal removedestination".split())
_UID0 = re.compile(r"(?i)-(?:create|append|change)\s{1,8}\S{1,200}\s{1,8}UniqueID\s{1,8}(?:\S{1,40}\s{1,8})?0(?:\s|$)")


def _security_off(cmd: Command) -> bool:
    name = cmd.name
    if name == "fdesetup":
        return cmd.operands[:1] == ("disable",)
    if name == "nvram":
        return _AMFI_OFF.search(cmd.text) is not None
    return "tcc.db" in cmd.text.lower() and _TCC_WRITE.search(cmd.text) is not None


def _user_deleted(cmd: Command) -> bool:
    args = [arg.lower() for arg in cmd.args]
    return "-deleteuser" in args and "-keephome" not in args


def _quarantine_dropped(cmd: Command) -> bool:
    if cmd.name == "spctl":
        return bool(cmd.flags & {"--add", "--enable", "--disable", "--remove"}) and not _gatekeeper_off(cmd)
    return READ_ONLY["xattr"](cmd) is not None


def _setting_changed(cmd: Command) -> bool:
    name = cmd.name
    if name == "defaults":
        return _defaults_verb(list(cmd.args))[0] in _DEFAULTS_CHANGES
    if name in ("nvram", "bless"):
        return READ_ONLY[name](cmd) is not None
    if name == "pmset":
        return not cmd.flags <= {"-g"}
    if name == "systemsetup":
        return any(arg.lower().startswith("-set") for arg in cmd.args)
    return "--set" in cmd.flags


RULES = [
    rule("macos.disk-erase", CATASTROPHIC, "fs", "erases, zeroes or repartitions a disk, or deletes an APFS container, "
         "volume or snapshot", names="diskutil", tier=IRREVERSIBLE, test=_disk_destroyed, cite=True,
         examples=["diskutil eraseDisk APFS Blank disk2", "diskutil zeroDisk disk2", "diskutil apfs deleteVolume disk1s2",
                   "diskutil ap deleteSnapshot disk1s1 -uuid X", "diskutil partitionDisk disk2 GPT APFS Main 100%"],
         counter=["diskutil list", "diskutil unmountDisk disk2", "diskutil apfs list"]),
    rule("macos.disk-restore", CATASTROPHIC, "fs", "erases the target volume or disk before restoring onto it",
         names="asr gpt", tier=IRREVERSIBLE,
         test=lambda c: any(a.lower() in ("--erase", "-erase") for a in c.args) if c.name == "asr"
         else c.operands[:1] in (("destroy",), ("remove",), ("migrate",)) or c.operands[:1] == ("create",) and "-f" in c.flags,
         examples=["asr restore --source x.dmg --target /Volumes/T --erase", "gpt destroy /dev/disk2", "gpt remove -i 1 disk2"],
         counter=["asr imagescan --source x.dmg", "gpt show disk0"]),
    rule("macos.disk-change", DANGEROUS, "fs", "mounts, unmounts, renames, resizes or otherwise changes disks and volumes",
         names="diskutil", tier=IRREVERSIBLE, test=_disk_changed,
         examples=["diskutil unmountDisk force disk2", "diskutil rename disk2s1 Backup", "diskutil apfs addVolume disk1 APFS S"],
         counter=["diskutil list", "diskutil info disk0", "diskutil apfs list"]),
    rule("macos.system-delete", CATASTROPHIC, "fs", "deletes a volume, the system or data volume, /private or the "
         "user's Library or keychains", names="rm mv srm shred", tier=IRREVERSIBLE, test=_system_deleted, cite=True,
         examples=["rm -rf \"/Volumes/Macintosh HD\"", "rm -rf /System/Volumes/Data", "rm -rf /private/var",
                   "rm -rf ~/Library", "rm ~/Library/Keychains/login.keychain-db"],
         counter=["rm -rf /Volumes/Backup/old", "rm -rf ~/Library/Caches/x", "rm -rf ./Library"]),
    rule("macos.sip-off", CATASTROPHIC, "evasion", "switches off System Integrity Protection or the sealed system volume",
         names="csrutil", tier=IRREVERSIBLE, test=_sip_off,
         examples=["csrutil disable", "csrutil authenticated-root disable", "csrutil enable --without fs"],
         counter=["csrutil status", "csrutil enable", "csrutil clear"]),
    rule("macos.gatekeeper-off", CATASTROPHIC, "evasion", "switches off Gatekeeper or download quarantine for every app",
         names="spctl defaults", tier=IRREVERSIBLE, test=_gatekeeper_off,
         examples=["spctl --master-disable", "spctl --global-disable", "spctl kext-consent disable",
                   "defaults write com.apple.LaunchServices LSQuarantine -bool false"],
         counter=["spctl --status", "spctl --add --label A /Applications/X.app", "defaults read com.apple.LaunchServices"]),
    rule("macos.firewall-off", CATASTROPHIC, "evasion net", "switches off the application firewall",
         names="socketfilterfw defaults", tier=IRREVERSIBLE, test=_firewall_off,
         examples=["/usr/libexec/ApplicationFirewall/socketfilterfw --setglobalstate off",
                   "defaults write /Library/Preferences/com.apple.alf globalstate -int 0",
                   "defaults delete /Library/Preferences/com.apple.alf"],
         counter=["socketfilterfw --setglobalstate on", "defaults write com.apple.alf globalstate -int 1",
                  "socketfilterfw --getglobalstate"]),
    rule("macos.agent-off", CATASTROPHIC, "evasion", "unloads or disables a security agent (XProtect, firewall, EDR, "
         "antivirus)", names="launchctl", tier=IRREVERSIBLE, test=_agent_off, cite=True,
         examples=["launchctl unload -w /System/Library/LaunchDaemons/com.apple.alf.agent.plist",
                   "launchctl bootout system/com.apple.XProtect.daemon.scan", "launchctl disable system/com.crowdstrike.falcond"],
         counter=["launchctl unload ~/Library/LaunchAgents/com.example.agent.plist", "launchctl list com.apple.alf"]),
    rule("macos.security-off", CATASTROPHIC, "evasion", "switches off FileVault or code signing enforcement, or grants "
         "privacy permissions behind the user's back", names="fdesetup nvram sqlite3", tier=IRREVERSIBLE,
         test=_security_off,
         examples=["fdesetup disable", "nvram boot-args=amfi_get_out_of_my_way=1",
                   "sqlite3 TCC.db \"INSERT INTO access VALUES('kTCCServiceSystemPolicyAllFiles','x',0,2)\""],
         counter=["fdesetup status", "nvram boot-args=-v", "sqlite3 TCC.db 'select * from access'"]),
    rule("macos.backups-delete", CATASTROPHIC, "fs evasion", "deletes Time Machine backups or local snapshots, or "
         "switches backups off", names="tmutil", tier=IRREVERSIBLE,
         test=lambda c: bool(c.operands) and c.operands[0].lower() in _BACKUPS_OFF,
         examples=["tmutil disable", "tmutil deletelocalsnapshots /", "tmutil delete /Volumes/TM/Backups.backupdb/m/x",
                   "tmutil thinlocalsnapshots / 999999999999 4"],
         counter=["tmutil listbackups", "tmutil startbackup", "tmutil enable"]),
    rule("macos.backups-change", DANGEROUS, "fs", "starts, stops, restores or reconfigures Time Machine backups",
         names="tmutil", tier=IRREVERSIBLE, test=lambda c: READ_ONLY["tmutil"](c) is not None,
         examples=["tmutil startbackup", "tmutil addexclusion ~/Downloads", "tmutil restore /b/x ./x"],
         counter=["tmutil listbackups", "tmutil latestbackup"]),
    rule("macos.log-erase", CATASTROPHIC, "evasion", "erases the unified log", names="log", tier=IRREVERSIBLE,
         test=lambda c: c.operands[:1] == ("erase",), examples=["log erase --all", "log erase"],
         counter=["log show --last 1h", "log stream"]),
    rule("macos.keychain-dump", CATASTROPHIC, "creds", "dumps every secret in a keychain", names="security chainbreaker",
         tier=IRREVERSIBLE, test=lambda c: c.name == "chainbreaker" or c.operands[:1] == ("dump-keychain",) and "-d" in c.flags,
         examples=["security dump-keychain -d login.keychain", "chainbreaker --dump-all login.keychain-db"],
         counter=["security dump-keychain", "security find-certificate -a"]),
    rule("macos.uid0-account", CATASTROPHIC, "creds evasion", "creates a second root account (uid 0)", names="dscl",
         tier=IRREVERSIBLE, test=lambda c: _UID0.search(c.text) is not None,
         examples=["dscl . -create /Users/backdoor UniqueID 0"], counter=["dscl . -create /Users/bob UniqueID 501"]),
    rule("macos.user-delete", CATASTROPHIC, "creds fs", "deletes a user together with their home folder",
         names="sysadminctl", tier=IRREVERSIBLE, test=_user_deleted,
         examples=["sysadminctl -deleteUser alice", "sysadminctl -deleteUser alice -secure"],
         counter=["sysadminctl -deleteUser alice -keepHome", "sysadminctl -addUser bob"]),
    rule("macos.control-change", DANGEROUS, "evasion", "changes System Integrity Protection or Gatekeeper settings",
         names="csrutil spctl", tier=IRREVERSIBLE, test=lambda c: READ_ONLY[c.name](c) is not None,
         examples=["csrutil clear", "spctl --add --label A /Applications/X.app", "spctl --enable --label A"],
         counter=["csrutil status", "spctl --status", "spctl --assess -v /Applications/X.app"]),
    rule("macos.keychain", DANGEROUS, "creds", "reads a password from a keychain, or changes keychains, certificates "
         "or trust settings", names="security", tier=IRREVERSIBLE, test=lambda c: READ_ONLY["security"](c) is not None,
         examples=["security find-generic-password -wa github", "security add-trusted-cert -d -r trustRoot ca.crt",
                   "security delete-keychain x.keychain", "security list-keychains -s evil.keychain"],
         counter=["security find-certificate -a -p", "security list-keychains", "security verify-cert -c c.pem"]),
    rule("macos.quarantine", DANGEROUS, "evasion", "removes a file's quarantine flag or approves an app Gatekeeper "
         "would block", names="xattr spctl", tier=IRREVERSIBLE, test=_quarantine_dropped,
         examples=["xattr -d com.apple.quarantine /Applications/Foo.app", "xattr -cr Foo.app",
                   "spctl --add --label Approved /Applications/Foo.app"],
         counter=["xattr -l Foo.dmg", "spctl --assess Foo.app"]),
    rule("macos.setting", DANGEROUS, "evasion", "changes a system or app setting, the startup disk or boot arguments",
         names="defaults nvram bless pmset systemsetup scutil", tier=IRREVERSIBLE, test=_setting_changed,
         examples=["defaults write com.apple.dock autohide -bool true", "nvram -c", "bless --mount /Volumes/X --setBoot",
                   "pmset -a sleep 0", "systemsetup -setremotelogin on", "scutil --set HostName x"],
         counter=["defaults read com.apple.dock", "nvram -p", "bless --info", "pmset -g", "scutil --get HostName"]),
]


def _spctl(cmd: Command) -> str | None:
    if cmd.operands[:2] in (("kext-consent", "status"), ("developer-mode", "status")):
        return None if len(cmd.args) == 2 else "spctl: options after a status sub-command"
    return _SPCTL(cmd)


_SPCTL = options("--status --global-status --assess -a --verbose -v --raw --list --ignore-cache --no-cache --continue"
                 " -h --help", "-t --type --context --label")


_DEFAULTS_CHANGES = frozenset({"write", "delete", "remove", "import", "rename"})
_GLOBAL_DOMAIN = frozenset({"-g", "-globalDomain", "NSGlobalDomain"})


def _defaults_verb(args: list[str]) -> tuple[str, list[str]]:
    """The verb of `defaults [-currentHost | -host NAME] VERB …` and the words after it."""
    i = 0
    while i < len(args) and args[i] in ("-currentHost", "-host"):
        i += 2 if args[i] == "-host" else 1
    return (args[i], args[i + 1 :]) if i < len(args) else ("", [])


def _defaults(cmd: Command) -> str | None:
    """`read [DOMAIN [KEY]]`, `read-type DOMAIN KEY`, `domains`, `find WORD` and `help`; a domain is a
    name, `-g`/`-globalDomain` or `-app NAME`. `write`, `delete`, `import`, `rename` change settings
    and `export` writes a file."""
    verb, rest = _defaults_verb(list(cmd.args))
    if verb in ("domains", "help"):
        return None if not rest else f"defaults {verb}: takes no operands"
    if verb == "find":
        return None if len(rest) == 1 and not rest[0].startswith("-") else "defaults find: takes one word"
    if verb not in ("read", "read-type"):
        return f"defaults {verb or '(no verb)'}: not known to be read-only"
    if rest[:1] == ["-app"]:
        rest = rest[2:] if len(rest) > 1 else ["-app"]
    elif rest and (rest[0] in _GLOBAL_DOMAIN or not rest[0].startswith("-")):
        rest = rest[1:]
    elif rest or verb == "read-type":
        return f"defaults {verb}: {rest[0] if rest else 'no domain'} is not a domain known to be read"
    if len(rest) > 1 or rest and rest[0].startswith("-") or verb == "read-type" and not rest:
        return f"defaults {verb}: takes a domain and at most one key"
    return None


def _nvram_operands(ops: list[str]) -> str | None:
    return "nvram: NAME=VALUE sets a variable" if any("=" in op for op in ops) else None


_LOG_SHOW = options("--info --debug --signpost --loss --no-pager --source --backtrace --mach-continuous-time --no-info"
                    " --no-debug --no-loss --no-signpost", "--last --start --end --predicate --style --color --archive"
                    " --file --process --timezone --type")
_LOG_STREAM = options("--source --mach-continuous-time", "--level --predicate --process --style --color --type --timeout")
_LOG_STATS = options("--overview --per-book --per-file --per-process --per-sender", "--archive --sort --count --style"
                     " --predicate --start --end --last")
_TM_PLAIN = options("-X -m -a", "-d -t")
_FDESETUP = options("-extended -verbose -offset", single=True)
_KEYCHAIN_LISTS = options("", "-d")

_PLIST = options("-plist")
_DISKUTIL = options(fold=True, subcommands={
    "list": _PLIST, "info": options("-plist -all"), "information": options("-plist -all"), "listfilesystems": _PLIST,
    "activity": options(), "apfs": options(fold=True, subcommands={verb: _PLIST for verb in _APFS_READS}),
    "ap": options(fold=True, subcommands={verb: _PLIST for verb in _APFS_READS}),
    "cs": options(fold=True, subcommands={"list": _PLIST, "info": _PLIST}),
    "appleraid": options(fold=True, subcommands={"list": _PLIST}),
})

def _codesign(reading: Reading) -> str | None:
    """Displaying and verifying; `-r` and `--entitlements` write to the path they are given unless it is `-`."""
    for value in reading.values("-r", "--requirements", "--entitlements"):
        if value not in ("-", ":-"):
            return f"codesign: {value} would be written"
    return None


_CODESIGN = options("-d -v -D --display --verify --deep --strict --check-notarization --xml --der --all-architectures"
                    " --no-strict -h --help", "-r -R -a --requirements --test-requirement --entitlements --architecture",
                    "--verbose --strict", requires="-d -v --display --verify", check=_codesign)


def _networksetup(cmd: Command) -> str | None:
    """`-list…` and `-get…` report; every other verb (`-set…`, `-create…`, `-remove…`, …) changes the network."""
    first = cmd.args[0].lower() if cmd.args else ""
    if first.startswith(("-list", "-get", "-show")) or first in ("-printcommands", "-version", "-help"):
        return None
    return f"networksetup: {first or 'no verb'} is not known to be read-only"


def _pmset(cmd: Command) -> str | None:
    if cmd.args[:1] == ("-g",) and len(cmd.args) <= 3:
        return None
    return "pmset: only -g reports settings"


def _plistbuddy(reading: Reading) -> str | None:
    """Only `Print` commands (any other command changes the file, which PlistBuddy then saves)."""
    commands = reading.values("-c")
    if not commands:
        return "PlistBuddy: without -c it reads commands from its input"
    for command in commands:
        if command.split(None, 1)[0].lower() not in ("print", "help"):
            return f"PlistBuddy: {command.split(None, 1)[0]} is not known to be read-only"
    return at_most(1)(list(reading.operands))


_XCRUN = options("--show-sdk-path --show-sdk-version --show-sdk-build-version --show-sdk-platform-path"
                 " --show-sdk-platform-version -v --verbose --version -h --help --no-cache --log",
                 "--sdk --toolchain --find -f", operands=at_most(0))

READ_ONLY: dict[str, Proof] = {
    "diskutil": _DISKUTIL,
    "tmutil": subcommands({verb: _TM_PLAIN for verb in (
        "listbackups", "latestbackup", "destinationinfo", "listlocalsnapshots", "listlocalsnapshotdates",
        "machinedirectory", "isexcluded", "uniquesize", "calculatedrift", "compare", "verifychecksums", "status",
        "version", "help")}),
    "csrutil": subcommands({"status": options(), "authenticated-root": subcommands({"status": options()}),
                            "allow-research-guests": subcommands({"status": options()}),
                            "netboot": subcommands({"list": options()})}),
    "spctl": _spctl,
    "sw_vers": options("-productName -productVersion -productVersionExtra -buildVersion", single=True),
    "system_profiler": options("-listDataTypes -xml -json -nospinner", "-detailLevel -timeout", single=True),
    "launchctl": subcommands({verb: options("-x") for verb in (
        "list", "print", "print-disabled", "print-cache", "blame", "dumpstate", "managerpid", "manageruid",
        "managername", "version", "help", "hostinfo", "error", "procinfo")}),
    "socketfilterfw": options("--getglobalstate --getblockall --getallowsigned --getstealthmode --getloggingmode"
                              " --getloggingopt --listapps --help -h", "--getappblocked"),
    "fdesetup": subcommands({verb: _FDESETUP for verb in (
        "status", "list", "isactive", "hasinstitutionalrecoverykey", "haspersonalrecoverykey", "usingrecoverykey",
        "supportsauthrestart", "showdeferralinfo", "version", "help")}),
    "nvram": options("-p -x", operands=_nvram_operands),
    "bless": options("--info --getBoot --verbose --plist --quiet --version --help"),
    "log": subcommands({"show": _LOG_SHOW, "stream": _LOG_STREAM, "stats": _LOG_STATS, "help": options()}),
    "defaults": _defaults,
    "security": subcommands({
        "find-certificate": options("-a -p -Z -m", "-c -e"), "list-keychains": _KEYCHAIN_LISTS,
        "default-keychain": _KEYCHAIN_LISTS, "login-keychain": _KEYCHAIN_LISTS, "show-keychain-info": options(),
        "find-identity": options("-v", "-p -s"), "dump-trust-settings": options("-s -d"), "help": options(),
        "verify-cert": options("-q -L -l -C -N", "-c -r -p -k -n -e -s -R -d"),
    }),
    "xattr": options("-l -p -r -s -v -x -h"),
    "gpt": options("-r -v -q", subcommands={"show": options("-l -r -u")}),
    "codesign": _CODESIGN,
    "plutil": options("-p -lint -s -help -r", "-type", requires="-p -lint -type -help", single=True),
    "mdfind": options("-live -count -0 -literal -interpret -reprint", "-onlyin -name -attr -s", single=True),
    "mdls": options("-raw", "-name -nullMarker -n", single=True),
    "scutil": options("--dns --proxy --nwi", "--get", requires="--dns --proxy --nwi --get", operands=at_most(0)),
    "networksetup": _networksetup,
    "pmset": _pmset,
    "ioreg": options("-a -b -f -i -l -r -t -x -S", "-c -d -k -n -p -w"),
    "vm_stat": options("", "-c", operands=at_most(1)),
    "xcode-select": options("-p --print-path -v --version -h --help", requires="-p --print-path -v --version -h --help"),
    "xcrun": _XCRUN,
    "lipo": options("-info -detailed_info -archs", requires="-info -detailed_info -archs", single=True),
    "otool": options("-LlhDItvVfaordcXHGCMjPmx", "-p"),
    "java_home": options("-V --verbose -F --failfast -X --xml -h --help", "-v --version -a --arch -t --task"),
    "plistbuddy": options("-x -h", "-c", check=_plistbuddy),
    "pkgutil": options("--pkgs-plist --groups --groups-plist --only-files --only-dirs --regexp -h --help",
                       "--pkg-info --pkg-info-plist --files --file-info --file-info-plist --pkg-groups --group-pkgs"
                       " --export-plist --check-signature --payload-files --volume", "--pkgs",
                       requires="--pkgs --pkgs-plist --groups --groups-plist --pkg-info --pkg-info-plist --files"
                                " --file-info --file-info-plist --pkg-groups --group-pkgs --export-plist"
                                " --check-signature --payload-files -h --help", operands=at_most(0)),
    "softwareupdate": options("-l --list --list-full-installers --history --no-scan -h --help", "--product-types",
                              requires="-l --list --list-full-installers --history -h --help", operands=at_most(0)),
}

PACK = Pack("macos", "macOS disks, system volumes, SIP, Gatekeeper, firewall, FileVault, Time Machine and keychains.",
            rules=RULES, read_only=READ_ONLY, proven=(
                "codesign -dv --verbose=4 /Applications/Safari.app", "codesign --verify --deep --strict App.app",
                "plutil -p Info.plist", "plutil -lint Info.plist", "mdfind -name report.pdf",
                "mdls -name kMDItemContentType report.pdf", "scutil --get ComputerName", "scutil --dns",
                "networksetup -listallhardwareports", "networksetup -getinfo Wi-Fi", "pmset -g batt", "ioreg -l -w0",
                "vm_stat", "xcode-select -p", "xcrun --show-sdk-path", "lipo -info /usr/bin/true", "otool -L /bin/ls",
                "/usr/libexec/java_home -V", "/usr/libexec/PlistBuddy -c 'Print :CFBundleVersion' Info.plist",
                "defaults read -g AppleInterfaceStyle", "defaults domains", "pkgutil --pkgs",
                "pkgutil --files com.apple.pkg.CLTools_Executables", "softwareupdate --list"))
