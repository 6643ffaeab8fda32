"""Which paths a command writes: its output redirections and the files its program changes.

`cp x dir/` writes `dir/x` as well as naming `dir`, `mv` changes its sources too, `sed -i`
and `tee` change every file they are given, `dd` writes `of=`. Paths are read from the
directory the script moved to (`cd .git && echo x >> config`).
"""

from __future__ import annotations

import posixpath

from engine.gate.shell.view import Command

MAX_OPERANDS = 16
_EVERY = frozenset("mv tee touch mkdir truncate rm rmdir unlink shred chmod chown chgrp".split())
_LAST = frozenset("cp install ln rsync".split())
_IN_PLACE = frozenset("sed gsed perl".split())
_TARGET_DIRECTORY = frozenset({"-t", "--target-directory"})
WRITERS = _EVERY | _LAST | _IN_PLACE | {"dd"}


def written(cmd: Command) -> list[str]:
    """Every path `cmd` may create, change, move or remove, joined onto the script's directory."""
    name = cmd.name
    if not cmd.redirects and name not in WRITERS:
        return []
    paths = cmd.out_targets()
    operands = list(cmd.operands[:MAX_OPERANDS])
    if name in _EVERY:
        paths.extend(operands)
    if (name in _LAST or name == "mv") and len(operands) >= 2:
        targets = operands if cmd.flags & _TARGET_DIRECTORY else operands[-1:]
        paths.extend(targets)
        paths.extend(posixpath.join(target, posixpath.basename(source.rstrip("/")))
                     for target in targets for source in operands if source != target)
    elif name in _IN_PLACE and any(flag.startswith(("-i", "--in-place")) for flag in cmd.flags):
        paths.extend(operands)
    elif name == "dd":
        paths.extend(arg[3:] for arg in cmd.args if arg.startswith("of="))
    if cmd.cwd is None:
        return paths
    return [path if path.startswith(("/", "~", "$")) else posixpath.join(cmd.cwd, path) for path in paths]
