"""Filesystem rules: deletion, overwriting, permissions, disks and system trees."""

from __future__ import annotations

from engine.gate.paths import is_auth_file, is_device, is_root, is_system
from engine.gate.packs.model import CATASTROPHIC, DANGEROUS, IRREVERSIBLE, Pack, any_operand, rule
from engine.gate.shell.view import Command

RECURSIVE = frozenset({"-r", "-R", "--recursive"})


def _recursive_root(cmd: Command) -> bool:
    return bool(cmd.flags & RECURSIVE) and any_operand(cmd, is_root)


def _redirect(check):
    return lambda cmd: any(check(t) for t in cmd.out_targets())


def _dd_device(cmd: Command) -> bool:
    return any(a.startswith("of=") and is_device(a[3:]) for a in cmd.args)


def _last_operand(check):
    return lambda cmd: len(cmd.operands) >= 2 and check(cmd.operands[-1])


RULES = [
    rule("fs.rm-root", CATASTROPHIC, "fs", "recursively deletes a filesystem root, system tree or home directory",
         names="rm", tier=IRREVERSIBLE, test=_recursive_root,
         examples=["rm -rf /", "rm -fr ~/", "rm --recursive --force /etc", "rm -rf /home/alice", "rm -r -f /*"],
         counter=["rm -rf ./build", "rm -rf /tmp/x", "rm -rf ~/Documents"]),
    rule("fs.rm-auth-file", CATASTROPHIC, "fs creds", "deletes an account or boot file the system needs to start",
         names="rm unlink shred", tier=IRREVERSIBLE, test=lambda c: any_operand(c, is_auth_file),
         examples=["rm /etc/passwd", "rm -f /etc/shadow"], counter=["rm passwd.txt"]),
    rule("fs.rm-system", DANGEROUS, "fs", "deletes files under a system directory", names="rm rmdir unlink",
         tier=IRREVERSIBLE, test=lambda c: any_operand(c, is_system),
         examples=["rm -rf /var/log/nginx", "rm /usr/local/bin/tool"], counter=["rm notes.txt"]),
    rule("fs.rm-recursive", DANGEROUS, "fs", "recursively deletes a directory tree", names="rm", flags="-r -R --recursive",
         examples=["rm -rf build", "rm -r src"], counter=["rm file.txt"]),
    rule("fs.rm", DANGEROUS, "fs", "deletes files", names="rm unlink",
         test=lambda c: not (len(c.args) == 1 and c.args[0] in ("--version", "--help")),
         examples=["rm file.txt", "unlink link"], counter=["rm --version"]),
    rule("fs.rmdir", DANGEROUS, "fs", "removes directories", names="rmdir", examples=["rmdir empty"],
         counter=["ls empty"]),
    rule("fs.shred", DANGEROUS, "fs evasion", "overwrites files so they cannot be recovered", names="shred srm wipe",
         tier=IRREVERSIBLE, examples=["shred -u secrets.txt"], counter=["cat secrets.txt"]),
    rule("fs.find-delete", DANGEROUS, "fs", "find deletes every file it matches", names="find", args=r"(?:^|\s)-delete\b",
         examples=["find . -name '*.pyc' -delete"], counter=["find . -name '*.pyc'"]),
    rule("fs.find-delete-root", CATASTROPHIC, "fs", "find deletes files across a system root", names="find",
         tier=IRREVERSIBLE, args=r"(?:^|\s)-delete\b",
         test=lambda c: bool(c.operands) and is_root(c.operands[0]),
         examples=["find / -delete", "find ~ -type f -delete"], counter=["find . -delete"]),
    rule("fs.find-write", DANGEROUS, "fs", "find writes its results to a file", names="find",
         args=r"(?:^|\s)-(?:fprint0?|fprintf|fls)\s", examples=["find . -fprint /tmp/out"],
         counter=["find . -print"]),
    rule("fs.truncate", DANGEROUS, "fs", "truncates files", names="truncate", examples=["truncate -s 0 app.log"],
         counter=["wc -c app.log"]),
    rule("fs.redirect-write", DANGEROUS, "fs", "writes output into a file",
         target=r"(?!/dev/(?:null|stdout|stderr|tty|fd/\d+)$)(?!&).+",
         examples=["ls > out.txt", "echo hi >> notes.md", "find . -name x 2> err.txt"],
         counter=["ls > /dev/null", "grep x f 2>&1"]),
    rule("fs.redirect-system", DANGEROUS, "fs", "writes into a file under a system directory", scope="redirect",
         test=_redirect(lambda t: is_system(t) and not is_device(t) and not t.startswith("/dev/")),
         examples=["echo 1 > /proc/sys/vm/drop_caches", "echo x >> /etc/hosts"], counter=["echo x > hosts"]),
    rule("fs.redirect-auth-file", CATASTROPHIC, "fs creds", "overwrites an account, sudo or boot file",
         tier=IRREVERSIBLE, test=_redirect(is_auth_file), scope="redirect",
         examples=["echo malicious > /etc/passwd", "echo 'x ALL=(ALL) NOPASSWD:ALL' >> /etc/sudoers"],
         counter=["echo x > passwd"]),
    rule("disk.redirect-device", CATASTROPHIC, "fs", "writes raw bytes over a disk device", tier=IRREVERSIBLE, scope="redirect",
         test=_redirect(is_device), examples=["cat /dev/zero > /dev/sda", "echo x > /dev/nvme0n1"],
         counter=["echo x > /dev/null"]),
    rule("disk.mkfs", CATASTROPHIC, "fs", "formats a filesystem, destroying what is on it",
         names="mkfs mkfs.ext4 mkfs.ext3 mkfs.ext2 mkfs.xfs mkfs.btrfs mkfs.vfat mkfs.fat mkfs.ntfs mkfs.exfat mke2fs mkswap newfs",
         tier=IRREVERSIBLE, test=lambda c: not c.flags & {"--help", "--version", "-V"},
         examples=["mkfs.ext4 /dev/sda1", "mkfs -t xfs /dev/sdb"], counter=["mkfs --version"]),
    rule("disk.dd-device", CATASTROPHIC, "fs", "dd writes over a disk device", names="dd", tier=IRREVERSIBLE,
         test=_dd_device, examples=["dd if=/dev/zero of=/dev/sda", "dd if=img of=/dev/mmcblk0 bs=4M"],
         counter=["dd if=/dev/sda of=disk.img"]),
    rule("disk.dd", DANGEROUS, "fs", "dd writes raw data to a file", names="dd", args=r"(?:^|\s)of=",
         examples=["dd if=/dev/zero of=blank.img bs=1M count=1"], counter=["dd --version"]),
    rule("disk.wipe", CATASTROPHIC, "fs", "erases partition tables or discards a whole device",
         names="wipefs blkdiscard sgdisk", tier=IRREVERSIBLE,
         test=lambda c: any_operand(c, is_device) and not c.flags & {"-p", "--print"},
         examples=["wipefs -a /dev/sda", "blkdiscard /dev/nvme0n1"], counter=["wipefs --help"]),
    rule("disk.partition", CATASTROPHIC, "fs", "rewrites a disk's partition table", names="fdisk sfdisk parted gdisk cfdisk",
         tier=IRREVERSIBLE, test=lambda c: any_operand(c, is_device) and not c.flags & {"-l", "--list"},
         examples=["fdisk /dev/sda", "parted /dev/sdb mklabel gpt"], counter=["fdisk -l /dev/sda"]),
    rule("disk.shred-device", CATASTROPHIC, "fs", "shreds a whole disk device", names="shred", tier=IRREVERSIBLE,
         test=lambda c: any_operand(c, is_device), examples=["shred -n 1 /dev/sda"], counter=["shred -u a.txt"]),
    rule("disk.mount", DANGEROUS, "fs", "mounts, unmounts or remounts filesystems", names="mount umount swapoff losetup",
         test=lambda c: bool(c.args), examples=["mount / -o remount,rw", "umount /mnt/usb"], counter=["mount"]),
    rule("fs.chmod-recursive", DANGEROUS, "fs", "changes permissions or owners of a whole tree",
         names="chmod chown chgrp", flags="-R --recursive", examples=["chmod -R 755 .", "chown ftpuser dir -R"],
         counter=["chmod 644 a.txt"]),
    rule("fs.chmod-root", CATASTROPHIC, "fs", "changes permissions or owners across a system root",
         names="chmod chown chgrp", tier=IRREVERSIBLE,
         test=lambda c: bool(c.flags & {"-R", "--recursive"}) and any_operand(c, lambda p: is_root(p) and p not in ("~",)),
         examples=["chmod -R 777 /", "chown -R nobody /etc"], counter=["chmod -R 755 ./site"]),
    rule("fs.chmod-world", DANGEROUS, "fs", "makes files writable by everyone", names="chmod",
         args=r"(?:^|\s)(?:0?777|a\+w|o\+w|\+w)(?:\s|$)", examples=["chmod 777 script.sh"], counter=["chmod 700 key"]),
    rule("fs.chmod", DANGEROUS, "fs", "changes file permissions or ownership", names="chmod chown chgrp chattr setfacl",
         examples=["chmod +x run.sh", "chown user dest"], counter=["stat run.sh"]),
    rule("fs.copy", DANGEROUS, "fs", "copies, moves or links files (may overwrite)", names="cp mv ln install rename",
         examples=["cp a.txt b.txt", "mv old new", "ln -s target link"], counter=["ls a.txt"]),
    rule("fs.move-root", CATASTROPHIC, "fs", "moves a filesystem root or home directory away", names="mv",
         tier=IRREVERSIBLE, test=lambda c: len(c.operands) >= 2 and any(is_root(p) for p in c.operands[:-1]),
         examples=["mv ~ /dev/null", "mv /etc /tmp/etc"], counter=["mv a b"]),
    rule("fs.write-system", DANGEROUS, "fs", "writes a file into a system directory", names="cp mv install ln tee rsync",
         tier=IRREVERSIBLE, test=_last_operand(is_system),
         examples=["cp malware /usr/bin/", "mv file /etc/"], counter=["cp a ./b"]),
    rule("fs.write-auth-file", CATASTROPHIC, "fs creds", "replaces an account, sudo or boot file",
         names="cp mv install tee ln", tier=IRREVERSIBLE, test=lambda c: any_operand(c, is_auth_file) and c.name != "cp"
         or (c.name == "cp" and _last_operand(is_auth_file)(c)),
         examples=["cp evil /etc/passwd", "tee -a /etc/sudoers"], counter=["cp /etc/passwd backup"]),
    rule("fs.tee", DANGEROUS, "fs", "tee writes its input into files", names="tee",
         test=lambda c: any(op != "/dev/null" for op in c.operands), examples=["tee -a /tmp/log.txt"],
         counter=["tee /dev/null"]),
    rule("fs.create", DANGEROUS, "fs", "creates files or directories", names="touch mkdir mktemp mkfifo mknod",
         examples=["touch newfile.txt", "mkdir -p build"], counter=["ls build"]),
    rule("fs.sed-inplace", DANGEROUS, "fs", "sed edits files in place", names="sed gsed perl",
         test=lambda c: bool(c.flags & {"-i", "--in-place"}),
         examples=["sed -i 's/a/b/' f.txt", "perl -pi -e 's/a/b/' f"], counter=["sed -n 1,5p f.txt"]),
    rule("fs.sed-write", DANGEROUS, "fs exec", "the sed script writes files or runs commands", names="sed gsed",
         args=r"(?:^|[;{}\s])[wWe]\s|/[gpIiMm0-9]{0,6}[we](?:\s|;|$)", examples=["sed 's/a/b/w out.txt' f"],
         counter=["sed 's/a/b/g' f"]),
    rule("fs.sort-output", DANGEROUS, "fs", "sort writes to an output file", names="sort",
         args=r"(?:^|\s)(?:-o|--output)", examples=["sort -o out.txt in.txt", "sort -m -o /path/x"],
         counter=["sort in.txt"]),
    rule("fs.archive-extract", DANGEROUS, "fs", "extracts an archive over existing files",
         names="tar unzip gunzip bunzip2 unxz 7z unrar cpio gzip bzip2 xz zip zstd",
         test=lambda c: not (c.name == "tar" and c.flags & {"-t", "--list"} and not c.flags & {"-x", "-c"}),
         examples=["tar -xf archive.tar", "unzip a.zip", "gzip -9 big.log"], counter=["tar -tvf archive.tar"]),
    rule("fs.archive-extract-root", CATASTROPHIC, "fs", "extracts an archive over the filesystem root", names="tar",
         tier=IRREVERSIBLE, args=r"(?:-C|--directory)[ =]?/(?:\s|$)|(?:-C|--directory)[ =]?/(?:etc|usr|bin|boot)(?:/|\s|$)",
         test=lambda c: bool(c.flags & {"-x", "--extract", "--get"}),
         examples=["tar -xf archive.tar -C /"], counter=["tar -xf archive.tar -C ./out"]),
    rule("fs.rsync-delete", DANGEROUS, "fs", "rsync deletes files at the destination", names="rsync rclone",
         args=r"--del(?:ete)?\S*|--remove-source-files", examples=["rsync -a --delete /src/ /dest/"],
         counter=["rsync -a --list-only host:/d"]),
    rule("fs.rsync", DANGEROUS, "fs", "rsync copies files and may overwrite the destination", names="rsync",
         test=lambda c: not c.flags & {"--list-only", "-n", "--dry-run"}, examples=["rsync -a /src/ /dest/"],
         counter=["rsync -a -n /src/ /dest/"]),
    rule("fs.split", DANGEROUS, "fs", "writes output files", names="split csplit iconv dos2unix unix2dos",
         examples=["split -b 999 input prefix", "dos2unix -n a b"], counter=["wc -l input"]),
]

PACK = Pack("core.filesystem", "Deleting, overwriting, permissions, disks and system trees.", rules=RULES, core=True)
