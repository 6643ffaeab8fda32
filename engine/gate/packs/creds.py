"""Credential rules: reading key material, changing accounts, and secret stores."""

from __future__ import annotations

import re

from engine.gate.globs import HAS_GLOB, candidates, expand, matches
from engine.gate.paths import SEARCHERS, fold, is_secret
from engine.gate.packs import cloud, macos
from engine.gate.packs.disks import only_with
from engine.gate.packs.model import CATASTROPHIC, DANGEROUS, IRREVERSIBLE, SAFE, Pack, Proof, any_operand, rule
from engine.gate.proof import at_most, harmless_pager, options, subcommands
from engine.gate.shell import reads
from engine.gate.shell.unwrap import PRIVILEGED
from engine.gate.shell.view import Command

# Variables that make a program load or run something else, or read its configuration
# (and so its hooks) from somewhere else: HOME and XDG_CONFIG_HOME move ~/.gitconfig.
# Pager variables (`PAGER`, `GIT_PAGER`, `SYSTEMD_PAGER`, `AWS_PAGER`, `GH_PAGER`, …) set to nothing
# or to a plain reader (`GIT_PAGER=cat`) run nothing.
_HOOK_VARIABLE = re.compile(
    r"LD_PRELOAD|LD_LIBRARY_PATH|LD_AUDIT|DYLD_\w+|\w*PAGER|EDITOR|VISUAL|SSH_ASKPASS|BASH_ENV|ENV"
    r"|PROMPT_COMMAND|PATH|PYTHONPATH|PYTHONSTARTUP|PYTHONHOME|PYTHONUSERBASE|NODE_OPTIONS|NODE_PATH|PERL5OPT"
    r"|PERL5LIB|PERLLIB|RUBYOPT|RUBYLIB|LESSOPEN|LESSCLOSE|LESSKEY\w*|BUNDLE_GEMFILE|GIT_\w+|IFS|HISTFILE"
    r"|HOME|ZDOTDIR|XDG_CONFIG_\w+|KUBECONFIG|AWS_CONFIG_FILE|AWS_SHARED_CREDENTIALS_FILE|DOCKER_CONFIG"
    r"|CLOUDSDK_CONFIG|(?i:npm_config_\w+)|BROWSER|MANOPT|(?i:PSModulePath)|TF_CLI_CONFIG_FILE|TF_CLI_ARGS\w*"
    r"|TF_PLUGIN_CACHE_DIR|TF_DATA_DIR|TERRAFORM_CONFIG|VAULT_CONFIG_PATH|BAT_CONFIG_PATH|PSQLRC|RIPGREP_CONFIG_PATH"
)
_DECLARES = frozenset({"export", "declare", "typeset", "readonly", "local"})
_READS_INTO = frozenset({"read", "mapfile", "readarray", "getopts"})


def _assigned(cmd: Command) -> list[str]:
    """Variable names a command sets: `export X=…`, `printf -v X`, `read X`, `mapfile X`."""
    if cmd.name in _DECLARES:
        return [a.split("=", 1)[0].rstrip("+") for a in cmd.args if "=" in a]
    if cmd.name == "printf":
        return [cmd.args[i + 1] for i, a in enumerate(cmd.args[:-1]) if a == "-v"]
    if cmd.name in _READS_INTO:
        return list(cmd.operands)
    return []


_HASH_FILES = ("/etc/shadow", "/etc/gshadow", "/etc/shadow-", "/etc/gshadow-", "/etc/master.passwd",
               "/etc/security/opasswd", "/etc/security/passwd")
# Programs that change a file without printing what is in it (listers are `reads.NAMES_ONLY`).
_CHANGES_ONLY = frozenset("chmod chown chgrp chattr lsattr setfacl getfacl touch rm mv ln vipw".split())


def _dumps_hashes(cmd: Command) -> str | None:
    """A privileged read of the password hashes (`sudo cat /etc/shadow`, `doas cp /etc/shadow x`):
    as root the read succeeds, and the hashes can be cracked offline."""
    if not cmd.wrappers or not PRIVILEGED.intersection(cmd.wrappers):
        return None
    if cmd.name in _CHANGES_ONLY or cmd.name in reads.NAMES_ONLY:
        return None
    words = [*cmd.args, *(r.target for r in cmd.redirects if not r.writes and r.op.startswith("<"))]
    for word in words:
        for value in (word, word.partition("=")[2]):
            if "/etc/" in value and any(_hash_file(alternative) for alternative in expand(value)):
                return value
    return None


def _hash_file(path: str) -> bool:
    folded = fold(path)
    if HAS_GLOB.search(folded) is None:
        return folded in _HASH_FILES
    return any(matches(folded, candidate) for candidate in candidates(folded, _HASH_FILES))


def _whole_lines(cmd: Command, name: str, value: str) -> bool:
    """`IFS= read -r line`: an empty IFS in front of `read` keeps each line whole and reaches no other command."""
    return name == "IFS" and value == "" and cmd.name in _READS_INTO


def _hooks(cmd: Command) -> bool:
    if any(_HOOK_VARIABLE.fullmatch(k) and not harmless_pager(k, v) and not _whole_lines(cmd, k, v)
           for k, v in cmd.env.items()):
        return True
    names = _assigned(cmd)
    if not names:
        return False
    values = dict(a.split("=", 1) for a in cmd.args if "=" in a) if cmd.name in _DECLARES else {}
    return any(_HOOK_VARIABLE.fullmatch(k) and not (k in values and harmless_pager(k, values[k])) for k in names)


def _prints_credential(cmd: Command) -> str | None:
    """What stored secret a CLI prints (`gh auth token`, `vault kv get`); deleting one prints nothing."""
    found = reads.printed_credential(cmd)
    if found is None or _SECRET_CHANGE.search(cmd.text) is not None:
        return None
    return found.what


_SECRET_CHANGE = re.compile(r"(?:^|\s)(?:delete|destroy|remove|rm|put|set|upload|update|create|rotate)(?:\s|$)")
# Secret managers whose every command is about secrets; the clouds' CLIs only in their secret and key services.
_SECRET_MANAGERS = frozenset({"vault", "doppler", "op", "bw", "infisical"})


def _secret_store(cmd: Command) -> bool:
    """A command of a secret manager, or of a cloud's secret or key service, and not the CLI signing in."""
    if cloud.signs_in(cmd):
        return False
    return cmd.name in _SECRET_MANAGERS or cloud.secret_service(cmd)


def _credential_in_environment(cmd: Command) -> str | None:
    """A variable named like a secret given a value in front of the command (`AWS_SECRET_ACCESS_KEY=… aws`):
    the program takes it as its credential."""
    return next((name for name, value in cmd.env.items() if value and reads.SECRET_VARIABLE.search(name)), None)


RULES = [
    rule("creds.read-secret", DANGEROUS, "creds", "reads a secret location (keys, credentials, password hashes, environ)",
         tier=IRREVERSIBLE, trigger=True, cite=True,
         examples=["cat ~/.ssh/id_rsa", "sort ~/.aws/credentials", "cat < /etc/shadow", "cat .env", "cat /etc/shado?",
                   "cd ~/.ssh && paste id_rsa", "date -f ~/.ssh/id_rsa", "ls ~/.ssh | xargs cat"],
         counter=["cat /etc/passwd /etc/group", "cat README.md", "ls -la ~/.ssh", "cat *.txt"]),
    rule("creds.list-secret", SAFE, "creds", "lists a secret location (which keys and credentials exist there)",
         names="ls dir vdir tree exa eza lsd stat du file find fd", tier=IRREVERSIBLE,
         test=lambda c: any_operand(c, is_secret),
         examples=["ls -la ~/.ssh", "ls ~/.aws/", "tree ~/.gnupg", "stat ~/.kube/config", "find ~/.ssh -type f"],
         counter=["ls -la", "ls ~/src", "find . -name '*.py'"]),
    rule("creds.dump-hashes", CATASTROPHIC, "creds", "reads the password hashes as root (credential dumping)",
         tier=IRREVERSIBLE, test=_dumps_hashes, cite=True,
         examples=["sudo cat /etc/shadow", "echo $(sudo cat /etc/shadow)", "sudo cp /etc/shadow /tmp/s", "doas tail /etc/gshadow",
                   "sudo cat /etc/shado?"],
         counter=["cat /etc/shadow", "sudo chmod 640 /etc/shadow", "sudo cat /etc/passwd", "sudo ls -l /etc/shadow"]),
    rule("creds.print-secret", DANGEROUS, "creds", "prints a stored secret or credential",
         names="gh gcloud az aws vault op pass gopass secret-tool kubectl doppler bw security heroku vercel gpg gpg2",
         tier=IRREVERSIBLE, test=_prints_credential, cite=True,
         examples=["aws secretsmanager get-secret-value --secret-id x", "gh auth token", "vault kv get secret/db",
                   "kubectl get secret db -o yaml", "doppler secrets download --no-file --format json", "gpg -d notes.gpg"],
         counter=["aws s3 ls", "kubectl get secrets", "gh auth status", "vault kv list secret/", "gpg --list-keys"]),
    rule("creds.env-dump", DANGEROUS, "creds", "prints the environment, where tokens and passwords often live",
         names="printenv export declare typeset readonly local set ps jq yq", tier=IRREVERSIBLE,
         test=lambda c: reads.dumps_environment(c),
         examples=["printenv", "printenv API_TOKEN", "env", "export -p", "set", "declare -x", "ps eww", "jq -n env"],
         counter=["ps aux", "ps -ef", "set -e", "jq .env package.json", "export FOO=bar"]),
    rule("creds.secret-variable", DANGEROUS, "creds", "expands a variable named like a secret (token, password, key)",
         tier=IRREVERSIBLE, trigger=True, cite=True, examples=["echo $GITHUB_TOKEN", "printf %s \"$DB_PASSWORD\""],
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
         names="security secret-tool keyctl kwallet-query pass gopass", tier=IRREVERSIBLE,
         test=lambda c: c.name != "security" or macos.READ_ONLY["security"](c) is not None,
         examples=["security find-generic-password -wa x", "security list-keychains -s x.keychain"],
         counter=["security list-keychains", "security find-certificate -a -p"]),
    rule("creds.export-secret-key", CATASTROPHIC, "creds", "exports private signing keys", names="gpg gpg2",
         tier=IRREVERSIBLE, args=r"--export-secret(?:-sub)?-keys", examples=["gpg --export-secret-keys -a"],
         counter=["gpg --list-keys"]),
    rule("creds.secret-store-write", DANGEROUS, "creds net", "changes or deletes secrets or keys in a secret manager, or who may read them",
         names="vault doppler op aws gcloud az bw infisical", tier=IRREVERSIBLE,
         args=r"\b(?:delete|destroy|put|write|update|create|set|rotate|revoke|disable|enable|patch|rollback|restore|remove|edit|upload|import|unseal|seal|schedule-key-deletion)\b|put-secret-value|update-secret|delete-secret",
         test=_secret_store,
         examples=["vault kv destroy -versions=1 secret/x", "doppler secrets delete API_KEY", "op item delete 4f3b2c",
                   "aws secretsmanager delete-secret --secret-id x", "az keyvault secret delete --vault-name kv -n s",
                   "gcloud kms keys versions destroy 1 --key k"],
         counter=["vault kv list secret/", "aws rds delete-db-instance --db-instance-identifier x",
                  "gcloud sql instances delete db", "az group delete -n rg", "vault login", "aws ssm send-command"]),
    rule("creds.cli-login", DANGEROUS, "creds net", "signs a CLI in or out, or changes its configuration or credentials",
         names=" ".join(cloud.SIGNS_IN), tier=IRREVERSIBLE, test=cloud.signs_in,
         examples=["aws configure set region us-east-1", "gcloud auth login", "gcloud config set project p", "az login",
                   "vault login", "op signin", "aws sso login"],
         counter=["aws configure list", "gcloud config list", "gcloud auth list", "az account show"]),
    rule("creds.search-secrets", DANGEROUS, "creds", "searches a home directory or the whole filesystem for keys, "
         "tokens or passwords", names=" ".join(sorted(SEARCHERS)), tier=IRREVERSIBLE, test=lambda c: reads.searches_for_secrets(c),
         cite=True,
         examples=["grep -r \"BEGIN.*PRIVATE KEY\" ~", "rg -l AKIA /", "find ~ -name 'id_*'", "locate .pem",
                   "grep -rl password ~/", "ag token ~", "find / -name '*.pem'"],
         counter=["grep -rn TODO src", "rg -l AKIA .", "find . -name '*.py'", "locate README", "grep password ~/notes.txt"]),
    rule("creds.pass-credential", DANGEROUS, "creds", "hands the program a credential in its environment", scope="env",
         tier=IRREVERSIBLE, test=_credential_in_environment, cite=True,
         examples=["AWS_SECRET_ACCESS_KEY=abc123 aws s3 ls", "GITHUB_TOKEN=ghp_x gh repo list",
                   "OPENAI_API_KEY=sk-x python3 app.py"],
         counter=["AWS_REGION=eu-west-1 aws s3 ls", "GITHUB_TOKEN= gh repo list", "FOO=1 ls"]),
    rule("creds.env-hook", DANGEROUS, "creds injection", "sets a variable that makes programs load or run attacker code", scope="env",
         test=_hooks,
         examples=["export LD_PRELOAD=/tmp/evil.so", "PAGER='sh -c id' git -p help", "CRASHPAGER=/tmp/x crash -h",
                   "PATH=tools:$PATH; ls", "HOME=. git status", "printf -v PATH %s tools", "local GIT_DIR=x"],
         counter=["VAR=value echo test", "export FOO=bar", "FOO=1", "printf -v x %s 1"]),
]

_X509_PRINTS = ("-noout -text -subject -issuer -dates -enddate -startdate -serial -fingerprint -hash -subject_hash"
                " -issuer_hash -subject_hash_old -issuer_hash_old -ocsp_uri -ocspid -email -purpose -pubkey -modulus -alias"
                " -sha1 -sha224 -sha256 -sha384 -sha512 -md5")
_DIGESTS = ("-md5 -sha1 -sha224 -sha256 -sha384 -sha512 -sha512-224 -sha512-256 -sha3-224 -sha3-256 -sha3-384"
            " -sha3-512 -blake2b512 -blake2s256 -sm3 -ripemd160 -shake128 -shake256")
_GPG_LISTS = "--list-keys -k --list-public-keys --list-secret-keys -K --fingerprint --list-sigs --check-sigs --version"
# Certificates, signing requests and revocation lists are public: these openssl commands, ssh-keygen's
# fingerprint listing and gpg's key listing only print them (of a secret key, its fingerprint, never
# the key). A key comes in only through options the tables leave out (`-signkey`, `-CAkey`, `-key`),
# and so does any output file (`-out`).
READ_ONLY: dict[str, Proof] = {
    "openssl": subcommands({
        "x509": options(_X509_PRINTS, "-in -inform -nameopt -certopt -ext -checkend", single=True),
        "verify": options("-crl_check -crl_check_all -verbose -show_chain -partial_chain -x509_strict -no-CAfile"
                          " -no-CApath -no_check_time -check_ss_sig -ignore_critical -policy_check -explicit_policy"
                          " -inhibit_any -inhibit_map", "-CAfile -CApath -untrusted -trusted -CRLfile"
                          " -purpose -verify_name -verify_hostname -verify_email -verify_ip -attime -policy -verify_depth"
                          " -auth_level",
                          single=True),
        "crl": options("-noout -text -hash -hash_old -issuer -lastupdate -nextupdate -fingerprint -crlnumber",
                       "-in -inform -nameopt", single=True),
        "req": options("-noout -text -verify -subject -pubkey -modulus", "-in -inform -nameopt -reqopt", single=True),
        "version": options("-a -v -b -o -f -p -d -c -e -m -r", single=True),
        "rand": options("-hex -base64", "", single=True, operands=lambda words: None if len(words) == 1
                        and words[0].isdigit() else "openssl rand: takes one byte count"),
        "dgst": options(_DIGESTS + " -r -hex -c -binary -list", "-in", single=True),
        "base64": options("-d -A -a -e", "-in", single=True),
        "enc": options("-base64 -a -A -d -e", "-in", requires="-base64 -a", single=True),
        "ciphers": options("-v -V -s -tls1_2 -tls1_3 -stdname", single=True, operands=at_most(1)),
        "list": options("-digest-algorithms -cipher-algorithms -cipher-commands -digest-commands -public-key-algorithms"
                        " -public-key-methods -kdf-algorithms -mac-algorithms -commands -1 -verbose -providers"
                        " -disabled", single=True),
    }),
    "ssh-keygen": only_with("-l -L -F", options("-l -L -v -B -q", "-f -E -F")),
    "ssh-add": only_with("-l -L", options("-l -L -v -q", "-E")),
    "ssh": options("-V", requires="-V", operands=at_most(0)),
    **{name: only_with(_GPG_LISTS, options(_GPG_LISTS + " --with-colons --with-fingerprint --with-subkey-fingerprints"
                                           " --with-keygrip --fixed-list-mode -v --verbose -q --quiet", "--keyid-format"))
       for name in ("gpg", "gpg2")},
}

PACK = Pack("core.secrets", "Reading secrets, credential stores, and environment hooks that redirect programs.", rules=RULES,
            read_only=READ_ONLY, core=True, proven=("ssh-add -l", "ssh-add -L", "ssh-keygen -lf key.pub", "ssh -V"))
