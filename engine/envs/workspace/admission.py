"""Which paths a file tool may be asked to act on at all, before it looks at the disk.

Two refusals, each one line:

- **Control characters.** A path holding C0 or C1 controls, DEL, bidi overrides and isolates,
  zero-width characters or line separators (Unicode categories Cc, Cf, Zl, Zp, and lone
  surrogates, Cs) is refused. Such a name repaints a terminal or reads as another name when a
  person is shown it (`ESC 7 ESC[4;110H…` made an approval read as a harmless write). Names a
  command made in the sandbox are not refused here: only what the file tools are asked to do.
- **What the sandbox hides inside the workspace.** When a hidden path (Warden's home, a home
  directory) lies inside the workspace, no file tool acts on it, on anything in it, or on a
  directory holding it (deleting or moving that would take the hidden path along). Writing
  Warden's `policy.toml` from inside would let an agent approve its own next calls.

Paths are compared by their normalised text (`confined.parts`); the tools never follow a
symlink, so no other spelling reaches the same place.
"""

from __future__ import annotations

import unicodedata
from pathlib import Path

from engine.envs.workspace import confined
from engine.envs.workspace.confined import EscapeError

_REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})


class ControlCharacterError(EscapeError):
    """A path holds a character that a terminal acts on or does not show."""


class HiddenPathError(EscapeError):
    """A path is, holds or lies inside what the sandbox hides (Warden's home, a home directory)."""


def control_character(path: str) -> str | None:
    """The first character of `path` a file tool refuses, as `U+XXXX`, or None."""
    for ch in path:
        if unicodedata.category(ch) in _REFUSED_CATEGORIES:
            return f"U+{ord(ch):04X}"
    return None


def hidden_inside(root: Path, hidden: tuple[str, ...]) -> tuple[tuple[str, ...], ...]:
    """The hidden paths strictly inside the workspace `root`, as its components."""
    inside = []
    for path in hidden:
        candidate = Path(path)
        if candidate != root and candidate.is_relative_to(root):
            inside.append(candidate.relative_to(root).parts)
    return tuple(inside)


def check(root: Path, path: str, hidden: tuple[tuple[str, ...], ...]) -> None:
    """Refuse the workspace path `path` for a control character, or for touching a `hidden` path
    (`hidden_inside`); a path leaving the workspace is refused too (`confined.parts`)."""
    found = control_character(path) if isinstance(path, str) else None
    if found is not None:
        raise ControlCharacterError(f"{path!r:.200} holds the control character {found}; "
                                    "file tools refuse control, bidi and zero-width characters in paths")
    names = confined.parts(root, path)
    if not names:
        return
    for place in hidden:
        shorter = min(len(place), len(names))
        if place[:shorter] == names[:shorter]:
            raise HiddenPathError(f"{path!r:.200} touches {'/'.join(place)!r:.200}, which holds Warden's home or "
                                  "a home directory the sandbox hides; file tools never act on it")
