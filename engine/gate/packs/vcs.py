"""Version-control rules: history rewrites, discarded work, pushes and remote traffic."""

from __future__ import annotations

import re

from engine.gate.packs.model import DANGEROUS, IRREVERSIBLE, Pack, rule
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
             "--" in c.args or c.flags & {"-f", "--force", "-W", "--worktree", "--pathspec-from-file", "-C", "-B"}
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
         first="commit merge rebase cherry-pick revert am apply filter-branch filter-repo replace update-ref gc prune"
               " init mv rm add tag notes bisect",
         examples=["git commit -m 'x'", "git rebase main", "git add -A"], counter=["git show HEAD"]),
    rule("git.branch-delete", DANGEROUS, "fs", "deletes or renames a branch", names="git", sub="branch",
         flags="-d -D --delete -m -M --move -f --force", examples=["git branch -D feature"], counter=["git branch -a"]),
    rule("git.branch-create", DANGEROUS, "fs", "creates a branch", names="git", sub="branch",
         test=lambda c: len(c.operands) > 1, examples=["git branch feature-new"], counter=["git branch --show-current"]),
    rule("git.stash", DANGEROUS, "fs", "stashes or drops work in progress", names="git", sub="stash",
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
         test=lambda c: not c.flags & {"--get", "--list", "-l", "--get-all", "--get-regexp"},
         examples=["git config user.name x"], counter=["git config --get user.name"]),
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

PACK = Pack("vcs.git", "git and code-hosting CLIs: history rewrites, force pushes, and settings that run programs.", rules=RULES)
