"""Run a command with an overlay over the workspace, so its writes land in a separate upper layer.

Started as its own small program (`python -I -S overlay_launch.py WORKSPACE LAYER -- ARGV...`):
it enters a new user and mount namespace (so no privilege is needed and nothing it mounts is
seen outside), mounts an overlay of `LAYER/upper` over `WORKSPACE`, and replaces itself with
ARGV (the bubblewrap sandbox), keeping the descriptors it was passed: bubblewrap's status
(`--json-status-fd`) reaches it through this program. If this program fails, bubblewrap never
started and wrote no status: its failure is the sandbox's setup, not the command. The paths reach
the kernel as open descriptors (`/proc/self/fd/N`), never as text inside the mount options, so no
name can change them. It imports nothing from Warden.
"""

import ctypes
import os
import sys

CLONE_NEWNS = 0x00020000
CLONE_NEWUSER = 0x10000000
MS_REC = 0x4000
MS_PRIVATE = 1 << 18
MS_NOSUID = 0x2
MS_NODEV = 0x4
OPTIONS = "lowerdir={},upperdir={},workdir={},userxattr,redirect_dir=nofollow,metacopy=off"


def _fail(what: str) -> None:
    error = ctypes.get_errno()
    sys.stderr.write(f"warden overlay: {what}: {os.strerror(error)}\n")
    sys.exit(125)


def _write(path: str, text: str) -> None:
    with open(path, "w") as file:
        file.write(text)


def main(argv: list[str]) -> None:
    workspace, layer, separator, *command = argv
    if separator != "--" or not command:
        sys.exit("usage: overlay_launch.py WORKSPACE LAYER -- ARGV...")
    uid, gid = os.getuid(), os.getgid()
    libc = ctypes.CDLL(None, use_errno=True)
    libc.mount.argtypes = (ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_ulong, ctypes.c_char_p)
    if libc.unshare(CLONE_NEWUSER | CLONE_NEWNS) != 0:
        _fail("cannot enter a user and mount namespace")
    _write("/proc/self/setgroups", "deny")
    _write("/proc/self/uid_map", f"0 {uid} 1")
    _write("/proc/self/gid_map", f"0 {gid} 1")
    if libc.mount(b"none", b"/", None, MS_REC | MS_PRIVATE, None) != 0:
        _fail("cannot make the mounts private")
    flags = os.O_PATH | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
    lower = os.open(workspace, flags)
    upper = os.open(os.path.join(layer, "upper"), flags)
    work = os.open(os.path.join(layer, "work"), flags)
    options = OPTIONS.format(*(f"/proc/self/fd/{fd}" for fd in (lower, upper, work))).encode()
    if libc.mount(b"overlay", f"/proc/self/fd/{lower}".encode(), b"overlay", MS_NOSUID | MS_NODEV, options) != 0:
        _fail("cannot mount the overlay")
    for fd in (lower, upper, work):
        os.close(fd)
    os.execv(command[0], command)


if __name__ == "__main__":
    main(sys.argv[1:])
