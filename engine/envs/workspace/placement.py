"""Where a workspace may be: the one rule every route to a workspace goes through (`Runtime`).

The file tools and the sandbox act on the whole workspace, so a workspace must not be:

- `/`, which is every file;
- a home directory (of any user in `/etc/passwd`, or `$HOME`), nor a directory holding one: its
  shell start-up files, keys and histories would be the agent's to rewrite;
- Warden's home, a directory inside it, or a directory holding it: the database, the snapshots
  undo restores from and the policy that decides what needs a person would be the agent's to
  change (`policy.toml` once made the next worker delete a file unasked). The one exception is
  the home's own `workspace/` directory (and what is below it): the default workspace, which
  holds nothing of Warden's.

Paths are compared resolved (symlinks followed), so no other spelling gets past. The check is
made before the workspace directory is created.
"""

from __future__ import annotations

import os
import pwd
from pathlib import Path

from engine.errors import WardenError

OWN_WORKSPACE = "workspace"


class WorkspaceRefused(WardenError):
    """A workspace that is the root, a home directory, or Warden's home (or holds or lies in one)."""


def home_directories() -> tuple[Path, ...]:
    """Every user's home directory (from the password database) and `$HOME`, resolved; `/` left out
    (system users whose home is `/` do not make every path a home)."""
    found = {entry.pw_dir for entry in pwd.getpwall() if entry.pw_dir}
    found.add(str(Path.home()))
    return tuple(sorted({Path(os.path.realpath(path)) for path in found} - {Path("/")}))


def check(root: Path, home: Path, homes: tuple[Path, ...] | None = None) -> Path:
    """The resolved workspace `root`, or `WorkspaceRefused` saying in one line why it may not be one.

    `home` is Warden's home; `homes` the users' home directories (default: `home_directories()`)."""
    workspace = Path(os.path.realpath(root))
    warden = Path(os.path.realpath(home))
    if workspace == Path("/"):
        raise WorkspaceRefused(f"the workspace {root} is the whole filesystem; choose a project directory")
    if workspace == warden or warden.is_relative_to(workspace):
        raise WorkspaceRefused(f"the workspace {root} holds Warden's home {home}; choose a directory outside it, "
                               "or point WARDEN_HOME elsewhere")
    if workspace.is_relative_to(warden) and not workspace.is_relative_to(warden / OWN_WORKSPACE):
        raise WorkspaceRefused(f"the workspace {root} is inside Warden's home {home}; choose a directory outside it "
                               f"(or its own {warden / OWN_WORKSPACE})")
    for user_home in homes if homes is not None else home_directories():
        if user_home.is_relative_to(workspace):
            what = "is" if user_home == workspace else "holds"
            raise WorkspaceRefused(f"the workspace {root} {what} the home directory {user_home}; "
                                   "choose a project directory inside it instead")
    return workspace
