"""Credential rules: reading key material, changing accounts, and secret stores."""

from __future__ import annotations

import re

from engine.gate.paths import is_secret
from engine.gate.rules.model import CATASTROPHIC, DANGEROUS, IRREVERSIBLE, any_operand, rule

_READERS = ("cat tac head tail less more strings xxd od base64 grep rg cp tar zip gpg openssl awk sed nl bat"
            " hexdump vim vi nano")
_HOOK_VARIABLE = re.compile(
    r"LD_PRELOAD|LD_LIBRARY_PATH|LD_AUDIT|DYLD_\w+|PAGER|GIT_PAGER|MANPAGER|EDITOR|VISUAL"
    r"|GIT_SSH(?:_COMMAND)?|GIT_EXTERNAL_DIFF|GIT_EDITOR|GIT_ASKPASS|SSH_ASKPASS|BASH_ENV|ENV"
    r"|PROMPT_COMMAND|PATH|PYTHONPATH|PYTHONSTARTUP|NODE_OPTIONS|PERL5OPT|PERL5LIB|RUBYOPT"
    r"|LESSOPEN|CRASHPAGER|BUNDLE_GEMFILE|GIT_CONFIG_\w+|GIT_DIR|GIT_WORK_TREE|IFS|HISTFILE"
)
_HOOK_EXPORT = re.compile(r"(?:^|\s)(?:LD_PRELOAD|LD_LIBRARY_PATH|DYLD_\w+|PROMPT_COMMAND|BASH_ENV|PATH|HISTFILE|PAGER)=")


def _reads_key(cmd) -> bool:
    return any_operand(cmd, _key_file) and cmd.name != "ls"


def _key_file(path: str) -> bool:
    return is_secret(path) and not path.startswith("/etc/passwd")


RULES = [
    rule("creds.read-secret", DANGEROUS, "creds", "reads private keys, cloud credentials or password files",
         names=_READERS, test=lambda c: _reads_key(c) and "/etc/passwd" not in c.operands,
         examples=["cat ~/.ssh/id_rsa", "cat ~/.aws/credentials", "cat /etc/shadow", "cat .env"],
         counter=["cat /etc/passwd /etc/group", "cat README.md"]),
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
         test=lambda c: any(_HOOK_VARIABLE.fullmatch(k) for k in c.env)
         or (c.name in ("export", "declare", "typeset", "readonly", "local") and _HOOK_EXPORT.search(c.text) is not None),
         examples=["export LD_PRELOAD=/tmp/evil.so", "PAGER='sh -c id' git -p help", "CRASHPAGER=/tmp/x crash -h"],
         counter=["VAR=value echo test", "export FOO=bar"]),
]
