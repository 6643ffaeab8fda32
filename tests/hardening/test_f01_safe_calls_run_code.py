"""Finding 1: any command ran using only calls rated safe.

(a) `fs.write` a script, `fs.move` it to `tools/ls`, then `shell.run "tools/ls"`: the gate
trusted a program given by a path by its last name. (b) `fs.append` a `core.fsmonitor`
command to `.git/config`, then `shell.run "git status"`: a safe-rated write planted code
that a safe-rated command runs.

Now a program named by a path outside the system's own bin directories is never vouched
for (nor is a launcher given by such a path, nor a search path pointed into the
workspace), and every write into a tool's configuration (git's directory, hooks,
Makefiles, package scripts, Python start-up files, editor tasks, …) needs a person.

The strings below are data for the classifier; none of them is ever run.
"""

from __future__ import annotations

import pytest

from engine.gate.classifier import Classifier
from engine.gate.gate import Decision, Gate
from engine.gate.policy import Policy
from engine.gate.verdict import Level
from engine.tier import Tier
from engine.tools.call import ToolCall

CLASSIFIER = Classifier()


def shell(command: str):
    return CLASSIFIER.classify(ToolCall("shell.run", {"command": command}))


def call(tool: str, **args):
    return CLASSIFIER.classify(ToolCall(tool, args))


def test_f01_the_reported_sequences_need_a_person() -> None:
    assert call("fs.write", path="x.sh", content="#!/bin/sh\nid\n").level is Level.SAFE
    assert call("fs.move", src="x.sh", dst="tools/ls").level is Level.SAFE
    assert shell("tools/ls").level >= Level.DANGEROUS
    planted = call("fs.append", path=".git/config", content="[core]\n\tfsmonitor = ./x.sh\n")
    assert planted.level >= Level.DANGEROUS
    assert ".git/config" in planted.reason


PATH_PROGRAMS = [
    "tools/ls", "tools/ls -la", "tools/cat README.md", "tools/git status", "bin/run", "sub/../x", "./x",
    "./tools/ls", "sub/./ls", "tools//ls", "/tmp/ls", "/work/ws/tools/ls", "/usr/bin/../../tmp/ls",
    "/usr/local/bin/../../../tmp/ls", "~/bin/ls", "$HOME/bin/ls", "/home/alice/bin/ls", "../ls",
    "'tools/ls'", "\"tools/\"ls", "t\\ools/ls", "tools/ls > /dev/null", "tools/ls | head", "ls && tools/ls",
    "echo $(tools/ls)", "cat <(tools/ls)", "{ tools/ls; }", "(tools/ls)", "if tools/ls; then :; fi",
    "tools/python3 --version", "tools/ls --help",
]
LAUNCHED = [
    "env tools/ls", "nice tools/ls", "nice -n 5 tools/ls", "timeout 5 tools/ls", "command tools/ls",
    "exec tools/ls", "nohup tools/ls", "stdbuf -o0 tools/ls", "time tools/ls", "env -i tools/ls",
    "tools/env ls", "tools/nice ls", "tools/timeout 5 ls", "tools/command ls", "env tools/env ls",
    "nice tools/nice ls", "/tmp/env ls", "./env ls", "tools/busybox ls", "tools/sudo ls",
]
INDIRECT = [
    "xargs tools/ls", "echo a | xargs tools/ls", "echo a | xargs -I{} tools/ls {}",
    "find . -exec tools/ls {} \\;", "find . -execdir tools/ls {} +", "find . -ok tools/ls {} \\;",
    "parallel tools/ls ::: a", "sh tools/x", "bash ./x.sh", "sh -c tools/ls", "bash -c 'cd sub && tools/ls'",
    "sh -c 'ls; tools/ls'", "eval tools/ls", "watch tools/ls", "python script.py", "python3 tools/x.py",
    "python3 -m tools.x", "node x.js", "perl x.pl", "ruby x.rb", "source x", "source tools/x.sh", ". ./x",
    "make", "make -C sub", "make test", "npm test", "npm run build", "yarn test", "pytest", "tox",
    "cat <<EOF\n$(tools/ls)\nEOF", "cat <<EOF\n`tools/ls`\nEOF", "cat <<-EOF\n\t${x:-$(tools/ls)}\n\tEOF",
    "sed -f script.sed notes.txt", "sed --file=script.sed notes.txt", "awk -f prog.awk notes.txt",
]
SEARCH_PATH = [
    "PATH=tools:$PATH; ls", "PATH=./tools:$PATH; ls", "PATH=\"$PWD/tools:$PATH\"; ls", "PATH=tools:$PATH ls",
    "export PATH=tools:$PATH; ls", "PATH+=:tools; ls", "declare PATH=tools; ls", "typeset -x PATH=tools; ls",
    "f() { local PATH=tools; ls; }; f", "readonly PATH=tools; ls", "hash -p tools/ls ls; ls", "hash -p ./x ls",
    "alias ls=tools/ls", "BASH_ENV=x.sh bash -c ls", "ENV=x.sh sh -c ls",
]
CONFIG_POINTERS = [
    "HOME=. git status", "XDG_CONFIG_HOME=. git status", "GIT_CONFIG_GLOBAL=cfg git status",
    "GIT_CONFIG_SYSTEM=cfg git log", "GIT_DIR=sub git status", "GIT_EXTERNAL_DIFF=tools/x git diff",
    "export HOME=.; git status", "export XDG_CONFIG_HOME=.; git log", "export GIT_EXTERNAL_DIFF=tools/x; git diff",
    "HOME=.; git status", "XDG_CONFIG_HOME=$PWD; git status", "ZDOTDIR=. zsh -c ls",
    "git -c include.path=cfg status", "git -c includeIf.onbranch:main.path=cfg status",
    "git -c Core.FSMonitor=tools/x status", "git -c core.fsmonitor=tools/x status",
    "git -c diff.external=tools/x diff", "git -c core.pager=tools/x log", "git --exec-path=tools status",
    "git --config-env=core.fsmonitor=X status", "KUBECONFIG=kc kubectl get pods", "kubectl --kubeconfig kc get pods",
    "kubectl --kubeconfig=kc get pods", "AWS_CONFIG_FILE=cfg aws s3 ls", "docker --config d ps",
    "helm --kubeconfig kc list", "man -P tools/x ls", "man --pager=tools/x ls", "MANPAGER=tools/x man ls",
    "LESSOPEN='|tools/x %s' less README.md", "less --lesskey-src=keys README.md", "less -k keys README.md",
]


@pytest.mark.parametrize("command", PATH_PROGRAMS + LAUNCHED + INDIRECT + SEARCH_PATH + CONFIG_POINTERS)
def test_f01_code_from_the_workspace_is_never_safe(command: str) -> None:
    verdict = shell(command)
    assert verdict.level >= Level.DANGEROUS, f"{command!r} rated {verdict}"


@pytest.mark.parametrize("command", ["tools/ls", "./x", "/tmp/ls", "tools/env ls", "env tools/ls",
                                     "find . -exec tools/ls {} \\;"])
def test_f01_a_path_program_names_itself(command: str) -> None:
    assert "exec.local-program" in shell(command).rules


STILL_SAFE = [
    "ls", "ls -la", "/bin/ls", "/usr/bin/ls -la", "/usr/bin/git status", "/usr/local/bin/jq . x.json",
    "\"git\" status", "git status", "git log --oneline", "git diff", "cat README.md", "grep -r TODO src",
    "python3 --version", "FOO=1", "VAR=value echo test", "git -c color.ui=never log", "kubectl get pods",
    "find . -name '*.py'", "echo a | xargs ls", "find . -exec grep -l x {} \\;", "ls tools/ls", "cat tools/ls",
    "man ls", "less README.md", "hash", "docker ps", "cd sub && ls", "echo $HOME", "cat <<'EOF'\n$(tools/ls)\nEOF",
    "cat <<\\EOF\n`tools/ls`\nEOF", "sed -n 1,5p notes.txt",
]


@pytest.mark.parametrize("command", STILL_SAFE)
def test_f01_plain_reads_stay_safe(command: str) -> None:
    verdict = shell(command)
    assert verdict.level is Level.SAFE, f"{command!r} rated {verdict}"


CONFIG_FILES = [
    ".git/config", ".git/hooks/pre-commit", ".git/hooks/post-checkout", ".git/info/attributes", ".git",
    "./.git/config", "a/../.git/config", "sub/.git/config", "vendor/lib/.git/hooks/pre-push", ".git//config",
    ".GIT/config", ".git/./hooks/x", "HEAD", "sub/HEAD", ".gitattributes", ".gitmodules", ".gitconfig",
    ".lfsconfig", ".config/git/config", ".hg/hgrc", ".husky/pre-commit", ".pre-commit-config.yaml",
    ".npmrc", ".yarnrc", ".yarnrc.yml", ".yarn/releases/yarn-4.0.0.cjs", "package.json", "web/package.json",
    ".pnpmfile.cjs", "bunfig.toml", "deno.json", "Makefile", "makefile", "GNUmakefile", "rules.mk", "src/GNUmakefile",
    "justfile", "Justfile", "Taskfile.yml", ".envrc", ".direnv/x", ".tool-versions", ".python-version",
    "mise.toml", "pyproject.toml", "setup.py", "setup.cfg", "tox.ini", "noxfile.py", "conftest.py",
    "tests/conftest.py", "pytest.ini", ".pylintrc", "sitecustomize.py", "usercustomize.py",
    ".venv/lib/python3.11/site-packages/evil.pth", "pip.conf", ".pip/pip.conf", "pyvenv.cfg", "Cargo.toml",
    "build.rs", ".cargo/config.toml", "rust-toolchain.toml", "Gemfile", "Rakefile", ".bundle/config", ".irbrc",
    ".vscode/tasks.json", ".vscode/settings.json", ".idea/workspace.xml", ".exrc", ".nvim.lua",
    ".dir-locals.el", ".kube/config", ".aws/config", ".curlrc", ".config/x/y",
]


@pytest.mark.parametrize("path", CONFIG_FILES)
@pytest.mark.parametrize("tool", ["fs.write", "fs.append"])
def test_f01_writing_a_tool_configuration_needs_a_person(tool: str, path: str) -> None:
    verdict = call(tool, path=path, content="x")
    assert verdict.level >= Level.DANGEROUS, f"{tool} {path!r} rated {verdict}"
    assert "fs.tool-config" in verdict.rules
    assert path in verdict.reason, verdict.reason


@pytest.mark.parametrize(("tool", "args"), [
    ("fs.move", {"src": "x", "dst": ".git/config"}), ("fs.move", {"src": "x", "dst": ".git/hooks/pre-commit"}),
    ("fs.move", {"src": "x", "dst": "Makefile"}), ("fs.move", {"src": "x.sh", "dst": ".git"}),
    ("fs.move", {"src": ".git", "dst": "old"}), ("fs.move", {"src": "a", "dst": "sub/HEAD"}),
    ("fs.mkdir", {"path": ".git"}), ("fs.mkdir", {"path": ".git/hooks"}), ("fs.mkdir", {"path": ".vscode"}),
    ("fs.delete", {"path": ".git/hooks/pre-commit"}),
])
def test_f01_moving_or_making_tool_configuration_needs_a_person(tool: str, args: dict) -> None:
    verdict = call(tool, **args)
    assert verdict.level >= Level.DANGEROUS and "fs.tool-config" in verdict.rules, verdict


@pytest.mark.parametrize("path", ["src/app.py", "README.md", "docs/git.md", "notes/HEAD.txt", "package-lock.json",
                                  "tests/test_app.py", "config/settings.toml", "gitconfig.md", "make.py",
                                  "src/setup_helpers.py", "my.git/notes.txt", "Makefile.txt"])
def test_f01_ordinary_files_stay_safe(path: str) -> None:
    verdict = call("fs.write", path=path, content="x")
    assert verdict.level is Level.SAFE, f"{path!r} rated {verdict}"
    assert call("fs.read", path=".git/config").level is Level.SAFE


SHELL_WRITES = [
    ("echo x >> .git/config", ".git/config"), ("printf x > .git/hooks/pre-commit", ".git/hooks/pre-commit"),
    ("tee -a .git/config", ".git/config"), ("echo x | tee Makefile", "Makefile"),
    ("cp x .git/hooks/pre-commit", ".git/hooks/pre-commit"), ("mv x .git/hooks/pre-commit", ".git/hooks/pre-commit"),
    ("install -m 755 x .git/hooks/post-merge", ".git/hooks/post-merge"),
    ("ln -s ../../x .git/hooks/post-checkout", ".git/hooks/post-checkout"),
    ("sed -i s/a/b/ .git/config", ".git/config"), ("perl -pi -e s/a/b/ package.json", "package.json"),
    ("touch .envrc", ".envrc"), ("mkdir -p .vscode", ".vscode"), ("dd if=x of=.git/config", ".git/config"),
    ("cat x > sub/.git/config", "sub/.git/config"), ("echo 'all:; id' > Makefile", "Makefile"),
    ("cp evil.pth .venv/lib/python3.11/site-packages/", ".venv/lib/python3.11/site-packages"),
    ("truncate -s 0 .git/config", ".git/config"), ("rsync x .git/hooks/pre-commit", ".git/hooks/pre-commit"),
    ("cd .git && echo x >> config", "config"), ("mv .git old", ".git"),
]


@pytest.mark.parametrize(("command", "path"), SHELL_WRITES)
def test_f01_shell_writes_into_tool_configuration_name_the_file(command: str, path: str) -> None:
    verdict = shell(command)
    assert verdict.level >= Level.DANGEROUS and "fs.write-tool-config" in verdict.rules, f"{command!r}: {verdict}"
    assert path in verdict.reason, verdict.reason


@pytest.mark.parametrize("command", [
    "git config core.fsmonitor x", "git config --local core.hooksPath h", "git config core.sshCommand x",
    "git config core.pager x", "git config core.editor x", "git config alias.st '!x'", "git config filter.a.clean x",
    "git config diff.external x", "git config Core.FsMonitor x", "git config --add core.fsmonitor x",
    "git config --file .git/config core.fsmonitor x", "git config include.path cfg", "git config gpg.program x",
    "git config --replace-all core.askPass x", "git config sequence.editor x", "git config credential.helper '!x'",
])
def test_f01_git_config_that_runs_programs(command: str) -> None:
    verdict = shell(command)
    assert verdict.level >= Level.DANGEROUS and "git.config-exec" in verdict.rules, f"{command!r}: {verdict}"


@pytest.mark.parametrize(("tool", "args"), [
    ("shell.run", {"command": "echo x >> .git/config"}), ("shell.run", {"command": "touch .envrc"}),
    ("shell.run", {"command": "mkdir .git/hooks"}), ("shell.run", {"command": "cp x .git/hooks/pre-commit"}),
])
def test_f01_auto_approved_write_rules_do_not_cover_tool_configuration(tool: str, args: dict) -> None:
    policy = Policy(auto_approve_rules=frozenset({"fs.redirect-write", "fs.create", "fs.copy", "fs.tee",
                                                 "evasion.startup-file"}))
    ruling = Gate(policy).rule(ToolCall(tool, args), Tier.LOCAL_REVERSIBLE)
    assert ruling.decision is Decision.ASK, ruling
