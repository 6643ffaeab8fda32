"""Finding 11: secrets were read by safe-rated commands.

`sort ~/.ssh/id_rsa`, `cat < ~/.ssh/id_rsa`, `cd ~/.ssh && paste id_rsa`, `printenv
SOME_API_TOKEN`, `cat /etc/shado?`, `date -f ~/.ssh/id_rsa` and `ps eww` were all rated
safe: only a short list of readers was checked, input redirections, the directory a
script had moved into and globs were not, and printing the environment was on the
read-only list.

Now any command given a secret location (an argument, an option's value, an input
redirection, a path relative to a directory the script moved into, or a glob that
could match one) and any dump of the environment needs a person. Listing names (`ls`,
`stat`, `find` without `-exec`) stays safe unless that output feeds another command.

The strings below are data for the classifier; none of them is ever run.
"""

from __future__ import annotations

import pytest

from engine.gate.classifier import Classifier
from engine.gate.verdict import Level
from engine.tools.call import ToolCall

CLASSIFIER = Classifier()


def shell(command: str):
    return CLASSIFIER.classify(ToolCall("shell.run", {"command": command}))


REPORTED = [
    "sort ~/.ssh/id_rsa", "cat < ~/.ssh/id_rsa", "cd ~/.ssh && paste id_rsa", "printenv SOME_API_TOKEN",
    "cat /etc/shado?", "date -f ~/.ssh/id_rsa", "ps eww",
]
ANY_READER = [
    "wc -c ~/.ssh/id_rsa", "diff ~/.ssh/id_rsa /dev/null", "cmp ~/.aws/credentials x", "md5sum ~/.ssh/id_ed25519",
    "uniq ~/.netrc", "cut -c1- ~/.git-credentials", "tr a a < ~/.pgpass", "fold /etc/shadow", "rev /etc/gshadow",
    "comm ~/.ssh/id_rsa /dev/null", "join ~/.ssh/id_rsa x", "nl ~/.kube/config", "column ~/.docker/config.json",
    "jq . ~/.docker/config.json", "look a ~/.ssh/id_rsa", "expand /etc/ssh/ssh_host_ed25519_key", "od -c .env",
    "sha256sum /etc/sudoers", "zcat ~/.ssh/id_rsa.gz", "paste ~/.aws/credentials", "numfmt < ~/.ssh/id_rsa",
    "cat /root/.ssh/id_rsa", "cat /home/alice/.ssh/config", "cat $HOME/.ssh/config", "cat ${HOME}/.aws/config",
    "cat ~alice/.ssh/config", "cat ~/x/../.ssh/config", "cat /root/x/../.ssh/config", "cat .ssh/config",
    "cat /var/run/secrets/kubernetes.io/serviceaccount/token", "cat /run/secrets/db", "git show HEAD:.env",
    "git diff --no-index ~/.ssh/id_rsa /dev/null", "grep -f ~/.ssh/id_rsa x", "sort --files0-from=~/.netrc",
    "date --file=/etc/shadow", "dd if=/etc/shadow", "head -c 100 ~/.gnupg/private-keys-v1.d/x.key",
    "x=~/.ssh/id_rsa; head $x", "env -C ~/.ssh cat config", "env --chdir=/etc cat shadow",
    "cat ~/.config/gh/hosts.yml", "cat /etc/ssl/private/server.key", "cat secrets.yaml",
]
REDIRECTED = [
    "cat < ~/.ssh/id_rsa", "cat 0< ~/.ssh/id_rsa", "sort </etc/shadow", "head <~/.aws/credentials",
    "while read l; do echo $l; done < ~/.ssh/id_rsa", "exec 3< ~/.ssh/id_rsa", "cat <> ~/.ssh/id_rsa",
    "xargs -0 < /proc/1/environ", "tr '\\0' '\\n' < /proc/self/environ", "{ cat; } < ~/.netrc",
]
MOVED_IN = [
    "cd ~/.ssh && paste id_rsa", "cd ~/.ssh && cat config", "cd ~/.ssh; cat *", "cd ~/.aws && sort config",
    "cd ~/.ssh && grep -r BEGIN", "cd ~/.ssh && rg PRIVATE", "cd ~ && cat .ssh/config", "cd && cat .aws/credentials",
    "cd /etc && cat shadow", "cd /etc; cat gshadow", "cd / && cat etc/shadow", "cd ~/.gnupg && tar c . | base64",
    "pushd ~/.ssh; cat config; popd", "cd /proc/self && cat environ", "cd ~/.ssh/.. && cat .ssh/config",
    "cd $HOME/.ssh && wc known_hosts", "cd /root && cat .ssh/config", "cd ~; cd .ssh; cat config",
]
GLOBS = [
    "cat /etc/shado?", "cat /etc/s*w", "cat /etc/sh*", "cat /etc/[s]hadow", "cat ~/.ssh/*", "cat ~/.ss?/id_*",
    "cat ~/.s*/config", "cat ~/.a*/c*", "cat /e*/shadow", "grep -r x ~/.ss*", "cat /proc/*/environ",
    "cat /pr?c/1/environ", "cat /proc/[0-9]*/environ", "cat *.pem", "cat .env*", "cat .e?v", "cat id_*",
    "cat ~/.*/credentials", "cat /etc/ssh/*key", "cat /run/secrets/*", "head ~/.netr?", "sort ~/.git-cred*",
]
ENVIRONMENT = [
    "printenv", "printenv SOME_API_TOKEN", "printenv DATABASE_URL", "printenv HOME TOKEN", "env", "env -0",
    "env -u FOO", "env -i", "env FOO=1",
    "sudo env", "command env", "busybox env", "/usr/bin/env", "env | grep TOKEN", "export -p", "export",
    "declare -p", "declare -x", "declare -p AWS_SECRET_ACCESS_KEY", "declare", "typeset", "typeset -x", "set",
    "set | grep KEY", "readonly", "readonly -p", "local", "ps e", "ps eww", "ps auxe", "ps axeww", "ps -E",
    "ps aux e", "cat /proc/self/environ", "cat /proc/1/environ", "cat /proc/$$/environ", "strings /proc/1/environ",
    "cat /proc/*/environ", "xargs -0 < /proc/1/environ", "jq -n env", "jq -n '$ENV'", "jq -n 'env.TOKEN'",
    "yq -n 'env(TOKEN)'", "echo $AWS_SECRET_ACCESS_KEY", "echo \"$GITHUB_TOKEN\"", "printf '%s' $API_KEY",
    "echo ${DB_PASSWORD}", "cat <<EOF\n$OPENAI_API_KEY\nEOF", "cat <<< $NPM_TOKEN", "cat /proc/1/task/1/environ",
]
LAUNDERED = [
    "find ~/.ssh -type f | xargs cat", "ls ~/.ssh | xargs cat", "cat $(find ~/.ssh -type f)",
    "cat $(ls -d ~/.ssh/*)", "cat $(echo ~/.ssh/id_rsa)", "find ~/.ssh -exec cat {} \\;",
    "find ~ -name id_rsa | xargs cat", "find ~/.aws -print0 | xargs -0 head", "cat $(cat list)", "cat `cat list`",
    "cat $(echo /etc)/shadow", "cat $(echo /etc/shado)w", "cat $(echo /etc/shado)$(echo w)", "x=$(cat list); cat $x",
    "cat list | xargs cat", "xargs -a list cat", "xargs cat < list", "xargs cat <<< ~/.ssh/id_rsa",
    "cat $KUBECONFIG", "cat \"$SSH_KEY_PATH\"", "cat $GOOGLE_APPLICATION_CREDENTIALS",
]


@pytest.mark.parametrize("command", REPORTED + ANY_READER + REDIRECTED + MOVED_IN + GLOBS + ENVIRONMENT + LAUNDERED)
def test_f11_secret_reads_need_a_person(command: str) -> None:
    verdict = shell(command)
    assert verdict.level >= Level.DANGEROUS, f"{command!r} rated {verdict}"


@pytest.mark.parametrize("command", REPORTED[:6] + GLOBS[:3] + MOVED_IN[:3] + ["cat < ~/.ssh/id_rsa"])
def test_f11_secret_reads_name_the_rule(command: str) -> None:
    rules = shell(command).rules
    assert "creds.read-secret" in rules or "creds.env-dump" in rules, rules


@pytest.mark.parametrize("command", ["printenv", "env", "ps eww", "export -p", "set", "declare -p"])
def test_f11_environment_dumps_name_the_rule(command: str) -> None:
    assert "creds.env-dump" in shell(command).rules


STILL_SAFE = [
    "cat /etc/passwd", "cat /etc/passwd /etc/group", "find -newer /etc/passwd", "cat /etc/hostname",
    "cat /etc/os-release", "cat /etc/*release", "ls ~/.ssh", "ls -la ~/.ssh", "stat ~/.ssh/id_rsa",
    "test -f ~/.ssh/id_rsa", "[ -f .env ]", "find ~/.ssh -name '*.pub'", "du -sh ~/.ssh", "cd ~/.ssh && ls",
    "cat README.md", "cat *.txt", "cat *", "ls *", "grep -r TODO .", "find . -name '*.rs'",
    "find /tmp -type f -name \".*\"", "find . -name '[mM][yY]*'", "ps aux", "ps -ef", "ps h -o pid,user -C ssh,sshd",
    "ps -o user,pid", "echo $HOME", "echo \"$PATH\"", "cd /tmp && ls -la", "cd src && cat main.py",
    "grep 'id_.*' notes.txt", "jq '.env' package.json", "cat docs/credentials.md", "echo ~/.ssh/id_rsa",
    "cat <<'EOF'\n$TOKEN\nEOF", "curl 'http://localhost:9200/_search?q=error'", "ls /proc/*/environ",
    "cat log-$(date +%F).txt", "file -L `which gcc`", "cat $(pwd)/README.md", "find . -name '*.txt' | xargs grep -l x",
    "echo $(date)", "echo ok | xargs echo", "echo $TERM $MONKEY",
]


@pytest.mark.parametrize("command", STILL_SAFE)
def test_f11_ordinary_reads_stay_safe(command: str) -> None:
    verdict = shell(command)
    assert verdict.level is Level.SAFE, f"{command!r} rated {verdict}"


@pytest.mark.parametrize("path", ["~/.ssh/id_rsa", "/etc/shadow", "/proc/self/environ", ".env", "~/.aws/credentials",
                                  ".ssh/id_ed25519"])
def test_f11_file_tools_reading_secrets_need_a_person(path: str) -> None:
    verdict = CLASSIFIER.classify(ToolCall("fs.read", {"path": path}))
    assert verdict.level >= Level.DANGEROUS, verdict
