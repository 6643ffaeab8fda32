"""What PowerShell's path-building expressions evaluate to, when their pieces are known.

`Join-Path $env:SystemDrive Windows`, `[IO.Path]::Combine('C:\\', 'Users')`,
`[Environment]::GetFolderPath('UserProfile')`, `Split-Path $env:SystemRoot -Qualifier`,
`(Resolve-Path ~).Path` and `'{0}\\Windows' -f $env:SystemDrive` all name a place the rules know
once evaluated. The PowerShell reading (`engine/gate/shell/windows.py`) evaluates the pieces
(literals, environment roots, bound variables); this module only combines them, the way the
cmdlet or the .NET method does. A special folder or variable it does not know gives None: the
word stays dynamic, and nothing built from it is a root.
"""

from __future__ import annotations

import re

from engine.gate.winpath import PROFILE, env_value

_FOLDERS = {
    "userprofile": PROFILE, "windows": "C:\\Windows", "system": "C:\\Windows\\System32",
    "systemx86": "C:\\Windows\\SysWOW64", "programfiles": "C:\\Program Files",
    "programfilesx86": "C:\\Program Files (x86)", "commonprogramfiles": "C:\\Program Files\\Common Files",
    "commonapplicationdata": "C:\\ProgramData", "applicationdata": PROFILE + "\\AppData\\Roaming",
    "localapplicationdata": PROFILE + "\\AppData\\Local", "mydocuments": PROFILE + "\\Documents",
    "personal": PROFILE + "\\Documents", "desktop": PROFILE + "\\Desktop", "desktopdirectory": PROFILE + "\\Desktop",
    "mypictures": PROFILE + "\\Pictures", "mymusic": PROFILE + "\\Music", "myvideos": PROFILE + "\\Videos",
    "favorites": PROFILE + "\\Favorites", "commondesktopdirectory": "C:\\Users\\Public\\Desktop",
    "commondocuments": "C:\\Users\\Public\\Documents", "fonts": "C:\\Windows\\Fonts",
    "startup": PROFILE + "\\AppData\\Roaming\\Microsoft\\Windows\\Start Menu\\Programs\\Startup",
    "commonstartup": "C:\\ProgramData\\Microsoft\\Windows\\Start Menu\\Programs\\Startup",
}
# `[Environment+SpecialFolder]` by number (`GetFolderPath(40)`).
_NUMBERED = {"0": "desktop", "5": "personal", "16": "desktopdirectory", "26": "applicationdata", "28": "localapplicationdata",
             "35": "commonapplicationdata", "36": "windows", "37": "system", "38": "programfiles", "40": "userprofile",
             "41": "systemx86", "42": "programfilesx86"}
_SPECIAL = re.compile(r"(?i)\s*(?:\[(?:system\.)?environment\+specialfolder\]\s*(?:::)?\s*)?['\"]?(\w{1,40})['\"]?\s*")
_DRIVE_ROOT = re.compile(r"(?i)^([a-z]):")
# Members that stand for the item itself when read off a path or an item (`(Get-Item C:\\).FullName`,
# `$_.FullName`, `(Resolve-Path ~).Path`, `.ToString()`), and members that give its parent or its root.
IDENTITY = frozenset({"fullname", "path", "providerpath", "pspath", "tostring", "trim", "trimend", "trimstart",
                      "name", "id", "processid", "processname", "servicename", "deviceid", "number", "driveletter",
                      "log", "logname", "value", "item"})
PARENT = frozenset({"parent", "directory", "directoryname", "psparentpath"})
ROOT = frozenset({"root", "rootdirectory", "psdrive", "drive", "qualifier"})


def special_folder(argument: str) -> str | None:
    """`[Environment]::GetFolderPath(…)`'s value for a folder given by name (`'UserProfile'`,
    `[Environment+SpecialFolder]::Windows`)."""
    found = _SPECIAL.fullmatch(argument)
    if found is None:
        return None
    name = found.group(1).lower()
    return _FOLDERS.get(_NUMBERED.get(name, name))


def joined(parent: str, *children: str) -> str:
    """`Join-Path parent child …`: one separator between the parts."""
    path = parent
    for child in children:
        path = path.rstrip("\\/") + "\\" + child.lstrip("\\/") if path else child
    return path


def combined(*parts: str) -> str:
    """`[IO.Path]::Combine(…)`: a rooted part starts again; a separator is added after anything but a
    separator or a drive's colon."""
    path = ""
    for part in parts:
        if not part:
            continue
        if part.startswith(("\\", "/")) or _DRIVE_ROOT.match(part) is not None or not path:
            path = part
        elif path.endswith(("\\", "/", ":")):
            path += part
        else:
            path += "\\" + part
    return path


def parent(path: str) -> str:
    """The folder holding `path` (`C:\\Windows` for `C:\\Windows\\System32`; a drive root is its own)."""
    text = path.rstrip("\\/")
    cut = max(text.rfind("\\"), text.rfind("/"))
    if cut < 0:
        return text + "\\" if text.endswith(":") else ""
    head = text[:cut]
    return head + "\\" if head.endswith(":") or not head else head


def root(path: str) -> str | None:
    """The drive root of `path` (`C:\\`), or None when it names no drive."""
    found = _DRIVE_ROOT.match(path.strip())
    return found.group(1).upper() + ":\\" if found is not None else None


def formatted(template: str, values: list[str]) -> str | None:
    """`'{0}\\Windows' -f $env:SystemDrive`: `{n}` replaced (None when an index is missing or formatted)."""
    missing = False

    def one(match: re.Match[str]) -> str:
        nonlocal missing
        index = int(match.group(1))
        if index >= len(values) or match.group(2):
            missing = True
            return ""
        return values[index]

    text = re.sub(r"\{(\d{1,2})([,:][^}]{0,20})?\}", one, template.replace("{{", "\0").replace("}}", "\1"))
    return None if missing else text.replace("\0", "{").replace("\1", "}")


def environment(name: str) -> str | None:
    """`[Environment]::GetEnvironmentVariable('SystemRoot')`: a variable that names a place."""
    return env_value(name.strip().strip("'\""))
