"""Infrastructure tools looked at, not changed: Kubernetes, Helm, containers, Terraform, queues and backups.

Read-only proofs only; the rules that ask about changes live in the execution pack. Left
out on purpose: `kubectl --kubeconfig` (its exec plugins run programs), `-s/--server` (sends
the bearer token to another host), `--profile-output`, `config view --raw` (prints client
keys), `cluster-info dump`, `diff` (runs an external diff), plugins; `helm template`/`show`
(chart getters can be plugins), `get values/manifest/all` (they print Secrets and passwords),
`--kubeconfig`, `--kube-apiserver`; `kubectl get secret … -o yaml/json/jsonpath` (prints the
Secret's data); `docker -H/--config`;
Terraform's `plan -out` and `-generate-config-out` (they write files), `show -json`, `output
-json|-raw` and `output NAME` (they print sensitive values in full; a plain `show`, `state show`
and `output` redact them), `state pull` (the whole state, secrets included), `console`, `fmt`
without `-check`, and `TF_CLI_*` (`TF_CLI_ARGS` adds options, `TF_CLI_CONFIG_FILE` names provider
sources), `TF_PLUGIN_*`, `TF_DATA_DIR` (providers and modules from elsewhere), `TF_LOG_PATH`,
`TF_REATTACH_PROVIDERS` and `TOFU_*` in front. `plan`, `validate`, `show`, `graph` and `providers
schema` start the providers, and `data "external"` runs any program the configuration names: they
are proven because every file that decides what runs (`*.tf`, `*.tfvars`, `.terraform/`, the lock
file, `.terraformrc`) is tool configuration, which the agent cannot write without a person
(`engine/gate/paths.py`); `plan` may hold the state lock while it reads. `kubectl get --raw`
through a pod's or service's `/proxy`, `/exec`, `/attach`; `kafka-* --command-config`; `borg
--remote-path/--rsh` and any `BORG_*` variable (`BORG_PASSCOMMAND` runs a program); `restic
--password-command/-o`; `redis-cli --pipe/--eval/--rdb`; `kind get kubeconfig`; `docker compose
config` (it prints the files with every `.env` value filled in) and `--env-file`. sqlite3 and psql
are proven only with their commands in their arguments (without them they read commands from
their input), each a query (`scripts.sql_query`: `SELECT` calling only functions that compute a
value; for sqlite3 only under `-safe`, since a view in a database the agent wrote can call the
shell's file functions) or a command that describes (sqlite3's `.tables`, `.schema`, `.indexes`, `.dump`, …;
psql's `\\d…`, `\\l`, `\\conninfo`, with plain names as arguments); left out: sqlite3's `.shell`,
`.system`, `.output`, `.once`, `.save`, `.backup`, `.import`, `.load`, `.read`, `.open`, `-init`,
`-A`, `-vfs`, URI file names, and SQL such as `writefile()`, `readfile()`, `load_extension()`,
`ATTACH` or any write; psql's `\\!`, `\\o`, `\\copy`, `\\w`, `\\g`, `\\i`, backquotes, `-f`, `-o`,
`-L`, another host than this machine (`-h`, `host=`, `postgres://…@host`, `PGHOST`: the query
text is sent there), and `PSQLRC`, `PSQL_HISTORY`, `PGOPTIONS`, `PGSERVICE*` in front (`.sqliterc`
and `.psqlrc` are tool configuration). Poetry's `show` and `env` are not proven (they run the
project's `.venv` interpreter).
"""

from __future__ import annotations

import re

from engine.gate.packs.model import Pack, Proof
from engine.gate.proof import Options, Reading, at_most, options, subcommands, unless_env
from engine.gate.scripts import sql_query

_KUBE_FLAGS = " -h --help --match-server-version --warnings-as-errors --disable-compression"
_KUBE_VALUED = (" -n --namespace --context --cluster --user --as --as-group --as-uid --request-timeout -v --v --vmodule"
                " --cache-dir --certificate-authority --client-certificate --client-key --tls-server-name --token"
                " --username --password --log-flush-frequency")


def _kube(flags: str = "", valued: str = "", attached: str = "", **more: object) -> Options:
    """A kubectl sub-command's table: its own options plus the global ones, which may stand anywhere."""
    return options(flags + _KUBE_FLAGS, valued + _KUBE_VALUED, attached, **more)  # type: ignore[arg-type]


def _no_secret_data(reading: Reading) -> str | None:
    """`kubectl get secret … -o yaml|json|jsonpath` prints the credentials a Secret holds (names and sizes do not)."""
    for path in reading.values("--raw"):
        if any(part in path for part in ("/proxy", "/exec", "/attach", "/portforward")):
            return f"kubectl get --raw {path}: reaches a pod or service, not the API's records"
    output = reading.values("-o", "--output")
    shows_data = any(value not in ("name", "wide") for value in output) or reading.used("--template")
    for word in [*reading.operands, *reading.values("--raw")]:
        kinds = word.lower().split("/", 1)[0].split(",") if not word.startswith("/") else [word.lower()]
        if any(kind in ("secret", "secrets") or "/secrets" in kind for kind in kinds) and (shows_data or
                                                                                          word.startswith("/")):
            return f"kubectl get {word}: prints a Secret's data"
    return None


_KUBE_GET = _kube(
    "-A -w -R --all-namespaces --watch --watch-only --output-watch-events --show-labels --show-kind --no-headers"
    " --ignore-not-found --server-print --show-managed-fields --recursive --allow-missing-template-keys",
    "-o -l -L -f --output --selector --field-selector --label-columns --sort-by --chunk-size --template --filename"
    " --subresource --raw", check=_no_secret_data)
_KUBECTL = Options(
    _kube().flags, _kube().valued,
    subcommands={
        "get": _KUBE_GET,
        "describe": _kube("-A -R --all-namespaces --recursive", "-l -f --selector --filename --chunk-size",
                          "--show-events"),
        "logs": _kube("-f -p --follow --previous --timestamps --all-containers --prefix --ignore-errors --all-pods",
                      "-c -l --container --since --since-time --tail --limit-bytes --max-log-requests"
                      " --pod-running-timeout --selector"),
        "rollout": subcommands({"status": _kube("-w --watch", "-f -l --filename --selector --revision --timeout"),
                                "history": _kube("", "-f -l -o --filename --selector --revision --output")}),
        "top": subcommands({noun: _kube("-A --containers --no-headers --use-protocol-buffers --show-capacity --sum"
                                        " --all-namespaces", "-l --selector --sort-by --field-selector")
                            for noun in "node nodes no pod pods po".split()}),
        "explain": _kube("--recursive", "--api-version --output -o"),
        "version": _kube("--client --short", "-o --output"),
        "api-resources": _kube("--no-headers --cached", "-o --output --api-group --verbs --sort-by --categories",
                               "--namespaced"),
        "api-versions": _kube(operands=at_most(0)),
        "cluster-info": _kube(operands=at_most(0)),
        "events": _kube("-A -w --all-namespaces --watch --no-headers", "-o --output --for --types --chunk-size"),
        "auth": subcommands({"can-i": _kube("-A -q --all-namespaces --list --quiet --no-headers", "--subresource"),
                             "whoami": _kube("", "-o --output")}),
        "config": subcommands({
            "view": _kube("--minify --flatten", "-o --output --template", "--merge"),
            "get-contexts": _kube("--no-headers", "-o --output"), "current-context": _kube(operands=at_most(0)),
            "get-clusters": _kube(), "get-users": _kube()}),
    },
)

_HELM_FLAGS = " -h --help --debug"
_HELM_VALUED = (" -n --namespace --kube-context --burst-limit --qps --registry-config --repository-config"
                " --repository-cache --kube-as-user --kube-as-group --kube-ca-file --kube-tls-server-name --kube-token")


def _helm(flags: str = "", valued: str = "", attached: str = "") -> Options:
    return options(flags + _HELM_FLAGS, valued + _HELM_VALUED, attached)


_HELM_GET = _helm("", "--revision -o --output --template")
_HELM = Options(
    frozenset(_helm().flags), frozenset(_helm().valued),
    subcommands={
        **{verb: _helm("-a -A -d -r -q --all --all-namespaces --date --deployed --failed --pending --superseded"
                       " --uninstalled --uninstalling --reverse --short --no-headers",
                       "-f -m -o -l --filter --max --offset --output --selector --time-format")
           for verb in ("list", "ls")},
        "status": _helm("--show-desc --show-resources", "-o --output --revision"),
        "get": subcommands({part: _HELM_GET for part in "hooks notes metadata".split()}),
        **{verb: _helm("", "--max -o --output") for verb in ("history", "hist")},
        "version": _helm("-c --short --client", "--template"),
        "env": _helm(),
        "repo": subcommands({"list": _helm("", "-o --output"), "ls": _helm("", "-o --output")}),
        "plugin": subcommands({"list": _helm(), "ls": _helm()}),
        "search": subcommands({"repo": _helm("-r -l --regexp --devel --versions --fail-on-no-result",
                                             "--version -o --output --max-col-width")}),
        "dependency": subcommands({"list": _helm("", "--max-col-width")}),
    },
)

_DOCKER_GLOBAL = options("-D --debug --tls --tlsverify -v --version --help", "-c -l --context --log-level --tlscacert"
                         " --tlscert --tlskey")
_DOCKER_PS = options("-a -l -q -s --all --latest --no-trunc --quiet --size", "-f -n --filter --format --last")
_DOCKER_IMAGES = options("-a -q --all --digests --no-trunc --quiet --tree", "-f --filter --format")
_DOCKER_INSPECT = options("-s --size", "-f --format --type")
_DOCKER_LIST = options("-q --quiet --no-trunc --verbose", "-f --filter --format")
# `docker compose` reads its files to find the project; `config` is left out (it prints them with every
# variable from `.env` filled in), and so are `--env-file` (a secret's path) and `--project-directory`.
_COMPOSE = options("--compatibility --dry-run --all-resources", "-f -p --file --project-name --profile --ansi"
                   " --progress --parallel")
_DOCKER_READS = {
    "ps": _DOCKER_PS, "images": _DOCKER_IMAGES, "inspect": _DOCKER_INSPECT,
    "logs": options("-f -t --follow --details --timestamps", "-n --since --until --tail"),
    "version": options("", "-f --format"), "info": options("", "-f --format"),
    "stats": options("-a --all --no-stream --no-trunc", "--format"),
    "top": options(), "port": options(), "diff": options(),
    "history": options("-H -q --human --no-trunc --quiet", "--format"),
    "events": options("", "-f --filter --since --until --format"),
    "image": subcommands({"ls": _DOCKER_IMAGES, "list": _DOCKER_IMAGES, "inspect": _DOCKER_INSPECT,
                          "history": options("-H -q --human --no-trunc --quiet", "--format")}),
    "container": subcommands({"ls": _DOCKER_PS, "list": _DOCKER_PS, "ps": _DOCKER_PS, "inspect": _DOCKER_INSPECT,
                              "logs": options("-f -t --follow --details --timestamps", "-n --since --until --tail"),
                              "top": options(), "port": options(), "diff": options()}),
    "context": subcommands({"ls": options("-q --quiet", "--format"), "list": options("-q --quiet", "--format"),
                            "show": options(), "inspect": options("", "-f --format")}),
    **{group: subcommands({"ls": _DOCKER_LIST, "list": _DOCKER_LIST, "inspect": _DOCKER_INSPECT})
       for group in ("network", "volume", "plugin", "node", "service", "stack", "secret", "config")},
    "system": subcommands({"df": options("-v --verbose", "--format"), "info": options("", "-f --format"),
                           "events": options("", "-f --filter --since --until --format")}),
    "buildx": subcommands({"ls": options("", "--format"), "version": options(), "du": options("--verbose", "--filter")}),
    "compose": Options(_COMPOSE.flags, _COMPOSE.valued, subcommands={
        "ps": options("-a -q --all --quiet --services --no-trunc --orphans", "--format --filter --status"),
        "ls": options("-a -q --all --quiet", "--format --filter"), "images": options("-q --quiet", "--format"),
        "logs": options("-f -t --follow --timestamps --no-color --no-log-prefix", "-n --tail --since --until --index"),
        "top": options(), "version": options("--short", "-f --format"), "port": options("", "--protocol --index"),
        "events": options("--json")}),
}
_DOCKER = Options(_DOCKER_GLOBAL.flags, _DOCKER_GLOBAL.valued, subcommands=_DOCKER_READS)
_PODMAN = Options(frozenset({"--help", "-v", "--version"}), frozenset({"--log-level"}),
                  subcommands={verb: table for verb, table in _DOCKER_READS.items()
                               if verb not in ("context", "buildx", "compose", "plugin", "node", "service", "stack",
                                               "config")})


def _terraform_fmt(reading: Reading) -> str | None:
    written = reading.values("-write")
    if "true" not in written and (reading.used("-check") or "false" in written):
        return None
    return "terraform fmt rewrites files unless -check or -write=false"


def _terraform_plan(reading: Reading) -> str | None:
    """`-lock`, `-refresh` and `-input` are booleans that only choose how the plan is made."""
    for value in reading.values("-lock", "-refresh", "-input", "-compact-warnings", "-detailed-exitcode"):
        if value.lower() not in ("", "true", "false", "0", "1"):
            return f"terraform plan: {value!r} is not a boolean"
    return None


def _all_outputs(operands: list[str]) -> str | None:
    """`terraform output` redacts sensitive outputs only when it lists them all; one named output is printed
    in full (`terraform output db_password`)."""
    return f"terraform output {operands[0]}: prints the output in full, sensitive or not" if operands else None


def _tf(flags: str = "", valued: str = "", attached: str = "", **more: object) -> Options:
    return options(flags + " -no-color -help -h", valued, attached, single=True, **more)  # type: ignore[arg-type]


_TF_STATE = "-state -id"
_TERRAFORM = unless_env(Options(
    frozenset({"-help", "-version", "-v", "--version", "--help"}), frozenset({"-chdir"}), single=True,
    subcommands={
        "": _tf(), "version": _tf("-json"),
        "fmt": options("-check -diff -recursive -no-color", "", "-write -list", single=True, check=_terraform_fmt),
        "plan": _tf("-destroy -refresh-only", "-var -var-file -target -replace -parallelism -lock-timeout -state",
                    "-lock -refresh -input -compact-warnings -detailed-exitcode", check=_terraform_plan),
        "validate": _tf("-json -no-tests", "-test-directory"),
        "show": _tf(),
        "graph": _tf("-draw-cycles", "-type -plan -module-depth"),
        "state": subcommands({"list": _tf("", _TF_STATE), "show": _tf("", "-state")}),
        "output": _tf("", "-state", operands=_all_outputs),
        "providers": Options(single=True, subcommands={"": _tf("", "-test-directory"), "schema": _tf("-json")}),
        "workspace": subcommands({"list": _tf(), "show": _tf()}),
        "metadata": subcommands({"functions": _tf("-json")}),
        "modules": _tf("-json"),
    }), "TF_CLI_*", "TF_PLUGIN_*", "TF_DATA_DIR", "TF_LOG_PATH", "TF_REATTACH_PROVIDERS", "TERRAFORM_CONFIG", "TOFU_*")


def _kafka(verbs: str, more_flags: str = "", more_valued: str = "") -> Options:
    """A Kafka admin script limited to listing and describing."""
    return options(
        "--list --describe --version --help --verbose --exclude-internal --under-replicated-partitions"
        " --unavailable-partitions --at-min-isr-partitions --under-min-isr-partitions --topics-with-overrides"
        " --all-groups --members --offsets --state --all --entity-default " + more_flags,
        "--bootstrap-server --zookeeper --topic --group --timeout --entity-type --entity-name --principal"
        " --resource-pattern-type --topic-id --broker-list --topic-list " + more_valued,
        requires=verbs)


_KAFKA = {
    "kafka-topics": _kafka("--list --describe"),
    "kafka-consumer-groups": _kafka("--list --describe"),
    "kafka-acls": _kafka("--list", "--cluster --topic --group"),
    "kafka-configs": _kafka("--describe"),
    "kafka-log-dirs": _kafka("--describe"),
    "kafka-broker-api-versions": options("--version --help", "--bootstrap-server --timeout"),
}

_RABBIT_COMMON = ("-q -s -l --quiet --silent --longnames --no-table-headers --help --version",
                  "-n -p -t --node --vhost --timeout --formatter")
_RABBITMQCTL_VERBS = (
    "list_queues list_exchanges list_bindings list_connections list_channels list_consumers list_users list_vhosts"
    " list_permissions list_policies list_parameters list_global_parameters list_user_permissions"
    " list_topic_permissions list_operator_policies list_feature_flags list_unresponsive_queues status"
    " cluster_status environment version node_health_check ping report await_startup")
_RABBIT_DIAGNOSTICS_VERBS = (
    "ping status cluster_status environment listeners alarms memory_breakdown check_running check_alarms"
    " check_local_alarms check_port_connectivity check_virtual_hosts check_if_node_is_quorum_critical"
    " check_if_node_is_mirror_sync_critical check_certificate_expiration check_protocol_listener"
    " check_port_listener server_version erlang_version is_running is_booting runtime_thread_stats"
    " command_line_arguments discover_peers maybe_stuck tls_versions cipher_suites certificates"
    " list_network_interfaces quorum_status schema_info log_location log_tail")


def _verbs(verbs: str, table: Options) -> Options:
    return Options(table.flags, table.valued, subcommands={verb: table for verb in verbs.split()})


_VELERO_READ = options("--details -h --help", "-n -o -l --namespace --kubecontext --output --selector --cacert"
                       " --timeout --features --colorized")
_VELERO = Options(_VELERO_READ.flags, _VELERO_READ.valued, subcommands={
    "get": subcommands({noun: _VELERO_READ for noun in
                        "backups backup restores restore schedules schedule backup-locations snapshot-locations"
                        " plugins".split()}),
    **{noun: subcommands({verb: _VELERO_READ for verb in ("get", "describe", "logs")})
       for noun in ("backup", "restore", "schedule")},
    "plugin": subcommands({"get": _VELERO_READ}),
    "backup-location": subcommands({"get": _VELERO_READ}),
    "snapshot-location": subcommands({"get": _VELERO_READ}),
    "version": options("--client-only -h --help", "--timeout -n --namespace --kubecontext"),
})

_BORG_COMMON = ("-v -p --verbose --info --debug --critical --error --warning --log-json --show-version --show-rc"
                " --json --consider-part-files --short --last-modified --no-files-cache --iec")
_BORG_VALUED = " --lock-wait -a --glob-archives --match-archives --sort-by --first --last --format --debug-topic"
_BORG = unless_env(Options(frozenset({"--version", "-V", "--help", "-h"}), subcommands={
    "list": options(_BORG_COMMON, _BORG_VALUED),
    "info": options(_BORG_COMMON, _BORG_VALUED),
    "check": options(_BORG_COMMON + " --repository-only --archives-only --verify-data", _BORG_VALUED),
    "diff": options(_BORG_COMMON + " --numeric-owner --numeric-ids --same-chunker-params --content-only",
                    _BORG_VALUED + " --sort"),
    "version": options(_BORG_COMMON),
}), "BORG_*")

_RESTIC_COMMON = ("-q -v --quiet --verbose --json --no-cache --no-lock --cleanup-cache --no-extra-verify --help"
                  " -h --insecure-no-password")
_RESTIC_VALUED = (" -r --repo --repository-file --password-file --cache-dir --limit-download --limit-upload"
                  " --tls-client-cert --cacert --key-hint --pack-size --compression")
_RESTIC = unless_env(Options(frozenset(_RESTIC_COMMON.split()), frozenset(_RESTIC_VALUED.split()), subcommands={
    verb: options(_RESTIC_COMMON + " -c -l --compact --long --latest --recursive --human-readable -i --ignore-case"
                  " --read-data --with-cache --blob --tree --pack --show-pack-id --oldest --newest --metadata",
                  _RESTIC_VALUED + " -H -g --host --tag --path --group-by --latest --mode --read-data-subset"
                  " --snapshot -s")
    for verb in "snapshots stats ls check diff find version".split()
} | {"key": subcommands({"list": options(_RESTIC_COMMON, _RESTIC_VALUED)}),
     "list": subcommands({kind: options(_RESTIC_COMMON, _RESTIC_VALUED)
                          for kind in "snapshots keys locks index packs blobs".split()})}),
    "RESTIC_PASSWORD_COMMAND", "RESTIC_FROM_PASSWORD_COMMAND")

_GO_FLAGS = ("-http-addr -token -token-file -datacenter -ca-file -ca-path -client-cert -client-key -tls-server-name"
             " -namespace -partition -address -region -format -stale -detailed -t -json -verbose -short")


VerbTree = dict[str, "VerbTree | None"]
"""A CLI's read verbs: each verb maps to its own sub-verbs, or to None when it takes none."""


def _go_cli(tree: VerbTree, valued: str = _GO_FLAGS) -> Options:
    """A Go `flag` CLI (`-name=value`) reduced to the read verbs in `tree` (nested dicts of verbs)."""
    table = options("-detailed -json -verbose -short -stale -all -recurse -keys -help -h -v -version -f -stderr"
                    " -tail", valued + " -n -c", single=True)

    def build(node: VerbTree | None) -> Options:
        if node is None:
            return table
        return Options(table.flags, table.valued, single=True,
                       subcommands={verb: build(child) for verb, child in node.items()})

    return build(tree)


_REDIS_READ = ("ping info dbsize time lastsave get mget exists ttl pttl type strlen getrange hget hmget hgetall hkeys"
               " hvals hlen hexists llen lrange lindex scard smembers sismember srandmember zcard zrange zrangebyscore"
               " zrevrange zscore zrank zcount scan sscan hscan zscan keys role echo")
_REDIS_TABLE = options("--raw --no-raw --csv --json --quoted-json --tls --insecure --no-auth-warning -c -e -3"
                       " --verbose --help --version",
                       "-h -p -a -n -u -s -r -i -d --user --pass --sni --cacert --cacertdir --cert --key", fold=True)
_REDIS = Options(_REDIS_TABLE.flags, _REDIS_TABLE.valued, fold=True, subcommands={
    **{verb: _REDIS_TABLE for verb in _REDIS_READ.split()},
    "config": Options(fold=True, subcommands={"get": _REDIS_TABLE}),
    "client": Options(fold=True, subcommands={"list": _REDIS_TABLE, "info": _REDIS_TABLE, "getname": _REDIS_TABLE}),
    "slowlog": Options(fold=True, subcommands={"get": _REDIS_TABLE, "len": _REDIS_TABLE}),
    "memory": Options(fold=True, subcommands={"usage": _REDIS_TABLE, "stats": _REDIS_TABLE}),
    "cluster": Options(fold=True, subcommands={"info": _REDIS_TABLE, "nodes": _REDIS_TABLE}),
})

_SQLITE_DOT = frozenset(
    ".tables .table .schema .indexes .indices .databases .fullschema .dbinfo .help .show .headers .header .mode .width"
    " .nullvalue .separator .timer .stats .eqp .print .dump .changes .bail .echo .explain .quit .exit".split())
_SQLITE_DOT_WORD = re.compile(r"[\w.*%?\[\]-]*")


def _sqlite_command(text: str, safe: bool) -> str | None:
    """One command sqlite3 runs from its arguments: a dot command from the list above, or a query.

    A query (and `.dump`) reads tables and views, and a view in a database the agent wrote can call
    the shell's `writefile()`, `readfile()`, `edit()` or `load_extension()`, which releases before
    2020 let a view call: so these are proven only under `-safe`, which forbids them. The schema
    commands read `sqlite_schema` alone."""
    if text.startswith("."):
        words = text.split()
        if "\n" in text or words[0].lower() not in _SQLITE_DOT:
            return f"sqlite3: {words[0]} is not a dot command known to be read-only"
        if words[0].lower() in (".dump", ".fullschema") and not safe:
            return f"sqlite3: {words[0]} reads tables a crafted database can make views (only with -safe)"
        if not all(_SQLITE_DOT_WORD.fullmatch(word.strip("'\"")) for word in words[1:]):
            return f"sqlite3: {text!r} has arguments that are not names"
        return None
    if not safe:
        return "sqlite3: a query may read a view that calls file functions (only with -safe)"
    return sql_query(text, "sqlite")


def _sqlite(reading: Reading) -> str | None:
    """`sqlite3 [options] FILE COMMAND…`: with no command it reads them from its input, which is not shown."""
    if not reading.operands:
        return None if reading.used("-version", "-help") else "sqlite3: no database and command"
    database, commands = reading.operands[0], [*reading.values("-cmd"), *reading.operands[1:]]
    if "?" in database or database.startswith("file:"):
        return f"sqlite3: {database} is a URI whose parameters are not read"
    if not reading.operands[1:]:
        return "sqlite3: without a command it reads commands from its input"
    safe = reading.used("-safe")
    for command in commands:
        why = _sqlite_command(command, safe)
        if why:
            return why
    return None


_SQLITE3 = options(
    "-readonly -header -noheader -column -csv -json -line -list -html -markdown -table -box -quote -tabs -ascii"
    " -bail -batch -echo -safe -version -help -nofollow -stats", "-separator -newline -nullvalue -cmd", single=True,
    check=_sqlite)
_PSQL_META = re.compile(r"\\(?:d[A-Za-z]{0,3}\+?|l\+?|list\+?|z|conninfo|s[fv]\+?|copyright|h|help|\?|encoding)")
_PSQL_ARGUMENT = re.compile(r"[\w.*\"+-]{1,200}")


_LOOPBACK_HOSTS = frozenset({"localhost", "127.0.0.1", "::1", "[::1]", ""})
_CONNINFO_HOST = re.compile(r"(?:^|\s)(?:host|hostaddr)\s*=\s*'?([^\s',]*)|://(?:[^@/?]*@)?(\[[^\]]*\]|[^:/?,]*)")


def _conninfo_hosts(words: list[str]) -> list[str]:
    """Hosts named by connection strings (`host=db.example`, `postgres://u@db.example/shop`)."""
    return [first or second for word in words for first, second in _CONNINFO_HOST.findall(word)]


def _psql(reading: Reading) -> str | None:
    """`psql … -c QUERY|\\d…` or `-l`: without `-c` it reads commands from its input, which is not shown. A
    backslash command must describe (`\\d users`, `\\dt`, `\\l`); backquotes in its arguments would run a shell."""
    commands = reading.values("-c", "--command")
    if not commands and not reading.used("-l", "--list", "-V", "--version", "-?", "--help"):
        return "psql: without -c it reads commands from its input"
    hosts = _conninfo_hosts([*reading.operands, *reading.values("-d", "--dbname")])
    for value in [*reading.values("-h", "--host"), *hosts]:
        if value not in _LOOPBACK_HOSTS and not value.startswith("/"):
            return f"psql: {value} is another host, and the query text goes there"
    for command in commands:
        if command.lstrip().startswith("\\"):
            words = command.split()
            if _PSQL_META.fullmatch(words[0]) is None or not all(_PSQL_ARGUMENT.fullmatch(w) for w in words[1:]):
                return f"psql: {words[0]} is not a backslash command known to be read-only"
        else:
            why = sql_query(command, "postgres")
            if why:
                return why
    return None


_PSQL = unless_env(options(
    "-w -W -X -A -t -x -H -q -e -E -a -b -n -S -1 -l -V -? -z -0 --no-password --password --no-psqlrc --no-align"
    " --tuples-only --expanded --html --quiet --echo-queries --echo-hidden --echo-all --echo-errors --no-readline"
    " --single-line --single-transaction --list --version --help --csv --field-separator-zero --record-separator-zero",
    "-c -d -h -p -U -F -R -P -T -v --command --dbname --host --port --username --field-separator --record-separator"
    " --pset --table-attr --set --variable", check=_psql), "PSQLRC", "PSQL_HISTORY", "PGOPTIONS", "PGSERVICEFILE",
    "PGSERVICE", "PGHOST", "PGHOSTADDR")

_ETCD_FLAGS = " --hex --debug --help --insecure-transport --discovery-srv-name"
_ETCD_VALUED = (" -w --write-out --endpoints --cacert --cert --key --user --dial-timeout --command-timeout"
                " --keepalive-time --keepalive-timeout --discovery-srv")


def _etcd(flags: str = "", valued: str = "") -> Options:
    return options(flags + _ETCD_FLAGS, valued + _ETCD_VALUED)


_ETCD = _etcd("--version")

_NATS_READ = options("-j --json --names -n --help --version --trace", "-s --server --context --creds --nkey --tlscert"
                     " --tlskey --tlsca --user --password --js-domain --timeout")
_NATS = Options(_NATS_READ.flags, _NATS_READ.valued, subcommands={
    "kv": _verbs("ls list get status history info", _NATS_READ),
    "account": _verbs("info report", _NATS_READ),
    "server": _verbs("list ls info ping check", _NATS_READ),
    "stream": _verbs("list ls info report state", _NATS_READ),
    "consumer": _verbs("list ls info report", _NATS_READ),
    "context": _verbs("ls list info show", _NATS_READ),
    "object": _verbs("ls list info", _NATS_READ),
})

_CIRCLECI_READ = options("-h --help --skip-update-check", "--org-slug --org-id --token --host --integration")
_CIRCLECI = Options(_CIRCLECI_READ.flags, _CIRCLECI_READ.valued, subcommands={
    "orb": _verbs("info list source", _CIRCLECI_READ),
    "context": _verbs("list show", _CIRCLECI_READ),
    "project": _verbs("list", _CIRCLECI_READ),
    "config": _verbs("validate", _CIRCLECI_READ),
    "version": _CIRCLECI_READ,
})

_MINIKUBE_READ = options("-h --help", "-p -o --profile --output --format")
_MINIKUBE = Options(_MINIKUBE_READ.flags, _MINIKUBE_READ.valued, subcommands={
    "status": _MINIKUBE_READ, "ip": _MINIKUBE_READ, "version": _MINIKUBE_READ,
    "profile": _verbs("list", _MINIKUBE_READ), "service": _verbs("list", _MINIKUBE_READ),
    "addons": _verbs("list", _MINIKUBE_READ),
})
_KIND = Options(subcommands={"get": _verbs("clusters nodes", options("-h --help", "--name")),
                             "version": options()})

READ_ONLY: dict[str, Proof] = {
    "kubectl": unless_env(_KUBECTL, "KUBECTL_*"), "oc": unless_env(_KUBECTL, "KUBECTL_*"),
    "helm": unless_env(_HELM, "HELM_*"),
    "docker": _DOCKER, "podman": _PODMAN, "nerdctl": _PODMAN,
    "terraform": _TERRAFORM, "tofu": _TERRAFORM,
    **_KAFKA, **{f"{name}.sh": table for name, table in _KAFKA.items()},
    "rabbitmqctl": _verbs(_RABBITMQCTL_VERBS, options(*_RABBIT_COMMON)),
    "rabbitmq-diagnostics": _verbs(_RABBIT_DIAGNOSTICS_VERBS, options(*_RABBIT_COMMON)),
    "velero": _VELERO, "borg": _BORG, "restic": _RESTIC,
    "consul": _go_cli({"members": None, "info": None, "version": None, "kv": {"get": None},
                       "catalog": {"services": None, "nodes": None, "datacenters": None},
                       "operator": {"raft": {"list-peers": None}}}),
    "nomad": _go_cli({"status": None, "version": None, "agent-info": None, "job": {"status": None},
                      "node": {"status": None}, "alloc": {"status": None, "logs": None},
                      "server": {"members": None}}),
    "etcdctl": unless_env(Options(_ETCD.flags, _ETCD.valued, subcommands={
        "get": _etcd("--prefix --keys-only --print-value-only --count-only --from-key",
                     "--limit --rev --order --sort-by --consistency"),
        "endpoint": _verbs("health status hashkv", _etcd("--cluster")), "member": _verbs("list", _etcd()),
        "alarm": _verbs("list", _etcd()), "version": _etcd()}), "ETCDCTL_*"),
    "redis-cli": _REDIS, "sqlite3": _SQLITE3, "psql": _PSQL,
    "mysql": options("-V --version", requires="-V --version", operands=at_most(0)),
    "nats": _NATS, "circleci": _CIRCLECI, "minikube": _MINIKUBE, "kind": _KIND,
    "kubectx": options("-c --current -h --help", operands=at_most(0)),
    "kubens": options("-c --current -h --help", operands=at_most(0)),
}

PROVEN = (
    "kubectl get pods -A -o wide", "kubectl describe node worker-2", "kubectl logs deploy/api -n prod --tail=200",
    "kubectl top pods --sort-by=memory", "kubectl explain deployment.spec", "kubectl version --client -o json",
    "kubectl auth can-i --list -n staging", "kubectl config get-contexts", "oc get pods", "kubectl get secrets -n prod",
    "helm list -A", "helm status api -n prod", "helm get notes api", "helm history api",
    "docker ps -a --format '{{.Names}}'", "docker images", "docker logs --tail 50 web", "docker inspect web",
    "podman ps -a", "nerdctl images", "terraform state list", "terraform output", "terraform fmt -check",
    "terraform plan -input=false -no-color", "terraform validate -json", "terraform show",
    "terraform state show aws_instance.web", "terraform graph",
    "terraform version", "terraform providers", "tofu workspace list",
    "kafka-topics --bootstrap-server localhost:9092 --list", "kafka-topics.sh --bootstrap-server k:9092 --describe",
    "kafka-consumer-groups --bootstrap-server k:9092 --describe --group billing",
    "kafka-consumer-groups.sh --bootstrap-server k:9092 --list", "kafka-acls --bootstrap-server k:9092 --list",
    "kafka-acls.sh --bootstrap-server k:9092 --list", "kafka-configs --bootstrap-server k:9092 --describe --all",
    "kafka-configs.sh --bootstrap-server k:9092 --describe", "kafka-log-dirs --bootstrap-server k:9092 --describe",
    "kafka-log-dirs.sh --describe --bootstrap-server k:9092", "kafka-broker-api-versions --bootstrap-server k:9092",
    "kafka-broker-api-versions.sh --bootstrap-server k:9092",
    "rabbitmqctl list_queues name messages", "rabbitmq-diagnostics ping", "velero backup get", "velero get backups",
    "borg list repo", "restic snapshots", "consul members", "nomad job status web", "etcdctl get --prefix /config",
    "redis-cli -h cache INFO keyspace", "nats stream list", "circleci orb list org/my-org", "minikube status",
    "kind get clusters", "kubectx -c", "kubens",
    "sqlite3 app.db .tables", "sqlite3 -safe -readonly -header app.db 'SELECT id, name FROM users LIMIT 5'",
    "psql -c '\\dt'", "psql -h localhost -U app -d shop -At -c 'SELECT count(*) FROM orders'", "psql -l", "mysql -V",
)

PACK = Pack("infra", "Infrastructure looked at, not changed: Kubernetes, Helm, containers, Terraform state, queues and "
            "backups.", read_only=READ_ONLY, proven=PROVEN)
