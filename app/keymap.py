"""`$WARDEN_HOME/keymap.toml` maps binding ids to keys (`"warden.approve" = "y"`). Before the console applies
it, a remap that would put two ids on one key where both are active at once (a clash, which Textual settles by
silently dropping one binding) is refused: the clashing ids keep their default keys, and the person is told."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from textual.binding import Binding

Scope = Sequence[type]
"""DOM classes whose bindings are active together (the app, and the focused widget or screen)."""


def bindings_of(cls: type) -> list[Binding]:
    merged = getattr(cls, "_merged_bindings", None)
    if merged is None:
        return []
    return [binding for bindings in merged.key_to_bindings.values() for binding in bindings if binding.id]


def default_keys(classes: Iterable[type]) -> dict[str, tuple[str, ...]]:
    """Each binding id of the classes, and its default keys in order."""
    keys: dict[str, list[str]] = {}
    for cls in classes:
        for binding in bindings_of(cls):
            assert binding.id is not None
            held = keys.setdefault(binding.id, [])
            if binding.key not in held:
                held.append(binding.key)
    return {binding_id: tuple(held) for binding_id, held in keys.items()}


def keys_of(keymap: Mapping[str, str], binding_id: str, defaults: Mapping[str, tuple[str, ...]]) -> tuple[str, ...]:
    """The keys an id is on now: its remap, or its defaults."""
    if binding_id in keymap:
        return tuple(key.strip() for key in keymap[binding_id].split(",") if key.strip())
    return defaults.get(binding_id, ())


def clashes(keymap: Mapping[str, str], scopes: Iterable[Scope]) -> dict[str, set[str]]:
    """Each key that two ids hold in one scope, at least one of them by the keymap, and those ids."""
    found: dict[str, set[str]] = {}
    for scope in scopes:
        defaults = default_keys(scope)
        holders: dict[str, set[str]] = {}
        for binding_id in defaults:
            for key in keys_of(keymap, binding_id, defaults):
                holders.setdefault(key, set()).add(binding_id)
        for key, ids in holders.items():
            if len(ids) > 1 and ids & keymap.keys():
                found.setdefault(key, set()).update(ids)
    return found


def checked(keymap: Mapping[str, str], scopes: Sequence[Scope]) -> tuple[dict[str, str], list[str]]:
    """The keymap without the remaps that clash, and one line for each clash naming its key and ids."""
    accepted = dict(keymap)
    notes: list[str] = []
    while found := clashes(accepted, scopes):
        for key, ids in sorted(found.items()):
            notes.append(f'"{key}" is both {" and ".join(sorted(ids))}')
            for binding_id in ids:
                accepted.pop(binding_id, None)
    return accepted, notes
