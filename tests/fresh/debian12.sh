#!/bin/sh
# Try the README's two commands on a fresh Debian 12 that has only git and python3.
#
#   tests/fresh/debian12.sh [demo|test|both] [DIR]
#
# As root on a Debian host: debootstrap builds a minimal bookworm in DIR (default
# /var/tmp/warden-fresh-debian12, reused when already built), with the host's own
# Debian mirror, then installs git, python3 and ca-certificates into it and nothing else. The project
# is cloned into it from this checkout's committed HEAD, and the README's
# commands run there as written:
#   demo: `./setup.sh demo --pace 0` inside tmux, until the console says the engine is
#         running and its demo tasks have settled (the screen is printed), then the session is closed;
#   test: `./setup.sh test`, whose exit status this script returns.
# It is not part of the suite (it takes most of an hour on two cores); docs/benchmarks.md
# records when it last ran and what it printed.
set -eu
what=${1:-both}
root=${2:-/var/tmp/warden-fresh-debian12}
here=$(cd "$(dirname "$0")/../.." && pwd)

if [ "$(id -u)" != 0 ]; then
    echo "fresh: run as root (debootstrap and chroot need it)" >&2
    exit 2
fi
command -v debootstrap >/dev/null 2>&1 || apt-get install -y -qq debootstrap >/dev/null

mirror=$(sed -n 's/^URIs: *//p' /etc/apt/sources.list.d/debian.sources 2>/dev/null | head -n 1)
[ -n "$mirror" ] || mirror=$(awk '$1 == "deb" { print $2; exit }' /etc/apt/sources.list)
if [ ! -x "$root/usr/bin/python3" ]; then
    debootstrap --variant=minbase bookworm "$root" "$mirror"
    chroot "$root" sh -c 'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq git python3 ca-certificates >/dev/null'
fi

# The network's trust is the machine's, not the project's: a host behind a TLS-inspecting
# proxy lends the new system its local certificate authorities, and the variables naming them.
cp /etc/resolv.conf "$root/etc/resolv.conf"
if ls /usr/local/share/ca-certificates/*.crt >/dev/null 2>&1; then
    cp /usr/local/share/ca-certificates/*.crt "$root/usr/local/share/ca-certificates/"
    chroot "$root" update-ca-certificates >/dev/null 2>&1
fi
trust=""
for name in PIP_CERT SSL_CERT_FILE REQUESTS_CA_BUNDLE; do
    value=$(printenv "$name" || true)
    [ -n "$value" ] && trust="$trust $name=$value"
done

rm -rf "$root/work/warden"
mkdir -p "$root/work"
git clone -q "$here" "$root/work/warden"
# Each command runs with the new system as its root by pivot_root in a mount namespace of its
# own, as a container would, not by chroot: the kernel refuses a chrooted process the user
# namespaces bubblewrap needs, and the sandbox is what the suite most has to exercise.
enter='mount --rbind "$1" "$1"; for fs in proc sys dev; do mount --rbind "/$fs" "$1/$fs"; done
cd "$1"; mkdir -p .oldroot; pivot_root . .oldroot; cd /; umount -l /.oldroot; shift; exec "$@"'
run() {
    # shellcheck disable=SC2086 # $trust is NAME=VALUE words
    unshare --mount --propagation private --fork sh -ec "$enter" sh "$root" \
        env -i HOME=/root PATH=/usr/sbin:/usr/bin:/sbin:/bin TERM=xterm-256color CI="${CI:-}" $trust \
        sh -c "cd /work/warden && $1"
}

status=0
if [ "$what" = demo ] || [ "$what" = both ]; then
    # The demo is a console: set up first (its output is the proof it installs), then watch it in tmux.
    run "apt-get install -y -qq tmux >/dev/null 2>&1 || true"
    run "tmux new-session -d -s fresh -x 160 -y 48 './setup.sh demo --pace 0; sleep 600'"
    tries=0
    # Settled: the engine runs, the demo's tasks are queued (six with a browser, four without)
    # and none is still queued or running.
    until screen=$(run "tmux capture-pane -p -t fresh") \
            && echo "$screen" | grep -q "engine running" \
            && echo "$screen" | grep -Eq " [46] tasks " \
            && ! echo "$screen" | grep -Eq "t-[0-9a-f]+ +. (queued|running)"; do
        tries=$((tries + 1))
        if [ "$tries" -gt 900 ]; then
            echo "fresh: the demo did not show its tasks within 15 minutes" >&2
            status=1
            break
        fi
        sleep 1
    done
    run "tmux capture-pane -p -t fresh"
    run "tmux kill-session -t fresh" || true
fi
if [ "$what" = test ] || [ "$what" = both ]; then
    run "./setup.sh test" || status=$?
fi
exit "$status"
