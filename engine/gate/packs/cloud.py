"""Cloud and secret-manager CLIs that only read: aws, gcloud, az by their verb; vault, doppler and op by table.

The three cloud CLIs have thousands of operations, each with its own parameters; what makes
one of them read is its verb (`describe-instances`, `compute instances list`, `vm show`),
and its parameters are sent to an API that does not change state for such a verb. So their
proof checks the verb and refuses only the options that act on this machine or send
credentials elsewhere, not every parameter. Left out on purpose: operations that write a
local file (`s3api get-object … OUTFILE` and the other streaming downloads, `secrets
download` without `--no-file`, `op read --out-file`), `get-credentials` (it writes a
kubeconfig), anything that prints a credential (`get-secret-value`, `get-login-password`,
`--with-decryption`, `keys list`, `vault read`, `kv get`, `token lookup`, `doppler secrets`
with values, `op item get`: reading a secret is for a person to allow, as reading a key file
is), `aws configure get` (prints a key), `--cli-auto-prompt`, `--no-verify-ssl`,
gcloud `--flags-file`, and any `AWS_PAGER`, `CLOUDSDK_*`, `AZURE_CONFIG_DIR`,
`AZURE_EXTENSION_DIR` or `VAULT_CONFIG_PATH` set in front of the command (pagers,
interpreters, extension and token-helper directories).
"""

from __future__ import annotations

from dataclasses import dataclass

import re

from engine.gate.packs.model import DANGEROUS, IRREVERSIBLE, Pack, Proof, rule
from engine.gate.proof import Options, options, subcommands, unless_env
from engine.gate.shell.view import Command

_READ_VERBS = frozenset({"list", "ls", "describe", "show", "get", "read", "info", "version", "exists", "search",
                         "query", "scan", "lookup", "status"})
_READ_PREFIXES = ("list-", "describe-", "get-", "show-", "batch-get-", "head-", "lookup-", "search-", "filter-")
_WRITE_VERBS = frozenset(
    "create delete remove rm rb mb update set add patch replace apply deploy run ssh scp reset start stop restart"
    " resize import export copy cp move mv rename enable disable attach detach upgrade rollback cancel submit suspend"
    " resume undelete restore promote failover login logout call invoke publish push pull build tag untag sign"
    " execute exec sync purge put send grant revoke assign unassign tail wait connect open browse download upload"
    " activate-service-account configure init".split()
)
_WRITE_PREFIXES = ("create-", "delete-", "remove-", "update-", "set-", "put-", "add-", "start-", "stop-", "modify-",
                   "attach-", "detach-", "terminate-", "run-", "reboot-", "import-", "export-", "restore-",
                   "associate-", "disassociate-", "enable-", "disable-", "register-", "deregister-", "tag-", "untag-",
                   "send-", "publish-", "invoke-", "copy-", "reset-", "replace-", "cancel-", "accept-", "reject-",
                   "allocate-", "release-", "revoke-", "authorize-", "upload-", "download-", "execute-", "purge-")
_NEVER = frozenset({"get-credentials", "get-object", "get-object-torrent", "get-job-output", "get-snapshot-block",
                    "get-media", "get-clip", "get-media-for-fragment-list", "get-secret-value-to-file"})
# An operation or group with one of these in its name prints a credential (`get-secret-value`,
# `get-login-password`, `account get-access-token`, `storage account keys list`): reading one
# is for a person to allow, like reading a key file. Secret managers may still list names.
_SECRET_PARTS = ("secret-value", "password", "token", "credential", "access-details", "login", "connection-string",
                 "access-key", "decrypt", "private-key")
_SECRET_GROUPS = frozenset({"keys", "key", "credential", "credentials", "access-keys"})
_SECRET_STORES = frozenset({"secret", "secrets"})


def _prints_secret(groups: list[str], verb: str) -> bool:
    if verb == "get-random-password":
        return False
    if any(part in verb for part in _SECRET_PARTS):
        return True
    if any(group in _SECRET_GROUPS for group in groups):
        return True
    return any(group in _SECRET_STORES for group in groups) and verb not in ("list", "ls")


def _reads(verb: str) -> bool:
    return verb not in _NEVER and (verb in _READ_VERBS or verb.startswith(_READ_PREFIXES))


def _writes(verb: str) -> bool:
    return verb in _WRITE_VERBS or verb.startswith(_WRITE_PREFIXES)


@dataclass(frozen=True)
class VerbCli:
    """The proof for a cloud CLI: its positional words are groups of nouns, then a verb that must read.

    `flags` are the options known to take no value (any other option takes the next word);
    `refused` are options that act on this machine or send credentials elsewhere. `depth`
    bounds how many nouns may come before the verb.
    """

    program: str
    flags: frozenset[str]
    refused: frozenset[str]
    depth: int = 5

    def __call__(self, cmd: Command) -> str | None:
        args = cmd.args
        i = 0
        groups: list[str] = []
        while i < len(args):
            word = args[i]
            if word.startswith("-") and len(word) > 1:
                name, eq, _ = word.partition("=")
                if name in self.refused:
                    return f"{self.program}: option {name} is not known to be read-only"
                i += 1 if eq or name in self.flags or i + 1 >= len(args) or args[i + 1].startswith("-") else 2
                continue
            if _reads(word):
                if _prints_secret(groups, word):
                    return f"{self.program} {' '.join([*groups, word])}: prints a credential"
                return None
            if _writes(word) or word in _NEVER:
                return f"{self.program} {word}: not a verb known to be read-only"
            groups.append(word)
            if len(groups) > self.depth:
                break
            i += 1
        return f"{self.program}: no verb known to be read-only"


_AWS_FLAGS = frozenset({"--debug", "--no-paginate", "--no-sign-request", "--no-cli-pager", "--no-cli-auto-prompt",
                        "--human-readable", "--summarize", "--recursive", "--dry-run", "--no-dry-run", "--version",
                        "--help", "--generate-cli-skeleton", "--with-decryption", "--no-with-decryption",
                        "--include-all-instances"})
_AWS_REFUSED = frozenset({"--cli-auto-prompt", "--no-verify-ssl"})


def _aws(cmd: Command) -> str | None:
    """`aws SERVICE OPERATION [--param value…]`: the operation must read (`s3 ls` for the s3 commands)."""
    args = cmd.args
    words: list[str] = []
    i = 0
    while i < len(args):
        word = args[i]
        if word.startswith("--"):
            name, eq, _ = word.partition("=")
            if name in _AWS_REFUSED:
                return f"aws: option {name} is not known to be read-only"
            i += 1 if eq or name in _AWS_FLAGS or i + 1 >= len(args) or args[i + 1].startswith("--") else 2
            continue
        if word.startswith("-") and len(word) > 1:
            return f"aws: option {word} is not known to be read-only"
        words.append(word)
        i += 1
        if len(words) == 2:
            break
    if len(words) < 2:
        return "aws: no operation"
    service, operation = words
    for word in args[i:]:
        name = word.partition("=")[0]
        if name in _AWS_REFUSED:
            return f"aws: option {name} is not known to be read-only"
        if name == "--with-decryption":
            return f"aws {service} {operation} --with-decryption: prints a secret"
    if service == "s3":
        return None if operation == "ls" else f"aws s3 {operation}: not a command known to be read-only"
    if (service, operation) == ("logs", "tail"):
        return None
    if service == "configure":
        if operation in ("list", "list-profiles"):
            return None
        return f"aws configure {operation}: not known to be read-only"
    if operation in _NEVER or not _reads(operation) or _writes(operation):
        return f"aws {service} {operation}: not an operation known to be read-only"
    if _prints_secret([], operation):
        return f"aws {service} {operation}: prints a credential"
    return None


_VAULT_FLAGS = ("-detailed -non-interactive -output-curl-string -output-policy -help -h -version -recursive"
                " -include-deleted")
_VAULT_VALUED = ("-address -namespace -ns -format -field -mount -ca-cert -ca-path -client-cert -client-key"
                 " -tls-server-name -header -wrap-ttl -policy-override -version -agent-address -mfa")
_VAULT_READ = options(_VAULT_FLAGS, _VAULT_VALUED, single=True)


def _vault_verbs(verbs: str) -> Options:
    return Options(_VAULT_READ.flags, _VAULT_READ.valued, single=True,
                   subcommands={verb: _VAULT_READ for verb in verbs.split()})


_VAULT = unless_env(Options(_VAULT_READ.flags, _VAULT_READ.valued, single=True, subcommands={
    "list": _VAULT_READ, "status": _VAULT_READ, "version": _VAULT_READ,
    "kv": Options(_VAULT_READ.flags, _VAULT_READ.valued, single=True, subcommands={
        "list": _VAULT_READ, "metadata": _vault_verbs("get")}),
    "auth": _vault_verbs("list"), "secrets": _vault_verbs("list"), "audit": _vault_verbs("list"),
    "policy": _vault_verbs("list read"), "token": _vault_verbs("capabilities"),
    "namespace": _vault_verbs("list lookup"), "operator": _vault_verbs("members"),
}), "VAULT_CONFIG_PATH")

_DOPPLER_FLAGS = " --json --plain --raw --only-names --no-check-version --silent --debug --no-read-env -h --help"
_DOPPLER_VALUED = " -p -c --project --config --token --format --scope --environment"
_DOPPLER_READ = options(_DOPPLER_FLAGS, _DOPPLER_VALUED)
_DOPPLER = Options(_DOPPLER_READ.flags, _DOPPLER_READ.valued, subcommands={
    "secrets": Options(_DOPPLER_READ.flags, _DOPPLER_READ.valued, subcommands={
        "": options(_DOPPLER_FLAGS, _DOPPLER_VALUED, requires="--only-names")}),
    **{noun: subcommands({"list": _DOPPLER_READ, "get": _DOPPLER_READ})
       for noun in ("projects", "configs", "environments")},
    "me": _DOPPLER_READ,
})

_OP_FLAGS = " --no-color --iso-timestamps --include-archive --favorite -h --help"
_OP_VALUED = " --account --vault --format --cache --encoding --session --fields --categories --tags"
_OP_READ = options(_OP_FLAGS, _OP_VALUED)
_OP = Options(_OP_READ.flags, _OP_READ.valued, subcommands={
    "whoami": _OP_READ,
    "item": subcommands({"list": _OP_READ, "ls": _OP_READ}),
    **{noun: subcommands({"list": _OP_READ, "ls": _OP_READ, "get": _OP_READ})
       for noun in ("vault", "group", "user", "account")},
})

READ_ONLY: dict[str, Proof] = {
    "aws": unless_env(_aws, "AWS_PAGER", "AWS_CONFIG_FILE", "AWS_SHARED_CREDENTIALS_FILE", "AWS_DATA_PATH"),
    "gcloud": unless_env(VerbCli("gcloud", frozenset({"-q", "--quiet", "-h", "--help", "--log-http", "--uri",
                                                      "--no-user-output-enabled", "--user-output-enabled"}),
                                 frozenset({"--flags-file"})), "CLOUDSDK_*"),
    "az": unless_env(VerbCli("az", frozenset({"-h", "--help", "--debug", "--verbose", "--only-show-errors", "--all"}),
                             frozenset()), "AZURE_CONFIG_DIR", "AZURE_EXTENSION_DIR"),
    "vault": _VAULT,
    "doppler": _DOPPLER,
    "op": _OP,
}

PROVEN = (
    "aws ec2 describe-instances --filters Name=tag:env,Values=prod --query 'Reservations[].Instances[]'",
    "aws s3 ls s3://my-bucket --recursive --human-readable", "aws ec2 describe-regions",
    "gcloud compute instances list --format=json", "gcloud config get-value project", "gcloud secrets list",
    "az vm list -o table", "az account show", "az keyvault secret list --vault-name kv", "vault kv list secret/app",
    "vault auth list", "doppler configs list --project backend", "op vault list",
    "op item list --vault dev",
)

# What a cloud CLI's command path says it does. A word of the path (`delete-db-instance`, `pg:reset`,
# `instances delete`) is split at `-`, `:` and `_`; its parts are matched against these tables, so one
# rule covers every operation of a kind and its reason is true of each.
_DELETES = frozenset("delete destroy remove rm terminate purge drop rb deprovision down wipe".split())
_RESETS = frozenset({"reset", "truncate", "flush", "flushall", "flushdb"})
_CHANGES = frozenset(
    "create update set add patch replace apply deploy resize enable disable attach detach upgrade rollback restore"
    " promote failover tag untag grant revoke assign unassign put modify start stop restart reboot import register"
    " deregister associate disassociate authorize allocate release run scale suspend resume undelete rename move"
    " copy cancel accept reject reset push publish rotate".split())
_DATABASES = frozenset(
    "rds sql db d1 database databases postgres postgresql pg mysql mariadb cosmosdb dynamodb redis memorystore spanner"
    " bigtable firestore datastore docdb documentdb neptune redshift elasticache mongo mongodb alloydb aurora"
    " timestream keyspaces bigquery bq cassandra".split())
# Names of database add-ons and services clear anywhere on the line (`addons:destroy heroku-postgresql`).
_DATABASE_NAMES = re.compile(r"(?i)postgres|mysql|mariadb|redis|mongodb|cosmosdb|dynamodb")
# CLIs of clouds and hosting platforms whose commands act on remote resources, and programs whose only job is
# deleting a database.
HOSTED = frozenset("aws gcloud az heroku supabase pscale planetscale flyctl fly doctl wrangler firebase vercel netlify"
                   " railway neonctl turso linode-cli hcloud vultr-cli scw exo oci ibmcloud render".split())
_DATABASE_DROPPERS = frozenset({"dropdb"})
# Where a command is about secrets and keys (secret managers and key services), the CLI's own sign-in or
# settings, or the objects in remote storage: other rules say those (`creds.secret-store-write`,
# `creds.cli-login`, `net.cloud-sync`).
_SECRET_SERVICES = {"aws": frozenset({"secretsmanager", "ssm", "kms"}), "gcloud": frozenset({"secrets", "kms"}),
                    "az": frozenset({"keyvault"})}
_SIGN_IN = {"aws": frozenset({"configure", "sso", "login", "logout"}),
            "gcloud": frozenset({"auth", "config", "init"}), "az": frozenset({"login", "logout", "account", "config",
                                                                               "configure"}),
            "vault": frozenset({"login"}), "doppler": frozenset({"login", "logout", "setup", "configure"}),
            "op": frozenset({"signin", "signout", "account"}), "bw": frozenset({"login", "logout", "unlock", "config"}),
            "infisical": frozenset({"login", "init"}), "heroku": frozenset({"login", "logout", "auth:login",
                                                                            "auth:logout"}),
            "flyctl": frozenset({"auth"}), "fly": frozenset({"auth"}), "doctl": frozenset({"auth"}),
            "vercel": frozenset({"login", "logout"}), "netlify": frozenset({"login", "logout"}),
            "firebase": frozenset({"login", "logout"}), "wrangler": frozenset({"login", "logout"}),
            "supabase": frozenset({"login", "logout"}), "railway": frozenset({"login", "logout"})}
_SIGN_IN_VERBS = _CHANGES | _DELETES | frozenset(
    "login logout signin signout init setup unlock configure unset activate revoke".split())
SIGNS_IN = frozenset(_SIGN_IN)
_AZ_STORAGE = frozenset("blob container file fs directory share queue table copy remove entity message".split())


def _parts(word: str) -> list[str]:
    return re.split(r"[-:_.]", word.lower())


def _path(cmd: Command) -> list[str]:
    """The command path: operands up to and including the first whose parts name a deletion or a change."""
    path: list[str] = []
    for word in cmd.operands[:6]:
        path.append(word)
        if any(part in _DELETES or part in _CHANGES for part in _parts(word)):
            break
    return path


def secret_service(cmd: Command) -> bool:
    """A command of a cloud's secret manager or key service (`aws secretsmanager …`, `gcloud kms …`, `aws ssm
    put-parameter`; not `aws ssm send-command`)."""
    first, second = (cmd.operands + ("", ""))[:2]
    return first in _SECRET_SERVICES.get(cmd.name, ()) and (first != "ssm" or "parameter" in second)


def signs_in(cmd: Command) -> bool:
    """A CLI signing in or out, or changing its own settings (`aws configure set`, `gcloud config set`, `az
    login`, `vault login`); listing them (`gcloud config list`, `aws configure list`) changes nothing."""
    operands = cmd.operands
    if not operands or operands[0] not in _SIGN_IN.get(cmd.name, ()):
        return False
    words = operands[1:4] if len(operands) > 1 else operands[:1]
    return any(part in _SIGN_IN_VERBS for word in words for part in _parts(word))


def remote_storage(cmd: Command) -> bool:
    """A command on objects in remote storage: `aws s3`, `gcloud storage`, `az storage blob`, gsutil, rclone."""
    if cmd.name in ("rclone", "gsutil", "s3cmd", "azcopy"):
        return True
    first, second = (cmd.operands + ("", ""))[:2]
    if cmd.name == "aws":
        return first == "s3" or (first == "s3api" and second.endswith(("-object", "-objects")))
    if cmd.name == "gcloud":
        return first == "storage"
    return cmd.name == "az" and first == "storage" and second in _AZ_STORAGE


def _resources(cmd: Command) -> bool:
    return not (secret_service(cmd) or signs_in(cmd) or remote_storage(cmd))


def _deletes(cmd: Command) -> bool:
    if cmd.name in _DATABASE_DROPPERS:
        return True
    return any(part in _DELETES or (part in _RESETS and _database(cmd)) for word in _path(cmd) for part in _parts(word))


def _database(cmd: Command) -> bool:
    if cmd.name in _DATABASE_DROPPERS:
        return True
    if any(part in _DATABASES for word in _path(cmd) for part in _parts(word)):
        return True
    return _DATABASE_NAMES.search(cmd.text) is not None


def _changes(cmd: Command) -> bool:
    return any(part in _CHANGES for word in _path(cmd) for part in _parts(word))


RULES = [
    rule("cloud.delete-database", DANGEROUS, "fs net", "deletes or resets a hosted database (its data cannot be restored)",
         names=" ".join(HOSTED | _DATABASE_DROPPERS), tier=IRREVERSIBLE,
         test=lambda c: _resources(c) and _deletes(c) and _database(c),
         examples=["aws rds delete-db-instance --db-instance-identifier db", "gcloud sql instances delete db",
                   "az sql db delete -g rg -s srv -n db", "heroku pg:reset DATABASE_URL", "supabase db reset", "dropdb app",
                   "heroku addons:destroy heroku-postgresql", "aws dynamodb delete-table --table-name t"],
         counter=["aws rds describe-db-instances", "az vm delete -g rg -n db", "gcloud compute instances reset vm"]),
    rule("cloud.delete", DANGEROUS, "fs net", "deletes cloud or hosting resources (instances, apps, projects, clusters…)",
         names=" ".join(HOSTED), tier=IRREVERSIBLE, test=lambda c: _resources(c) and _deletes(c) and not _database(c),
         examples=["aws ec2 terminate-instances --instance-ids i-1", "gcloud projects delete p", "az group delete -n rg",
                   "fly apps destroy app", "vercel remove app --yes", "az vm delete -g rg -n db"],
         counter=["aws ec2 describe-instances", "aws rds delete-db-instance --db-instance-identifier db",
                  "aws s3 rm s3://b/x", "gcloud secrets delete s"]),
    rule("cloud.change", DANGEROUS, "net", "creates or changes cloud or hosting resources", names=" ".join(HOSTED),
         tier=IRREVERSIBLE, test=lambda c: _resources(c) and not _deletes(c) and _changes(c),
         examples=["aws ec2 create-security-group --group-name x --description y", "gcloud compute instances create vm",
                   "az vm create -g rg -n vm --image ubuntu", "gcloud compute instances reset vm"],
         counter=["aws ec2 describe-instances", "gcloud config set project p", "aws s3 cp a s3://b/",
                  "az keyvault secret set --vault-name kv -n s --value v"]),
]

PACK = Pack("cloud", "Cloud and secret-manager CLIs that only read: aws, gcloud and az by their verb; vault, doppler "
            "and op by table; deleting and changing cloud resources.", rules=RULES, read_only=READ_ONLY, proven=PROVEN)
