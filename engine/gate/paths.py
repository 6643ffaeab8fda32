"""Which paths matter: filesystem roots, system trees, credentials, start-up files, disks.

Paths are folded first (`/tmp/../etc` is `/etc`, `$HOME/x` and `/home/alice/x` are `~/x`),
so the patterns below stay short and the same for shell rules and file tools.
"""

from __future__ import annotations

import posixpath
import re

from engine.gate.memo import per_word

_HOME = re.compile(r"^(?:\$HOME|\$\{HOME\}|~[A-Za-z0-9_.-]*|/home/[^/]+|/Users/[^/]+|/root)(?=/|$)")
_WINDOWS_DRIVE = re.compile(r"^[A-Za-z]:[\\/]")

ROOTS = re.compile(
    r"~(?:/\*|/\.\*)?|/(?:\*|\.\*)?"
    r"|/(?:bin|boot|dev|etc|home|lib|lib32|lib64|libx32|opt|proc|root|run|sbin|srv|sys|usr|var|snap|mnt|media"
    r"|System|Library|Applications|Users|Volumes|private|nix)(?:/\*)?"
    r"|/usr/(?:bin|sbin|lib|lib64|local|share|include)(?:/\*)?|/var/lib(?:/\*)?|/etc/\*"
    r"|[a-z]:/?(?:\*|windows|windows/system32|program files|users)?(?:/\*)?",
    re.I,
)
SYSTEM = re.compile(
    r"/(?:etc|usr|bin|sbin|lib|lib32|lib64|boot|sys|proc|dev|opt|root|srv|System|Library|private/etc|nix)(?:/.*)?"
    r"|/var(?!/tmp(?:/|$))(?:/.*)?|[a-z]:/(?:windows|program files|programdata)(?:/.*)?",
    re.I,
)
AUTH_FILES = re.compile(
    r"/etc/(?:passwd|shadow|group|gshadow|sudoers|sudoers\.d(?:/.*)?|fstab|pam\.d(?:/.*)?|ld\.so\.preload"
    r"|security/.*)|/boot/.*|[a-z]:/windows/system32(?:/.*)?",
    re.I,
)
STARTUP = re.compile(
    r"~/\.(?:bashrc|bash_profile|bash_login|bash_logout|profile|zshrc|zprofile|zshenv|zlogin|cshrc|tcshrc|kshrc"
    r"|inputrc|xprofile|xinitrc|config/fish/config\.fish|config/autostart(?:/.*)?|config/systemd(?:/.*)?"
    r"|ssh/authorized_keys2?|ssh/rc|ssh/config|local/share/systemd(?:/.*)?|pam_environment)"
    r"|~/Library/(?:LaunchAgents|LaunchDaemons)(?:/.*)?"
    r"|/etc/(?:profile|profile\.d/.*|bash\.bashrc|zsh/.*|environment|rc\.local|init\.d/.*|cron[^/]*(?:/.*)?"
    r"|crontab|anacrontab|systemd/.*|xdg/autostart/.*|update-motd\.d/.*|ld\.so\.preload|sudoers(?:\.d/.*)?)"
    r"|/var/spool/cron(?:/.*)?|/(?:usr/)?lib/systemd/.*|/Library/(?:LaunchAgents|LaunchDaemons)(?:/.*)?"
    r"|(?:.*/)?\.git/hooks/.*",
)
SECRETS = re.compile(
    r"(?:.*/)?(?:id_(?:rsa|dsa|ecdsa|ed25519)(?:_sk)?|[^/]*\.(?:pem|key|p12|pfx|kdbx|keystore|jks|ppk)"
    r"|\.env(?:\.[\w.-]+)?|\.netrc|\.git-credentials|\.npmrc|\.pypirc|\.pgpass|\.my\.cnf|credentials(?:\.json)?"
    r"|\.bash_history|\.zsh_history|secrets?\.(?:ya?ml|json|toml))"
    r"|~/\.(?:ssh|aws|gnupg|kube|docker|azure|config/gcloud|password-store|vault-token)(?:/.*)?"
    r"|/etc/(?:shadow|gshadow|passwd|sudoers|ssh/ssh_host_[^/]*key)|/proc/[^/]+/environ"
    r"|/var/run/secrets(?:/.*)?|/run/secrets(?:/.*)?",
)
DEVICES = re.compile(
    r"/dev/(?:sd[a-z]+\d*|hd[a-z]+\d*|vd[a-z]+\d*|xvd[a-z]+\d*|nvme\d+(?:n\d+)?(?:p\d+)?|mmcblk\d+(?:p\d+)?"
    r"|disk\d+(?:s\d+)?|rdisk\d+(?:s\d+)?|md\d+|dm-\d+|mapper/.+|mem|kmem|port|root|sr\d+|loop\d+"
    r"|PhysicalDrive\d+)|\\\\\.\\PhysicalDrive\d+",
    re.I,
)


@per_word(limit=256)
def fold(path: str) -> str:
    """Normalises a path for matching: home forms to `~`, `..` resolved, no trailing slash."""
    path = path.strip().strip("'\"")
    if not path:
        return path
    if _WINDOWS_DRIVE.match(path):
        path = path.replace("\\", "/").lower()
        head, rest = path[:2], path[2:]
        return head + (posixpath.normpath(rest) if rest.strip("/") else "/")
    match = _HOME.match(path)
    if match:
        head, rest = match.group(0), path[match.end():]
        if head.startswith("~") and len(head) > 1:
            return path
        if ".." in rest.split("/"):
            return posixpath.normpath("/home/_" + rest)
        norm = posixpath.normpath("/" + rest.lstrip("/"))
        return "~" if norm == "/" else "~" + norm + ("/*" if rest.endswith("/*") and not norm.endswith("*") else "")
    if path.startswith("/"):
        tail_glob = path.endswith("/*")
        norm = posixpath.normpath(path)
        if norm.startswith("//"):
            norm = "/" + norm.lstrip("/")
        return norm + ("/*" if tail_glob and not norm.endswith("*") else "")
    return path.rstrip("/") or path


@per_word(limit=256)
def is_root(path: str) -> bool:
    """A filesystem root, system tree or home directory: deleting it wrecks the machine."""
    return ROOTS.fullmatch(fold(path)) is not None


@per_word(limit=256)
def is_system(path: str) -> bool:
    return SYSTEM.fullmatch(fold(path)) is not None


@per_word(limit=256)
def is_auth_file(path: str) -> bool:
    return AUTH_FILES.fullmatch(fold(path)) is not None


@per_word(limit=256)
def is_startup(path: str) -> bool:
    return STARTUP.fullmatch(fold(path)) is not None


@per_word(limit=256)
def is_secret(path: str) -> bool:
    return SECRETS.fullmatch(fold(path)) is not None


@per_word(limit=256)
def is_device(path: str) -> bool:
    return DEVICES.fullmatch(path.strip("'\"")) is not None


def escapes_workspace(path: str) -> bool:
    """Absolute, home-relative or `..`-climbing paths leave the agent's workspace."""
    folded = fold(path)
    return folded.startswith(("/", "~", "$")) or _WINDOWS_DRIVE.match(folded) is not None or folded == ".." \
        or folded.startswith("../") or posixpath.normpath(folded).startswith("..")
