"""Filesystem rules: deletion, overwriting, permissions, synchronisation and system trees (disks are
in `disks`)."""

from __future__ import annotations

import posixpath
import re

from engine.gate.globs import expand
from engine.gate.paths import is_auth_file, is_device, is_root, is_system
from engine.gate.packs import reading
from engine.gate.packs.model import CATASTROPHIC, DANGEROUS, IRREVERSIBLE, Pack, any_operand, rule
from engine.gate.shell.modes import sets_privilege_bits
from engine.gate.shell.unwrap import unwrap
from engine.gate.shell.view import Command
from engine.gate.shell.writes import WRITERS, overwritten

RECURSIVE = frozenset({"-r", "-R", "--recursive"})
PERMISSIONS = frozenset("chmod chown chgrp setfacl chattr".split())
# find tests that pick some files out of a tree; a root searched with none of them (or only
# negated, or beside an alternative without one) hands every file to what -exec runs.
_NARROWING = frozenset(
    "-name -iname -path -ipath -wholename -iwholename -regex -iregex -user -uid -group -gid -nouser -nogroup -perm"
    " -newer -anewer -cnewer -mtime -mmin -atime -amin -ctime -cmin -size -inum -samefile -lname -ilname -links -empty"
    " -used -context".split()
)
_FIND_EXEC = frozenset({"-exec", "-execdir", "-ok", "-okdir"})
_XARGS_VALUES = frozenset("-I -a -d -E -L -n -P -s -e".split())
_RSYNC_VALUES = frozenset(
    "-e --rsh -f --filter --exclude --include --exclude-from --include-from --files-from --rsync-path -T --temp-dir"
    " --compare-dest --copy-dest --link-dest --backup-dir --suffix --chmod --chown --usermap --groupmap --timeout"
    " --contimeout --port --sockopts --log-file --log-file-format --out-format --password-file --bwlimit --partial-dir"
    " --max-size --min-size --max-delete --modify-window --compress-level --skip-compress --checksum-choice"
    " --compress-choice --iconv --protocol --read-batch --write-batch --only-write-batch --info --debug --stop-after"
    " --stop-at -B --block-size --address --outbuf -M --remote-option --max-alloc --early-input --copy-as".split()
)
_REMOTE = re.compile(r"^(?:[\w.+-]{1,64}@)?[\w.-]{2,253}:(?!:)")
_DRY_RUN = frozenset({"-n", "--dry-run", "--list-only"})
_RCLONE_DESTINATION = frozenset({"sync"})
_RCLONE_SOURCE = frozenset({"move", "purge", "delete", "rmdirs", "deletefile"})


def at(cmd: Command, path: str) -> str:
    """`path` as read from where the script moved to (`cd / && chmod -R 777 .` names `/`)."""
    if cmd.cwd is None or path.startswith(("/", "~", "$")):
        return path
    return posixpath.join(cmd.cwd, path)


def root_operand(cmd: Command, paths: tuple[str, ...] | list[str]) -> str | None:
    """The first of `paths` that is a root, system tree or home directory, braces expanded (`/{etc,usr}`)."""
    for path in paths:
        if any(is_root(at(cmd, alternative)) for alternative in expand(path)):
            return path
    return None


def _recursive_root(cmd: Command) -> bool:
    return bool(cmd.flags & RECURSIVE) and any_operand(cmd, is_root)


def _not_privileged(cmd: Command) -> bool:
    """The generic permission and copy rules yield to `evasion.setuid` (its reason is the one to read)."""
    return sets_privilege_bits(cmd) is None


def _redirect(check):
    return lambda cmd: any(check(t) for t in cmd.out_targets())


def _overwrites_auth_file(cmd: Command) -> str | None:
    """The account, sudo or boot file any program writes (an output option's value, a destination, an
    in-place edit, a file moved away): the same table a `>` redirection is checked against."""
    return next((path for path in overwritten(cmd) if is_auth_file(path)), None)


def _last_operand(check):
    return lambda cmd: len(cmd.operands) >= 2 and check(cmd.operands[-1])


def _permissions_root(cmd: Command) -> str | None:
    """chmod, chown, chgrp, setfacl or chattr applied recursively to a filesystem root, system tree or
    home: it clears setuid bits and the owners and modes programs (sudo, ssh) need, which no one
    can list afterwards to set back."""
    if not cmd.flags & {"-R", "--recursive"}:
        return None
    return root_operand(cmd, cmd.operands)


def _narrowed(expression: list[str]) -> bool:
    """True when every alternative of a find expression has a test that picks files (`-name`, `-user`, …)
    that is not negated."""
    alternatives: list[bool] = [False]
    negated = False
    for token in expression:
        if token in ("-o", "-or", ","):
            alternatives.append(False)
        elif token in ("!", "-not"):
            negated = True
            continue
        elif (token in _NARROWING or token.startswith("-newer")) and not negated and not _matches_all(expression, token):
            alternatives[-1] = True
        negated = False
    return all(alternatives)


def _matches_all(expression: list[str], token: str) -> bool:
    """`-name '*'` and `-path '*'` pick every file: a pattern of wildcards only narrows nothing."""
    if token not in ("-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename", "-regex", "-iregex"):
        return False
    index = expression.index(token)
    pattern = expression[index + 1] if index + 1 < len(expression) else ""
    return pattern.strip("*?.") == "" and pattern not in (".", "..")


def _find_writes_auth_file(cmd: Command) -> str | None:
    """The account, sudo or boot file `-fprint`, `-fprint0`, `-fprintf` or `-fls` overwrites."""
    args = cmd.args
    if "-f" not in cmd.text:
        return None
    for index, arg in enumerate(args[:-1]):
        if arg in ("-fprint", "-fprint0", "-fprintf", "-fls") and is_auth_file(at(cmd, args[index + 1])):
            return args[index + 1]
    return None


def _find_parts(args: tuple[str, ...] | list[str]) -> tuple[list[str], list[str]]:
    """find's roots and the expression before its first action that runs a program."""
    roots: list[str] = []
    index = 0
    while index < len(args) and not args[index].startswith(("-", "(", "!", "\\(")):
        roots.append(args[index])
        index += 1
    expression: list[str] = []
    for token in args[index:]:
        if token in _FIND_EXEC:
            break
        expression.append(token)
    return roots or ["."], expression


def _find_runs_permissions(cmd: Command) -> str | None:
    """`find ROOT … -exec chmod|chown|chgrp|setfacl|chattr …`: every file under a root, one by one."""
    args = cmd.args
    if "-exec" not in cmd.text and "-ok" not in cmd.text:
        return None
    runs = any(args[i] in _FIND_EXEC and unwrap(list(args[i + 1 : i + 4])).name in PERMISSIONS
               for i in range(len(args) - 1))
    if not runs:
        return None
    roots, expression = _find_parts(args)
    root = root_operand(cmd, roots)
    return root if root is not None and not _narrowed(expression) else None


def _xargs_program(args: tuple[str, ...]) -> str:
    index = 0
    while index < len(args) and args[index].startswith("-"):
        index += 2 if args[index] in _XARGS_VALUES else 1
    return unwrap(list(args[index : index + 4])).name if index < len(args) else ""


def _xargs_permissions_root(cmd: Command) -> str | None:
    """`find ROOT … | xargs chmod …`: the permissions program gets every path under a root."""
    if not cmd.upstream or _xargs_program(cmd.args) not in PERMISSIONS:
        return None
    stage = unwrap(cmd.upstream.rsplit(" | ", 1)[-1].split())
    if stage.name != "find":
        return None
    roots, expression = _find_parts(stage.argv[1:])
    root = root_operand(cmd, roots)
    return root if root is not None and not _narrowed(expression) else None


_UNPACKING = {
    # program: how a command of it unpacks rather than packs ("always", flags that say so, or first operands)
    "unzip": "always", "gunzip": "always", "bunzip2": "always", "unxz": "always", "unrar": "always",
    "gzip": "-d --decompress --uncompress", "bzip2": "-d --decompress", "xz": "-d --decompress --uncompress",
    "zstd": "-d --decompress --uncompress", "cpio": "-i --extract", "tar": "-x --extract --get",
    "7z": "x e",
}
"""What tells unpacking an archive from making one, per program: a rule's reason must say which it is."""
_TAR_MODE = re.compile(r"[A-Za-z]*[xcrtudA][A-Za-z]*")


def unpacks(cmd: Command) -> bool:
    """The archive command unpacks (`tar xzf`, `unzip`, `gzip -d`) rather than packs (`tar czf`, `zip`, `gzip`)."""
    how = _UNPACKING.get(cmd.name, "")
    if how == "always":
        return True
    if cmd.name == "7z":
        return bool(cmd.operands) and cmd.operands[0] in how.split()
    if cmd.name == "tar" and cmd.args and not cmd.args[0].startswith("-") and _TAR_MODE.fullmatch(cmd.args[0]):
        return "x" in cmd.args[0]  # the old style: `tar xzf a.tgz`, its first word the bundled letters
    return bool(cmd.flags & frozenset(how.split()))


def _sync_operands(args: tuple[str, ...]) -> list[str]:
    """rsync's sources and destination, without the values of its options."""
    operands: list[str] = []
    skip = ended = False
    for arg in args:
        if skip:
            skip = False
        elif ended or not arg.startswith("-") or arg == "-":
            operands.append(arg)
        elif arg == "--":
            ended = True
        elif arg in _RSYNC_VALUES:
            skip = True
    return operands


def _root_spec(cmd: Command, spec: str) -> bool:
    """A local or remote (`host:`, `user@host:/`) path that is a root, system tree or home;
    an empty remote path is the remote home. Daemon modules (`host::m`) are not judged."""
    if "::" in spec or spec.startswith("rsync://"):
        return False
    remote = _REMOTE.match(spec)
    if remote is None:
        return root_operand(cmd, [spec]) is not None
    path = spec[remote.end() :]
    return path in ("", ".", "./", "~", "~/") or (path.startswith(("/", "~")) and is_root(path))


def _sync_deletes_root(cmd: Command) -> str | None:
    """rsync told to delete at a destination that is a root, system tree or home (local or remote),
    or to remove its sources when one is; rclone syncing into, moving or purging a local root."""
    flags = cmd.flags
    if flags & _DRY_RUN:
        return None
    if cmd.name == "rclone":
        sub, paths = (cmd.operands[0], cmd.operands[1:]) if cmd.operands else ("", ())
        local = [path for path in paths if ":" not in path]
        if sub in _RCLONE_DESTINATION and len(paths) >= 2 and paths[-1] in local:
            return paths[-1] if root_operand(cmd, [paths[-1]]) else None
        if sub in _RCLONE_SOURCE and local:
            return root_operand(cmd, local[:1])
        return None
    deletes = any(flag == "--del" or flag.startswith("--delete") for flag in flags)
    removes = bool(flags & {"--remove-source-files", "--remove-sent-files"})
    if not (deletes or removes):
        return None
    operands = _sync_operands(cmd.args)
    if len(operands) < 2:
        return None
    if deletes and _root_spec(cmd, operands[-1]):
        return operands[-1]
    if removes:
        return next((source for source in operands[:-1] if _root_spec(cmd, source)), None)
    return None


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
         tier=IRREVERSIBLE, test=lambda c: bool(c.operands) or not c.flags <= {"--version", "--help", "-V", "-h"},
         examples=["shred -u secrets.txt"], counter=["cat secrets.txt", "shred --version"]),
    rule("fs.find-delete", DANGEROUS, "fs", "find deletes every file it matches", names="find", args=r"(?:^|\s)-delete\b",
         examples=["find . -name '*.pyc' -delete"], counter=["find . -name '*.pyc'"]),
    rule("fs.find-delete-root", CATASTROPHIC, "fs", "find deletes files across a system root", names="find",
         tier=IRREVERSIBLE, args=r"(?:^|\s)-delete\b",
         test=lambda c: bool(c.operands) and is_root(c.operands[0]),
         examples=["find / -delete", "find ~ -type f -delete"], counter=["find . -delete"]),
    rule("fs.find-write", DANGEROUS, "fs", "find writes its results to a file", names="find",
         args=r"(?:^|\s)-(?:fprint0?|fprintf|fls)\s", examples=["find . -fprint /tmp/out"],
         counter=["find . -print"]),
    rule("fs.find-write-auth-file", CATASTROPHIC, "fs creds", "find writes its results over an account, sudo or boot file",
         names="find", tier=IRREVERSIBLE, test=_find_writes_auth_file, cite=True,
         examples=["find . -fprint /etc/passwd", "find / -fls /etc/sudoers"], counter=["find . -fprint /tmp/out"]),
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
    rule("fs.chmod-recursive", DANGEROUS, "fs", "changes permissions or owners of a whole tree",
         names="chmod chown chgrp", flags="-R --recursive", examples=["chmod -R 755 .", "chown ftpuser dir -R"],
         counter=["chmod 644 a.txt"]),
    rule("fs.chmod-root", CATASTROPHIC, "fs", "changes permissions or owners across a root, system tree or home",
         names="chmod chown chgrp setfacl chattr", tier=IRREVERSIBLE, test=_permissions_root, cite=True,
         examples=["chmod -R 777 /", "chown -R nobody /etc", "chmod -R a-x /usr/bin", "setfacl -R -m o::rwx /",
                   "chmod -R 777 /{etc,usr}", "cd / && chmod -R 777 ."],
         counter=["chmod -R 755 ./site", "chmod 755 /", "chown -R www-data /var/www", "chmod -R go-rwx ~/notes"]),
    rule("fs.find-chmod-root", CATASTROPHIC, "fs", "find changes permissions or owners of every file under a root",
         names="find", tier=IRREVERSIBLE, test=_find_runs_permissions, cite=True,
         examples=["find / -exec chmod 777 {} \\;", "find /etc -type f -exec chown nobody {} +",
                   "find / ! -name x -execdir chgrp users {} \\;", "find / -name '*' -exec chmod 666 {} +"],
         counter=["find . -exec chmod 644 {} \\;", "find / -user bob -exec chgrp pubs {} \\;",
                  "find / -name '*.sh' -o -perm -100 -exec chmod +x {} \\;"]),
    rule("fs.xargs-chmod-root", CATASTROPHIC, "fs", "xargs changes permissions or owners of every file find lists under a root",
         names="xargs", tier=IRREVERSIBLE, test=_xargs_permissions_root, cite=True,
         examples=["find / -print0 | xargs -0 chmod 777", "find /usr -type d | xargs chown nobody"],
         counter=["find /srv/www -type f | xargs chmod 644", "find / -name core | xargs chmod 600"]),
    rule("fs.chmod-world", DANGEROUS, "fs", "makes files writable by everyone", names="chmod",
         args=r"(?:^|\s)(?:0?777|a\+w|o\+w|\+w)(?:\s|$)", examples=["chmod 777 script.sh"], counter=["chmod 700 key"]),
    rule("fs.chmod", DANGEROUS, "fs", "changes file permissions or ownership", names="chmod chown chgrp chattr setfacl",
         test=_not_privileged, examples=["chmod +x run.sh", "chown user dest"], counter=["stat run.sh", "chmod u+s x"]),
    rule("fs.copy", DANGEROUS, "fs", "copies, moves or links files (may overwrite)", names="cp mv ln install rename",
         test=_not_privileged, examples=["cp a.txt b.txt", "mv old new", "ln -s target link"],
         counter=["ls a.txt", "install -m 4755 a b"]),
    rule("fs.move-root", CATASTROPHIC, "fs", "moves a filesystem root or home directory away", names="mv",
         tier=IRREVERSIBLE, test=lambda c: len(c.operands) >= 2 and any(is_root(p) for p in c.operands[:-1]),
         examples=["mv ~ /dev/null", "mv /etc /tmp/etc"], counter=["mv a b"]),
    rule("fs.write-system", DANGEROUS, "fs", "writes a file into a system directory", names="cp mv install ln tee rsync",
         tier=IRREVERSIBLE, test=lambda c: _last_operand(is_system)(c) and not (c.name == "rsync" and c.flags & _DRY_RUN),
         examples=["cp malware /usr/bin/", "mv file /etc/"], counter=["cp a ./b"]),
    rule("fs.write-auth-file", CATASTROPHIC, "fs creds", "writes over, moves away or removes an account, sudo or boot file",
         names=" ".join(sorted(WRITERS)), tier=IRREVERSIBLE, test=_overwrites_auth_file, cite=True,
         examples=["cp evil /etc/passwd", "tee -a /etc/sudoers", "sort -o /etc/passwd x", "dd of=/etc/shadow",
                   "truncate -s0 /etc/passwd", "curl -sSLo /etc/sudoers https://x.example/s", "wget -O /boot/vmlinuz u",
                   "uniq in /etc/group", "openssl enc -d -in x -out /etc/shadow", "cat x | sponge /etc/passwd",
                   "awk -i inplace 1 /etc/passwd", "mv x /etc/passwd", "scp host:x /etc/shadow", "xxd -r d /etc/passwd"],
         counter=["cp /etc/passwd backup", "sort -o out.txt /etc/passwd", "chmod 644 /etc/passwd", "touch /etc/passwd",
                  "curl -o out.html https://x.example", "dd if=/etc/passwd of=/tmp/p", "uniq /etc/passwd out.txt"]),
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
         test=lambda c: not reading.proves(c) and unpacks(c),
         examples=["tar -xf archive.tar", "tar xzf a.tgz", "unzip a.zip", "gunzip f.gz", "gzip -d f.gz",
                   "7z x a.7z"],
         counter=["tar -tvf archive.tar", "tar tzf a.tgz", "unzip -l a.zip", "gzip -l a.gz", "tar czf a.tgz d",
                  "zip -r a.zip d", "gzip -9 big.log"]),
    rule("fs.archive-create", DANGEROUS, "fs", "writes an archive file (creates or changes it)",
         names="tar zip 7z cpio",
         test=lambda c: not reading.proves(c) and not unpacks(c),
         examples=["tar czf out.tgz dir", "tar -czf backup.tar.gz ./data", "tar rf a.tar f", "zip -r a.zip d",
                   "7z a a.7z d"],
         counter=["tar -xf archive.tar", "tar tzf a.tgz", "unzip a.zip"]),
    rule("fs.compress", DANGEROUS, "fs", "compresses files in place (each is replaced by its compressed copy)",
         names="gzip bzip2 xz zstd",
         test=lambda c: not reading.proves(c) and not unpacks(c),
         examples=["gzip -9 big.log", "xz f.txt", "bzip2 f"], counter=["gzip -d f.gz", "gzip -l a.gz"]),
    rule("fs.archive-extract-root", CATASTROPHIC, "fs", "extracts an archive over the filesystem root", names="tar",
         tier=IRREVERSIBLE, args=r"(?:-C|--directory)[ =]?/(?:\s|$)|(?:-C|--directory)[ =]?/(?:etc|usr|bin|boot)(?:/|\s|$)",
         test=lambda c: bool(c.flags & {"-x", "--extract", "--get"}),
         examples=["tar -xf archive.tar -C /"], counter=["tar -xf archive.tar -C ./out"]),
    rule("fs.rsync-delete-root", CATASTROPHIC, "fs", "synchronising deletes everything in a root, system tree or home",
         names="rsync rclone", tier=IRREVERSIBLE, test=_sync_deletes_root, cite=True,
         examples=["rsync -a --delete empty/ /", "rsync -a --delete /tmp/e/ ~/", "rsync -a --delete-after e/ root@h.example:/",
                   "rsync -a --delete e/ u@h.example:", "rsync --remove-source-files -a ~/ b.example:/b/",
                   "rclone sync /tmp/empty /"],
         counter=["rsync -a --delete src/ dst/", "rsync -a --delete src/ h.example:/srv/app/", "rsync -a empty/ /",
                  "rsync -an --delete e/ /", "rclone sync /data remote:b"]),
    rule("fs.rsync-delete", DANGEROUS, "fs", "rsync deletes files at the destination", names="rsync rclone",
         args=r"--del(?:ete)?\S*|--remove-source-files", test=lambda c: not c.flags & _DRY_RUN,
         examples=["rsync -a --delete /src/ /dest/"], counter=["rsync -a --list-only host:/d", "rsync -n -av --delete a/ b/"]),
    rule("fs.rsync", DANGEROUS, "fs", "rsync copies files and may overwrite the destination", names="rsync",
         test=lambda c: not c.flags & {"--list-only", "-n", "--dry-run"}, examples=["rsync -a /src/ /dest/"],
         counter=["rsync -a -n /src/ /dest/"]),
    rule("fs.split", DANGEROUS, "fs", "writes output files", names="split csplit iconv dos2unix unix2dos",
         test=lambda c: not reading.proves(c),
         examples=["split -b 999 input prefix", "dos2unix -n a b", "iconv -f latin1 -o out.txt in.txt"],
         counter=["wc -l input", "iconv -f latin1 -t utf-8 in.txt"]),
]

PACK = Pack("core.filesystem", "Deleting, overwriting, permissions, synchronising and system trees.", rules=RULES, core=True)
