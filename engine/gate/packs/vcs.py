"""Version-control rules: history rewrites, discarded work, pushes and remote traffic."""

from __future__ import annotations

import re

from engine.gate.packs.model import DANGEROUS, IRREVERSIBLE, Pack, rule
from engine.gate.proof import Options, Reading, options, subcommands, unless_env
from engine.gate.shell.view import Command

# Configuration keys whose value git runs (or that pull in more configuration): keys are
# case-insensitive, so `Core.FSMonitor` is the same key.
_EXEC_KEY = re.compile(
    r"(?i)core\.(?:pager|sshcommand|editor|fsmonitor|hookspath|gitproxy|askpass|alternaterefscommand)"
    r"|(?:alias|diff|merge|filter|difftool|mergetool|pager|browser|man|submodule|include|includeif|credential|gpg"
    r"|sequence|interactive|uploadpack|protocol|sendemail|instaweb|web|trailer)\..+|init\.templatedir"
    r"|remote\..+\.(?:uploadpack|receivepack|vcs)"
)


def _exec_config(cmd: Command) -> bool:
    """A `-c key=value` / `--config-env=key=VAR` or a `git config` key that names a program to run."""
    args = cmd.args
    keys: list[str] = []
    for i, arg in enumerate(args):
        if arg in ("-c", "--config-env") and i + 1 < len(args):
            keys.append(args[i + 1])
        elif arg.startswith("-c") and len(arg) > 2:
            keys.append(arg[2:])
        elif arg.startswith("--config-env="):
            keys.append(arg.partition("=")[2])
    if cmd.operands[:1] == ("config",):
        keys.extend(cmd.operands[1:])
    return any(_EXEC_KEY.fullmatch(key.partition("=")[0]) for key in keys)

_BRANCH_GONE = frozenset("-d -D --delete -m -M --move".split())
"""`git branch` with one of these deletes or renames a branch rather than creating one."""

RULES = [
    rule("git.reset-hard", DANGEROUS, "fs", "git reset --hard throws away uncommitted work", names="git", sub="reset",
         flags="--hard --merge --keep", examples=["git reset --hard HEAD~1", "git -C repo reset --hard"],
         counter=["git reset HEAD file.txt"]),
    rule("git.reset", DANGEROUS, "fs", "git reset moves the branch or unstages changes", names="git", sub="reset",
         examples=["git reset HEAD~1", "git reset --mixed HEAD"], counter=["git status"]),
    rule("git.clean", DANGEROUS, "fs", "git clean deletes untracked files", names="git", sub="clean",
         test=lambda c: not c.flags & {"-n", "--dry-run"} or bool(c.flags & {"-f", "--force"}), examples=["git clean -fdx", "git clean -nf"], counter=["git clean -n"]),
    rule("git.discard", DANGEROUS, "fs", "discards working-tree changes to files",
         names="git", first="checkout restore switch", test=lambda c: (
             "--" in c.args or bool(c.flags & {"-f", "--force", "-W", "--worktree", "--pathspec-from-file", "-C", "-B"})
             or len(c.operands) > 2 or c.sub("restore") or c.sub("checkout", "HEAD")),
         examples=["git checkout -- file.txt", "git restore .", "git switch -f main"], counter=["git checkout -b feature"]),
    rule("git.checkout", DANGEROUS, "fs", "switches branches or creates one (changes the working tree)", names="git",
         first="checkout switch", examples=["git checkout main", "git switch -c feature"],
         counter=["git branch"]),
    rule("git.push-force", DANGEROUS, "net fs", "force-pushes, overwriting remote history", names="git", sub="push",
         tier=IRREVERSIBLE, args=r"(?:^|\s)(?:-f|--force\S*|-\w*f\w*|\+\S+)(?:\s|$)",
         examples=["git push -f origin main", "git push --force-with-lease origin main"], counter=["git push origin main"]),
    rule("git.push", DANGEROUS, "net", "publishes commits to a remote", names="git", sub="push", tier=IRREVERSIBLE,
         examples=["git push", "git push -u origin feature"], counter=["git log"]),
    rule("git.fetch", DANGEROUS, "net", "contacts a remote repository", names="git", tier=IRREVERSIBLE,
         first="fetch pull clone ls-remote remote-update submodule",
         examples=["git fetch --all", "git pull origin main", "git clone https://x.example/r.git"], counter=["git diff"]),
    rule("git.history", DANGEROUS, "fs", "rewrites or extends history (commit, merge, rebase, cherry-pick)", names="git",
         first="commit merge rebase cherry-pick revert am filter-branch filter-repo replace update-ref",
         examples=["git commit -m 'x'", "git rebase main", "git commit --amend"], counter=["git show HEAD", "git add -A"]),
    rule("git.stage", DANGEROUS, "fs", "stages changes for the next commit (the index)", names="git", first="add",
         examples=["git add -A", "git add src/app.py"], counter=["git commit -m x"]),
    rule("git.move-remove", DANGEROUS, "fs", "moves or deletes tracked files (in the working tree and the index)",
         names="git", first="mv rm", examples=["git mv a.py b.py", "git rm old.py"], counter=["git add a.py"]),
    rule("git.apply", DANGEROUS, "fs", "applies a patch to the working tree or the index", names="git", first="apply",
         examples=["git apply fix.patch"], counter=["git diff"]),
    rule("git.init", DANGEROUS, "fs", "creates a git repository (or reinitialises one)", names="git", first="init",
         examples=["git init", "git init project"], counter=["git status"]),
    rule("git.tag", DANGEROUS, "fs", "creates, moves or deletes tags or notes", names="git", first="tag notes",
         test=lambda c: GIT(c) is not None, examples=["git tag v1.0", "git tag -d v1.0", "git notes add -m x"],
         counter=["git tag -l 'v1.*'", "git tag", "git notes list"]),
    rule("git.prune", DANGEROUS, "fs", "prunes unreachable objects (commits no branch holds are lost)", names="git",
         first="gc prune", examples=["git gc --prune=now", "git prune"], counter=["git count-objects"]),
    rule("git.bisect", DANGEROUS, "fs", "bisects history, checking out one commit after another", names="git",
         first="bisect", examples=["git bisect start", "git bisect good"], counter=["git log"]),
    rule("git.branch-delete", DANGEROUS, "fs", "deletes or renames a branch", names="git", sub="branch",
         flags="-d -D --delete -m -M --move -f --force", examples=["git branch -D feature"], counter=["git branch -a"]),
    rule("git.branch-create", DANGEROUS, "fs", "creates a branch", names="git", sub="branch",
         test=lambda c: len(c.operands) > 1 and GIT(c) is not None and not c.flags & _BRANCH_GONE,
         examples=["git branch feature-new"],
         counter=["git branch --show-current", "git branch --list 'feat/*'"]),
    rule("git.stash", DANGEROUS, "fs", "stashes, applies or drops work in progress", names="git", sub="stash",
         test=lambda c: len(c.operands) == 1 or c.operands[1] not in ("list", "show"),
         examples=["git stash", "git stash drop stash@{0}"], counter=["git stash list"]),
    rule("git.worktree-remove", DANGEROUS, "fs", "removes a linked worktree and its files", names="git",
         sub="worktree remove", examples=["git worktree remove --force /tmp/wt"], counter=["git worktree list"]),
    rule("git.config-exec", DANGEROUS, "injection exec", "git configuration that runs programs (pager, ssh, hooks, aliases)",
         names="git", args=r"(?:^|\s)(?:-c|--config-env)|config", test=_exec_config,
         examples=["git -c core.pager='sh -c id' log", "git -c alias.x='!sh' x", "git config core.fsmonitor ./x",
                   "git -c Core.FSMonitor=x status", "git -c include.path=cfg status", "git config --local core.hooksPath h"],
         counter=["git -c color.ui=never log", "git config user.name x"]),
    rule("git.config-write", DANGEROUS, "fs", "changes git configuration", names="git", sub="config",
         test=lambda c: GIT(c) is not None,
         examples=["git config user.name x", "git config --unset user.name"],
         counter=["git config --get user.name", "git config user.name", "git config --list --show-origin"]),
    rule("git.output-file", DANGEROUS, "fs", "git writes its output to a file", names="git", args=r"--output[= ]",
         examples=["git log --output=/tmp/x -n 1"], counter=["git log -n 1"]),
    rule("git.unsafe-apply", DANGEROUS, "fs injection", "applies a patch outside the repository", names="git",
         args=r"--unsafe-paths|--directory[ =]/", examples=["git apply --unsafe-paths --directory / x.patch"],
         counter=["git apply --check x.patch"]),
    rule("vcs.hosting-delete", DANGEROUS, "net", "deletes something on a code-hosting service", names="gh glab",
         tier=IRREVERSIBLE, args=r"\b(?:delete|close|archive|rename|transfer)\b",
         examples=["gh gist delete 12345", "gh repo delete org/x --yes"], counter=["gh pr list"]),
    rule("vcs.hosting-write", DANGEROUS, "net", "creates or changes something on a code-hosting service",
         names="gh glab", tier=IRREVERSIBLE, args=r"\b(?:create|edit|merge|comment|review|release|upload|api|secret|run|workflow)\b",
         examples=["gh pr merge 12", "gh api -X POST /repos"], counter=["gh pr view 12"]),
    rule("vcs.other", DANGEROUS, "fs", "changes a Mercurial, Subversion or other repository", names="hg svn bzr fossil",
         test=lambda c: not (c.operands and c.operands[0] in ("status", "st", "log", "diff", "info", "cat")),
         examples=["hg commit -m x", "svn revert -R ."], counter=["hg status"]),
]

_DIFF_FLAGS = (
    "-psuWzDRaw -b --patch --no-patch --raw --patch-with-raw --patch-with-stat --numstat --shortstat --cumulative"
    " --check --summary --name-only --name-status --compact-summary --binary --full-index --no-color --no-prefix"
    " --default-prefix --find-copies-harder --no-renames --rename-empty --no-rename-empty --irreversible-delete"
    " --minimal --ignore-all-space --ignore-space-change --ignore-space-at-eol --ignore-cr-at-eol"
    " --ignore-blank-lines --indent-heuristic --no-indent-heuristic --patience --histogram --no-color-moved"
    " --no-color-moved-ws --text --exit-code --quiet --no-ext-diff --textconv --no-textconv --ita-invisible-in-index"
    " --ita-visible-in-index --pickaxe-all --pickaxe-regex --function-context --no-relative --follow --merge-base"
    " --cached --staged --no-index -1 -2 -3 --base --ours --theirs -0 --no-stat --no-abbrev --no-function-context"
)
_DIFF_VALUED = (
    "-SGOIl --stat-width --stat-name-width --stat-graph-width --stat-count --ws-error-highlight --src-prefix"
    " --dst-prefix --line-prefix --inter-hunk-context --output-indicator-new --output-indicator-old"
    " --output-indicator-context --ignore-matching-lines --diff-algorithm --anchored --word-diff-regex"
    " --color-moved-ws --rotate-to --skip-to --find-object --diff-filter --diff-merges"
)
_DIFF_ATTACHED = (
    "-UXBMC --unified --dirstat --dirstat-by-file --stat --color --abbrev --break-rewrites --find-renames"
    " --find-copies --word-diff --color-words --color-moved --relative --ignore-submodules --submodule"
)
_LOG_FLAGS = (
    " -qgmci -E -F -P --source --use-mailmap --mailmap --no-mailmap --no-use-mailmap --clear-decorations --oneline"
    " --graph --all --reverse --no-merges --merges --first-parent --abbrev-commit --no-abbrev-commit --relative-date"
    " --left-right --cherry-pick --cherry-mark --cherry --left-only --right-only --full-history --simplify-merges"
    " --simplify-by-decoration --ancestry-path --dense --sparse --show-pulls --remove-empty --boundary --topo-order"
    " --date-order --author-date-order --do-walk --walk-reflogs --show-signature --no-notes --log-size"
    " --parents --children --count --no-max-parents --no-min-parents --invert-grep --all-match --regexp-ignore-case"
    " --extended-regexp --fixed-strings --perl-regexp --basic-regexp --stdin --ignore-missing --bisect --reflog"
    " --single-worktree --alternate-refs --indexed-objects --no-decorate --no-expand-tabs --no-diff-merges --cc --dd"
    " --remerge-diff --combined-all-paths --exclude-first-parent-only --not --show-notes --standard-notes"
    " --no-standard-notes --timestamp"
)
_LOG_VALUED = (
    " -nL --max-count --skip --since --after --until --before --since-as-filter --author --committer --grep"
    " --grep-reflog --max-age --min-age --max-parents --min-parents --glob --exclude --exclude-hidden --date"
    " --decorate-refs --decorate-refs-exclude --encoding --format"
)
_LOG_ATTACHED = " --decorate --pretty --notes --branches --tags --remotes --expand-tabs --show-linear-break --no-walk"

_LOG = options(_DIFF_FLAGS + _LOG_FLAGS, _DIFF_VALUED + _LOG_VALUED, _DIFF_ATTACHED + _LOG_ATTACHED, numeric=True)
_DIFF = options(_DIFF_FLAGS, _DIFF_VALUED, _DIFF_ATTACHED, numeric=True)


def _list_form(reading: Reading) -> str | None:
    """`git branch` and `git tag` only list when they are given no name, or `-l`/`--list` patterns."""
    if reading.operands and not reading.used("-l", "--list"):
        return f"{reading.program} {reading.operands[0]}: creates a ref"
    return None


def _config_read(reading: Reading) -> str | None:
    """`git config` reads with `--get…`/`--list`, or with a lone key; a key and a value set it."""
    if reading.used("--get", "--get-all", "--get-regexp", "--get-urlmatch", "--get-color", "--get-colorbool"):
        return None if len(reading.operands) <= 2 else "git config: too many operands for a lookup"
    if reading.used("-l", "--list"):
        return None if not reading.operands else "git config --list takes no operand"
    return None if len(reading.operands) == 1 else "git config: a key and a value set it"


_BLAME = options(
    "-bfnpctlsew --incremental --root --show-stats --progress --no-progress --score-debug --show-name --show-number"
    " --porcelain --line-porcelain --show-email --color-lines --color-by-age --minimal --reverse --first-parent",
    "-SL --ignore-rev --ignore-revs-file --contents --date --encoding", "-CM --abbrev")
_CONFIG_SCOPE = "--global --system --local --worktree --includes --no-includes --show-origin --show-scope -z --null"
_CONFIG_TYPES = " --name-only --bool --int --bool-or-int --bool-or-str --path --expiry-date --fixed-value"
_REF_FILTERS = "--contains --no-contains --merged --no-merged --points-at --sort --format"

# Configuration keys that only change how git reads and prints (`git -c color.ui=never log`):
# none of them names a program, a file of more configuration, or a pager.
_HARMLESS_KEY_PREFIXES = ("color.", "log.", "status.", "grep.", "blame.", "advice.", "column.", "i18n.", "pretty.",
                          "versionsort.")
_HARMLESS_KEYS = frozenset(
    "core.quotepath core.abbrev core.autocrlf core.safecrlf core.eol core.filemode core.ignorecase"
    " core.precomposeunicode core.longpaths core.whitespace core.commentchar user.name user.email tag.sort branch.sort"
    " init.defaultbranch merge.conflictstyle format.pretty diff.renames diff.algorithm diff.noprefix"
    " diff.mnemonicprefix diff.relative diff.context diff.interhunkcontext diff.statgraphwidth diff.colormoved"
    " diff.colormovedws diff.indentheuristic diff.suppressblankempty diff.submodule diff.ignoresubmodules diff.dirstat"
    " diff.wserrorhighlight diff.renamelimit".split()
)


def _harmless_config(setting: str) -> str | None:
    """`-c key=value` is proven when the key only changes how git reads and prints."""
    key = setting.partition("=")[0].lower()
    if key in _HARMLESS_KEYS or key.startswith(_HARMLESS_KEY_PREFIXES):
        return None
    return f"-c {key} is not a setting known to be read-only"


GIT: Options = options(
    "-vhpP --version --help --paginate --no-pager --no-replace-objects --bare --literal-pathspecs --glob-pathspecs"
    " --noglob-pathspecs --icase-pathspecs --no-optional-locks --html-path --man-path --info-path --exec-path"
    " --no-lazy-fetch --no-advice",
    "-C -c --git-dir --work-tree --namespace",
    "--list-cmds",
    value_checks={"-c": _harmless_config},
    subcommands={
        "": options(),
        "status": options(
            "-vsbz --verbose --short --branch --show-stash --ahead-behind --no-ahead-behind --long --null --no-renames"
            " --renames --no-column", "", "-uM --porcelain --untracked-files --ignored --ignore-submodules --column"
            " --find-renames"),
        "log": _LOG, "show": _LOG, "whatchanged": _LOG, "shortlog": options(
            _DIFF_FLAGS + _LOG_FLAGS + " -n -s -e --committer --numbered --summary --email",
            _DIFF_VALUED + _LOG_VALUED + " --group", _DIFF_ATTACHED + _LOG_ATTACHED + " -w", numeric=True),
        "rev-list": options(
            _LOG_FLAGS + " --objects --objects-edge --objects-edge-aggressive --unpacked --header --bisect-vars"
            " --bisect-all --object-names --no-object-names --no-filter --filter-print-omitted --in-commit-order"
            " --no-object-names --quiet", _LOG_VALUED, _LOG_ATTACHED + " --disk-usage --missing --filter --abbrev",
            numeric=True),
        "diff": _DIFF, "diff-tree": options(_DIFF_FLAGS + " -r -t -v --root --stdin -m --always --merge-base",
                                            _DIFF_VALUED, _DIFF_ATTACHED + " --pretty", numeric=True),
        "diff-index": _DIFF, "diff-files": options(_DIFF_FLAGS + " -q", _DIFF_VALUED, _DIFF_ATTACHED, numeric=True),
        "range-diff": options(_DIFF_FLAGS + " --no-dual-color --left-only --right-only --no-notes",
                              _DIFF_VALUED + " --creation-factor", _DIFF_ATTACHED + " --notes", numeric=True),
        "grep": options(
            "-viwaIrEGFPnhHlLzocpWq --cached --no-index --untracked --exclude-standard --no-exclude-standard"
            " --recurse-submodules --invert-match --ignore-case --word-regexp --text --textconv --no-textconv"
            " --recursive --no-recursive --extended-regexp --basic-regexp --fixed-strings --perl-regexp"
            " --line-number --column --full-name --files-with-matches --name-only --files-without-match --null"
            " --only-matching --count --break --heading --show-function --function-context --and --or --not --quiet"
            " --all-match",
            "-CBAfem --max-depth --context --before-context --after-context --threads --max-count", "--color",
            numeric=True),
        "blame": _BLAME, "annotate": _BLAME,
        "rev-parse": options(
            "-q --verify --quiet --sq --sq-quote --not --symbolic --symbolic-full-name --all --show-toplevel"
            " --show-cdup --show-prefix --show-superproject-working-tree --show-ref-format --is-inside-work-tree"
            " --is-inside-git-dir --is-bare-repository --is-shallow-repository --absolute-git-dir --git-dir"
            " --git-common-dir --shared-index-path --local-env-vars --revs-only --no-revs --flags --no-flags"
            " --keep-dashdash --stop-at-non-option --parseopt --stuck-long --verify",
            "--default --prefix --git-path --resolve-git-dir --since --after --until --before --exclude"
            " --exclude-hidden",
            "--short --abbrev-ref --branches --tags --remotes --glob --show-object-format --disambiguate"
            " --path-format"),
        "ls-files": options(
            "-ztvfcdmoiskur --cached --deleted --modified --others --ignored --stage --killed --directory"
            " --no-empty-directory --empty-directory --eol --unmerged --resolve-undo --exclude-standard --full-name"
            " --recurse-submodules --error-unmatch --debug --deduplicate --sparse",
            "-xX --exclude --exclude-from --exclude-per-directory --with-tree --format", "--abbrev"),
        "ls-tree": options("-drtzl --long --name-only --name-status --object-only --full-name --full-tree",
                           "--format", "--abbrev"),
        "cat-file": options(
            "-eptsz -Z --allow-unknown-type --use-mailmap --mailmap --no-mailmap --batch-all-objects --buffer"
            " --follow-symlinks --unordered --textconv --filters", "--path",
            "--batch --batch-check --batch-command"),
        "describe": options(
            "--contains --debug --all --tags --long --first-parent --exact-match --always",
            "--candidates --match --exclude", "--abbrev --dirty --broken"),
        "for-each-ref": options("-sp --shell --perl --python --tcl --ignore-case --omit-empty --stdin"
                                " --include-root-refs",
                                "--count --exclude " + _REF_FILTERS, "--color"),
        "show-ref": options("-dq --tags --heads --branches --verify --exists --head --dereference --quiet",
                            "", "-s --hash --abbrev --exclude-existing"),
        "show-branch": options("-arg --all --remotes --current --topo-order --date-order --sparse --no-name --sha1-name"
                               " --merge-base --independent --topics", "", "--more --list --reflog --color"),
        "name-rev": options("--name-only --tags --all --stdin --annotate-stdin --undefined --no-undefined --always",
                            "--refs --exclude"),
        "merge-base": options("-a --all --octopus --independent --is-ancestor --fork-point"),
        "count-objects": options("-vH --verbose --human-readable"),
        "check-ignore": options("-qvzn --quiet --verbose --stdin --non-matching --no-index"),
        "check-attr": options("-az --all --cached --stdin", "--source"),
        "cherry": options("-v --verbose", "", "--abbrev"),
        "var": options("-l"),
        "version": options("--build-options"),
        "help": options("-amivgc --all --external-commands --aliases --no-external-commands --no-aliases --man --info"
                        " --verbose --guides --user-interfaces --developer-interfaces --config"),
        "branch": options(
            "-arlvqi --all --remotes --list --verbose --quiet --show-current --ignore-case --omit-empty --no-color"
            " --no-column --no-abbrev", _REF_FILTERS, "--color --column --abbrev", check=_list_form),
        "tag": options("-li --list --ignore-case --omit-empty --no-column --no-color", _REF_FILTERS,
                       "-n --column --color", check=_list_form),
        "config": options(
            _CONFIG_SCOPE + _CONFIG_TYPES + " -l --list --get --get-all --get-regexp --get-urlmatch --get-color"
            " --get-colorbool", "-ft --file --blob --type --default", check=_config_read),
        "clean": options("-ndxXq --dry-run --quiet", "-e --exclude", requires="-n --dry-run"),
        "stash": subcommands({"list": _LOG, "show": options(
            _DIFF_FLAGS + " --include-untracked --only-untracked --no-include-untracked", _DIFF_VALUED,
            _DIFF_ATTACHED + " -u", numeric=True)}),
        "worktree": subcommands({"list": options("-vz --porcelain --verbose", "--expire")}),
        "remote": options("-v --verbose", subcommands={"": options(), "get-url": options("--push --all")}),
        "notes": options("", "--ref", subcommands={"": options(), "list": options(), "show": options()}),
        "reflog": Options(_LOG.flags, _LOG.valued, _LOG.attached, numeric=True,
                          subcommands={"": options(), "show": _LOG, "list": options(), "exists": options()}),
    },
)

_GH_OUTPUT = " --json -q --jq -t --template"
_GH_READ = options("-h --help", "-R --repo" + _GH_OUTPUT)


def _gh(flags: str = "", valued: str = "") -> Options:
    return options("-h --help " + flags, "-R --repo" + _GH_OUTPUT + " " + valued)


_GH_LIST_FILTERS = ("-a -A -l -L -S -s -B -H --assignee --author --label --limit --search --state --base --head --app"
                    " --mention --milestone")
GH = unless_env(Options(_GH_READ.flags, _GH_READ.valued, subcommands={
    "pr": subcommands({"list": _gh("-d --draft", _GH_LIST_FILTERS), "view": _gh("-c --comments"),
                       "status": _gh("-c --conflict-status"), "diff": _gh("--name-only --patch", "--color"),
                       "checks": _gh("--required --watch --fail-fast", "-i --interval")}),
    "issue": subcommands({"list": _gh("", _GH_LIST_FILTERS), "view": _gh("-c --comments"), "status": _gh()}),
    "repo": subcommands({"view": _gh("", "-b --branch"), "list": _gh(
        "--archived --no-archived --fork --source", "-L --limit -l --language --topic --visibility")}),
    "search": subcommands({kind: _gh("--include-forks --archived --merged --draft --locked --no-assignee"
                                     " --no-label --no-milestone --checks", "-L --limit --owner --repo --language"
                                     " --sort --order --match --state --label --author --assignee --created"
                                     " --updated --topic --visibility --filename --extension --size --stars"
                                     " --forks --license --hash --committer --author-date --committer-date")
                           for kind in ("repos", "issues", "prs", "code", "commits")}),
    "gist": subcommands({"list": _gh("--public --secret", "-L --limit"), "view": _gh("-r --raw --files",
                                                                                     "-f --filename")}),
    "status": _gh("", "-o --org -e --exclude"),
    "auth": subcommands({"status": _gh("--active", "-h --hostname")}),
    "label": subcommands({"list": _gh("", "-L --limit -S --search --sort --order")}),
}), "GH_PAGER", "GH_BROWSER", "GH_EDITOR", "GH_CONFIG_DIR", "BROWSER")

PROVEN = (
    "git status", "git status -sb", "git -C repo log --oneline -n 20", "git log --graph --decorate --all -5",
    "git log -p -S needle -- src/app.py", "git show HEAD~1 --stat", "git diff --cached --name-only",
    "git diff HEAD~3 -- README.md", "git diff --no-index a.txt b.txt", "git shortlog -sn", "git whatchanged -3",
    "git rev-list --count HEAD", "git diff-tree -r --name-only HEAD", "git range-diff main~3..main topic~3..topic",
    "git grep -n TODO", "git blame -L 10,20 src/app.py", "git annotate src/app.py", "git rev-parse --show-toplevel",
    "git rev-parse --abbrev-ref HEAD", "git ls-files -m", "git ls-tree -r --name-only HEAD", "git cat-file -p HEAD",
    "git describe --tags --always", "git for-each-ref --sort=-committerdate refs/heads", "git show-ref --tags",
    "git show-branch --all", "git name-rev HEAD", "git merge-base main topic", "git count-objects -vH",
    "git check-ignore -v build/", "git check-attr -a README.md", "git cherry -v main", "git var -l", "git version",
    "git help log", "git branch -a", "git branch --list 'feat/*'", "git tag", "git tag -l 'v1.*'",
    "git tag -n --sort=-v:refname", "git config --get user.email", "git config --list --show-origin",
    "git config user.name", "git clean -n -d", "git stash list", "git stash show -p stash@{0}", "git worktree list",
    "git remote -v", "git remote get-url origin", "git notes list", "git reflog -10",
    "git --no-pager diff", "git diff-index --quiet HEAD --", "git diff-files --name-only",
    "git -c color.ui=never log --oneline", "gh pr list --state open --limit 20", "gh pr view 12 --comments",
    "gh issue list -l bug", "gh repo view --json name", "gh auth status",
)

PACK = Pack("vcs.git", "git and code-hosting CLIs: history rewrites, force pushes, and settings that run programs.",
            rules=RULES, read_only={"git": GIT, "gh": GH}, proven=PROVEN)
