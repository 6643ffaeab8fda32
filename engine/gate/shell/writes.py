"""Which paths a command writes: its output redirections and the files its program changes.

`cp x dir/` writes `dir/x` as well as naming `dir`, `mv` changes its sources too, `sed -i`
and `tee` change every file they are given, `dd` writes `of=`, and many programs write the
value of an output option (`sort -o`, `curl -o`, `wget -O`, `openssl -out`) or a last operand
(`uniq IN OUT`, `xxd -r IN OUT`). Paths are read from the directory the script moved to (`cd
.git && echo x >> config`). One table serves every check on what is written: tool
configuration, security logs, and the system's account and boot files.
"""

from __future__ import annotations

import posixpath

from engine.gate.shell.view import Command

MAX_OPERANDS = 16
_EVERY = frozenset("mv tee touch mkdir truncate rm rmdir unlink shred chmod chown chgrp sponge dos2unix unix2dos ed ex"
                   " patch".split())
_LAST = frozenset("cp install ln rsync scp".split())
_IN_PLACE = frozenset("sed gsed perl ruby yq".split())
_TARGET_DIRECTORY = frozenset({"-t", "--target-directory"})
# Options whose value is a file the program writes, by program (short options may carry the value attached,
# `-o/etc/x`, or end a cluster, `curl -sSLo /etc/x`).
OUTPUT_OPTIONS: dict[str, frozenset[str]] = {
    **{name: frozenset({"-o", "--output"}) for name in ("sort", "shuf", "zstd", "unzstd", "gpg", "gpg2", "iconv",
                                                         "curl", "pandoc", "strip", "uudecode", "base64")},
    **{name: frozenset({"-o"}) for name in ("gcc", "g++", "cc", "c++", "clang", "clang++", "ld", "as", "go", "rustc")},
    "wget": frozenset({"-O", "--output-document", "-o", "--output-file", "-a", "--append-output"}),
    "openssl": frozenset({"-out", "-keyout"}),
    "tar": frozenset({"-f", "--file"}),
    "find": frozenset({"-fprint", "-fprint0", "-fprintf", "-fls"}),
    "aria2c": frozenset({"-o", "--out"}),
}
# Programs that write their last operand when given two (`uniq IN OUT`, `xxd -r IN OUT`, `objcopy IN OUT`).
_SECOND_OPERAND = frozenset("uniq xxd objcopy".split())
_CLUSTERS = frozenset("curl wget sort shuf gpg gpg2 zstd tar aria2c".split())
_AWK = frozenset("awk gawk".split())
# Options naming the directory an archive is unpacked into: every file under it may be replaced.
_EXTRACT_DIRECTORY: dict[str, frozenset[str]] = {
    "tar": frozenset({"-C", "--directory"}), "bsdtar": frozenset({"-C", "--directory"}), "unzip": frozenset({"-d"}),
    "7z": frozenset({"-o"}), "7za": frozenset({"-o"}), "7zz": frozenset({"-o"}),
}
# Programs that only change a file's metadata or create it empty: they name paths, but replace no contents.
_METADATA_ONLY = frozenset("touch mkdir chmod chown chgrp".split())
OUTPUT_NAMES = frozenset(OUTPUT_OPTIONS) | _LAST | {"dd"}
"""Programs some of whose words only name where they write (`output_words`)."""
WRITERS = (_EVERY | _LAST | _IN_PLACE | _SECOND_OPERAND | _AWK | frozenset(OUTPUT_OPTIONS)
           | frozenset(_EXTRACT_DIRECTORY) | frozenset({"dd"}))


def written(cmd: Command) -> list[str]:
    """Every path `cmd` may create, change, move or remove, joined onto the script's directory."""
    name = cmd.name
    if not cmd.redirects and name not in WRITERS:
        return []
    paths = cmd.out_targets()
    paths.extend(_program_writes(cmd))
    if cmd.cwd is None:
        return paths
    return [path if path.startswith(("/", "~", "$")) else posixpath.join(cmd.cwd, path) for path in paths]


def overwritten(cmd: Command) -> list[str]:
    """The paths whose contents `cmd` replaces, appends to, moves away or removes: `written` less what
    `touch`, `mkdir`, `chmod`, `chown` and `chgrp` only name."""
    if cmd.name not in _METADATA_ONLY:
        return written(cmd)
    targets = cmd.out_targets()
    if cmd.cwd is None:
        return targets
    return [path if path.startswith(("/", "~", "$")) else posixpath.join(cmd.cwd, path) for path in targets]


def _program_writes(cmd: Command) -> list[str]:
    """The files the program itself writes (not its redirections), as written."""
    name = cmd.name
    operands = list(cmd.operands[:MAX_OPERANDS])
    paths: list[str] = []
    if name in _EVERY and not (name in ("dos2unix", "unix2dos") and cmd.flags & {"-n", "--newfile"}):
        paths.extend(operands)
    if (name in _LAST or name == "mv") and cmd.flags & _TARGET_DIRECTORY:
        targets = option_values(cmd.args, _TARGET_DIRECTORY)
        paths.extend(targets)
        paths.extend(posixpath.join(target, posixpath.basename(source.rstrip("/")) if source != target else "*")
                     for target in targets for source in operands or [target])
    elif (name in _LAST or name == "mv") and len(operands) >= 2:
        paths.append(operands[-1])
        paths.extend(posixpath.join(operands[-1], posixpath.basename(source.rstrip("/"))) for source in operands[:-1])
    elif name in _IN_PLACE and any(flag.startswith(("-i", "--in-place")) for flag in cmd.flags):
        paths.extend(operands)
    elif name == "dd":
        paths.extend(arg[3:] for arg in cmd.args if arg.startswith("of="))
    elif name in _AWK and _awk_in_place(cmd.args):
        paths.extend(operand for operand in operands if operand != "inplace")
    elif name in _SECOND_OPERAND and len(operands) >= 2:
        paths.append(operands[-1])
    elif name in ("dos2unix", "unix2dos") and len(operands) >= 2:
        paths.extend(operands[1::2])
    if name in OUTPUT_OPTIONS and (name != "tar" or _tar_creates(cmd)):
        paths.extend(option_values(cmd.args, OUTPUT_OPTIONS[name], name in _CLUSTERS))
    if name in _EXTRACT_DIRECTORY and not (name == "tar" and _tar_creates(cmd)):
        paths.extend(value.rstrip("/") + "/*" for value in option_values(cmd.args, _EXTRACT_DIRECTORY[name]))
    if name == "tar" and cmd.args and not cmd.args[0].startswith("-") and "f" in cmd.args[0] and len(cmd.args) > 1 \
            and _tar_creates(cmd):
        paths.append(cmd.args[1])
    return paths


def option_values(args: tuple[str, ...], options: frozenset[str], clusters: bool = False) -> list[str]:
    """The values `options` take among `args`: `-o x`, `--output x`, `--output=x`, `-ox`, and (`clusters`)
    the next word after a cluster ending in one (`-sSLo x`)."""
    values: list[str] = []
    for index, arg in enumerate(args):
        if not arg.startswith("-") or arg == "-":
            continue
        following = args[index + 1] if index + 1 < len(args) else None
        head, equals, value = arg.partition("=")
        if head in options:
            if equals:
                values.append(value)
            elif following is not None:
                values.append(following)
        elif arg[:2] in options and not arg.startswith("--") and len(arg) > 2 and not clusters:
            values.append(arg[2:])
        elif clusters and not arg.startswith("--") and len(arg) > 2:
            for at in range(1, len(arg)):
                if "-" + arg[at] in options:
                    rest = arg[at + 1:]
                    if rest or following is not None:
                        values.append(rest or following or "")
                    break
    return values


def _awk_in_place(args: tuple[str, ...]) -> bool:
    """gawk's in-place extension: `-i inplace`, `-iinplace` or `--include=inplace`."""
    return any(arg in ("-iinplace", "--include=inplace") or (arg in ("-i", "--include") and following == "inplace")
               for arg, following in zip(args, (*args[1:], "")))


def _tar_creates(cmd: Command) -> bool:
    """tar writes its `-f` archive when it creates, appends or updates one."""
    if cmd.flags & {"-c", "--create", "-r", "--append", "-u", "--update"}:
        return True
    first = cmd.args[0] if cmd.args else ""
    return not first.startswith("-") and any(letter in first for letter in "cru") and first.isalpha()


def output_words(cmd: Command) -> frozenset[str]:
    """Words of `cmd` that only name where it writes (an output option and its value, `of=`, a copy's
    destination): a secret named there is overwritten, not read."""
    words: set[str] = set()
    options = OUTPUT_OPTIONS.get(cmd.name)
    if options:
        values = option_values(cmd.args, options, cmd.name in _CLUSTERS)
        words.update(values)
        words.update(arg for arg in cmd.args if arg.partition("=")[0] in options and "=" in arg)
    if cmd.name == "dd":
        words.update(arg for arg in cmd.args if arg.startswith("of="))
    if cmd.name in _LAST and len(cmd.operands) >= 2 and not cmd.flags & _TARGET_DIRECTORY:
        words.add(cmd.operands[-1])
    return frozenset(words)
