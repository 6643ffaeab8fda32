"""Transfers that only read: curl GETs to this machine, rsync and rclone listings and dry runs.

Read-only proofs only (the network pack's rules ask about everything else, and use these
proofs to leave them alone). Left out on purpose: curl's `-o/-O`, `-D`, `-c`, `--trace*`,
`--stderr`, `--libcurl`, `-w` (`%output{}` writes a file), `-K` (a config file), `-x` and the
proxy options, `-L` (a redirect may leave this machine), `--variable` and `--netrc`, any
body or upload, any method but GET and HEAD, and any URL not on loopback; rsync's `-e/--rsh`,
`--rsync-path`, `-M`, `--log-file`, batch files, `--daemon`, `--config` and `--mkpath`;
rclone's `--config`, `--log-file`, backend flags (`--sftp-ssh` runs a program), `check`'s
report files, `config show` (prints secrets) and on-the-fly remotes (`:sftp,ssh=…:`), and
any `RCLONE_*` variable. `ping` is proven only to this machine (`localhost`, `127.x`, `::1`): to
any other host, its packets can carry data (`-p` patterns, sizes, the name looked up).
"""

from __future__ import annotations

import re

from engine.gate.packs.model import Pack, Proof
from engine.gate.proof import Options, Reading, options, unless_env
from engine.gate.shell.view import Command

_LOOPBACK_URL = re.compile(r"(?:https?://)?(?:localhost|127(?:\.\d{1,3}){3}|\[::1\])(?::\d{1,5})?(?:[/?#]\S*)?")


def _curl_reads(reading: Reading) -> str | None:
    """Only GET and HEAD, and only to loopback."""
    for method in reading.values("-X", "--request"):
        if method.upper() not in ("GET", "HEAD"):
            return f"curl: method {method} is not known to be read-only"
    urls = [*reading.operands, *reading.values("--url")]
    if not urls:
        return "curl: no URL"
    for url in urls:
        if _LOOPBACK_URL.fullmatch(url) is None:
            return f"curl: {url} is not on this machine"
    return None


CURL = options(
    "-sSfiIvkgGN46q# --silent --show-error --fail --fail-with-body --fail-early --include --head --verbose --insecure"
    " --globoff --get --no-buffer --http1.0 --http1.1 --http2 --http2-prior-knowledge --http3 --ipv4 --ipv6"
    " --progress-bar --no-progress-meter --compressed --raw --tr-encoding --path-as-is --no-keepalive --tcp-nodelay"
    " --disable --show-headers --styled-output --no-styled-output --ssl-no-revoke --help --version",
    "-HAemrbuXYy --header --user-agent --referer --max-time --connect-timeout --range --cookie --user --request"
    " --retry --retry-delay --retry-max-time --max-redirs --limit-rate --keepalive-time --expect100-timeout"
    " --speed-limit --speed-time --cacert --capath --cert --key --cert-type --key-type --unix-socket"
    " --abstract-unix-socket --url --url-query --max-filesize --oauth2-bearer",
    check=_curl_reads,
)

RSYNC = unless_env(options(
    "-vqcarRbudlLkKHpEAXogDtOJSWxCymhinzUN0s8FP --verbose --quiet --checksum --archive --recursive --relative"
    " --no-implied-dirs --backup --update --inplace --append --append-verify --dirs --links --copy-links"
    " --copy-unsafe-links --safe-links --munge-links --copy-dirlinks --keep-dirlinks --hard-links --perms"
    " --executability --acls --xattrs --owner --group --devices --specials --times --atimes --crtimes"
    " --omit-dir-times --omit-link-times --super --fake-super --sparse --preallocate --dry-run --whole-file"
    " --one-file-system --existing --ignore-existing --delete --delete-before --delete-during"
    " --delete-delay --delete-after --delete-excluded --ignore-missing-args --delete-missing-args --ignore-errors"
    " --force --partial --delay-updates --prune-empty-dirs --numeric-ids --ignore-times --size-only --compress"
    " --cvs-exclude --from0 --protect-args --secluded-args --old-args --blocking-io --stats --8-bit-output"
    " --human-readable --progress --itemize-changes --list-only --ipv4 --ipv6 --no-motd --fuzzy"
    " --no-perms --no-owner --no-group --no-times --no-recursive --no-relative --no-inc-recursive --help --version"
    " --trust-sender --open-noatime",
    "-TBf --temp-dir --block-size --filter --exclude --include --exclude-from --include-from --files-from"
    " --max-delete --max-size --min-size --max-alloc --partial-dir --timeout --contimeout --modify-window"
    " --compare-dest --copy-dest --link-dest --out-format --password-file --port --sockopts --bwlimit --suffix"
    " --backup-dir --chmod --chown --usermap --groupmap --iconv --checksum-choice --cc --compress-choice --zc"
    " --compress-level --zl --skip-compress --outbuf --info --debug --stop-after --stop-at",
    requires="-n --dry-run --list-only"), "RSYNC_*")


def _rclone_remotes(reading: Reading) -> str | None:
    for word in reading.operands:
        remote, colon, _ = word.partition(":")
        if colon and (not remote or "," in remote or "=" in remote):
            return f"rclone: {word} configures its own backend"
    return None


_RCLONE_FLAGS = (
    "-v -vv -q -n -P -R -M -c -i --dry-run --progress --stats-one-line --human-readable --fast-list --checksum"
    " --size-only --ignore-size --ignore-times --ignore-existing --update --recursive --dirs-only --files-only"
    " --no-modtime --no-mimetype --original --encrypted --stat --metadata --hash --absolute --csv --dir-slash --json"
    " --full --one-way --download --interactive --use-json-log --quiet --verbose --no-check-certificate"
    " --ignore-checksum --check-first --delete-before --delete-during --delete-after --delete-excluded"
    " --create-empty-src-dirs --track-renames --no-update-modtime --immutable --links -a --all -C -d --dirsfirst"
    " --noreport -s --size -t --sort-modtime -U --unsorted --help -h"
)
_RCLONE_VALUED = (
    "-F --stats --max-depth --include --exclude --filter --include-from --exclude-from --filter-from --files-from"
    " --min-size --max-size --min-age --max-age --transfers --checkers --low-level-retries --retries --timeout"
    " --contimeout --bwlimit --tpslimit --log-level --format --separator --hash-type --level --order-by --max-backlog"
    " --max-transfer --cutoff-mode --track-renames-strategy --compare-dest --copy-dest --backup-dir --suffix"
    " --user-agent --buffer-size --multi-thread-streams --max-delete --max-duration"
)
_RCLONE_READ = options(_RCLONE_FLAGS, _RCLONE_VALUED, check=_rclone_remotes)


def _rclone_dry(reading: Reading) -> str | None:
    if not reading.used("-n", "--dry-run"):
        return f"{reading.program}: only reads with -n or --dry-run"
    return _rclone_remotes(reading)


_RCLONE_DRY = options(_RCLONE_FLAGS, _RCLONE_VALUED, check=_rclone_dry)
RCLONE = unless_env(Options(_RCLONE_READ.flags, _RCLONE_READ.valued, subcommands={
    **{verb: _RCLONE_READ for verb in
       "ls lsd lsl lsf lsjson size about version listremotes check cat tree md5sum sha1sum hashsum".split()},
    **{verb: _RCLONE_DRY for verb in
       "sync copy copyto move moveto delete deletefile purge rmdirs dedupe cleanup bisync".split()},
    "config": Options(subcommands={"file": options(), "paths": options(), "providers": options()}),
}), "RCLONE_*")

_LOOPBACK_HOST = re.compile(r"localhost|127(?:\.\d{1,3}){3}|::1|ip6-localhost|ip6-loopback")


def _ping_loopback(operands: list[str]) -> str | None:
    """Echo requests to this machine only: a packet to another host can carry data (its size, its pattern)."""
    if len(operands) != 1 or _LOOPBACK_HOST.fullmatch(operands[0]) is None:
        return f"ping: {' '.join(operands) or 'no host'} is not this machine"
    return None


_PING = options("-4 -6 -n -q -v -D -O -a -A -U -R -d", "-c -i -W -w -s -t -l -Q -m", operands=_ping_loopback)

READ_ONLY: dict[str, Proof] = {"ping": _PING, "ping6": _PING, "curl": unless_env(CURL, "CURL_HOME", "SSLKEYLOGFILE", "http_proxy", "HTTP_PROXY", "https_proxy",
                                "HTTPS_PROXY", "all_proxy", "ALL_PROXY"), "rsync": RSYNC, "rclone": RCLONE}

PROVEN = (
    "curl -s http://localhost:9200/_cluster/health", "curl -X GET 'http://127.0.0.1:7700/version'",
    "curl -sI http://[::1]:8080/", "rsync -a --list-only user@host:/dest/", "rsync -an --itemize-changes src/ dst/",
    "rclone lsjson remote:bucket", "rclone sync /src remote:bucket --dry-run", "rclone about remote:",
    "ping -c 3 localhost", "ping6 -c 1 ::1",
)

PACK = Pack("transfer", "Transfers that only read: curl GETs to this machine, rsync and rclone listings and dry runs.",
            read_only=READ_ONLY, proven=PROVEN)


def proves(cmd: Command) -> bool:
    """True when one of this pack's proofs holds for `cmd` (the network rules leave such commands alone)."""
    proof = READ_ONLY.get(cmd.name)
    return proof is not None and proof(cmd) is None
