#!/bin/sh
# Make this machine ready for Warden, then run the demo or the test suite.
#
#   ./setup.sh demo [ARGS...]   the console on a throwaway workspace (ARGS go to `warden demo`)
#   ./setup.sh test [ARGS...]   the type check, then the test suite on every core (ARGS go to pytest)
#
# It is safe to run again: a machine that already has what is needed pays a few
# checks and nothing else. What it does, in order:
#   1. the Debian/Ubuntu packages that are missing: apt-get as root, sudo otherwise,
#      and when neither can be used it stops with the one `apt-get install` line to run;
#   2. a virtual environment in .venv (PEP 668: Debian's python refuses `pip install`
#      outside one);
#   3. `pip install -e '.[test]'` into it, again only when pyproject.toml changed.
set -eu
cd "$(dirname "$0")"

target=${1:-}
case "$target" in
    demo|test) shift ;;
    *) echo "usage: ./setup.sh demo|test [ARGS...]" >&2; exit 2 ;;
esac

python=${PYTHON:-python3}
if ! command -v "$python" >/dev/null 2>&1; then
    echo "setup: $python is not installed: apt-get install python3 python3-venv" >&2
    exit 1
fi

# Each need is "command-that-proves-it package...": the packages are installed when the check fails.
missing=""
need() {
    check=$1
    shift
    if ! sh -c "$check" >/dev/null 2>&1; then
        missing="$missing $*"
    fi
}
need "[ -x .venv/bin/python ] || $python -c 'import ensurepip, venv'" python3-venv
need "command -v bwrap" bubblewrap
# Playwright drives the browser through a Node binary of its own, which needs libatomic.
need "ldconfig -p | grep -q 'libatomic\.so\.1 '" libatomic1
need "ls \"\${PLAYWRIGHT_BROWSERS_PATH:-\$HOME/.cache/ms-playwright}\"/chromium-*/chrome-linux*/chrome \
      || command -v chromium || command -v chromium-browser || command -v google-chrome" chromium
if [ "$target" = test ]; then
    need "command -v tmux" tmux
    # The hook tests install a real Claude Code from npm.
    need "command -v npm" nodejs npm
    # The sandbox's tests run ordinary build tools inside it.
    need "command -v make" make
    need "command -v Xvfb" xvfb
    need "command -v xdotool" xdotool
    need "command -v mkfs.btrfs" btrfs-progs
    need "$python -c 'import tkinter'" python3-tk tk8.6
fi

if [ -n "$missing" ]; then
    if [ "$(id -u)" = 0 ]; then
        sudo=""
    elif command -v sudo >/dev/null 2>&1; then
        sudo="sudo"
    else
        echo "setup: these system packages are missing; as root, run: apt-get install -y$missing" >&2
        exit 1
    fi
    echo "setup: installing$missing" >&2
    export DEBIAN_FRONTEND=noninteractive
    $sudo apt-get update -qq
    # shellcheck disable=SC2086 # one word per package
    $sudo apt-get install -y -qq $missing >/dev/null
fi

if [ ! -x .venv/bin/python ]; then
    echo "setup: making the virtual environment .venv" >&2
    "$python" -m venv .venv
fi

stamp=.venv/.warden-installed
wanted=$(cat pyproject.toml setup.sh | cksum)
if [ "$(cat "$stamp" 2>/dev/null)" != "$wanted" ]; then
    echo "setup: installing Warden and its test tools into .venv" >&2
    .venv/bin/python -m pip install -q --disable-pip-version-check -e '.[test]'
    echo "$wanted" > "$stamp"
fi

if [ "$target" = demo ]; then
    exec .venv/bin/warden demo "$@"
fi
.venv/bin/mypy
exec .venv/bin/pytest -q -n auto "$@"
