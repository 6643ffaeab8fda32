"""Readers: coreutils, text tools, pagers, archives listed, and `find`, proven read-only option by option.

Each table lists the options of the program's own `--help` that only read. Left out on
purpose: options that write a file (`sort -o`, `shuf -o`, `iconv -o`, `tree -o`, `file -C`,
`less -o/-O`, `date -s`), run a program or load one (`rg --pre`, `sdiff --diff-program`,
`tar --to-command`, `nm --plugin`, `man -P/-H`, awk's `-l`/`-E`), take instructions
from a file the agent could have written (`sed -f`, `awk -f`, `less -k`, `man -C`), or
hand over a list of paths to print that the secret checks cannot see (`sort
--files0-from`). sed scripts and awk programs are read by `engine.gate.scripts`. A variable
in front of the command that carries options (`LESS`, `LESSKEY*`, `MANOPT`, `MANROFFOPT`,
`GROFF*`, `RIPGREP_CONFIG_PATH`, whose file may say `--pre`) is refused here; one that names
a program (`PAGER`, `MANPAGER`, `LESSOPEN`) is judged by the environment rules.

The newer readers leave out: `fd -x/-X` (they run a program); `bat --pager`, `--paging=always`,
`--lessopen`, `--config-file/--config-dir`, `bat cache` and any `BAT_*` variable; `lsd
--config-file`; `xmllint --output`, `--shell` (it can save files), `--noent`, `--xinclude`,
`--loaddtd`, `--valid`, `--dtdvalid`, `--schema`, `--relaxng`, `--catalogs` (they pull other files
or the network into the output) and URL operands; gron's URLs and `--insecure`; `cloc --out`,
`--report-file`, `--sql`, `--vcs`, `--extract-with` (a command), `--config`, `--read-lang-def`;
`scc -o`, `--format-multi`; `units -f`, `--log` and interactive use (its `help` starts a pager);
`BC_ENV_ARGS`; `getent hosts` and its kind (DNS lookups) and `shadow`; `ulimit` with a value;
`alias NAME=…`; `printenv` without a name or of a name not in `paths.PLAIN_VARIABLES` (any other
may hold a token); compilers and `java` given anything but a version flag, and `JAVA_TOOL_OPTIONS`
(it loads agents). Not proven at all: `xmlstarlet` and `mlr` (their languages read files and run
commands), `htop` (it kills, renices and traces processes from its keys), `ldd` (it runs the
program's loader, and an ELF file can name its own), `mapfile -C` and `compgen -C/-F` (callbacks).
Linters and formatters only check: never `black`, `isort`,
`gofmt`, `clang-format`, `rustfmt` or `shfmt` without `--check`, `--diff`, `-l`, `-d` or
`--dry-run`, never `ruff --fix`/`--add-noqa`/`-o`, `gofmt -w`/`-cpuprofile`, `rustfmt --emit`.
Archives are listed, tested or written to standard output only (`gunzip -c`, `7z l|t|h`, `unrar l|t`,
`zstd -dc`; never `-o`, `x`, `e`).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from engine.gate.packs.model import Pack, Proof
from engine.gate.paths import PLAIN_VARIABLES
from engine.gate.proof import Options, Reading, anything, at_most, options, unless_env
from engine.gate.scripts import awk_program, sed_script
from engine.gate.shell.view import Command

_GNU = " --help --version"

_GREP_FLAGS = ("-EFGPiywxzsvVbnHhoqaIrRLlcTZU --extended-regexp --fixed-strings --basic-regexp --perl-regexp"
               " --ignore-case --no-ignore-case --word-regexp --line-regexp --null-data --no-messages --invert-match"
               " --byte-offset --line-number --line-buffered --with-filename --no-filename --only-matching --quiet"
               " --silent --text --recursive --dereference-recursive --files-without-match --files-with-matches"
               " --count --initial-tab --null --no-group-separator --binary" + _GNU)
_GREP_VALUED = ("-efmdDABC --regexp --file --max-count --label --binary-files --directories --devices --include"
                " --exclude --exclude-from --exclude-dir --before-context --after-context --context --group-separator")
GREP = options(_GREP_FLAGS, _GREP_VALUED, "--color --colour", numeric=True)

RG = options(
    "-abcFHhIiLlnNopPqsSuUvVwxz0 --binary --block-buffered --byte-offset --case-sensitive --column --count"
    " --count-matches --crlf --debug --files --files-with-matches --files-without-match --fixed-strings --follow"
    " --glob-case-insensitive --heading --no-heading --hidden --ignore-case --ignore-file-case-insensitive"
    " --include-zero --invert-match --json --line-buffered --line-number --no-line-number --line-regexp --mmap"
    " --multiline --multiline-dotall --no-config --no-filename --no-ignore --no-ignore-dot --no-ignore-exclude"
    " --no-ignore-files --no-ignore-global --no-ignore-messages --no-ignore-parent --no-ignore-vcs --no-messages"
    " --no-mmap --no-pcre2-unicode --no-require-git --no-unicode --null --null-data --one-file-system"
    " --only-matching --passthru --passthrough --pcre2 --pcre2-version --pretty --quiet --search-zip"
    " --smart-case --sort-files --stats --text --trim --type-list --unrestricted --vimgrep --with-filename"
    " --word-regexp --files-with-matches --no-column --no-byte-offset --no-crlf --no-follow --no-hidden"
    " --no-invert-match --no-multiline --no-multiline-dotall --no-one-file-system --no-pcre2 --no-search-zip"
    " --no-stats --no-text --no-trim --no-binary --no-block-buffered --no-line-buffered --no-auto-hybrid-regex"
    " --auto-hybrid-regex --no-context-separator --no-encoding --no-max-columns-preview --max-columns-preview"
    " --no-ignore-case --ignore-case --generate --no-include-zero --no-sort-files --no-json --no-heading"
    " --no-fixed-strings --no-unrestricted --help --version",
    "-ABCEefgMmrtTj --after-context --before-context --context --context-separator --encoding --regexp --file"
    " --glob --iglob --ignore-file --max-columns --max-count --max-depth --max-filesize --path-separator"
    " --replace --sort --sortr --threads --type --type-not --type-add --type-clear --dfa-size-limit"
    " --regex-size-limit --engine --field-context-separator --field-match-separator --colors --hyperlink-format",
    "--color",
    numeric=True,
)

AG = options(
    "-acDfFhHilLnoQrsSUtuvwz0 --all-types --all-text --ackmate --break --nobreak --case-sensitive --color"
    " --nocolor --column --nocolumn --count --debug --follow --nofollow --fixed-strings --filename --nofilename"
    " --files-with-matches --files-without-matches --group --nogroup --heading --noheading --hidden"
    " --ignore-case --invert-match --line-numbers --literal --no-numbers --numbers --null --print0 --one-device"
    " --only-matching --print-all-files --print-long-lines --recurse --no-recurse --search-binary --search-zip"
    " --silent --skip-vcs-ignores --smart-case --stats --stats-only --unrestricted --vimgrep --word-regexp"
    " --list-file-types --help --version",
    "-ABCGgmpW --after --before --context --color-line-number --color-match --color-path --depth --file-search-regex"
    " --ignore --ignore-dir --max-count --path-to-ignore --width --workers",
    numeric=True,
)

SORT = options(
    "-bdfgiMhnRrVmsucCz --ignore-leading-blanks --dictionary-order --ignore-case --general-numeric-sort"
    " --ignore-nonprinting --month-sort --human-numeric-sort --numeric-sort --random-sort --reverse --version-sort"
    " --debug --merge --stable --unique --zero-terminated" + _GNU,
    "-kStT --key --buffer-size --field-separator --temporary-directory --random-source --sort --batch-size --parallel",
    "--check",
    numeric=True,
)


def _sed(reading: Reading) -> str | None:
    scripts = reading.values("-e", "--expression")
    if scripts:
        return sed_script("\n".join(scripts))
    if not reading.operands:
        return "sed: no script"
    return sed_script(reading.operands[0])


def _awk(reading: Reading) -> str | None:
    programs = reading.values("-e", "--source")
    if programs:
        return awk_program("\n".join(programs))
    if not reading.operands:
        return "awk: no program"
    return awk_program(reading.operands[0])


SED = options("-nEsuzr --quiet --silent --debug --follow-symlinks --posix --regexp-extended --separate --sandbox"
              " --unbuffered --null-data" + _GNU, "-el --expression --line-length", check=_sed)
AWK = options("-bcCghMNnOPrsStV --characters-as-bytes --traditional --copyright --gen-pot --bignum"
              " --use-lc-numeric --non-decimal-data --optimize --posix --re-interval --no-optimize --sandbox"
              " --lint-old" + _GNU, "-Fve --field-separator --assign --source", "-L --lint", check=_awk)

_JQ_FLAGS = ("-ncrjasCMSeRh --null-input --compact-output --raw-output --join-output --ascii-output --slurp"
             " --color-output --monochrome-output --sort-keys --exit-status --raw-input --tab --seq --stream"
             " --stream-errors --args --jsonargs --unbuffered --raw-output0 --build-configuration" + _GNU)
_JQ_VALUED = "-fL --indent --arg --argjson --slurpfile --rawfile --from-file"
JQ = options(_JQ_FLAGS, _JQ_VALUED)
YQ = options("-ncrjaCMSeRhyYPN0 --null-input --compact-output --raw-output --join-output --ascii-output --slurp"
             " --color-output --monochrome-output --sort-keys --exit-status --raw-input --tab --seq --stream"
             " --args --jsonargs --unbuffered" + _GNU + " --yaml-output --yml-output --yaml-roundtrip --yml-roundtrip"
             " --indentless-lists --indentless --prettyPrint --no-colors --no-doc --unwrapScalar --null-input"
             " --exit-status --xml-output --toml-output",
             _JQ_VALUED + " -wIop --width --yaml-output-grammar-version --yml-out-ver --indent --output-format"
             " --input-format")


def _tar(cmd: Command) -> str | None:
    args = list(cmd.args)
    if args and not args[0].startswith("-"):
        args[0] = "-" + args[0]
    return TAR.prove(args, "tar")


TAR = options(
    "-tvzjJZaOkmpsBiPhlSnwG --list --verbose --gzip --gunzip --ungzip --bzip2 --xz --lzip --lzma --lzop --zstd"
    " --auto-compress --compress --uncompress --no-auto-compress --to-stdout --ignore-zeros --ignore-case"
    " --anchored --no-anchored --wildcards --no-wildcards --wildcards-match-slash --no-wildcards-match-slash"
    " --numeric-owner --full-time --utc --block-number --show-defaults --show-omitted-dirs --show-stored-names"
    " --show-transformed-names --absolute-names --dereference --null --no-null --unquote --no-unquote"
    " --recursion --no-recursion --read-full-records --force-local --one-file-system --exclude-vcs"
    " --exclude-backups --exclude-caches --exclude-vcs-ignores --no-seek --seek --sparse --acls --no-acls"
    " --xattrs --no-xattrs --selinux --no-selinux --check-links --verbatim-files-from --no-verbatim-files-from"
    " --posix --old-archive --portability --restrict" + _GNU,
    "-fbCTXKNLH --file --blocking-factor --record-size --directory --files-from --exclude-from --exclude"
    " --starting-file --newer --after-date --newer-mtime --strip-components --transform --xform --format"
    " --quoting-style --quote-chars --no-quote-chars --warning --sort --tape-length --label"
    " --exclude-tag --exclude-tag-all --exclude-tag-under --exclude-ignore --exclude-ignore-recursive"
    " --pax-option --xattrs-include --xattrs-exclude --owner-map --group-map --hole-detection",
    "--occurrence",
    requires="-t --list",
    check=lambda reading: _remote_archive(reading),
)


def _remote_archive(reading: Reading) -> str | None:
    """`tar -f host:file` runs rsh or ssh to reach the archive (unless `--force-local`)."""
    for value in reading.values("-f", "--file"):
        if ":" in value.split("/", 1)[0] and not reading.used("--force-local"):
            return f"tar: {value} names an archive on another host"
    return None

UNZIP = options("-lvtzZ1234sTMhqQpcCaLbn", "-xdP", requires="-l -v -t -z -Z -p -c")

_FIND_FLAGS = frozenset(
    "-daystart -follow -nowarn -warn -depth -mount -noleaf -xdev -ignore_readdir_race -noignore_readdir_race"
    " -empty -false -true -nouser -nogroup -readable -writable -executable -print -print0 -ls -prune -quit"
    " -not -and -or -a -o -help --help -version --version".split()
)
_FIND_VALUED = frozenset(
    "-regextype -files0-from -maxdepth -mindepth -amin -anewer -atime -cmin -cnewer -context -ctime -fstype -gid"
    " -group -ilname -iname -inum -iwholename -iregex -links -lname -mmin -mtime -name -newer -path -ipath -perm"
    " -regex -wholename -size -type -uid -used -user -xtype -printf -samefile".split()
    + [f"-newer{x}{y}" for x in "aBcmt" for y in "aBcmt" if x != "t"]
)
_FIND_OPERATORS = frozenset({"(", ")", "!", ",", "\\(", "\\)", "\\!"})


def find(cmd: Command) -> str | None:
    """`find`'s expression, read primary by primary: roots first, then tests, operators and
    printing actions only (`-exec` and its kind were taken out and analysed by the caller)."""
    args = cmd.args
    i, n = 0, len(args)
    while i < n and (args[i] in ("-H", "-L", "-P") or args[i].startswith("-O") and args[i][2:].isdigit()
                     or args[i] == "-D"):
        i += 2 if args[i] == "-D" else 1
    while i < n and not (args[i].startswith("-") and len(args[i]) > 1 or args[i] in _FIND_OPERATORS):
        i += 1
    while i < n:
        word = args[i]
        if word in _FIND_FLAGS or word in _FIND_OPERATORS:
            i += 1
        elif word in _FIND_VALUED:
            i += 2
        elif word.startswith("-"):
            return f"find: {word} is not known to be read-only"
        else:
            return f"find: {word!r} stands where find expects a test or an action"
    return None


_DIFF = options(
    "-qscuenyptTlrNiEZbwBadv --normal --brief --report-identical-files --ed --rcs --side-by-side --left-column"
    " --suppress-common-lines --show-c-function --expand-tabs --initial-tab --suppress-blank-empty --paginate"
    " --recursive --no-dereference --new-file --unidirectional-new-file --ignore-file-name-case"
    " --no-ignore-file-name-case --ignore-case --ignore-tab-expansion --ignore-trailing-space"
    " --ignore-space-change --ignore-all-space --ignore-blank-lines --text --strip-trailing-cr --minimal"
    " --speed-large-files" + _GNU,
    "-CUWFxXSIDL --width --show-function-line --label --tabsize --exclude --exclude-from --starting-file"
    " --from-file --to-file --ignore-matching-lines --ifdef --old-group-format --new-group-format"
    " --unchanged-group-format --changed-group-format --line-format --old-line-format --new-line-format"
    " --unchanged-line-format --horizon-lines --palette",
    "--context --unified --color",
    numeric=True,
)


def _less_operands(operands: list[str]) -> str | None:
    for word in operands:
        if word.startswith("+") and not (word[1:].isdigit() or word[1:] in ("", "G", "g", "F")
                                         or word[1:2] in "/?" and "!" not in word):
            return f"less: the initial command {word} may run a program"
    return None


LESS = unless_env(options(
    "-?aABcCdeEfFgGiIJKLmMnNqQrRsSuUVwWX~ --help --search-skip-screen --SEARCH-SKIP-SCREEN --auto-buffers"
    " --clear-screen --dumb --quit-at-eof --QUIT-AT-EOF --force --quit-if-one-screen --hilite-search"
    " --HILITE-SEARCH --ignore-case --IGNORE-CASE --status-column --quit-on-intr --no-lessopen --long-prompt"
    " --LONG-PROMPT --line-numbers --LINE-NUMBERS --quiet --QUIET --silent --SILENT --raw-control-chars"
    " --RAW-CONTROL-CHARS --squeeze-blank-lines --chop-long-lines --underline-special --UNDERLINE-SPECIAL"
    " --version --hilite-unread --HILITE-UNREAD --no-init --tilde --file-size --follow-name --incsearch --mouse"
    " --MOUSE --no-keypad --no-histdups --use-backslash --use-color",
    "-bDhjpxyz# --buffers --color --max-back-scroll --jump-target --pattern --tabs --max-forw-scroll --window"
    " --shift --line-num-width --rscroll --status-col-width --wheel-lines",
    operands=_less_operands), "LESS", "LESSKEY*")
MORE = options("-dflcpesuhV --silent --logical --no-pause --print-over --clean-print --exit-on-eof --squeeze"
               " --plain" + _GNU, "-n --lines", numeric=True,
               operands=lambda words: next((f"more: the initial command {w} is not known to be read-only"
                                            for w in words if w.startswith("+") and not w[1:].isdigit()
                                            and not w.startswith("+/")), None))
MAN = unless_env(options(
    "-dDfkKwWaiIV7? --debug --default --whatis --apropos --global-apropos --where --path --location"
    " --where-cat --location-cat --ignore-case --match-case --regex --wildcard --names-only --all --no-subpages"
    " --ascii --no-hyphenation --nh --no-justification --nj --help --usage --version",
    "-LmMSseEp --locale --systems --manpath --sections --extension --encoding --preprocessor",
    "--warnings"), "MANOPT", "MANROFFOPT", "MANROFFSEQ", "GROFF*")
_WHATIS = options("-dvrwl?V --debug --verbose --regex --wildcard --long --help --usage --version -ea --exact --and",
                  "-LmMs --locale --systems --manpath --sections --section")

_CHECKSUM = options("-bctzw --binary --check --tag --text --zero --ignore-missing --quiet --status --strict --warn"
                    " --untagged --debug --base64 --raw" + _GNU, "-al --algorithm --length")
_ZCAT = options("-fhlLqrtvV --force --list --quiet --recursive --synchronous --test --verbose --license" + _GNU,
                "-S --suffix")
_BZCAT = options("-hdzkftcqvLVs19 --help --decompress --compress --keep --force --test --stdout --quiet --verbose"
                 " --license --version --small --fast --best")
_XZCAT = options("-zdtlkfc0123456789eqvhHV --compress --decompress --test --list --keep --force --stdout --extreme"
                 " --quiet --verbose --help --long-help --version --robot --no-sparse --ignore-check --single-stream"
                 " --no-adjust", "-TMF --threads --memlimit --memlimit-decompress --format")
_COMPRESSOR = {
    "gzip": options("-cdfhklLnNqrtvV123456789 --stdout --to-stdout --decompress --uncompress --force --keep --list"
                    " --license --no-name --name --quiet --recursive --rsyncable --synchronous --test --verbose"
                    " --fast --best" + _GNU, "-S --suffix", requires="-c --stdout --to-stdout -l --list -t --test"),
    "bzip2": options("-hdzkftcqvLVs123456789 --help --decompress --compress --keep --force --test"
                     " --stdout --quiet --verbose --license --version --small --fast --best",
                     requires="-c --stdout -t --test"),
    "xz": options("-zdtlkfc0123456789eqvhHV --compress --decompress --test --list --keep --force --stdout --extreme"
                  " --quiet --verbose --help --long-help --version --robot", "-TMF --threads --memlimit --format",
                  requires="-c --stdout -l --list -t --test"),
}

_7Z_SWITCHES = ("-slt", "-ba", "-r", "-t", "-p", "-x!", "-i!", "-bb", "-bd", "-bs", "-scs", "-scc", "-sccUTF-8", "-sns",
                "-snh", "-snl", "-scrc", "-y")
_7Z_READS = frozenset({"l", "t", "h"})


def _7z(cmd: Command) -> str | None:
    """`7z l|t|h ARCHIVE`: list, test or hash; switches only from `_7Z_SWITCHES` (never `-o`, `-i@`, `-x@`, `-sdel`)."""
    commands = [word for word in cmd.args if not word.startswith("-")]
    if not commands or commands[0].lower() not in _7Z_READS:
        return f"{cmd.name}: only l, t and h are known to be read-only"
    for word in cmd.args:
        if word.startswith("-") and not (word in _7Z_SWITCHES or word.startswith(("-t", "-p", "-x!", "-i!", "-bb",
                                                                                     "-bs", "-scc", "-scs", "-scrc"))):
            return f"{cmd.name}: switch {word} is not known to be read-only"
    return None


_UNRAR = options("-idq -idc -idd -idp -idn -inul -p- -y -c- -cfg-", "", "-p", single=True,
                 subcommands={verb: options("-idq -idc -idd -idp -idn -inul -p- -y -c- -cfg- -v", "", "-p", single=True)
                              for verb in ("l", "lt", "lta", "lb", "v", "vt", "vta", "vb", "t")})
_ZSTD = options("-dcltqvfhV --decompress --stdout --list --test --quiet --verbose --force --help --version --no-progress"
                " --no-check", "-M --memory", requires="-c --stdout -l --list -t --test")


def _no_response_files(operands: list[str]) -> str | None:
    """binutils read more options from `@file`: a file the agent could have written."""
    for word in operands:
        if word.startswith("@"):
            return f"{word}: options read from a file"
    return None


def _date_operands(operands: list[str]) -> str | None:
    for word in operands:
        if not word.startswith("+"):
            return f"date: {word} would set the clock"
    return None


def _xxd(cmd: Command) -> str | None:
    operands = 0
    args = cmd.args
    i = 0
    while i < len(args):
        word = args[i]
        if word == "--":
            operands += len(args) - i - 1
            break
        if word.startswith("-") and len(word) > 1:
            name = word.split("=")[0]
            if name in _XXD_VALUED:
                i += 1
            elif name not in _XXD_FLAGS and not any(word.startswith(v) and word[len(v):].lstrip("+-")[:1].isdigit()
                                                    for v in ("-c", "-g", "-l", "-o", "-s")):
                return f"xxd: option {word} is not known to be read-only"
        else:
            operands += 1
        i += 1
    return "xxd: a second file operand is written" if operands > 1 else None


_XXD_FLAGS = frozenset("-a -autoskip -b -bits -C -capitalize -e -E -EBCDIC -h -help -i -include -p -ps -postscript"
                       " -plain -r -revert -u -uppercase -v -version -d".split())
_XXD_VALUED = frozenset("-c -cols -g -groupsize -l -len -o -offset -s -seek -n -name -R".split())

def _kill(cmd: Command) -> str | None:
    """`kill -l` lists signals; `kill -0 PID` sends none (it asks whether the process exists), but not to `-1`."""
    if cmd.args[:1] == ("-0",) and len(cmd.args) > 1 and all(word.isdigit() for word in cmd.args[1:]):
        return None
    return _KILL(cmd)


_SET_LETTERS = frozenset("euxvfCnbmPT")
_SET_NAMES = frozenset("errexit nounset xtrace verbose pipefail noglob noclobber noexec notify monitor physical"
                       " errtrace functrace".split())


def _shell_options(cmd: Command) -> str | None:
    """`set -o`/`set +o` print the options, and `set -euo pipefail`, `set -x`, `set +e` only change how the script
    fails and traces; `set -k` (assignments among the arguments become environment), `-H` (history expansion),
    `-a`, `-o history`, `-o posix` and `set -- …` (new positional words) are not proven. `shopt` prints the
    options unless told to set (`-s`) or unset (`-u`) one."""
    if cmd.name != "set":
        return _SHOPT(cmd)
    args = cmd.args
    if args in (("-o",), ("+o",)):
        return None
    i = 0
    while i < len(args):
        word = args[i]
        if word[:1] not in "-+" or len(word) < 2:
            return f"set: {word} sets the positional words"
        letters = word[1:]
        if letters.endswith("o"):
            name = args[i + 1] if i + 1 < len(args) else ""
            if name not in _SET_NAMES:
                return f"set: option {name or 'o'} is not known to be harmless"
            letters, i = letters[:-1], i + 1
        if any(letter not in _SET_LETTERS for letter in letters):
            return f"set: {word} is not known to be harmless"
        i += 1
    return None


_SHOPT = options("-p -q -o")
_KILL = options("-lL --list --table", requires="-l -L --list --table")
_COMMAND = options("-vVp", requires="-v -V", operands=at_most(1))
_HOSTNAME_READ = options("-aAdfiIsyV --alias --all-fqdns --domain --fqdn --long --ip-address --all-ip-addresses"
                         " --short --yp --nis" + _GNU, operands=at_most(0))

_LS = options(
    "-aAbBcCdDfFgGhHiklLmnNoqQrRsStuUvxXZ1p --all --almost-all --author --escape --ignore-backups --directory"
    " --dired --file-type --full-time --group-directories-first --no-group --human-readable --si"
    " --dereference-command-line --dereference-command-line-symlink-to-dir --inode --kibibytes --dereference"
    " --numeric-uid-gid --literal --hide-control-chars --show-control-chars --quote-name --reverse --recursive"
    " --size --context --zero" + _GNU,
    "-ITw --block-size --format --hide --indicator-style --ignore --quoting-style --sort --time --time-style"
    " --tabsize --width", "--color --colour --classify --hyperlink")

def _no_urls(program: str) -> "Callable[[list[str]], str | None]":
    """Operands that are files, not URLs (`xmllint http://…` and `gron https://…` fetch them)."""

    def check(operands: list[str]) -> str | None:
        for word in operands:
            if "://" in word or word.lower().startswith(("http:", "https:", "ftp:")):
                return f"{program}: {word} is fetched from the network"
        return None

    return check


def _bat(reading: Reading) -> str | None:
    """`bat cache …` builds or clears its cache; `--paging=always` starts a pager (`auto` does only on a terminal)."""
    if reading.operands[:1] == ("cache",):
        return "bat cache: writes bat's cache"
    if any(value.lower() == "always" for value in reading.values("--paging")):
        return "bat --paging=always starts a pager"
    return None


_BAT = unless_env(options(
    "-ApnPfudSsLhV --show-all --plain --number --force-colorization --unbuffered --diff --list-languages --list-themes"
    " --chop-long-lines --squeeze-blank --no-config --no-custom-assets --help --version",
    "-lHrm --language --highlight-line --line-range --style --theme --theme-light --theme-dark --color --decorations"
    " --italic-text --tabs --terminal-width --wrap --map-syntax --file-name --diff-context --nonprintable-notation"
    " --binary --squeeze-limit --strip-ansi", "--paging", check=_bat), "BAT_*")

_EZA = options(
    "-1lGxRTFaAdDfrBbhHign@muUSZMoX? --oneline --long --grid --across --recurse --tree --all --almost-all --list-dirs"
    " --only-dirs --only-files --reverse --binary --bytes --header --links --inode --group --numeric --extended"
    " --modified --accessed --created --changed --blocksize --context --mounts --octal-permissions --no-permissions"
    " --no-filesize --no-user --no-time --no-icons --git --no-git --git-repos --git-repos-no-status --git-ignore"
    " --group-directories-first --group-directories-last --dereference --smart-group --total-size --no-quotes"
    " --help --version -v -V",
    "-LsItw --level --sort --ignore-glob --time --time-style --width --color-scale-mode --colour-scale-mode",
    "--color --colour --color-scale --colour-scale --icons --classify --absolute --hyperlink")
_LSD = options(
    "-aAFl1RdtSXvrhiLZNV --all --almost-all --classify --long --oneline --recursive --human-readable --tree"
    " --directory-only --timesort --sizesort --extensionsort --versionsort --reverse --inode --dereference --context"
    " --header --classic --no-symlink --ignore-config --total-size --literal --group-directories-first --help"
    " --version",
    "-I --depth --blocks --date --icon --icon-theme --color --size --permission --sort --group-dirs --hyperlink"
    " --ignore-glob --truncate-owner-after --truncate-owner-marker")
_FD = options(
    "-HIusiFgpLa0lqh1V --hidden --no-hidden --no-ignore --ignore --no-ignore-vcs --ignore-vcs --no-require-git"
    " --require-git --no-ignore-parent --no-global-ignore-file --unrestricted --case-sensitive --ignore-case"
    " --fixed-strings --glob --regex --full-path --follow --no-follow --absolute-path --relative-path --print0"
    " --list-details --quiet --show-errors --strip-cwd-prefix --one-file-system --prune --and --help --version",
    "-dEteSocj --max-depth --min-depth --exact-depth --exclude --type --extension --size --changed-within"
    " --changed-before --change-newer-than --change-older-than --newer --older --owner --color --threads"
    " --max-results --search-path --base-directory --path-separator --format --ignore-file --max-buffer-time",
    "--strip-cwd-prefix --hyperlink")
_XMLLINT = unless_env(options(
    "--noout --format --nonet --recover --noblanks --nocdata --nsclean --nocompact --c14n --c14n11 --exc-c14n"
    " --timing --version --debug --huge --nowarning --quiet --stream --walker --html --xmlout --nodict --dropdtd"
    " --nodefdtd --oldxml10 --sax --sax1 --noenc --nofixup-base-uris",
    "--xpath --encode --pretty --maxmem --repeat --pattern", operands=_no_urls("xmllint")),
    "XML_CATALOG_FILES", "SGML_CATALOG_FILES", "XMLLINT_*")
_GRON = options("-ucmsjvh --ungron --colorize --monochrome --stream --json --values --no-sort --version --help",
                operands=_no_urls("gron"))
_TOKEI = options("-CflVhv --compact --files --hidden --languages --no-ignore --no-ignore-dot --no-ignore-parent"
                 " --no-ignore-vcs --verbose --version --help",
                 "-ceiostnr --columns --exclude --input --output --sort --type --num-format --rsort")
_PLAIN_PATH = re.compile(r"[\w./@+,=-]{1,512}")
_ARCHIVES = (".tar", ".tgz", ".gz", ".bz2", ".xz", ".zip", ".7z", ".rar", ".whl", ".jar", ".war", ".ear", ".deb", ".rpm",
             ".ipynb", ".zst", ".lz", ".tbz", ".txz", ".z", ".lzma", ".cab", ".msi", ".dmg", ".iso")


def _cloc_operands(operands: list[str]) -> str | None:
    """cloc opens archives by building a shell command from their names (`gzip -dc 'NAME' | tar …`): only plain
    names, and no archives."""
    for word in operands:
        if _PLAIN_PATH.fullmatch(word) is None or word.lower().endswith(_ARCHIVES):
            return f"cloc: {word} is an archive or a name it would quote into a shell command"
    return None


_CLOC = options(
    "--by-file --by-file-by-lang --quiet --fullpath --hide-rate --json --yaml --csv --md --xml --no3 --skip-uniqueness"
    " --follow-links --diff --git --by-percent --skip-archive --show-lang --show-ext --show-os --unicode --v --version"
    " --help --include-content --exclude-content --docstring-as-code --no-autogen --ignore-whitespace"
    " --ignore-case --strip-str-comments --autoconf --3",
    "--exclude-dir --exclude-ext --include-ext --include-lang --exclude-lang --not-match-f --match-f --not-match-d"
    " --match-d --timeout --csv-delimiter --diff-timeout --lang-no-ext --max-file-size --progress-rate"
    " --exclude-list-file", operands=_cloc_operands)
_SCC = options(
    "-acdhivwz --no-cocomo --no-complexity --no-gitignore --no-ignore --no-large --no-gen --no-size --no-min-gen"
    " --wide --ci --by-file --debug --trace --verbose --version --help --duplicates --min --gen --no-hborder"
    " --no-gitmodule --uloc --dryness --sql-project --cocomo-project-type --percent --count-as",
    "-fsixM --format --sort --include-ext --exclude-ext --exclude-dir --not-match --large-line-count"
    " --large-byte-count --min-gen-line-length --avg-wage --overhead --eaf --size-unit --remap-unknown --remap-all"
    " --count-as --cocomo-project-type --currency-symbol --format-multi-output")


def _units(reading: Reading) -> str | None:
    return None if reading.operands or reading.used("-V", "--version", "-h", "--help") else \
        "units: without an expression it is interactive (its help runs a pager)"


_UNITS = options("-tvs1qcVhe --terse --verbose --strict --one-line --quiet --check --check-verbose --version --help"
                 " --exponential --round --compact --conformable --info",
                 "-dou --digits --output-format --units --locale", check=_units)
_BC = unless_env(options("-hilqswvVPR --help --interactive --mathlib --quiet --standard --warn --version --no-prompt"
                         " --no-read-prompt", "-ef --expression --file"), "BC_ENV_ARGS")
_GETENT_DATABASES = frozenset("passwd group services protocols rpc ethers aliases netgroup initgroups shells".split())


def _getent(operands: list[str]) -> str | None:
    """Account and service databases; `hosts` and its kind look names up over DNS, `shadow` holds password hashes."""
    if not operands or operands[0] not in _GETENT_DATABASES:
        return f"getent: {operands[0] if operands else 'no database'} is not a database known to be read-only"
    return None


_PLAIN_NAMES = "names that never hold secrets"


def _printenv(operands: list[str]) -> str | None:
    if not operands:
        return "printenv: prints every variable, tokens included"
    for name in operands:
        if name not in PLAIN_VARIABLES:
            return f"printenv: {name} is not among the {_PLAIN_NAMES}"
    return None


def _alias(operands: list[str]) -> str | None:
    return next((f"alias: {word} defines an alias" for word in operands if "=" in word), None)


_LOCATE = options("-AbceiLPq0SwV --all --basename --count --existing --follow --ignore-case --nofollow --null"
                  " --statistics --quiet --wholename --regex --version --help", "-dlnr --database --limit --regexp")
_LSB_RELEASE = options("-aidrcsvh --all --id --description --release --codename --short --version --help",
                       operands=at_most(0))

_VERSION_WORDS = frozenset({"--version", "-v", "-V", "-version", "--help", "-dumpversion", "-dumpfullversion",
                            "-dumpmachine", "-vV", "--verbose", "-showversion", "--full-version"})


def _version_only(cmd: Command) -> str | None:
    """Compilers and the JVM asked for their version only (`gcc -v`, `java -version`, `rustc -vV`): with no
    input they compile and run nothing."""
    if not cmd.args or any(word not in _VERSION_WORDS for word in cmd.args):
        return f"{cmd.name}: only its version is known to be read-only"
    return None


# Linters and formatters asked to check, never to fix: their configuration files name rules and
# styles, not programs (`.shellcheckrc`, `ruff.toml`, `.clang-format`, `rustfmt.toml`, `.yamllint`);
# Python's and Cargo's own files are tool configuration already.
_SHELLCHECK = options("-ax --check-sourced --external-sources --list-optional --norc -V --version -h --help",
                      "-efioPsSW --exclude --format --include --enable --source-path --shell --severity"
                      " --wiki-link-count", "-C --color")
_BLACK = options("-q -v -S -C --check --diff --color --no-color --quiet --verbose --fast --safe --preview --unstable"
                 " --skip-string-normalization --skip-magic-trailing-comma --skip-source-first-line --ipynb --pyi"
                 " --version -h --help",
                 "-l -t -W --line-length --target-version --include --exclude --extend-exclude --force-exclude"
                 " --stdin-filename --workers --required-version --python-cell-magics", requires="--check --diff")
_RUFF_COMMON = (" -q -s -v -e -n --quiet --silent --verbose --exit-zero --no-cache --isolated --preview --no-preview"
                " --respect-gitignore --no-respect-gitignore --force-exclude --no-force-exclude --show-files"
                " --show-settings -h --help")
_RUFF_VALUED = (" --config --exclude --extend-exclude --target-version --line-length --stdin-filename --cache-dir"
                " --output-format")
_RUFF = Options(frozenset({"--version", "-V", "-h", "--help"}), subcommands={
    "check": options("--statistics --show-fixes --no-fix --no-unsafe-fixes --diff --no-show-fixes" + _RUFF_COMMON,
                     "--select --ignore --extend-select --extend-ignore --per-file-ignores --extend-per-file-ignores"
                     " --fixable --unfixable --extend-fixable --dummy-variable-rgx" + _RUFF_VALUED),
    "format": options("--check --diff" + _RUFF_COMMON, "--range" + _RUFF_VALUED, requires="--check --diff"),
    "version": options(), "rule": options("--all", "--output-format"), "linter": options("", "--output-format"),
})
_ISORT = options("-c --check-only --check --diff --df -q --quiet -v --verbose --show-config --show-files -h --help"
                 " --version -V", "--profile --settings-path --sp --settings-file --skip -s --skip-glob --sg -l"
                 " --line-length --filter-files", requires="-c --check-only --check --diff --df")
_GOFMT = options("-l -d -e -s", "-r", requires="-l -d -e", single=True)
_CLANG_FORMAT = options("-n --dry-run --Werror --verbose --version --help --sort-includes --fail-on-incomplete-format",
                        "--style --fallback-style --assume-filename --lines --offset --length --files --ferror-limit",
                        requires="-n --dry-run --version --help")
_RUSTFMT = options("--check -v -q -l --verbose --quiet --files-with-diff --version -V -h --help",
                   "--edition --config-path --style-edition", requires="--check --version -V -h --help")
_YAMLLINT = options("-s --strict --no-warnings -v --version -h --help --list-files", "-c -d -f --config-file"
                    " --config-data --format")
_HADOLINT = options("--no-fail --no-color --strict-labels --disable-ignore-pragma -v --verbose -V --version -h --help",
                    "-c -t -f --config --failure-threshold --format --ignore --trusted-registry --require-label --error"
                    " --warning --info --style")
_SHFMT = options("-d -l -s -p -ci -sr -kp -fn -bn -mn -diff -list -simplify -minify -posix -version -h -help"
                 " -case-indent -space-redirects -keep-padding -func-next-line -binary-next-line",
                 "-i -ln -indent -language-dialect -filename", requires="-d -l -diff -list -version -h -help",
                 single=True)

READ_ONLY: dict[str, Proof] = {
    **{name: anything for name in (
        "echo printf true false : test [ [[ pwd sleep seq expr factor basename dirname yes cd pushd popd dirs"
        " jobs wait exit return shift unset local help"
    ).split()},
    "ls": _LS, "dir": _LS, "vdir": _LS,
    "cat": options("-AbeEnstTuv --show-all --number-nonblank --show-ends --number --squeeze-blank --show-tabs"
                   " --show-nonprinting" + _GNU),
    "tac": options("-br --before --regex" + _GNU, "-s --separator"),
    "head": options("-qvz --quiet --silent --verbose --zero-terminated" + _GNU, "-cn --bytes --lines", numeric=True),
    "tail": options("-fFqvz --quiet --silent --retry --verbose --zero-terminated" + _GNU,
                    "-cns --bytes --lines --max-unchanged-stats --pid --sleep-interval", "--follow", numeric=True),
    "wc": options("-cmlLw --bytes --chars --lines --max-line-length --words --total" + _GNU, "--files0-from"),
    "stat": options("-Lft --dereference --file-system --terse" + _GNU, "-c --format --printf --cached"),
    "du": options(
        "-0abcDHhkLlmPSsx --null --all --apparent-size --bytes --total --dereference-args --human-readable --inodes"
        " --dereference --count-links --no-dereference --separate-dirs --si --summarize --one-file-system" + _GNU,
        "-BdtX --block-size --max-depth --threshold --time-style --exclude-from --exclude --files0-from", "--time"),
    "df": options("-ahHiklPTv --all --human-readable --si --inodes --local --no-sync --sync --portability --total"
                  " --print-type" + _GNU, "-Btx --block-size --type --exclude-type", "--output"),
    "file": options("-vzZbciklLhnN0prsSd --uncompress --uncompress-noreport --brief --checking-printout --mime"
                    " --apple --extension --mime-type --mime-encoding --keep-going --list --dereference"
                    " --no-dereference --no-buffer --no-pad --print0 --preserve-date --raw --special-files"
                    " --no-sandbox --debug" + _GNU, "-mefFP --magic-file --exclude --exclude-quiet --files-from"
                    " --separator --parameter"),
    "readlink": options("-femnqsvz --canonicalize --canonicalize-existing --canonicalize-missing --no-newline"
                        " --quiet --silent --verbose --zero" + _GNU),
    "realpath": options("-emLPqsz --canonicalize-existing --canonicalize-missing --logical --physical --quiet --strip"
                        " --no-symlinks --zero" + _GNU, "--relative-to --relative-base"),
    "namei": options("-xmolnvhV --mountpoints --modes --owners --long --nosymlinks --vertical" + _GNU),
    "lsattr": options("-RVadlpv"),
    "getfacl": options("-acdeEnpPRsLtv --access --omit-header --default --all-effective --no-effective --numeric"
                       " --absolute-names --physical --recursive --skip-base --logical --tabular --one-file-system"
                       + _GNU),
    "which": options("-as --all --skip-alias --skip-dot --skip-tilde --skip-functions --show-dot --show-tilde"
                     " --tty-only --read-alias --read-functions" + _GNU),
    "whereis": options("-bmsfulgV" + _GNU, "-BMS"),
    "type": options("-afptP"),
    "hash": options("-rdtl"),
    "command": _COMMAND,
    "kill": _kill, "set": _shell_options, "shopt": _shell_options,
    "atq": options("-V", "-q", operands=at_most(0)), "at": options("-l -V", "-q", requires="-l", operands=at_most(0)),
    "date": options("-Ru --debug --resolution --rfc-email --utc --universal" + _GNU,
                    "-dfr --date --file --rfc-3339 --reference", "-I --iso-8601", operands=_date_operands),
    "cal": options("-1y3jmswSVhvbc --one --three --year --twelve --julian --monday --sunday --week --vertical"
                   " --span --reform --iso" + _GNU, "-nAB --months --after --before --column", "--color"),
    "ncal": options("-1y3jmswSVhbJeopC", "-AB"),
    "hostname": _HOSTNAME_READ,
    "tty": options("-s --silent --quiet" + _GNU),
    "grep": GREP, "egrep": GREP, "fgrep": GREP, "zgrep": GREP, "rg": unless_env(RG, "RIPGREP_CONFIG_PATH"), "ag": AG,
    "sed": SED, "gsed": SED, "awk": AWK, "gawk": AWK, "mawk": AWK, "nawk": AWK,
    "jq": JQ, "gojq": JQ, "yq": YQ,
    "sort": SORT,
    "uniq": options("-cdDiuz --count --repeated --ignore-case --unique --zero-terminated" + _GNU,
                    "-fsw --skip-fields --skip-chars --check-chars", "--all-repeated --group", operands=at_most(1)),
    "cut": options("-nszM --complement --only-delimited --zero-terminated" + _GNU,
                   "-bcdf --bytes --characters --delimiter --fields --output-delimiter"),
    "tr": options("-cCdst --complement --delete --squeeze-repeats --truncate-set1" + _GNU),
    "comm": options("-123z --check-order --nocheck-order --total --zero-terminated" + _GNU, "--output-delimiter"),
    "join": options("-iz --ignore-case --check-order --nocheck-order --header --zero-terminated" + _GNU,
                    "-aejotv12"),
    "paste": options("-sz --serial --zero-terminated" + _GNU, "-d --delimiters"),
    "column": options("-tdeLJxhV --table --table-noheadings --table-header-repeat --keep-empty-lines --json"
                      " --fillrows" + _GNU,
                      "-nONlEHRTWripcos --table-name --table-order --table-columns --table-columns-limit"
                      " --table-noextreme --table-hide --table-right --table-truncate --table-wrap --tree --tree-id"
                      " --tree-parent --output-width --output-separator --separator"),
    "nl": options("-p --no-renumber" + _GNU,
                  "-bdfhilnsvw --body-numbering --section-delimiter --footer-numbering --header-numbering"
                  " --line-increment --join-blank-lines --number-format --number-separator --starting-line-number"
                  " --number-width"),
    "od": options("-vabcdfilosxDFHLOX --output-duplicates --traditional" + _GNU,
                  "-AjNSt --address-radix --endian --skip-bytes --read-bytes --format", "-w --strings --width"),
    "hexdump": options("-bcCdoxLvhV --one-byte-octal --one-byte-char --canonical --two-bytes-decimal"
                       " --two-bytes-octal --two-bytes-hex --no-squeezing" + _GNU,
                       "-efns --format --format-file --length --skip", "--color"),
    "base64": options("-di --decode --ignore-garbage" + _GNU, "-w --wrap", operands=at_most(1)),
    "base32": options("-di --decode --ignore-garbage" + _GNU, "-w --wrap", operands=at_most(1)),
    "xxd": _xxd,
    "fold": options("-bs --bytes --spaces" + _GNU, "-w --width", numeric=True),
    "fmt": options("-cstu --crown-margin --split-only --tagged-paragraph --uniform-spacing" + _GNU,
                   "-pwg --prefix --width --goal", numeric=True),
    "expand": options("-i --initial" + _GNU, "-t --tabs", numeric=True),
    "unexpand": options("-a --all --first-only" + _GNU, "-t --tabs", numeric=True),
    "numfmt": options("-zM --debug --grouping --zero-terminated" + _GNU,
                      "-d --delimiter --field --format --from --from-unit --invalid --padding --round --suffix --to"
                      " --to-unit", "--header"),
    "rev": options("-0Vh --zero" + _GNU),
    "strings": options("-adfowhvV --all --data --print-file-name --include-all-whitespace --help --version",
                       "-ntTesU --bytes --radix --target --encoding --unicode --output-separator",
                       operands=_no_response_files, numeric=True),
    "look": options("-adfhV --alternative --alphanum --ignore-case" + _GNU, "-t --terminate"),
    "iconv": options("-lcs? --list --silent --verbose --help --usage --version", "-ft --from-code --to-code"),
    "shuf": options("-erz --echo --repeat --zero-terminated" + _GNU, "-in --input-range --head-count --random-source"),
    "pr": options("-acdFfJmrtTv --across --show-control-chars --double-space --form-feed --join-lines --merge"
                  " --no-file-warnings --omit-header --omit-pagination --show-nonprinting" + _GNU,
                  "-DhlNowW --columns --date-format --header --length --first-line-number --indent --width"
                  " --page-width", "-einsS --expand-tabs --output-tabs --number-lines --separator --sep-string",
                  numeric=True),
    "tsort": options(_GNU),
    "diff": _DIFF,
    "diff3": options("-AeE3xXimaTv --show-all --ed --show-overlap --easy-only --overlap-only --merge --text"
                     " --strip-trailing-cr --initial-tab" + _GNU, "-L --label"),
    "sdiff": options("-iEZbWBalstdHv --ignore-case --ignore-tab-expansion --ignore-trailing-space"
                     " --ignore-space-change --ignore-all-space --ignore-blank-lines --strip-trailing-cr --text"
                     " --left-column --suppress-common-lines --expand-tabs --minimal --speed-large-files" + _GNU,
                     "-Iw --ignore-matching-lines --width --tabsize"),
    "cmp": options("-blsv --print-bytes --verbose --quiet --silent" + _GNU, "-in --ignore-initial --bytes"),
    **{name: _CHECKSUM for name in "md5sum sha1sum sha224sum sha256sum sha384sum sha512sum b2sum cksum".split()},
    "sum": options("-rs --sysv" + _GNU),
    "shasum": options("-bcUt0 --binary --check --text --UNIVERSAL --01 --tag --zero --ignore-missing --quiet"
                      " --status --strict --warn" + _GNU, "-a --algorithm"),
    "md5": options("-pqrtxs", "-s"),
    "zcat": _ZCAT, "bzcat": _BZCAT, "xzcat": _XZCAT, "lzcat": _XZCAT, "zstdcat": options("-qvfhV --quiet --verbose"),
    **_COMPRESSOR,
    "gunzip": _COMPRESSOR["gzip"], "bunzip2": _COMPRESSOR["bzip2"], "unxz": _COMPRESSOR["xz"], "zstd": _ZSTD,
    "unzstd": _ZSTD, "7z": _7z, "7za": _7z, "7zz": _7z, "7zr": _7z, "unrar": _UNRAR,
    "tar": _tar,
    "unzip": UNZIP,
    "zipinfo": options("-12smlvhMtTz", "-x"),
    "find": find,
    "less": LESS, "zless": LESS, "more": MORE,
    "man": MAN,
    "apropos": _WHATIS, "whatis": _WHATIS,
    "tree": options(
        "-adlfxACSnNQpugshDFvtcUrJXiq --noreport --inodes --device --dirsfirst --filesfirst --du --si --prune"
        " --matchdirs --ignore-case --gitignore --info --metafirst --fflinks --nolinks --help --version --fromfile"
        " --fromtabfile --condense",
        "-LPIHT --filelimit --timefmt --sort --charset --gitfile --infofile --hintro --houtro"),
    "nm": options("-aABCDgjlnoprsSuvVP --debug-syms --print-file-name --demangle --no-demangle --dynamic"
                  " --extern-only --line-numbers --numeric-sort --no-sort --portability --reverse-sort --size-sort"
                  " --special-syms --synthetic --undefined-only --defined-only --with-symbol-versions"
                  " --without-symbol-versions --print-size --print-armap --quiet --help --version",
                  "-ftX --format --radix --target --unicode", operands=_no_response_files),
    "fd": _FD, "fdfind": _FD, "bat": _BAT, "batcat": _BAT, "eza": _EZA, "exa": _EZA, "lsd": _LSD,
    "locate": _LOCATE, "plocate": _LOCATE, "mlocate": _LOCATE,
    "xmllint": _XMLLINT, "gron": _GRON, "tokei": _TOKEI, "cloc": _CLOC, "scc": _SCC, "units": _UNITS, "bc": _BC,
    "getent": options("-i --no-idn --help --usage -V --version", "-s --service", operands=_getent),
    "ulimit": options("-SHabcdefiklmnpqrstuvxPRT", operands=at_most(0)),
    "alias": options("-p", operands=_alias),
    "printenv": options("-0 --null" + _GNU, operands=_printenv),
    "lsb_release": _LSB_RELEASE,
    "shellcheck": _SHELLCHECK, "black": _BLACK, "ruff": _RUFF, "isort": _ISORT, "gofmt": _GOFMT,
    "clang-format": _CLANG_FORMAT, "rustfmt": _RUSTFMT, "yamllint": _YAMLLINT, "hadolint": _HADOLINT, "shfmt": _SHFMT,
    "objdump": options("-afphxdDSsgeGWtTrRClFwzHvVP --archive-headers --file-headers --private-headers --headers"
                       " --section-headers --all-headers --disassemble --disassemble-all --source --full-contents"
                       " --debugging --debugging-tags --stabs --dwarf --syms --dynamic-syms --reloc --dynamic-reloc"
                       " --demangle --line-numbers --file-offsets --wide --disassemble-zeroes --no-show-raw-insn"
                       " --prefix-addresses --show-raw-insn --no-addresses --visualize-jumps --help --version",
                       "-jbmMEI --section --target --architecture --disassembler-options --endian --include"
                       " --start-address --stop-address --adjust-vma --disassembler-color --prefix"
                       " --prefix-strip --insn-width", operands=_no_response_files),
    "read": options("-rse", "-adinNptu"), "mapfile": options("-t", "-dnOsu"),
    "readarray": options("-t", "-dnOsu"),
    "compgen": options("-abcdefgjksuv", "-AGWXPSo"),
    **{name: _version_only for name in "gcc g++ cc c++ clang clang++ rustc javac tsc kotlinc scalac swiftc mypy".split()},
    "java": unless_env(_version_only, "JAVA_TOOL_OPTIONS", "JDK_JAVA_OPTIONS", "_JAVA_OPTIONS"),
    "readelf": options("-aghlSeInrudVAcDLTWHvsz --all --file-header --program-headers --segments"
                       " --section-headers --sections --section-groups --section-details --headers --symbols --syms"
                       " --dyn-syms --lto-syms --notes --relocs --unwind --dynamic --version-info --arch-specific"
                       " --use-dynamic --archive-index --no-demangle --wide --help --version --histogram --decompress"
                       " --recurse-limit --no-recurse-limit",
                       "-xpR --hex-dump --string-dump --relocated-dump --ctf --ctf-parent --ctf-symbols --ctf-strings"
                       " --sym-base", "-wCU --debug-dump --demangle --unicode", operands=_no_response_files),
}

PROVEN = (
    "ls -la", "ls --color=auto -lh /var/log", "dir -a", "vdir --human-readable", "cat README.md",
    "head -n 20 app.log", "head -5 notes.txt",
    "tail -f /var/log/syslog", "tail -n +3 data.csv", "wc -l src/*.py", "stat -c %s file.bin", "du -sh .",
    "df -h /", "file -b image.png", "readlink -f ./link", "realpath --relative-to=. src", "namei -l /usr/bin",
    "lsattr -d .", "getfacl -p notes.txt", "which -a python3", "whereis git", "type -a ls", "hash -r",
    "command -v docker", "kill -l", "date +%Y-%m-%d", "date -u +%s", "tac app.log", "cal -3", "ncal -b",
    "hostname -f", "tty",
    "echo hello", "printf '%s\\n' x", "true", "false", ": noop", "test -f x", "[ -d src ]", "[[ -n x ]]", "pwd",
    "sleep 1", "seq 1 5", "expr 1 + 2", "factor 12", "basename /a/b.txt .txt", "dirname /a/b", "yes | head -1",
    "cd /tmp", "pushd /tmp", "popd", "dirs -v", "jobs", "wait", "exit 0", "return 0", "shift", "unset X",
    "local x=1", "help cd", "yes no",
    "grep -rn TODO src", "grep -E 'a|b' -A3 file", "egrep -i error log.txt", "fgrep -x word list.txt",
    "zgrep -i panic kern.log.gz", "rg --type py -n 'def main'", "ag -Q needle src", "sed -n '1,5p' file.txt",
    "gsed -E 's/a+/b/g' in.txt", "awk -F: '{print $1}' /etc/passwd", "gawk 'NR > 1 {print $2}' data.txt",
    "mawk '{n++} END {print n}' f", "nawk '/x/' f", "jq -r '.items[].name' data.json", "gojq . data.json",
    "yq -y .spec deployment.yaml", "sort -k2,2n -t, data.csv", "uniq -c sorted.txt", "cut -d: -f1 /etc/group",
    "tr a-z A-Z", "comm -12 a.txt b.txt", "join -t, a.csv b.csv", "paste -sd, list.txt", "column -t -s, data.csv",
    "nl -ba file.txt", "od -An -tx1 file.bin", "hexdump -C file.bin", "base64 -d encoded.txt", "base32 file",
    "xxd -l 64 file.bin", "fold -w 80 text.txt", "fmt -w 72 text.txt", "expand -t 4 code.c", "unexpand -a code.c",
    "numfmt --to=iec 1048576", "rev names.txt", "strings -n 8 binary", "look prefix words.txt",
    "iconv -f latin1 -t utf-8 old.txt", "shuf -n 3 list.txt", "pr -2 -t list.txt", "tsort deps.txt",
    "diff -u a.txt b.txt", "diff3 mine older yours", "sdiff -s a.txt b.txt", "cmp a.bin b.bin", "md5sum file",
    "sha1sum file", "sha224sum file", "sha256sum -c SHA256SUMS", "sha384sum file", "sha512sum file", "b2sum file",
    "cksum file", "sum file", "shasum -a 256 file", "md5 -q file", "zcat logs.gz", "bzcat data.bz2",
    "xzcat data.xz", "lzcat data.lzma", "zstdcat data.zst", "gzip -l archive.gz", "bzip2 -tv data.bz2",
    "xz -l data.xz", "tar -tzf release.tar.gz", "tar tvf backup.tar", "unzip -l bundle.zip", "zipinfo bundle.zip",
    "find . -name '*.py' -mtime -1", "less -R build.log", "zless app.log.gz", "more notes.txt", "man 5 crontab",
    "apropos partition", "whatis ls", "tree -L 2 -a", "nm -D libfoo.so", "readelf -h /bin/ls",
    "fd -e py", "fdfind -t d src", "bat -n --style=plain README.md", "batcat -p notes.txt", "eza -la --git",
    "exa -l --tree --level=2", "lsd -la", "locate -i nginx.conf", "plocate nginx.conf", "mlocate -c x",
    "xmllint --noout pom.xml", "gron data.json", "tokei -o json", "cloc --by-file src", "scc --no-cocomo .",
    "units '1 mile' km", "bc -l", "getent passwd alice", "ulimit -a", "alias", "printenv HOME", "lsb_release -a",
    "gcc --version", "g++ --version", "cc -v", "c++ --version", "clang --version", "clang++ --version", "rustc -vV",
    "javac -version", "java -version", "tsc -v", "kotlinc -version", "scalac -version", "swiftc --version",
    "mypy -V",
    "gunzip -c logs.gz", "bunzip2 -c data.bz2", "unxz -c data.xz", "zstd -dc data.zst", "unzstd -c data.zst",
    "7z l archive.7z", "7za t archive.7z", "7zz l archive.zip", "7zr l a.7z", "unrar l archive.rar", "objdump -d a.out",
    "atq", "at -l", "set -euo pipefail", "shopt", "kill -0 1234", "read -r line", "mapfile -t lines", "compgen -c",
    "shellcheck -x script.sh", "black --check .", "ruff check .", "ruff format --check .", "isort --check-only .",
    "gofmt -l .", "clang-format --dry-run src/main.c", "rustfmt --check src/main.rs", "yamllint .",
    "hadolint Dockerfile", "shfmt -d script.sh",
)

PACK = Pack("core.read", "Readers: coreutils, text tools, pagers, archive listings and find, proven read-only "
            "option by option.", read_only=READ_ONLY, core=True, proven=PROVEN)


def proves(cmd: Command) -> bool:
    """True when this pack proves `cmd` read-only (rules about archives and output files leave such commands alone)."""
    proof = READ_ONLY.get(cmd.name)
    return proof is not None and proof(cmd) is None
