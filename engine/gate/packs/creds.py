"""Credential rules: reading key material, changing accounts, and secret stores."""

from __future__ import annotations

import re

from engine.gate.paths import is_secret
from engine.gate.packs.model import CATASTROPHIC, DANGEROUS, IRREVERSIBLE, Pack, any_operand, rule
from engine.gate.shell.view import Command

# Variables that make a program load or run something else, or read its configuration
# (and so its hooks) from somewhere else: HOME and XDG_CONFIG_HOME move ~/.gitconfig.
_HOOK_VARIABLE = re.compile(
    r"LD_PRELOAD|LD_LIBRARY_PATH|LD_AUDIT|DYLD_\w+|PAGER|MANPAGER|EDITOR|VISUAL|SSH_ASKPASS|BASH_ENV|ENV"
    r"|PROMPT_COMMAND|PATH|PYTHONPATH|PYTHONSTARTUP|PYTHONHOME|PYTHONUSERBASE|NODE_OPTIONS|NODE_PATH|PERL5OPT"
    r"|PERL5LIB|PERLLIB|RUBYOPT|RUBYLIB|LESSOPEN|LESSCLOSE|LESSKEY\w*|CRASHPAGER|BUNDLE_GEMFILE|GIT_\w+|IFS|HISTFILE"
    r"|HOME|ZDOTDIR|XDG_CONFIG_\w+|KUBECONFIG|AWS_CONFIG_FILE|AWS_SHARED_CREDENTIALS_FILE|DOCKER_CONFIG"
    r"|CLOUDSDK_CONFIG|(?i:npm_config_\w+)|BROWSER|MANOPT"
)
_DECLARES = frozenset({"export", "declare", "typeset", "readonly", "local"})
_READS_INTO = frozenset({"read", "mapfile", "readarray", "getopts"})
_DUMPS = frozenset({"export", "declare", "typeset", "readonly", "local", "set"})
_PS_VALUES = frozenset("-o -O -p -u -U -g -G -t -C -q --format --pid --user --group --sort -s --sid --ppid".split())
_JQ_ENV = re.compile(r"(?<![.\w$/-])env\b(?!\.(?:json|ya?ml|toml|txt|lock)\b)|\$ENV\b|\benvsubst\b")


def _assigned(cmd: Command) -> list[str]:
    """Variable names a command sets: `export X=…`, `printf -v X`, `read X`, `mapfile X`."""
    if cmd.name in _DECLARES:
        return [a.split("=", 1)[0].rstrip("+") for a in cmd.args if "=" in a]
    if cmd.name == "printf":
        return [cmd.args[i + 1] for i, a in enumerate(cmd.args[:-1]) if a == "-v"]
    if cmd.name in _READS_INTO:
        return list(cmd.operands)
    return []


def _hooks(cmd: Command) -> bool:
    return any(_HOOK_VARIABLE.fullmatch(k) for k in cmd.env) or any(_HOOK_VARIABLE.fullmatch(k) for k in _assigned(cmd))


def _dumps_environment(cmd: Command) -> bool:
    """`printenv`, `export -p`, bare `set`/`declare`/`local`, `ps e`, `jq -n env`: all print variables."""
    if cmd.name == "printenv":
        return True
    if cmd.name in _DUMPS:
        return not any("=" in a for a in cmd.operands) and (cmd.name != "set" or not cmd.args) and (
            cmd.name not in ("export", "readonly", "local") or not cmd.operands)
    if cmd.name == "ps":
        return _ps_environment(cmd.args)
    return _JQ_ENV.search(cmd.text) is not None


def _ps_environment(args: tuple[str, ...]) -> bool:
    """BSD-style `ps e…` (a word of letters without a dash) or `-E` shows each process's environment."""
    skip = False
    for arg in args:
        if skip:
            skip = False
        elif arg in _PS_VALUES:
            skip = True
        elif arg == "-E" or (arg.isalpha() and "e" in arg):
            return True
        elif arg.isalpha() and any(ch in arg for ch in "oOpUtkq"):
            skip = True
    return False


RULES = [
    rule("creds.read-secret", DANGEROUS, "creds", "reads a secret location (keys, credentials, password hashes, environ)",
         trigger=True, cite=True,
         examples=["cat ~/.ssh/id_rsa", "sort ~/.aws/credentials", "cat < /etc/shadow", "cat .env", "cat /etc/shado?",
                   "cd ~/.ssh && paste id_rsa", "date -f ~/.ssh/id_rsa", "ls ~/.ssh | xargs cat"],
         counter=["cat /etc/passwd /etc/group", "cat README.md", "ls -la ~/.ssh", "cat *.txt"]),
    rule("creds.env-dump", DANGEROUS, "creds", "prints the environment, where tokens and passwords often live",
         names="printenv export declare typeset readonly local set ps jq yq", test=_dumps_environment,
         examples=["printenv", "printenv API_TOKEN", "env", "export -p", "set", "declare -x", "ps eww", "jq -n env"],
         counter=["ps aux", "ps -ef", "set -e", "jq .env package.json", "export FOO=bar"]),
    rule("creds.secret-variable", DANGEROUS, "creds", "expands a variable named like a secret (token, password, key)",
         trigger=True, cite=True, examples=["echo $GITHUB_TOKEN", "printf %s \"$DB_PASSWORD\""],
         counter=["echo $HOME", "echo '$GITHUB_TOKEN'"]),
    rule("creds.delete-key", DANGEROUS, "creds fs", "deletes key material", names="rm shred unlink",
         test=lambda c: any_operand(c, is_secret), examples=["rm ~/.ssh/id_rsa"], counter=["rm a.txt"]),
    rule("creds.account", DANGEROUS, "creds", "creates, changes or deletes user accounts and passwords",
         names="passwd chpasswd useradd usermod userdel adduser deluser groupadd groupmod groupdel gpasswd chage vipw visudo dscl sysadminctl",
         tier=IRREVERSIBLE, test=lambda c: not (c.name == "passwd" and c.flags <= {"-S", "--status"} and c.flags),
         examples=["passwd root", "useradd bob"], counter=["id bob"]),
    rule("creds.uid0-account", CATASTROPHIC, "creds evasion", "creates a second root account (uid 0)",
         names="useradd usermod adduser", tier=IRREVERSIBLE, args=r"(?:-u|--uid)[ =]?0(?:\s|$)",
         examples=["useradd -o -u 0 backdoor"], counter=["useradd -u 1001 bob"]),
    rule("creds.ssh-keys", DANGEROUS, "creds", "creates or installs SSH keys", names="ssh-keygen ssh-copy-id ssh-add",
         test=lambda c: not c.flags & {"-l", "-L", "-F"}, examples=["ssh-copy-id user@host", "ssh-keygen -t ed25519"],
         counter=["ssh-add -l"]),
    rule("creds.keychain", DANGEROUS, "creds", "reads or changes the system keychain or keyring",
         names="security secret-tool keyctl kwallet-query pass gopass", examples=["security find-generic-password -wa x"],
         counter=["ls"]),
    rule("creds.export-secret-key", CATASTROPHIC, "creds", "exports private signing keys", names="gpg gpg2",
         tier=IRREVERSIBLE, args=r"--export-secret(?:-sub)?-keys", examples=["gpg --export-secret-keys -a"],
         counter=["gpg --list-keys"]),
    rule("creds.secret-store-write", DANGEROUS, "creds net", "changes or deletes secrets in a secret manager",
         names="vault doppler op aws gcloud az bw infisical", tier=IRREVERSIBLE,
         args=r"\b(?:delete|destroy|put|write|update|create|set|rotate|revoke|disable|enable|patch|rollback|restore|remove|edit|upload|import|setup|login|unseal|seal)\b|put-secret-value|update-secret|delete-secret",
         examples=["vault kv destroy -versions=1 secret/x", "doppler secrets delete API_KEY", "op item delete 4f3b2c"],
         counter=["vault kv list secret/"]),
    rule("creds.env-hook", DANGEROUS, "creds injection", "sets a variable that makes programs load or run attacker code", scope="env",
         test=_hooks,
         examples=["export LD_PRELOAD=/tmp/evil.so", "PAGER='sh -c id' git -p help", "CRASHPAGER=/tmp/x crash -h",
                   "PATH=tools:$PATH; ls", "HOME=. git status", "printf -v PATH %s tools", "local GIT_DIR=x"],
         counter=["VAR=value echo test", "export FOO=bar", "FOO=1", "printf -v x %s 1"]),
]

PACK = Pack("core.secrets", "Reading secrets, credential stores, and environment hooks that redirect programs.", rules=RULES, core=True)
