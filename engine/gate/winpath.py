"""Windows paths: environment-variable roots resolved, then which paths are a drive root, the
Windows directory, Program Files, Users or a user profile.

Every spelling of a place folds to one form (lower case, forward slashes, `..` resolved):
`C:\\`, `C:/`, `c:`, `\\\\?\\C:\\`, `%SystemDrive%\\` and `$env:SystemDrive\\` are all `c:/`. A variable
the gate knows stands for its usual value on a default installation (`%USERPROFILE%` is
`C:\\Users\\_`); one it does not know stays as written, and nothing built from it is a root.
"""

from __future__ import annotations

import fnmatch
import posixpath
import re

from engine.gate.memo import per_word

PROFILE = "C:\\Users\\_"
ENVIRONMENT = {
    "systemroot": "C:\\Windows", "windir": "C:\\Windows", "systemdrive": "C:", "homedrive": "C:",
    "homepath": "\\Users\\_", "userprofile": PROFILE, "home": PROFILE,
    "programfiles": "C:\\Program Files", "programfiles(x86)": "C:\\Program Files (x86)",
    "programw6432": "C:\\Program Files", "commonprogramfiles": "C:\\Program Files\\Common Files",
    "commonprogramfiles(x86)": "C:\\Program Files (x86)\\Common Files", "programdata": "C:\\ProgramData",
    "allusersprofile": "C:\\ProgramData", "public": "C:\\Users\\Public",
    "appdata": PROFILE + "\\AppData\\Roaming", "localappdata": PROFILE + "\\AppData\\Local",
    "temp": PROFILE + "\\AppData\\Local\\Temp", "tmp": PROFILE + "\\AppData\\Local\\Temp",
    "onedrive": PROFILE + "\\OneDrive", "comspec": "C:\\Windows\\System32\\cmd.exe",
    "driverdata": "C:\\Windows\\System32\\Drivers\\DriverData",
}
# PowerShell's automatic variables that name places.
AUTOMATIC = {"home": PROFILE, "pshome": "C:\\Windows\\System32\\WindowsPowerShell\\v1.0",
             "profile": PROFILE + "\\Documents\\WindowsPowerShell\\Microsoft.PowerShell_profile.ps1"}

_ROOT_DIRS = frozenset({
    "", "windows", "windows/system32", "windows/syswow64", "windows/sysnative", "windows/winsxs",
    "windows/system32/config", "windows/system32/drivers", "windows/boot", "windows/servicing",
    "program files", "program files (x86)", "programdata", "users", "boot", "recovery", "efi",
    "system volume information", "documents and settings",
})
_DRIVE = re.compile(r"([a-z]):(.*)", re.S)
_PROFILE_DIR = re.compile(r"users/[^/]+")
_ADMIN_SHARE = re.compile(r"//[^/]+/(?:([a-z])\$|admin\$)(/.*)?")
_PREFIX = re.compile(r"//[?.]/(?:(unc)/|(?=[a-z]:/))")
_PROFILE_FOLDED = PROFILE.replace("\\", "/").lower()
_CONTENTS = re.compile(r"/(?:\*|\*\.\*|\.)$")
_SYSTEM = re.compile(r"[a-z]:/(?:windows|program files|program files \(x86\)|programdata|boot|recovery|efi"
                     r"|system volume information)(?:/.*)?")
# What Windows needs to start: the boot manager and its folders on any volume (the EFI system partition
# is often mounted as another letter, and `\\EFI\\…` names it on the current one), the loader, kernel, HAL
# and the first programs it starts, the boot-start storage and file-system drivers, and the registry hives.
_BOOT = re.compile(
    r"(?:[a-z]:)?/(?:bootmgr|bootnxt|boot(?:/.*)?|efi(?:/.*)?)"
    r"|[a-z]:/windows/(?:boot(?:/.*)?|system32/(?:config(?:/.*)?|boot(?:/.*)?"
    r"|(?:winload|winresume)\.(?:exe|efi)|(?:ntoskrnl|ntkrnlpa|ntkrnlmp|smss|csrss|wininit|winlogon|lsass|services"
    r"|userinit|lsaiso)\.exe|(?:hal|ci|kdcom|bootvid|ntdll|kernel32|kernelbase|clfs|pshed)\.dll"
    r"|drivers/(?:ntfs|refs|disk|volmgr|volmgrx|partmgr|classpnp|acpi|pci|storport|stornvme|storahci|iastor\w{0,8}"
    r"|cng|ksecdd|ksecpkg|fltmgr|mountmgr|wdf01000|clfs|tm|volsnap|fvevol|msrpc|ndis|tcpip|disk)\.sys))"
)
_DEVICE = re.compile(r"(?i)(?:\\\\|//)[.?]/(?:physicaldrive\d+|[a-z]:|harddisk\d+|volume\{[^}]*\})|\\\\[.?]\\(?:physicaldrive\d+|[a-z]:|harddisk\d+|volume\{[^}]*\})")


def env_value(name: str) -> str | None:
    """The usual value of an environment variable that names a place, or None."""
    return ENVIRONMENT.get(name.lower())


@per_word(limit=256)
def fold(path: str) -> str:
    """Lower case, forward slashes, no `\\\\?\\` prefix, `..` resolved, no trailing slash (but `c:/`)."""
    text = path.strip().strip("'\"").replace("\\", "/").lower()
    prefixed = _PREFIX.match(text)
    if prefixed is not None:
        text = ("//" + text[8:]) if prefixed.group(1) else text[4:]
    if text.startswith("~") and (len(text) == 1 or text[1] == "/"):
        text = _PROFILE_FOLDED + text[1:]
    share = _ADMIN_SHARE.fullmatch(text)
    if share is not None:
        text = (share.group(1) + ":" if share.group(1) else "c:/windows") + (share.group(2) or "/")
    match = _DRIVE.fullmatch(text)
    if match:
        rest = match.group(2)
        norm = posixpath.normpath("/" + rest.lstrip("/")) if rest.strip("/") else "/"
        if norm.startswith("//"):
            norm = "/" + norm.lstrip("/")
        return match.group(1) + ":" + norm
    if text.startswith("//"):
        return posixpath.normpath(text)
    return text.rstrip("/") or text


@per_word(limit=256)
def is_root(path: str) -> bool:
    """A drive root, the Windows directory (and System32), Program Files, ProgramData, Users or a
    user profile, or everything inside one (`C:\\*`): deleting it destroys the machine or a home."""
    folded = fold(path)
    while (trimmed := _CONTENTS.sub("", folded)) != folded:
        folded = trimmed
    match = _DRIVE.fullmatch(folded)
    if match is None:
        return False
    rest = match.group(2).strip("/")
    return rest in _ROOT_DIRS or _PROFILE_DIR.fullmatch(rest) is not None


@per_word(limit=256)
def is_system(path: str) -> bool:
    """Anything under the Windows directory, Program Files, ProgramData or the boot and recovery folders."""
    return _SYSTEM.fullmatch(fold(path)) is not None


# Concrete boot files a glob is tried against (`C:\\Windows\\System32\\*.dll`, `C:\\boot*`).
_BOOT_SAMPLES = ("c:/bootmgr", "c:/bootnxt", "c:/boot", "c:/efi", "c:/windows/boot", "c:/windows/system32/winload.exe",
                 "c:/windows/system32/winload.efi", "c:/windows/system32/winresume.exe", "c:/windows/system32/ntoskrnl.exe",
                 "c:/windows/system32/hal.dll", "c:/windows/system32/ci.dll", "c:/windows/system32/smss.exe",
                 "c:/windows/system32/csrss.exe", "c:/windows/system32/winlogon.exe", "c:/windows/system32/ntdll.dll",
                 "c:/windows/system32/config", "c:/windows/system32/drivers/ntfs.sys", "c:/windows/system32/drivers/disk.sys",
                 "c:/windows/system32/config/sam", "c:/windows/system32/config/system", "c:/efi/microsoft",
                 "c:/efi/microsoft/boot", "c:/efi/boot", "c:/boot/bcd", "c:/efi/microsoft/boot/bcd")


@per_word(limit=256)
def is_boot(path: str) -> bool:
    """A file or folder Windows cannot start without (`C:\\bootmgr`, `\\EFI\\Microsoft\\Boot`,
    `System32\\winload.efi`, `ntoskrnl.exe`, `hal.dll`, the hives in `System32\\config`): deleting,
    moving or overwriting it leaves the machine unbootable."""
    folded = fold(path)
    while (trimmed := _CONTENTS.sub("", folded)) != folded:
        folded = trimmed
    if _BOOT.fullmatch(folded) is not None:
        return True
    directory, _, name = folded.rpartition("/")
    if "*" not in name and "?" not in name or not re.search(r"[a-z0-9]", name):
        return False
    drive = directory[:2] if _DRIVE.fullmatch(directory[:2] + "/") else ""
    local = "c:" + directory[2:] if drive else directory
    return any(sample.rpartition("/")[0] == local and fnmatch.fnmatchcase(sample.rpartition("/")[2], name)
               for sample in _BOOT_SAMPLES)


def is_device(path: str) -> bool:
    """A raw disk or volume: `\\\\.\\PhysicalDrive0`, `\\\\.\\C:`, `\\\\?\\Volume{…}`."""
    return _DEVICE.fullmatch(path.strip().strip("'\"")) is not None


def looks_windows(word: str) -> bool:
    """A word written as a Windows path: a drive, a UNC or device prefix, or a backslash."""
    return len(word) > 1 and (word[1] == ":" and word[0].isalpha() or "\\" in word)
