"""Disks: raw writes to block devices, formatting, partition tables, secure erase, volume and pool
managers, and, per program, the options that only inspect a disk.

Catastrophic is what loses a disk or a volume for good: bytes written over a device under any
of its names (by any program: a redirection, `tee`, `cp`, `of=`, an output option), a new
filesystem, label or partition table over it, a secure erase or discard, a RAID or LVM label
zeroed, a pool or volume destroyed. Changes that keep the data (a partition in free space,
growing or shrinking a volume, mounting) are dangerous, and so is reading a raw disk: it holds
every file on it, keys and password hashes included. The inspection tables leave out `zpool
status|iostat -c` (it runs the scripts of `zpool.d`, and of `~/.zpool.d` or `ZPOOL_SCRIPTS_PATH`,
which the agent could have written) and any `ZPOOL_*` variable in front, `tune2fs` but `-l` (every
other option changes the filesystem; `-z` writes an undo file), `dumpe2fs -m` and `blockdev --set*`,
`--flushbufs` and `--rereadpt`.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Sequence

from engine.gate.paths import is_device, is_root
from engine.gate.packs.model import CATASTROPHIC, DANGEROUS, IRREVERSIBLE, Pack, Proof, rule
from engine.gate.proof import Options, at_most, options, subcommands, unless_env
from engine.gate.shell import reads
from engine.gate.shell.unwrap import unwrap
from engine.gate.shell.view import Command

MKFS = frozenset(
    "mkfs mkfs.ext2 mkfs.ext3 mkfs.ext4 mkfs.xfs mkfs.btrfs mkfs.vfat mkfs.fat mkfs.msdos mkfs.ntfs mkfs.exfat"
    " mkfs.f2fs mkfs.minix mkfs.bfs mkfs.cramfs mkfs.jfs mkfs.reiserfs mkfs.nilfs2 mkfs.udf mkfs.hfsplus mkfs.erofs"
    " mkfs.bcachefs mke2fs mkswap mkdosfs mkntfs mkexfatfs mkudffs mkreiserfs jfs_mkfs newfs newfs_msdos newfs_hfs"
    " newfs_apfs".split()
)
_OUTPUT_OPTIONS = frozenset("-o -O --output --output-file --outfile --out -out --overwrite --of".split())
_COPIES_TO_LAST = frozenset("cp install ddrescue dd_rescue myrescue e2image".split())
_COPY_SUBCOMMANDS = {"qemu-img": "convert", "bmaptool": "copy"}
_SOCAT_PREFIX = re.compile(r"^(?:open|file|gopen|create|creat):", re.I)
# Programs that only name a device they are given, or have their own rules and tables below:
# handing them a disk is not a read of its contents.
_NAMES_DEVICES = frozenset(
    "ls stat file readlink realpath test [ [[ echo printf basename dirname lsblk udevadm findmnt blkid mount umount"
    " swapon swapoff losetup eject partprobe partx kpartx mv ln rm unlink fsck e2fsck tune2fs e2label dumpe2fs"
    " resize2fs xfs_info xfs_admin ntfslabel fatlabel mountpoint".split()
)
_NOT_DONE = frozenset({"--help", "-h", "--version", "-V"})


def _at(cmd: Command, word: str) -> str:
    """`word` read from where the script moved to (`cd /dev && dd of=sda`)."""
    if cmd.cwd is None or word.startswith(("/", "~", "$", "\\")):
        return word
    return posixpath.join(cmd.cwd, word)


_FINDS_DISKS = frozenset({"lsblk", "blkid", "findmnt", "losetup"})
# What a command handed each disk in turn (`find /dev … -exec`, `lsblk … | xargs`) is tried on.
SAMPLE_DISK = "/dev/sda"


def _device(cmd: Command, word: str) -> bool:
    """A disk, named outright, relative to a `cd` into /dev, or by a substitution that lists disks
    (`of=$(lsblk -dno path | head -1)`)."""
    if is_device(word) or (cmd.cwd is not None and is_device(_at(cmd, word))):
        return True
    return ("$(" in word or "`" in word) and any(_lists_disks(body) for body in reads.substitutions(word))


def _lists_disks(text: str) -> bool:
    words = text.replace("|", " ").split()
    return any(is_device(word) or word in _FINDS_DISKS for word in words)


def _mentions_device(cmd: Command) -> bool:
    """Every disk is named under /dev (or `\\\\.\\PhysicalDrive`), or relative to a `cd` there."""
    return "/dev/" in cmd.text or "\\\\.\\" in cmd.text or "//./" in cmd.text or cmd.cwd is not None


def _values(word: str) -> list[str]:
    """The paths one word can hand a program: itself, an option's value (`of=…`, `--output=…`, `-o/dev/x`)."""
    found = [word]
    if "=" in word:
        found.append(word.split("=", 1)[1])
    if word.startswith("-") and not word.startswith("--") and len(word) > 2 and word[2] in "/$":
        found.append(word[2:])
    return found


def written_device(cmd: Command) -> str | None:
    """The disk a command writes through its arguments, by any program: `of=`, an output option
    (`-o`, `--output`, `--overwrite`), `tee`'s files, the destination of a copy (`cp`, `install`,
    `ddrescue`, `qemu-img convert`, `bmaptool copy`), `rsync --write-devices`, a socat address."""
    if not _mentions_device(cmd):
        return None
    args = cmd.args
    for i, arg in enumerate(args):
        head, eq, value = arg.partition("=")
        if eq and (head == "of" or head in _OUTPUT_OPTIONS) and _device(cmd, value):
            return value
        if arg in _OUTPUT_OPTIONS and i + 1 < len(args) and _device(cmd, args[i + 1]):
            return args[i + 1]
        if arg[:2] in ("-o", "-O") and len(arg) > 2 and arg[2] in "/$" and is_device(arg[2:]):
            return arg[2:]
    name, operands = cmd.name, cmd.operands
    if name == "tee":
        return next((op for op in operands if _device(cmd, op)), None)
    copies = name in _COPIES_TO_LAST or (name in _COPY_SUBCOMMANDS and operands[:1] == (_COPY_SUBCOMMANDS[name],)) \
        or (name == "rsync" and "--write-devices" in cmd.flags)
    if copies and len(operands) >= 2 and _device(cmd, operands[-1]):
        return operands[-1]
    if name == "socat":
        addresses = [_SOCAT_PREFIX.sub("", op).split(",", 1)[0] for op in operands[:2]]
        written = addresses[1:] if "-u" in cmd.flags else addresses[:1] if "-U" in cmd.flags else addresses
        return next((address for address in written if _device(cmd, address)), None)
    return None


_SIZE = re.compile(r"(\d{1,12})([kKMG]?)(?:i?B)?")
_UNITS = {"": 1, "k": 1024, "K": 1024, "M": 1 << 20, "G": 1 << 30}
HEADER_BYTES = 1 << 20


def _bytes(value: str) -> int | None:
    size = _SIZE.fullmatch(value)
    return None if size is None else int(size.group(1)) * _UNITS[size.group(2)]


def header_read(cmd: Command) -> bool:
    """`dd` reading at most the first MiB of its input (`bs=512 count=1`): partition tables and boot
    code, not the files on the disk."""
    if cmd.name != "dd":
        return False
    values = dict(arg.split("=", 1) for arg in cmd.args if "=" in arg)
    if values.keys() & {"skip", "iseek", "seek", "oseek", "of"} or "count" not in values:
        return False
    count, block = _bytes(values["count"]), _bytes(values.get("ibs", values.get("bs", "512")))
    return count is not None and block is not None and count * block <= HEADER_BYTES


def read_device(cmd: Command) -> str | None:
    """The disk a command reads the raw contents of (`dd if=/dev/sda`, `strings /dev/sda`, `< /dev/sda`),
    unless the program only names it, is a disk tool with its own rules, or reads only the disk's
    first MiB (`dd … count=1`)."""
    if cmd.name in _NAMES_DEVICES or cmd.name in DISK_TOOLS:
        return None
    if not _mentions_device(cmd):
        for redirect in cmd.redirects:
            if redirect.op.startswith("<") and not redirect.writes and is_device(redirect.target):
                return redirect.target
        return None
    if header_read(cmd):
        return None
    written = written_device(cmd)
    for word in cmd.args:
        for value in _values(word):
            if value != written and _device(cmd, value):
                return value
    for redirect in cmd.redirects:
        if not redirect.writes and redirect.op.startswith("<") and _device(cmd, redirect.target):
            return redirect.target
    return None


def destroys_disk(cmd: Command) -> str | None:
    """Whether a command handed a disk would destroy it: any catastrophic rule of this pack."""
    found = written_device(cmd)
    if found is not None:
        return found
    for item in RULES:
        if item.level is CATASTROPHIC and cmd.name in item.names and item.test is not None and item.test(cmd):
            return " ".join(cmd.argv)
    return None


def _each_device(cmd: Command) -> str | None:
    """A disk-destroying command run on every device a search lists: `find /dev … -exec wipefs -a {} +`,
    `lsblk -dno path | xargs -n1 wipefs -a`, `ls /dev/sd* | xargs …`. A sample disk stands in
    for the items."""
    if cmd.name == "find":
        if "/dev" not in cmd.text:
            return None
        roots = [arg for arg in cmd.args if not arg.startswith(("-", "(", "!", "\\("))][:4]
        if not any(root == "/dev" or root.startswith("/dev/") for root in roots):
            return None
        for index, arg in enumerate(cmd.args):
            if arg in ("-exec", "-execdir", "-ok", "-okdir"):
                end = next((j for j in range(index + 1, len(cmd.args)) if cmd.args[j] in (";", "\\;", "+")), len(cmd.args))
                found = _on_sample(cmd.args[index + 1 : end], "{}")
                if found is not None:
                    return found
        return None
    if not cmd.upstream or not _lists_disks(cmd.upstream.rsplit(" | ", 1)[-1]):
        return None
    args, index, token = list(cmd.args), 0, None
    while index < len(args) and args[index].startswith("-"):
        if args[index] in ("-I", "-i") or args[index].startswith(("-I", "-i", "--replace")):
            token = args[index + 1] if args[index] == "-I" and index + 1 < len(args) else args[index][2:] or "{}"
            index += 2 if args[index] == "-I" else 1
            continue
        index += 2 if args[index] in ("-a", "-d", "-E", "-L", "-n", "-P", "-s") else 1
    return _on_sample(args[index:], token)


def _on_sample(argv: Sequence[str], token: str | None) -> str | None:
    if not argv:
        return None
    filled = [word.replace(token, SAMPLE_DISK) for word in argv] if token else [*argv, SAMPLE_DISK]
    un = unwrap(filled)
    return destroys_disk(Command(tuple(un.argv), name=un.name)) if un.argv else None


def _redirected_device(cmd: Command) -> str | None:
    return next((target for target in cmd.out_targets() if _device(cmd, target)), None)


def _unresolved(word: str) -> bool:
    return "$" in word or "`" in word


# Options that make a formatter only say what it would do.
_MKFS_DRY_RUN = {"mkfs.ext2": "-n", "mkfs.ext3": "-n", "mkfs.ext4": "-n", "mke2fs": "-n", "mkfs.ntfs": "-n",
                 "mkntfs": "-n", "mkfs.xfs": "-N"}


def _dry_run(cmd: Command) -> bool:
    flag = _MKFS_DRY_RUN.get(cmd.name)
    return flag is not None and (flag in cmd.flags or (flag == "-n" and "--no-action" in cmd.flags))


def _formats_device(cmd: Command) -> str | None:
    if not cmd.operands or cmd.flags & _NOT_DONE or _dry_run(cmd):
        return None
    return next((op for op in cmd.operands if _device(cmd, op) or _unresolved(op)), None)


def _formats_file(cmd: Command) -> bool:
    return bool(cmd.operands) and not cmd.flags & _NOT_DONE and not _dry_run(cmd) and _formats_device(cmd) is None


def _disk_operand(cmd: Command) -> str | None:
    return next((op for op in cmd.operands if _device(cmd, op) or (_unresolved(op) and "/" not in op)), None)


_FDISK_LISTS = frozenset("-l --list -x --list-details -s --getsz".split()) | _NOT_DONE
_GDISK_LISTS = frozenset({"-l"}) | _NOT_DONE
_SFDISK_READS = frozenset(
    "-l --list -d --dump -J --json -F --list-free -s --show-size -g --show-geometry -V --verify -n --no-act"
    " --part-type --part-uuid --part-label --part-attrs --disk-id -r --reorder -A --activate -v --version -h --help"
    " --backup-pt-sectors".split()
)
_SFDISK_EDITS = frozenset("--part-type --part-uuid --part-label --part-attrs --disk-id -A --activate -r --reorder".split())
_SGDISK_DESTROYS = frozenset(
    "-Z --zap-all -z --zap -o --clear -d --delete -R --replicate -l --load-backup -g --mbrtogpt -m --gpttombr".split()
)
_SGDISK_READS = frozenset(
    "-p --print -i --info -v --verify -O --print-mbr -P --pretend -L --list-types -V --version -D --display-alignment"
    " -E --end-of-largest -F --first-in-largest -f --first-aligned-in-largest -b --backup -? --help --usage".split()
)
_PARTED_DESTROYS = ("mklabel", "mktable", "rm", "resizepart", "resize", "move", "mkfs", "mkpartfs", "cp")
_PARTED_READS = frozenset(
    "print p unit help h version quit q align-check free all list devices opt optimal min minimal"
    " s b kb mb gb tb kib mib gib tib % cyl chs compact".split()
)


def _parted_words(cmd: Command) -> tuple[str | None, list[str]]:
    """parted's device and the commands after it."""
    for index, op in enumerate(cmd.operands):
        if _device(cmd, op) or op.startswith("/dev/") or _unresolved(op):
            return op, [word.lower() for word in cmd.operands[index + 1 :]]
    return None, []


_PARTED_EDITS = frozenset("mkpart name set toggle disk_set disk_toggle rescue select type".split())


def _parted_destroys(word: str) -> bool:
    """parted takes unambiguous abbreviations (`mkl` for `mklabel`): a word that could start a
    destructive command counts as one."""
    return word not in _PARTED_READS and word not in _PARTED_EDITS and any(verb.startswith(word) for verb in _PARTED_DESTROYS)


def _repartitions(cmd: Command) -> str | None:
    """A partition table rewritten or removed: an editor opened on a disk, a table fed to sfdisk, a
    zapped or cleared GPT, a parted label or removal."""
    name, flags = cmd.name, cmd.flags
    if name == "parted":
        device, words = _parted_words(cmd)
        if device is None or flags & ({"-l", "--list"} | _NOT_DONE):
            return None
        if not words or any(_parted_destroys(word) for word in words if not word.replace(".", "").isdigit()):
            return device
        return None
    device = _disk_operand(cmd)
    if device is None:
        return None
    if name == "fdisk":
        return None if flags & _FDISK_LISTS else device
    if name in ("gdisk", "cgdisk", "cfdisk"):
        return None if flags & _GDISK_LISTS else device
    if name == "sfdisk":
        return None if flags & _SFDISK_READS else device
    if name == "sgdisk":
        return device if flags & _SGDISK_DESTROYS and not flags & {"-P", "--pretend"} else None
    return None


def _edits_partitions(cmd: Command) -> bool:
    """Partition changes that keep the data: a new partition, a name, a type, a flag."""
    name, flags = cmd.name, cmd.flags
    if name == "parted":
        device, words = _parted_words(cmd)
        return device is not None and any(word not in _PARTED_READS and not word.replace(".", "").isdigit()
                                          for word in words)
    if _disk_operand(cmd) is None:
        return False
    if name == "sgdisk":
        return bool(flags - _SGDISK_READS - _SGDISK_DESTROYS) and not flags & {"-P", "--pretend"}
    if name == "sfdisk":
        return bool(flags & _SFDISK_EDITS) and len(cmd.operands) >= 3
    return False


def _wipes(cmd: Command) -> str | None:
    """wipefs erasing signatures, blkdiscard discarding a device, nwipe at all."""
    if cmd.name == "nwipe":
        return None if cmd.flags & _NOT_DONE else (_disk_operand(cmd) or "every disk it finds")
    if cmd.name == "wipefs":
        if not cmd.flags & {"-a", "--all", "-o", "--offset"} or cmd.flags & {"-n", "--no-act"}:
            return None
        return _disk_operand(cmd)
    return None if cmd.flags & _NOT_DONE else _disk_operand(cmd)


def _overwrites_device(cmd: Command) -> str | None:
    """shred, wipe, scrub and srm over a disk; badblocks' destructive write test (`-w`)."""
    if cmd.name == "badblocks" and not cmd.flags & {"-w"}:
        return None
    return _disk_operand(cmd)


_HDPARM_ERASES = frozenset(
    "--security-erase --security-erase-enhanced --trim-sector-ranges --trim-sector-ranges-stdin --write-sector"
    " --make-bad-sector --fwdownload --fwdownload-mode3 --fwdownload-mode3-max --fwdownload-mode7".split()
)
_NVME_ERASES = frozenset("format sanitize delete-ns write-zeroes write-uncor".split())


def _secure_erases(cmd: Command) -> bool:
    """Drive-level erase commands: ATA security erase and TRIM, NVMe format and sanitize, SCSI
    format, sanitize, unmap and write-same, firmware flash writes (macOS's `diskutil` is in `macos`)."""
    name, flags, first = cmd.name, cmd.flags, cmd.operands[0].lower() if cmd.operands else ""
    if name == "hdparm":
        return bool(flags & _HDPARM_ERASES)
    if name == "nvme":
        return first in _NVME_ERASES or (first == "dsm" and bool(flags & {"-d", "--ad"}))
    if name == "sg_format":
        return bool(flags & {"-F", "--format"})
    if name == "sg_sanitize":
        return bool(flags & {"-B", "--block", "-C", "--crypto", "-O", "--overwrite"})
    if name in ("sg_unmap", "sg_write_same"):
        return not flags & _NOT_DONE and bool(cmd.operands)
    if name == "flashrom":
        return bool(flags & {"-w", "--write", "-E", "--erase"})
    return False


_CRYPTSETUP_ERASES = frozenset({"erase", "lukserase", "luksformat"})


def _destroys_volume(cmd: Command) -> bool:
    """LUKS headers erased or reformatted, RAID superblocks zeroed or created over members, LVM
    volumes, groups and labels removed, or a label forced over a disk."""
    name, flags = cmd.name, cmd.flags
    if flags & _NOT_DONE:
        return False
    if name == "cryptsetup":
        return any(op.lower() in _CRYPTSETUP_ERASES for op in cmd.operands)
    if name == "mdadm":
        return bool(flags & {"--zero-superblock", "--create", "-C"})
    if name in ("pvremove", "vgremove", "lvremove"):
        return bool(cmd.operands) and not flags & {"-t", "--test"}
    if name in ("pvcreate", "vgcreate"):
        return bool(flags & {"-f", "-ff", "--force", "-y", "--yes"}) and not flags & {"-t", "--test"}
    return False


_WHOLE_SYSTEM_DATASETS = frozenset({"ROOT", "USERDATA", "home"})


def _pool_root(dataset: str) -> bool:
    """A pool's root dataset, or the one that holds the operating system's boot environments or the
    home directories (`rpool/ROOT`, `rpool/USERDATA`, `tank/home`)."""
    if "@" in dataset or "#" in dataset:
        return False
    return "/" not in dataset or dataset.rsplit("/", 1)[1] in _WHOLE_SYSTEM_DATASETS


def _destroys_pool(cmd: Command) -> bool:
    """A ZFS pool destroyed, its labels cleared or its disks forced into a new pool; every dataset
    of a pool (or its boot environments) destroyed recursively; a btrfs subvolume at a root deleted."""
    name, operands, flags = cmd.name, cmd.operands, cmd.flags
    if name == "zpool":
        sub = operands[0] if operands else ""
        return sub in ("destroy", "labelclear") or (sub in ("create", "add") and "-f" in flags)
    if name == "zfs":
        return operands[:1] == ("destroy",) and any(_pool_root(op) and (bool(flags & {"-r", "-R"}) or "/" in op)
                                                    for op in operands[1:])
    if name == "btrfs":
        return operands[:2] in (("subvolume", "delete"), ("subvolume", "del"), ("sub", "del"), ("sub", "delete")) \
            and any(is_root(_at(cmd, op)) for op in operands[2:])
    return False


def only_with(required: str, table: Options) -> Proof:
    """A table that proves a command only when one of the `required` options lists rather than edits."""
    needed = frozenset(required.split())

    def prove(cmd: Command) -> str | None:
        if not cmd.flags & needed:
            return f"{cmd.name}: only {' or '.join(sorted(needed))} is known to be read-only"
        return table(cmd)

    return prove


def _parted_operands(operands: list[str]) -> str | None:
    words = [word.lower() for word in operands[1:]]
    if operands and not words:
        return "parted: opened on a disk without commands, it reads them from its input"
    if any(word not in _PARTED_READS and not word.replace(".", "").isdigit() for word in words):
        return "parted: only print, unit and align-check are known to be read-only"
    return None


_PARTED_TABLE = options("-l --list -s --script -m --machine -j --json", "-a --align", operands=_parted_operands)


def _parted(cmd: Command) -> str | None:
    if not cmd.operands and not cmd.flags & {"-l", "--list"}:
        return "parted: without -l it opens the first disk and reads commands from its input"
    return _PARTED_TABLE(cmd)


_DD_READS = frozenset({"if", "bs", "ibs", "count", "skip", "iseek", "status", "iflag", "cbs"})


def _dd_operands(args: list[str]) -> str | None:
    """dd writing to standard output only (no `of=`, no `conv=` or `oflag=` that would matter)."""
    if args in (["--help"], ["--version"]):
        return None
    for arg in args:
        key, equals, _ = arg.partition("=")
        if not equals or key not in _DD_READS:
            return f"dd: {arg} is not known to be read-only"
    return None


def _wipefs(cmd: Command) -> str | None:
    if cmd.flags & {"-a", "--all", "-o", "--offset"} and not cmd.flags & {"-n", "--no-act"}:
        return "wipefs: -a and -o erase signatures"
    return _WIPEFS_TABLE(cmd)


_WIPEFS_TABLE = options("-n --no-act -a --all -f --force -i --noheadings -J --json -p --parsable -q --quiet"
                        " -h --help -V --version", "-O --output -t --types")
_LVM_REPORT = options("-a --all -v --verbose -q --quiet --noheadings --nosuffix --units --unbuffered --readonly"
                      " --separator -S --select -o --options -O --sort --reportformat --binary -h --help --version"
                      " -C --columns --aligned --nameprefixes --rows", "--units --separator -S --select -o --options -O"
                      " --sort --reportformat --config --configreport")
_CRYPTSETUP_READ = subcommands({
    "status": options("-v --verbose --debug"), "luksDump": options("-v --verbose --debug --header", "--header"),
    "isLuks": options("-v --verbose --debug --type", "--type"), "luksUUID": options("-v --verbose --debug"),
})

READ_ONLY: dict[str, Proof] = {
    "fdisk": only_with("-l --list -x --list-details", options("-l --list -x --list-details -u --units -b --sector-size"
                                                           " -c --compatibility -L --color -n --noauto-pt -o --output"
                                                           " -t --type --bytes -s --getsz", "-b --sector-size -o --output"
                                                           " -t --type -L --color -u --units -c --compatibility")),
    "sfdisk": only_with("-l --list -d --dump -J --json -F --list-free -s --show-size -g --show-geometry -V --verify",
                         options("-l --list -d --dump -J --json -F --list-free -s --show-size -g --show-geometry"
                                 " -V --verify -q --quiet --color --label -o --output -X", "-o --output --color --label -X")),
    "gdisk": only_with("-l", options("-l")),
    "sgdisk": only_with("-p --print -i --info -v --verify -O --print-mbr -L --list-types -D --display-alignment",
                         options("-p --print -v --verify -O --print-mbr -L --list-types -D --display-alignment -P --pretend",
                                 "-i --info")),
    "parted": _parted,
    "wipefs": _wipefs,
    "blkid": options("-d -g -h -k -l -p -i -V --no-encoding --garbage-collect --help --list-filesystems --info"
                     " --list-one --probe --version", "-c -o -s -t -L -U -n -u -O -S --cache-file --output --match-tag"
                     " --match-token --label --uuid --match-types --usages --offset --size"),
    "lvs": _LVM_REPORT, "vgs": _LVM_REPORT, "pvs": _LVM_REPORT,
    "lvdisplay": _LVM_REPORT, "vgdisplay": _LVM_REPORT, "pvdisplay": _LVM_REPORT,
    "zpool": unless_env(subcommands({
        "status": options("-v -x -D -g -L -P -p -s -t -i -e --power --json", "-T"),
        "list": options("-H -g -L -P -p -v", "-o -T"), "iostat": options("-g -L -P -p -v -y -w -l -q -r -H", "-T"),
        "get": options("-H -p", "-o"), "history": options("-i -l"), "version": options(),
    }), "ZPOOL_*"),
    "zfs": subcommands({"list": options("-H -p -r -d -o -s -S -t", "-d -o -s -S -t"),
                        "get": options("-H -p -r -d -o -s -t", "-d -o -s -t"), "version": options()}),
    "hdparm": options("-I -i -g -C --Istdin --Istdout"),
    "nvme": subcommands({name: options("-H --human-readable -o --output-format -v --verbose -n --namespace-id -b --raw-binary",
                                       "-o --output-format -n --namespace-id")
                         for name in ("list", "list-subsys", "id-ctrl", "id-ns", "smart-log", "error-log", "fw-log",
                                      "list-ns", "version", "list-ctrl")}),
    "smartctl": options("-a --all -x --xall -i --info -H --health -A --attributes -c --capabilities --scan --scan-open"
                        " -j --json -h --help -V --version",
                        "-d --device -l --log -q --quietmode -r --report -n --nocheck -f --format -F --firmwarebug"
                        " -v --vendorattribute -P --presets", "--json"),
    "mdadm": only_with("-D --detail -E --examine -Q --query", options("-D --detail -E --examine -Q --query -s --scan -v"
                                                                      " --verbose -b --brief -Y --export", "-c --config")),
    "cryptsetup": _CRYPTSETUP_READ,
    "blockdev": options("--getsize64 --getsz --getss --getpbsz --getbsz --getro --getra --getfra --getiomin --getioopt"
                        " --getalignoff --getmaxsect --getdiscardzeroes --getsize --report -v -q"),
    "findmnt": options("-a --all -A --ascii -b --bytes -c --canonicalize -D --df -e --evaluate -f --first-only -i --invert"
                       " -J --json -k --kernel -l --list -n --noheadings -o --output --output-all -P --pairs -R --submounts"
                       " -r --raw -S --source -T --target -t --types -U --uniq -u --notruncate -v --nofsroot -x --verify"
                       " -M --mountpoint -N --task -O --options -F --tab-file -d --direction -w --timeout -p --poll"
                       " --real --pseudo --shadowed --list-columns -h --help -V --version",
                       "-o --output -S --source -T --target -t --types -M --mountpoint -N --task -O --options -F"
                       " --tab-file -d --direction -w --timeout"),
    "btrfs": subcommands({
        "filesystem": subcommands({"show": options("-d -m --all-devices --mounted --raw --human-readable"),
                                   "df": options("-b -h -H -k -m -g -t --raw --human-readable"),
                                   "usage": options("-b -h -H -k -m -g -t -T --raw --human-readable")}),
        "subvolume": subcommands({"list": options("-o -a -p -c -g -u -q -R -t -s -r -d", "-G -C --sort"),
                                  "show": options("-r -u", "-r -u")}),
        "device": subcommands({"stats": options("-c --check"), "usage": options("-b -h -H -k -m -g -t -T")}),
        "version": options(),
    }),
    "sg_format": options("-v --verbose -l --long -H --hex -e --early -d --dcrt -h --help -V --version"),
    "losetup": options("-l --list -a --all -n --noheadings -J --json --raw -O --output --output-all -j --associated",
                       "-O --output -j --associated"),
    "swapon": only_with("--show -s --summary", options("--show -s --summary --bytes --noheadings --raw", "--show")),
    "dmsetup": subcommands({name: options("-c -C --columns --noheadings -o --options --tree", "-o --options")
                            for name in ("ls", "info", "status", "version", "targets", "deps")}),
    "badblocks": options("-s -v -b -c -e -p -t -i -B -X", "-b -c -e -p -t -i"),
    "dd": lambda cmd: _dd_operands(list(cmd.args)),
    "mount": options("-l --show-labels -h --help -V --version", "-t --types", operands=at_most(0)),
    "tune2fs": options("-l", requires="-l", operands=at_most(1)),
    "dumpe2fs": options("-b -f -g -h -i -x -V", "-o", operands=at_most(1)),
    "xfs_info": options("-V", "-t", operands=at_most(1)),
    "mountpoint": options("-q --quiet --nofollow -d --fs-devno -x --devno -h --help -V --version", operands=at_most(1)),
    **{name: only_with(flag, options(f"{flag} -q -v -F -V", "-t -T -b -L -O -E -N -m -I -i -G -g -J -U -C -e -o -r"
                                     if flag == "-n" else "-b -d -i -l -L -m -n -r -s"))
       for name, flag in _MKFS_DRY_RUN.items() if name not in ("mkfs.ntfs", "mkntfs")},
}
DISK_TOOLS = frozenset(READ_ONLY) - {"dd"} | MKFS | frozenset(
    "cfdisk cgdisk blkdiscard nwipe shred wipe scrub srm sg_sanitize sg_unmap sg_write_same flashrom pvremove"
    " vgremove lvremove pvcreate vgcreate lvcreate lvreduce lvresize lvextend vgreduce pvmove".split()
)

RULES = [
    rule("disk.redirect-device", CATASTROPHIC, "fs", "writes raw bytes over a disk device", tier=IRREVERSIBLE,
         scope="redirect", test=_redirected_device, cite=True,
         examples=["cat /dev/zero > /dev/sda", "echo x > /dev/nvme0n1", "pv img > /dev/disk/by-id/ata-X",
                   "cat x > /dev/mapper/vg0-root", "exec 3>/dev/sda"],
         counter=["echo x > /dev/null", "cat x > /dev/loop0", "echo x > /dev/shm/x"]),
    rule("disk.write-device", CATASTROPHIC, "fs", "writes over a disk device", tier=IRREVERSIBLE,
         test=written_device, cite=True,
         examples=["dd if=/dev/zero of=/dev/sda", "dd if=img of=/dev/mmcblk0 bs=4M", "echo x | tee /dev/sda",
                   "cp image.img /dev/nvme0n1", "ddrescue -f /dev/zero /dev/sdb", "sg_dd if=/dev/zero of=/dev/sg1",
                   "qemu-img convert -O raw x.qcow2 /dev/sdb", "partclone.ext4 -r -s x -o /dev/sda1",
                   "socat -u tcp-listen:1 /dev/sda"],
         counter=["dd if=/dev/sda of=disk.img", "cp /dev/sda disk.img", "tee /dev/null", "qemu-img info /dev/sda"]),
    rule("disk.each-device", CATASTROPHIC, "fs", "runs a disk-destroying command on every device a search lists",
         names="find xargs", tier=IRREVERSIBLE, test=_each_device, cite=True,
         examples=["find /dev -name 'sd*' -exec dd if=/dev/zero of={} \\;", "find /dev/disk/by-id -exec wipefs -a {} +",
                   "ls /dev/sd* | xargs -n1 wipefs -a", "lsblk -dno path | xargs -I{} dd if=/dev/zero of={}"],
         counter=["find /dev -name 'sd*'", "find /dev -name 'sd*' -exec ls -l {} \\;", "lsblk -dno path | xargs -n1 smartctl -H",
                  "find . -exec wipefs -a {} +"]),
    rule("disk.read-device", DANGEROUS, "fs creds", "reads a raw disk, which holds every file on it (keys, password hashes)",
         test=read_device, cite=True,
         examples=["dd if=/dev/sda of=disk.img", "strings /dev/nvme0n1p2", "cat /dev/sda > disk.img", "xxd < /dev/sda",
                   "dd if=/dev/sda bs=1M count=100 | xxd"],
         counter=["smartctl -a /dev/sda", "ls -l /dev/sda", "dd if=/dev/zero of=x.img", "cat /dev/urandom",
                  "dd if=/dev/sda bs=512 count=1 | xxd"]),
    rule("disk.mkfs", CATASTROPHIC, "fs", "formats a disk, destroying what is on it", names=" ".join(sorted(MKFS)),
         tier=IRREVERSIBLE, test=_formats_device, cite=True,
         examples=["mkfs.ext4 /dev/sda1", "mkfs -t xfs /dev/sdb", "mkswap /dev/sda2", "mkfs.ext4 \"$DISK\""],
         counter=["mkfs --version", "mkfs.ext4 disk.img", "mkfs.ext4 -n /dev/sdb1"]),
    rule("disk.mkfs-image", DANGEROUS, "fs", "formats a file as a filesystem image", names=" ".join(sorted(MKFS)),
         test=_formats_file, examples=["mkfs.ext4 disk.img", "mkswap ./swapfile"],
         counter=["mkfs.ext4 /dev/sda1", "mkfs --version"]),
    rule("disk.partition", CATASTROPHIC, "fs", "rewrites or removes a disk's partition table",
         names="fdisk sfdisk parted gdisk cfdisk cgdisk sgdisk", tier=IRREVERSIBLE, test=_repartitions, cite=True,
         examples=["fdisk /dev/sda", "parted /dev/sdb mklabel gpt", "parted -s /dev/sda rm 1", "sgdisk --zap-all /dev/sda",
                   "sfdisk /dev/sda < layout.txt", "gdisk /dev/nvme0n1"],
         counter=["fdisk -l /dev/sda", "parted /dev/sda print", "sgdisk -p /dev/sda", "sfdisk -d /dev/sda"]),
    rule("disk.partition-edit", DANGEROUS, "fs", "changes a disk's partitions (a new partition, a name, a type or a flag)",
         names="sfdisk parted sgdisk", tier=IRREVERSIBLE, test=_edits_partitions,
         examples=["parted /dev/sda mkpart primary ext4 1MiB 100%", "sgdisk -n 2:0:0 /dev/sda",
                   "sfdisk --part-type /dev/sda 1 83"],
         counter=["parted /dev/sda print", "sgdisk -p /dev/sda"]),
    rule("disk.wipe", CATASTROPHIC, "fs", "erases a disk's signatures or discards its blocks",
         names="wipefs blkdiscard nwipe", tier=IRREVERSIBLE, test=_wipes, cite=True,
         examples=["wipefs -a /dev/sda", "blkdiscard /dev/nvme0n1", "nwipe --autonuke", "wipefs -o 0x438 /dev/sdb1"],
         counter=["wipefs --help", "wipefs /dev/sda", "wipefs -n -a /dev/sda"]),
    rule("disk.shred-device", CATASTROPHIC, "fs", "overwrites a whole disk device", names="shred wipe scrub srm badblocks",
         tier=IRREVERSIBLE, test=_overwrites_device, cite=True,
         examples=["shred -n 1 /dev/sda", "wipe -rf /dev/sda", "scrub -p dod /dev/sdb", "badblocks -wsv /dev/sdb"],
         counter=["shred -u a.txt", "badblocks -sv /dev/sdb"]),
    rule("disk.secure-erase", CATASTROPHIC, "fs", "erases a drive with its own firmware (secure erase, sanitize, format, TRIM)",
         names="hdparm nvme sg_format sg_sanitize sg_unmap sg_write_same flashrom", tier=IRREVERSIBLE,
         test=_secure_erases,
         examples=["hdparm --security-erase NULL /dev/sda", "nvme format /dev/nvme0n1", "nvme sanitize /dev/nvme0 -a 2",
                   "sg_format --format /dev/sg0", "flashrom -p internal -w bios.bin"],
         counter=["hdparm -I /dev/sda", "nvme list", "sg_format /dev/sg0"]),
    rule("disk.volume-destroy", CATASTROPHIC, "fs", "destroys an encrypted, RAID or LVM volume or forces a label over a disk",
         names="cryptsetup mdadm pvremove vgremove lvremove pvcreate vgcreate", tier=IRREVERSIBLE, test=_destroys_volume,
         examples=["cryptsetup luksFormat /dev/sda2", "cryptsetup erase /dev/sda2", "mdadm --zero-superblock /dev/sdb1",
                   "mdadm --create /dev/md0 -l 1 -n 2 /dev/sda1 /dev/sdb1", "vgremove -f vg0", "lvremove -f /dev/vg0/root",
                   "pvcreate -ff -y /dev/sdb"],
         counter=["cryptsetup status root", "mdadm --detail /dev/md0", "lvremove --help", "pvcreate /dev/sdb"]),
    rule("disk.pool-destroy", CATASTROPHIC, "fs", "destroys a storage pool, or every dataset or subvolume at its root",
         names="zpool zfs btrfs", tier=IRREVERSIBLE, test=_destroys_pool,
         examples=["zpool destroy tank", "zpool labelclear -f /dev/sdb", "zpool create -f tank /dev/sdb", "zfs destroy -r tank",
                   "zfs destroy -r tank/home",
                   "btrfs subvolume delete /"],
         counter=["zpool status", "zfs destroy tank/data@snap", "zfs destroy -r tank/data", "zpool create tank /dev/sdb",
                  "zfs destroy tank/home@today"]),
    rule("fallback.redirect-device", CATASTROPHIC, "fs obfuscation", "text that could not be analysed writes over a disk",
         raw="fallback", needles="/dev/", tier=IRREVERSIBLE,
         args=r"(?:>|\btee\s{1,8}(?:-\w{1,8}\s{1,8}){0,4})\s{0,4}['\"]?/dev/(?:sd[a-z]|hd[a-z]|x?vd[a-z]|nvme\d|mmcblk\d|md\d"
              r"|dm-\d|zd\d|nbd\d|rbd\d|disk/|mapper/(?!control)|mem\b|kmem\b|port\b|root\b)",
         examples=["echo x 1<>/dev/sda", "cat /dev/zero > /dev/nvme0n1 'x"], counter=["echo x 1<>/dev/null", "ls > out 'x"]),
    rule("disk.dd", DANGEROUS, "fs", "dd writes raw data to a file", names="dd", args=r"(?:^|\s)of=",
         examples=["dd if=/dev/zero of=blank.img bs=1M count=1"], counter=["dd --version"]),
    rule("disk.mount", DANGEROUS, "fs", "mounts, unmounts or remounts filesystems", names="mount umount swapoff swapon losetup",
         test=lambda c: bool(c.args) and not (c.name in ("losetup", "swapon", "mount") and READ_ONLY[c.name](c) is None),
         examples=["mount / -o remount,rw", "umount /mnt/usb", "losetup -d /dev/loop0"], counter=["mount", "losetup -l", "mount -l -t ext4"]),
]

PACK = Pack("core.disks", "Raw writes to disks, formatting, partition tables, secure erase, volume and pool managers.",
            rules=RULES, read_only=READ_ONLY, core=True)
