"""What a confined command sees of the host's files: an allowlist, read-only, over an empty root.

Why an allowlist: binding `/` whole, even read-only, showed every filesystem socket (`connect()`
reaches a listener through a read-only mount, so a database or cache on the host answered), every
file only root may read (commands may run as root), and places like `/var/backups`. So the
sandbox's root is an empty tmpfs, and onto it go:

- read-only, the trees programs are made of (`SYSTEM`: `/usr`, the `/bin`, `/sbin` and `/lib*`
  links or directories, `/etc`, `/opt`), plus the CPU list runtimes size their threads by;
- in the configuration trees (`SCANNED`), everything that is not readable by everyone (a
  root-only `wg0.conf`, `/etc/ssl/private`, a database's `pg_hba.conf`) masked, and every
  socket, pipe or device there too; the system's password, sudo and shadow files always;
- a private `/tmp` and `/var/tmp`; `/dev` and `/proc` of the sandbox's own;
- the hidden paths (home directories, `/run`, Warden's home, ...) as empty tmpfs;
- the workspace, the only writable path.

Not there at all: the rest of `/var`, `/srv`, `/mnt`, `/media`, `/sys` but the CPU list, and so
every socket outside the workspace. Mounts are made outermost first (`Mount.order`), so a
hidden path inside the workspace (Warden's home there) is hidden after the workspace is bound,
and a workspace inside a hidden path (a project under `/root`) is bound after that is hidden.

Only `/etc`, `/opt` and `/usr/local/etc` are scanned, when each command starts (tens of
milliseconds): `/usr` is too large to scan per command, and holds programs, not secrets. An
entry found but gone by the time bubblewrap mounts over it fails bubblewrap's setup, not the
command: `sandbox` tells the two apart, scans again and retries.
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass
from enum import IntEnum
from pathlib import PurePosixPath

SYSTEM = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc", "/opt")
SCANNED = ("/etc", "/opt", "/usr/local/etc")
PRIVATE = ("/tmp", "/var/tmp")
DEVICES = ("/sys/devices/system/cpu",)
SECRET_FILES = ("/etc/shadow", "/etc/shadow-", "/etc/gshadow", "/etc/gshadow-", "/etc/sudoers",
                "/etc/security/opasswd")
RESOLVER = "/etc/resolv.conf"
_EVERYONE_READS = stat.S_IROTH
_EVERYONE_ENTERS = stat.S_IROTH | stat.S_IXOTH


class Rank(IntEnum):
    """Among mounts at the same depth, which goes first: the host's trees, then what hides, then the workspace."""

    SYSTEM = 0
    HIDE = 1
    MASK = 2
    WORKSPACE = 3


@dataclass(frozen=True)
class Mount:
    """One bubblewrap mount at `dest`, as its arguments."""

    dest: str
    args: tuple[str, ...]
    rank: Rank

    def order(self) -> tuple[int, Rank]:
        """Outermost first: a mount only covers what was mounted before it, never what comes after."""
        return len(PurePosixPath(self.dest).parts), self.rank


def mounts(workspace: str, hidden: tuple[str, ...], egress: bool) -> list[Mount]:
    """Every mount of a sandbox on `workspace`, in the order bubblewrap must make them."""
    made = [Mount("/dev", ("--dev", "/dev"), Rank.SYSTEM), Mount("/proc", ("--proc", "/proc"), Rank.SYSTEM)]
    for top in SYSTEM:
        if os.path.islink(top):
            made.append(Mount(top, ("--symlink", os.readlink(top), top), Rank.SYSTEM))
        elif os.path.isdir(top):
            made.append(Mount(top, ("--ro-bind", top, top), Rank.SYSTEM))
    made += [Mount(path, ("--ro-bind", path, path), Rank.SYSTEM) for path in DEVICES if os.path.isdir(path)]
    made += [Mount(path, ("--tmpfs", path), Rank.HIDE) for path in PRIVATE]
    shown = [path for path in hidden if os.path.isdir(path) and not os.path.islink(path)]
    made += [Mount(path, ("--tmpfs", path), Rank.HIDE) for path in shown]
    covered = (workspace, *shown)
    for top in SCANNED:
        if os.path.isdir(top) and not os.path.islink(top) and not _within(top, covered):
            made += masks(top, covered)
    made += [_mask_file(path) for path in SECRET_FILES
             if os.path.isfile(path) and not os.path.islink(path) and not _within(path, covered)]
    if egress:
        made += _resolver()
    made.append(Mount(workspace, ("--bind", workspace, workspace), Rank.WORKSPACE))
    return sorted(dict.fromkeys(made), key=Mount.order)


def argv(made: list[Mount]) -> list[str]:
    return [arg for mount in made for arg in mount.args]


def masks(top: str, covered: tuple[str, ...] = ()) -> list[Mount]:
    """What under `top` must not be seen: each entry everyone may not read (a directory: enter and list),
    and each socket, pipe or device; nothing under a `covered` path (the workspace, a hidden path)."""
    found: list[Mount] = []
    pending = [top]
    while pending:
        folder = pending.pop()
        try:
            entries = list(os.scandir(folder))
        except OSError:
            found.append(_mask_directory(folder))
            continue
        for entry in entries:
            path = entry.path
            if _within(path, covered):
                continue
            try:
                mode = entry.stat(follow_symlinks=False).st_mode
            except OSError:
                continue
            if stat.S_ISLNK(mode):
                continue
            if stat.S_ISDIR(mode):
                if mode & _EVERYONE_ENTERS == _EVERYONE_ENTERS:
                    pending.append(path)
                else:
                    found.append(_mask_directory(path))
            elif not stat.S_ISREG(mode) or not mode & _EVERYONE_READS:
                found.append(_mask_file(path))
    return found


def shown() -> tuple[str, ...]:
    """The host trees a sandbox shows here, read-only (for `warden doctor` and the docs)."""
    return tuple(top for top in SYSTEM if os.path.isdir(top) and not os.path.islink(top))


def _mask_file(path: str) -> Mount:
    return Mount(path, ("--ro-bind", "/dev/null", path), Rank.MASK)


def _mask_directory(path: str) -> Mount:
    return Mount(path, ("--tmpfs", path, "--remount-ro", path), Rank.MASK)


def _resolver() -> list[Mount]:
    """With network granted, the resolver file `/etc/resolv.conf` names where it lives outside the
    allowlist (systemd's under `/run`): that one file, read-only."""
    target = os.path.realpath(RESOLVER)
    if target == RESOLVER or not os.path.isfile(target) or _within(target, SYSTEM):
        return []
    return [Mount(target, ("--ro-bind", target, target), Rank.MASK)]


def _within(path: str, tops: tuple[str, ...]) -> bool:
    """Whether `path` is one of `tops` or inside one (by text: both are absolute and normalised)."""
    for top in tops:
        if path == top or path.startswith(top.rstrip("/") + "/"):
            return True
    return False
