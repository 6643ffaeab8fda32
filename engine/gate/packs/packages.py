"""Package managers asked what is installed or available, never to install, build or run anything.

Read-only proofs only; `exec.package-run` (execution pack) leaves alone what these tables
prove. Left out on purpose: `npm audit fix`, `npm doctor`, `npm exec`/`run`/`test` and any
`--userconfig`/`--globalconfig`; `pip --log` (writes), `--python` (runs another
interpreter), `--keyring-provider`; `apt changelog` (pager), `-o`/`-c` (configuration that
can name hooks) and `apt-cache gencaches`; `dpkg --root`; `cargo --config`/`-Z` and anything
that builds; `go list -compiled/-export/-toolexec`, `go env -w/-u`, `go vet`; `brew home`,
`doctor`, `deps --graph` (they open a browser or run checks); and any `PIP_*`, `GO*`,
`CGO_*`, `CARGO_*`, `RUSTC*`, `RUSTUP_*`, `DPKG_*` or `HOMEBREW_*` variable set in front of
the command (they add options or name programs). rpm only queries (`-q…`), without `--root`,
`--dbpath`, `--rcfile`, `--macros`, `-D/--define`, `-E/--eval`, `--pipe` (a command) or a query
format that expands a macro (`%(…)` runs a shell), nor `-V` (it runs verify scripts) or any
`RPM_*` variable; `~/.rpmmacros` is tool configuration. dnf and yum list, search and describe
(they may refresh metadata into their cache), without `--setopt`, `-c`, `--installroot` or
`history undo|redo|rollback`; pacman `-Q…`, `-Ss` and `-Si` only (never `-Sy`), without
`--config`; apk `info`, `list`, `search`, `policy`, `version`, `stats`; pnpm and yarn listings
(`list`, `why`, `outdated`, `view`/`info`, `licenses`), never `install`, `add`, `run` or `dlx`;
`npm run` only bare (it lists the scripts); `pipx list`; `poetry check|version` (`show` and `env`
run the project's `.venv/bin/python`, which the agent could have written; `config` prints
repository passwords); `conda list|env list|info --envs`; `rustup
toolchain|target|component list` (`rustup show` may install the pinned toolchain); `dotnet
--list-sdks|--list-runtimes` (`--info` and `--version` run the SDK `global.json` picks); `apt-mark`
but `show*`; MacPorts `port` listings, never naming no port, `.`, a path or a `file:` URL (it would
evaluate the Portfile there, Tcl the agent could write), nor `-F` (commands from a file) or `-D`;
`mas` but `list`, `outdated`, `search`, `info` (`account` prints the Apple ID, `home`/`open` start a
browser). Also unproven: `gem` (RubyGems loads `rubygems_plugin.rb` files found on its load path and
a `Gemfile` named by `RUBYGEMS_GEMDEPS`), `mvn` (its launcher reads `.mvn/jvm.config` and
`.mvn/maven.config` from the project: JVM options such as `-javaagent`), `gradle` (init scripts and
the project's settings run), and `needrestart` (it can restart services).
"""

from __future__ import annotations

from engine.gate.packs.model import Pack, Proof
from engine.gate.proof import Options, Reading, at_most, options, subcommands, unless_env
from engine.gate.shell.view import Command

_NPM_FLAGS = (" -g -a -l -p -s -q -d -dd -ddd --global --all --long --parseable --json --link --package-lock-only"
              " --unicode --no-unicode --workspaces --include-workspace-root --production --dev --silent --quiet"
              " --verbose --no-color --offline --prefer-offline --prefer-online --no-progress --expect-results"
              " --no-expect-results --install-links --help -h --version")
_NPM_VALUED = (" --depth --omit --include --only -w --workspace --prefix --registry --loglevel --tag --before --color"
               " --expect-result-count --cache --scope --otp --searchlimit --searchopts --searchexclude --auth-type")


def _npm(flags: str = "", valued: str = "", **more: object) -> Options:
    """npm's parser takes an option's value from the next word only when that word is not an
    option, so its values count as attached (`--depth=0`); `--depth 0` leaves `0` an operand."""
    return options(_NPM_FLAGS + " " + flags, "", _NPM_VALUED + " " + valued, **more)  # type: ignore[arg-type]


_NPM_READ = _npm()
_NPM = unless_env(Options(_NPM_READ.flags | {"-v"}, attached=_NPM_READ.attached, subcommands={
    **{verb: _npm() for verb in "ls list la ll outdated explain why fund prefix root query ping whoami stars".split()},
    **{verb: _npm() for verb in "view info show v search s se find help".split()}, "": _npm(),
    **{verb: _npm(operands=at_most(0)) for verb in ("run", "run-script")},
    "audit": Options(_NPM_READ.flags, attached=_NPM_READ.attached,
                     subcommands={"": _npm("", "--audit-level"), "signatures": _npm()}),
    "config": subcommands({"get": _npm(), "list": _npm(), "ls": _npm()}),
    "get": _npm(),
    "pkg": subcommands({"get": _npm()}),
    "version": _npm(operands=at_most(0)),
    "owner": subcommands({"ls": _npm(), "list": _npm()}),
    "dist-tag": subcommands({"ls": _npm(), "list": _npm()}),
}), "NPM_CONFIG_*", "npm_config_*")

_PIP_FLAGS = (" -v -q --verbose --quiet --isolated --require-virtualenv --no-input --no-color"
              " --disable-pip-version-check --no-cache-dir --no-python-version-warning --debug -h --help")
_PIP_VALUED = (" --cache-dir --proxy --retries --timeout --trusted-host --cert --client-cert --use-feature"
               " --use-deprecated --root-user-action --exists-action -i --index-url --extra-index-url -f --find-links")


def _pip(flags: str = "", valued: str = "") -> Options:
    return options(_PIP_FLAGS + " " + flags, _PIP_VALUED + " " + valued)


_PIP_TOP = _pip("-V --version")
_PIP = unless_env(Options(_PIP_TOP.flags, _PIP_TOP.valued, subcommands={
    "list": _pip("-o -u -e -l --outdated --uptodate --editable --local --user --pre --not-required"
                 " --exclude-editable --include-editable --no-index", "--path --format --exclude"),
    "show": _pip("-f --files --verbose"),
    "freeze": _pip("-l --local --user --all --exclude-editable", "-r --requirement --path --exclude"),
    "check": _pip(),
    "inspect": _pip("--local --user", "--path"),
    "index": subcommands({"versions": _pip("--pre --no-index --ignore-requires-python", "--platform"
                                           " --python-version --implementation --abi")}),
    "config": subcommands({"list": _pip("--global --user --site"), "get": _pip("--global --user --site"),
                           "debug": _pip("--global --user --site")}),
    "cache": subcommands({"list": _pip("", "--format"), "dir": _pip(), "info": _pip()}),
    "debug": _pip("", "--platform --python-version --implementation --abi"),
    "hash": _pip("", "-a --algorithm"),
    "help": _pip(),
    "search": _pip("", "-i --index"),
}), "PIP_*")

_APT_FLAGS = (" -q -qq -a -f -n -v --installed --upgradable --all-versions --manual-installed --verbose --full"
              " --names-only --recurse --no-all-versions -h --help --version")
_APT_READ = options(_APT_FLAGS)
_APT = unless_env(Options(_APT_READ.flags, subcommands={
    verb: _APT_READ for verb in "list show policy search depends rdepends showsrc".split()}), "APT_CONFIG")
_APT_CACHE_READ = options(
    _APT_FLAGS + " -i --important --no-pre-depends --no-depends --no-recommends --no-suggests --no-conflicts"
    " --no-breaks --no-replaces --no-enhances --implicit --generate --no-generate")
_APT_CACHE = unless_env(Options(_APT_CACHE_READ.flags, subcommands={
    verb: _APT_CACHE_READ for verb in
    "policy show showpkg showsrc search depends rdepends pkgnames dump dumpavail stats madison unmet".split()}),
    "APT_CONFIG")

_DPKG_READS = ("-l --list -L --listfiles -s --status -S --search -p --print-avail --get-selections"
               " --print-architecture --print-foreign-architectures -C --audit -V --verify --compare-versions"
               " -W --show")
_DPKG = unless_env(options(_DPKG_READS + " --no-pager --help --version", "--admindir -f --showformat"
                           " --verify-format", requires=_DPKG_READS), "DPKG_*")

_CARGO_FLAGS = " -v -vv -q --verbose --quiet --frozen --locked --offline -h --help"
_CARGO_VALUED = " --color --manifest-path"


def _cargo(flags: str = "", valued: str = "") -> Options:
    return options(_CARGO_FLAGS + " " + flags, _CARGO_VALUED + " " + valued)


_CARGO_TOP = _cargo("-V --version --list")
_CARGO = unless_env(Options(_CARGO_TOP.flags, _CARGO_TOP.valued, subcommands={
    "": _cargo(),
    "fmt": options("--check --all -q -v --quiet --verbose -h --help", "-p --package --manifest-path --message-format",
                   requires="--check", operands=at_most(0)),
    "tree": _cargo("-d -i -e --duplicates --workspace --all-features --no-default-features --no-dedupe --all-targets",
                   "-p --package --exclude --invert --edges --depth --prune --features -F --target --charset --prefix"
                   " -f --format"),
    "metadata": _cargo("--no-deps --all-features --no-default-features", "--format-version --features -F"
                       " --filter-platform"),
    "version": _cargo(), "search": _cargo("", "--limit --index --registry"),
    "pkgid": _cargo("", "-p --package"), "locate-project": _cargo("--workspace", "--message-format"),
    "read-manifest": _cargo(), "verify-project": _cargo(), "info": _cargo("", "--index --registry"),
    "help": _cargo(),
}), "CARGO_*", "RUSTC*", "RUSTUP_*")

_GO_BUILD_FLAGS = " -json -m -u -e -deps -test -find -versions -retracted -reuse"
_GO = unless_env(subcommands({
    "list": options(_GO_BUILD_FLAGS, "-f -mod -tags -modfile", "-json -reuse", single=True),
    "version": options("-m -v -json", single=True),
    "env": options("-json -changed", single=True),
    "doc": options("-all -c -cmd -short -src -u", single=True),
    "mod": subcommands({"graph": options("-x", "-go", single=True), "why": options("-m -vendor", single=True),
                        "verify": options(single=True)}),
    "help": options(single=True),
}), "GO*", "CGO_*")

_BREW_FLAGS = (" -1 -l -t -r -q -v -d --versions --pinned --full-name --formula --formulae --cask --casks --quiet"
               " --verbose --debug --installed --tree --all --recursive --include-build --include-test"
               " --skip-recommended --include-optional --eval-all --desc --analytics --greedy --multiple --dot"
               " --direct --topological -h --help")
_BREW_READ = options(_BREW_FLAGS, "--days --category", "--json")
_BREW = unless_env(Options(_BREW_READ.flags | {"--version", "--prefix", "--cellar", "--cache", "--repository"},
                           subcommands={
    **{verb: _BREW_READ
       for verb in "list ls info abv search deps uses leaves outdated config desc options cat".split()},
    "tap": options(operands=at_most(0)), "services": subcommands({"list": _BREW_READ, "info": _BREW_READ}),
    "": options(),
}), "HOMEBREW_*")

def _rpm(reading: Reading) -> str | None:
    """Queries only; a query format may not expand macros (`%(…)` runs a shell)."""
    for value in reading.values("--qf", "--queryformat"):
        if "%(" in value or "%{lua" in value.lower():
            return "rpm: the query format expands a macro"
    return None


_RPM_QUERIES = "-q --query"
_RPM = unless_env(options(
    "-qailfdcsRpP --query --all --info --list --file --docfiles --configfiles --state --requires --provides"
    " --whatprovides --whatrequires --whatrecommends --whatsuggests --whatsupplements --whatenhances --changelog"
    " --changes --scripts --triggers --triggerscripts --conflicts --obsoletes --recommends --suggests --supplements"
    " --enhances --filesbypkg --dump --last --package --group --dupes --noconfig --nodigest --nosignature"
    " --nofiles --xml --fileprovide --filerequire --filecaps --fileclass --filecolor --filemime -v --verbose --quiet"
    " --help --version", "--qf --queryformat", requires=_RPM_QUERIES, check=_rpm),
    "RPM_*")


def _dnf(verbs: str, more_flags: str = "") -> Options:
    """dnf and yum asked what is installed or available (metadata may be refreshed into their cache)."""
    table = options(
        "-q -v -C -y --quiet --verbose --cacheonly --assumeno --installed --available --updates --upgrades --extras"
        " --obsoletes --recent --autoremove --showduplicates --all --refresh --nogpgcheck --noplugins --help -h"
        " --version --security --bugfix --enhancement --newpackage --info --list --requires --whatprovides" + more_flags,
        "-d -e --enablerepo --disablerepo --repo --repoid --releasever --forcearch --queryformat --qf --arch"
        " --exclude -x --debuglevel --errorlevel", "")
    return Options(table.flags, table.valued, subcommands={verb: table for verb in verbs.split()} | {
        "history": Options(table.flags, table.valued, subcommands={"": table, "list": table, "info": table})})


_DNF = unless_env(_dnf("list info search repolist repoinfo provides whatprovides check-update deplist repoquery"
                       " updateinfo"), "DNF_*", "YUM_*")
_PACMAN_QUERY = frozenset("QiklmnopstudecgqvDe")


def _pacman(cmd: Command) -> str | None:
    """`pacman -Q…` (the local database) and `-Ss`/`-Si` (the synced one); `-Sy`, `-Su`, `-S name` change the system."""
    args = list(cmd.args)
    if not args or not args[0].startswith("-") or args[0].startswith("--"):
        return "pacman: only -Q, -Ss and -Si are known to be read-only"
    head = args[0][1:]
    if head[:1] == "Q" and set(head) <= _PACMAN_QUERY:
        return _PACMAN.prove(args[1:], "pacman -Q")
    if head[:1] == "S" and len(head) == 2 and head[1] in "si":
        return _PACMAN.prove(args[1:], f"pacman -{head}")
    return f"pacman: -{head} is not known to be read-only"


_PACMAN = options("-q -v -i -l -s -o -e -d -t -u -n -m -k --quiet --verbose --info --list --search --owns"
                  " --explicit --deps --unrequired --upgrades --native --foreign --check --noconfirm"
                  " --help", "--color")
_APK = unless_env(Options(frozenset({"--version", "-V", "--help", "-h"}), subcommands={
    "info": options("-a -d -e -L -P -r -R -s -w -W -v -q --all --description --installed --contents --provides"
                    " --rdepends --depends --size --webpage --who-owns --verbose --quiet"),
    "list": options("-I -a -o -u -O -v -q --installed --available --origin --upgradable --orphaned --verbose --quiet"),
    "search": options("-a -d -e -o -r -x -v -q --all --description --exact --origin --rdepends --verbose --quiet"),
    "policy": options("-v -q"), "version": options("-a -l -t -I -c -v -q", "-l"), "stats": options(),
    "dot": options("--errors --installed"),
}), "APK_*")


def _node_manager(verbs: str, flags: str, valued: str = "") -> Options:
    table = options(flags + " --json --long --help -h", valued)
    return Options(table.flags | {"-v", "--version"}, table.valued, subcommands={verb: table for verb in verbs.split()})


_PNPM = unless_env(_node_manager("list ls ll la why outdated view info show licenses root bin audit",
                                 "-r -P -D -g --recursive --prod --dev --global --parseable --only-projects"
                                 " --no-optional --long --json", "--depth --filter -F --reporter"),
                   "npm_config_*", "NPM_CONFIG_*", "PNPM_*")
_YARN = unless_env(_node_manager("list info why outdated licenses versions", "--json --recursive --production"
                                 " --long", "--depth --pattern"), "npm_config_*", "YARN_*")

_PIPX = unless_env(Options(frozenset({"--version", "-h", "--help"}), subcommands={
    "list": options("--include-injected --json --short --skip-maintenance -q -v --quiet --verbose"),
    "environment": options("", "-V --value")}), "PIPX_*")
_POETRY_COMMON = " -q -v -vv -vvv -n --quiet --verbose --no-interaction --no-ansi --ansi --no-plugins --no-cache -h --help"
_POETRY = unless_env(Options(frozenset(("--version -V" + _POETRY_COMMON).split()), frozenset({"-C", "--directory", "-P",
                                                                                                "--project"}),
                             subcommands={
    "check": options("--lock --strict" + _POETRY_COMMON),
    "version": options("-s --short" + _POETRY_COMMON, operands=at_most(0)),
}), "POETRY_*")
_CONDA_COMMON = " --json -q --quiet -v --verbose -h --help"
_CONDA = unless_env(Options(frozenset(("--version -V" + _CONDA_COMMON).split()), subcommands={
    "list": options("--explicit --export --canonical --full-name --revisions --show-channel-urls --no-pip -c"
                    + _CONDA_COMMON, "-n --name -p --prefix"),
    "env": subcommands({"list": options(_CONDA_COMMON)}),
    "info": options("--envs -e --base --system" + _CONDA_COMMON, "", requires="--envs -e --base"),
}), "CONDA*")
_RUSTUP = unless_env(Options(frozenset({"--version", "-V", "-h", "--help"}), subcommands={
    "toolchain": subcommands({"list": options("-v --verbose -q --quiet")}),
    "target": subcommands({"list": options("--installed --quiet -q", "--toolchain")}),
    "component": subcommands({"list": options("--installed --quiet -q", "--toolchain")}),
}), "RUSTUP_*")
_SNAP = unless_env(Options(frozenset({"--version", "-h", "--help"}), subcommands={
    "list": options("--all"), "info": options("--verbose", operands=None), "version": options(),
    "services": options(), "connections": options("--all"), "find": options("--narrow", "--section"),
    "search": options("--narrow", "--section"), "changes": options(), "aliases": options(), "warnings": options("--all"),
}), "SNAP_*")
_FLATPAK_COMMON = " --user --system -v --verbose --ostree-verbose -h --help"
_FLATPAK = unless_env(Options(frozenset({"--version", "--default-arch", "--supported-arches", "--installations",
                                         "-h", "--help"}), subcommands={
    "list": options("--app --runtime --all -a -d --show-details" + _FLATPAK_COMMON, "--columns --arch --app-runtime"),
    "info": options("-r -o -c -s -m -M --show-ref --show-origin --show-commit --show-size --show-metadata"
                    " --show-permissions --show-location --show-runtime --show-sdk --show-extensions" + _FLATPAK_COMMON,
                    "--arch"),
    "remotes": options("-d --show-details --show-disabled" + _FLATPAK_COMMON, "--columns"),
    "search": options(_FLATPAK_COMMON, "--arch --columns"),
    "ps": options(_FLATPAK_COMMON, "--columns"), "history": options(_FLATPAK_COMMON, "--since --until --columns"),
}), "FLATPAK_*")
_APT_MARK_READ = options("-q --quiet -h --help -v --version")
_APT_MARK = unless_env(Options(_APT_MARK_READ.flags, subcommands={
    verb: _APT_MARK_READ for verb in "showauto showmanual showhold showinstall showremove showpurge".split()}),
    "APT_CONFIG")


def _port_names(operands: list[str]) -> str | None:
    """MacPorts acts on the Portfile in the working directory (Tcl the agent could have written) when no
    port, `.`, a path or a `file:` URL is named; plain names and pseudo-names (`depof:wget`) come from the
    ports tree."""
    if not operands:
        return "port: names no port, so it would read the Portfile in the working directory"
    for name in operands:
        if "/" in name or name in (".", "..") or name.lower().startswith("file:"):
            return f"port: {name} names a Portfile outside the ports tree"
    return None


_PORT_INFO = options("--index --line --pretty --name --version --revision --epoch --description --long_description"
                     " --homepage --maintainer --maintainers --categories --category --depends --depends_lib"
                     " --depends_build --depends_run --variants --platforms --license --fullname", operands=_port_names)
_PORT_DEPS = options("--index --no-build --full", operands=_port_names)
_PORT = Options(frozenset({"-v", "-q", "-N"}), subcommands={
    "installed": options(), "outdated": options(), "echo": options(operands=_port_names),
    "search": options("--name --exact --regex --glob --case-sensitive --line --description --long_description"
                      " --maintainer --categories --homepage --portdir"),
    "info": _PORT_INFO, "deps": _PORT_DEPS, "rdeps": _PORT_DEPS, "variants": options("--index", operands=_port_names),
    "dependents": options(operands=_port_names), "rdependents": options(operands=_port_names),
    "contents": options("--size", "--units", operands=_port_names), "provides": options(),
    "list": options(operands=_port_names), "version": options(), "help": options(),
})
_MAS = subcommands({"list": options(), "outdated": options("--verbose"), "search": options("--price"),
                    "info": options(), "version": options(), "help": options()})
_DOTNET = options("--list-sdks --list-runtimes", requires="--list-sdks --list-runtimes", operands=at_most(0))

READ_ONLY: dict[str, Proof] = {
    "npm": _NPM, "pip": _PIP, "pip3": _PIP,
    "apt": _APT, "apt-cache": _APT_CACHE, "dpkg": _DPKG, "dpkg-query": _DPKG,
    "cargo": _CARGO, "go": _GO, "brew": _BREW,
    "snap": _SNAP, "flatpak": _FLATPAK,
    "pipx": _PIPX, "poetry": _POETRY, "conda": _CONDA, "rustup": _RUSTUP, "dotnet": _DOTNET,
    "apt-mark": _APT_MARK, "port": _PORT, "mas": _MAS,
    "rpm": _RPM, "dnf": _DNF, "yum": _DNF, "pacman": _pacman, "apk": _APK, "pnpm": _PNPM, "yarn": _YARN,
}

PROVEN = (
    "npm ls --depth=0", "npm view react version", "npm outdated --long",
    "pip list --outdated", "pip show requests", "pip3 freeze", "apt list --installed", "apt-cache policy nginx",
    "dpkg -l", "dpkg-query -W -f '${Package}\\n'", "cargo tree -d", "go list -m all", "brew list --versions",
    "npm audit --json", "npm config get registry", "npm pkg get name", "npm -v", "rpm -qa", "rpm -qf /usr/bin/ls",
    "dnf list installed", "yum info nginx", "pacman -Qi bash", "pacman -Ss nginx", "apk info -v",
    "pnpm list --depth 0", "yarn why react", "npm run", "cargo --list", "pipx list --short", "poetry check",
    "conda env list", "rustup toolchain list", "dotnet --list-sdks", "cargo fmt --check", "snap list",
    "flatpak list --app", "apt-mark showmanual", "port installed", "port info wget", "mas list",
)

PACK = Pack("packages", "Package managers asked what is installed or available, never to install, build or run "
            "anything.", read_only=READ_ONLY, proven=PROVEN)


def proves(cmd: Command) -> bool:
    """True when this pack proves `cmd` read-only (`exec.package-run` leaves such commands alone)."""
    proof = READ_ONLY.get(cmd.name)
    return proof is not None and proof(cmd) is None
