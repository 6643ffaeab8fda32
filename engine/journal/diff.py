"""What a file call changes, as a person checks it: a unified diff, or size and hash for binary content.

Two moments are shown the same way. Before an approval: the call against the files as they are
now (`proposed`). After a receipt: the snapshot taken before the call against what the call
wrote (`receipt_changes`); a call whose result cannot be told from its arguments is compared
with the file as it is now, and says so. Files are read by descriptor under the workspace root
(`confined`), never through a symlink and never outside it.
"""

from __future__ import annotations

import difflib
import hashlib
import os
import stat
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from engine.envs.workspace import confined
from engine.envs.workspace.inverse import INVERSE
from engine.envs.workspace.snapshot import overlaps
from engine.envs.workspace.snapshot import shown_paths
from engine.errors import WardenError
from engine.journal.receipt import Receipt, Reversal
from engine.redaction import sealed
from engine.tools.call import ToolCall

DIFF_LIMIT = 256 * 1024
LINE_LIMIT = 2000
TREE_LIMIT = 50
CONTEXT = 3
WORKSPACE = "workspace:"


@dataclass(frozen=True)
class Content:
    """One side of a change: how many bytes, their SHA-256, and whether they are text."""

    size: int
    sha256: str
    binary: bool

    @classmethod
    def of(cls, data: bytes) -> Content:
        return cls(len(data), hashlib.sha256(data).hexdigest(), _text(data) is None)


@dataclass(frozen=True)
class FileDiff:
    """One path's change. `before`/`after` are None where there is no file; `lines` is the unified
    diff (empty when binary, too large or unchanged); `note` says what a reader should know besides."""

    path: str
    before: Content | None
    after: Content | None
    lines: tuple[str, ...] = ()
    note: str = ""

    @property
    def binary(self) -> bool:
        return any(side is not None and side.binary for side in (self.before, self.after))


@dataclass(frozen=True)
class SnapshotEntry:
    """One path a snapshot covers: what was there (`file`, `directory`, `link`, or `absent`), its bytes
    (all of a directory's files together) and how many files."""

    path: str
    kind: str
    size: int
    files: int


@dataclass(frozen=True)
class Conflict:
    """A later receipt that undoing this one would overwrite: the paths both touch (or why it may)."""

    receipt_id: str
    summary: str
    reversal: str
    paths: tuple[str, ...]
    why: str


@dataclass(frozen=True)
class ReceiptDetail:
    """A receipt with what it changed, what its snapshot holds, its step, and the later receipts in its way.

    `snapshot_state` is `kept` (undo can restore it), `none` (never taken), `removed` (undone, its copy
    dropped) or `missing` (it should be there and is not).
    """

    receipt: Receipt
    task_goal: str | None
    step_status: str | None
    snapshot_state: str
    snapshot: tuple[SnapshotEntry, ...]
    changes: tuple[FileDiff, ...]
    later: tuple[Conflict, ...]


def compare(path: str, before: bytes | None, after: bytes | None, *, before_known: bool = True,
            after_label: str = "after") -> FileDiff:
    """The change from `before` to `after` (None: no file). With `before_known=False` only the new
    side is shown, as added lines, since what was there was not kept."""
    old = Content.of(before) if before is not None else None
    new = Content.of(after) if after is not None else None
    note = "" if before_known else "what was there before was not kept"
    if old == new and before_known:
        return FileDiff(path, old, new, (), "no change")
    sides = [data for data in (before if before_known else None, after) if data is not None]
    if any(len(data) > DIFF_LIMIT for data in sides):
        return FileDiff(path, old, new, (), _join(note, f"over {DIFF_LIMIT // 1024} KiB: compared by size and hash"))
    old_text, new_text = (_text(data) if data is not None else "" for data in (before if before_known else None, after))
    if old_text is None or new_text is None:
        return FileDiff(path, old, new, (), _join(note, "binary: compared by size and hash"))
    lines = list(difflib.unified_diff(
        old_text.splitlines(keepends=True), new_text.splitlines(keepends=True),
        fromfile=f"a/{path}" if before is not None and before_known else "/dev/null",
        tofile=f"b/{path} ({after_label})" if after is not None else "/dev/null", n=CONTEXT))
    shown = tuple(_line(line) for line in lines[:LINE_LIMIT])
    if len(lines) > LINE_LIMIT:
        note = _join(note, f"{len(lines) - LINE_LIMIT} more diff lines not shown")
    return FileDiff(path, old, new, shown, note)


def touched(call: ToolCall) -> tuple[str, ...]:
    """The workspace paths a file call names (`path`, `src`, `dst`)."""
    return tuple(str(call.args[key]) for key in ("path", "src", "dst") if isinstance(call.args.get(key), str))


def workspace_root(identity: str | None) -> Path | None:
    """The directory of a workspace environment's identity (`workspace:/abs/dir`), None for any other."""
    if identity is None or not identity.startswith(WORKSPACE):
        return None
    root = Path(identity[len(WORKSPACE):])
    return root if root.is_absolute() else None


def proposed(root: Path, call: ToolCall) -> tuple[FileDiff, ...]:
    """What a file call would change if it ran now (blocking: call from a thread); () for other tools."""
    args = call.args
    if call.tool in ("fs.write", "fs.append") and isinstance(args.get("content"), str):
        path = str(args.get("path", ""))
        now, problem = _read(root, path)
        if problem:
            return (FileDiff(path, None, None, (), problem),)
        written = _bytes(args["content"])
        return (compare(path, now, written if call.tool == "fs.write" else (now or b"") + written),)
    if call.tool == "fs.delete" and isinstance(args.get("path"), str):
        return (_removal(root, args["path"]),)
    if call.tool == "fs.move" and isinstance(args.get("src"), str) and isinstance(args.get("dst"), str):
        moved, problem = _read(root, args["src"])
        if problem:
            return (FileDiff(args["src"], None, None, (), problem),)
        return (_removal(root, args["src"]), compare(args["dst"], None, moved))
    return ()


def _removal(root: Path, path: str) -> FileDiff:
    now, problem = _read(root, path)
    if problem:
        return FileDiff(path, None, None, (), problem)
    if now is None:
        folder = _directory(root, path)
        if folder is not None:
            return FileDiff(path, None, None, (), f"a directory: {folder.files} files, {folder.size} bytes go with it")
        return FileDiff(path, None, None, (), "nothing is there now")
    return compare(path, now, None)


def _directory(root: Path, path: str) -> SnapshotEntry | None:
    """What a directory at `path` holds (a look for the person deciding; links are not followed)."""
    try:
        found = confined.check_components(root, path)
        return _entry(path, found) if stat.S_ISDIR(os.lstat(found).st_mode) else None
    except (OSError, WardenError):
        return None


def _read(root: Path, path: str) -> tuple[bytes | None, str]:
    """The file's bytes now (None: no regular file there) and, when it cannot be looked at, why."""
    try:
        return confined.read_regular(root, path), ""
    except WardenError as exc:
        return None, f"not read: {exc}"
    except OSError as exc:
        return None, f"not read: {exc.strerror or exc}"


def snapshot_state(receipt: Receipt) -> str:
    if receipt.snapshot_path is None:
        return "none"
    if (Path(receipt.snapshot_path) / "manifest.json").exists():
        return "kept"
    return "removed" if receipt.reversed_at is not None else "missing"


def snapshot_contents(saved: Path) -> tuple[SnapshotEntry, ...]:
    """Each path a workspace snapshot covers, with what it held (blocking)."""
    try:
        manifest = sealed.load_shown(saved / "manifest.json")
    except (OSError, ValueError):
        return ()
    return tuple(_entry(entry["path"], saved / entry["copy"]) if entry.get("existed") and entry.get("copy") else
                 SnapshotEntry(entry["path"], "in place" if entry.get("existed") else "absent", 0, 0)
                 for entry in manifest)  # "in place": an inverse snapshot keeps no copy of what was there


def _entry(path: str, copy: Path | str) -> SnapshotEntry:
    found = os.lstat(copy)
    if stat.S_ISLNK(found.st_mode):
        return SnapshotEntry(path, "link", 0, 0)
    if not stat.S_ISDIR(found.st_mode):
        return SnapshotEntry(path, "file", found.st_size, 1)
    size = files = 0
    for folder, _, names in os.walk(copy):
        for name in names:
            item = os.lstat(os.path.join(folder, name))
            size, files = size + (item.st_size if stat.S_ISREG(item.st_mode) else 0), files + 1
    return SnapshotEntry(path, "directory", size, files)


def receipt_changes(receipt: Receipt, root: Path | None) -> tuple[FileDiff, ...]:
    """What a workspace receipt's call changed (blocking): its snapshot's files against what the call left.

    Without the snapshot (never taken, or dropped on undo), a write or append still shows what it
    wrote; anything else shows nothing it cannot back with bytes. A snapshot of a directory (a
    shell command snapshots the whole workspace) is compared file by file with what is there now.
    """
    call = receipt.call
    saved_at = Path(receipt.snapshot_path) if receipt.snapshot_path and snapshot_state(receipt) == "kept" else None
    saved = _saved(saved_at, root) if saved_at is not None else {}
    if call.tool == "fs.mkdir":
        return tuple(FileDiff(path, None, None, (), "made this directory") for path in touched(call))
    changes: list[FileDiff] = []
    paths = touched(call) or tuple(saved)
    for path in paths:
        key = path if path in saved else _normal(path)
        if key not in saved:
            if call.tool in ("fs.write", "fs.append") and isinstance(call.args.get("content"), str):
                changes.append(compare(path, None, _bytes(call.args["content"]), before_known=False,
                                       after_label="written" if call.tool == "fs.write" else "appended"))
            continue
        before = saved[key]
        if isinstance(before, SavedTree):
            changes.extend(_tree_changes(key, before, root))
            continue
        if call.tool == "fs.move" and path == call.args.get("dst"):
            source = saved.get(str(call.args.get("src")), saved.get(_normal(str(call.args.get("src")))))
            changes.append(compare(path, before, source if isinstance(source, bytes) else None, after_label="moved here"))
            continue
        after, label = _after(call, path, before, root)
        if isinstance(after, str):
            changes.append(FileDiff(path, Content.of(before) if before is not None else None, None, (), after))
            continue
        changes.append(compare(path, before, after, after_label=label))
    return tuple(changes)


def _after(call: ToolCall, path: str, before: bytes | None, root: Path | None) -> tuple[bytes | None | str, str]:
    """What the call left at `path` and how that is known: from its arguments when they say, else the
    file as it is now; a string is why it cannot be told."""
    if call.tool == "fs.write" and isinstance(call.args.get("content"), str):
        return _bytes(call.args["content"]), "written"
    if call.tool == "fs.append" and isinstance(call.args.get("content"), str):
        return (before or b"") + _bytes(call.args["content"]), "appended"
    if call.tool == "fs.delete" or (call.tool == "fs.move" and path == call.args.get("src")):
        return None, "after"
    if root is None:
        return "what it left cannot be read here", ""
    now, problem = _read(root, path)
    return (problem, "") if problem else (now, "now")


def _tree_changes(path: str, saved: SavedTree, root: Path | None) -> list[FileDiff]:
    """Each file that differs between a snapshotted directory and that directory now."""
    if root is None:
        entry = _entry(path, saved.copy)
        return [FileDiff(path, None, None, (), f"a directory of {entry.files} files in the snapshot; "
                                                "its environment cannot be read here")]
    try:
        now_dir = confined.check_components(root, path) if path != "." else root
    except (OSError, WardenError) as exc:
        return [FileDiff(path, None, None, (), f"not read: {exc}")]
    then, now = saved.files(), _files(now_dir)
    looked = [name for name in sorted(set(then) | set(now)) if _stamp(then.get(name)) != _stamp(now.get(name))]
    prefix = "" if path == "." else path + "/"
    shown: list[FileDiff] = []
    for name in looked:
        before, after = _content(then.get(name)), _content(now.get(name))
        if before != after:
            if len(shown) == TREE_LIMIT:
                shown.append(FileDiff(path, None, None, (), "more changed files are not shown"))
                break
            shown.append(compare(prefix + name, before, after, after_label="now"))
    return shown or [FileDiff(path, None, None, (), "no file differs from the snapshot now")]


def _files(folder: Path) -> dict[str, tuple[Path, os.stat_result]]:
    """Every regular file under a directory by relative path (links are neither followed nor read)."""
    found: dict[str, tuple[Path, os.stat_result]] = {}
    for where, _, names in os.walk(folder):
        for name in names:
            full = Path(where, name)
            status = os.lstat(full)
            if stat.S_ISREG(status.st_mode):
                found[str(full.relative_to(folder))] = (full, status)
    return found


def _stamp(file: tuple[Path, os.stat_result] | None) -> tuple[int, int] | None:
    """Size and modification time: files equal in both are taken as unchanged without reading them."""
    return None if file is None else (file[1].st_size, file[1].st_mtime_ns)


def _content(file: tuple[Path, os.stat_result] | None) -> bytes | None:
    return None if file is None else file[0].read_bytes()


@dataclass(frozen=True)
class SavedTree:
    """A directory as a snapshot keeps it: its copy, and its manifest node (None in snapshots from before nodes),
    which names each child's copy (by number since names could hold secrets; by name before that)."""

    copy: Path
    node: dict | None

    def files(self) -> dict[str, tuple[Path, os.stat_result]]:
        """Every regular file in it by relative path, as `_files` gives a directory in the workspace."""
        if self.node is None:
            return _files(self.copy)
        found: dict[str, tuple[Path, os.stat_result]] = {}
        _node_files(self.node, self.copy, "", found)
        return found


def _node_files(node: dict, copy: Path, prefix: str, found: dict[str, tuple[Path, os.stat_result]]) -> None:
    for name, child in node.get("children", []):
        inner = copy / child.get("copy", name)
        if child.get("type") == "file":
            found[prefix + name] = (inner, os.lstat(inner))
        elif child.get("type") == "dir":
            _node_files(child, inner, f"{prefix}{name}/", found)


def _saved(saved: Path, root: Path | None = None) -> dict[str, bytes | None | SavedTree]:
    """Each path of a snapshot: its file's bytes, None where nothing was, or the copy of a directory. An inverse
    snapshot keeps no copy; what was there is read back from the workspace where the inverse can vouch for it.
    Paths holding a secret are as a person may see them (redacted)."""
    try:
        manifest = sealed.load_shown(saved / "manifest.json")
    except (OSError, ValueError):
        return {}
    files: dict[str, bytes | None | SavedTree] = {}
    for entry in manifest:
        if not entry.get("existed"):
            files[entry["path"]] = None
            continue
        if not entry.get("copy"):
            known = _before_inverse(saved, root, entry["path"])
            if known is not None:
                files[entry["path"]] = known
            continue
        copy = saved / entry["copy"]
        if stat.S_ISREG(os.lstat(copy).st_mode):
            files[entry["path"]] = copy.read_bytes()
        else:
            node = entry.get("node")
            files[entry["path"]] = SavedTree(copy, node if node and node.get("type") == "dir" else None)
    return files


def _before_inverse(saved: Path, root: Path | None, path: str) -> bytes | None:
    """What an inverse snapshot's path held before the call, when the workspace still shows it: an appended file's
    first `length` bytes while they hash as recorded, a moved file at its destination. None when it cannot tell."""
    if root is None:
        return None
    try:
        inverse = sealed.load_shown(saved / INVERSE)
        if inverse.get("op") == "truncate" and inverse.get("path") == path:
            whole = confined.read_regular(root, path)
            if whole is None:
                return None
            now = whole[: inverse["length"]]
            return now if hashlib.sha256(now).hexdigest() == inverse["prefix_sha256"] else None
        if inverse.get("op") == "move" and inverse.get("src") == path:
            return confined.read_regular(root, inverse["dst"])
    except (OSError, ValueError, KeyError, TypeError, WardenError):
        return None
    return None


def _bytes(text: str) -> bytes:
    return text.encode("utf-8", "surrogatepass")


def conflicts(mine: Iterable[str], later: Iterable[tuple[Receipt, tuple[str, ...] | None]]) -> tuple[Conflict, ...]:
    """The later receipts whose paths overlap `mine`; a path list of None means it ran with no snapshot
    (what it changed is unknown), which counts as it does for undo."""
    paths = tuple(mine)
    found = []
    for receipt, theirs in later:
        if theirs is None:
            found.append(Conflict(receipt.id, receipt.summary, receipt.reversal.value, (),
                                  "ran with no snapshot: what it changed is unknown"))
            continue
        shared = tuple(dict.fromkeys(p for p in theirs for q in paths if overlaps(p, q)))
        if shared:
            found.append(Conflict(receipt.id, receipt.summary, receipt.reversal.value, shared,
                                  "touches the same paths"))
    return tuple(found)


def _normal(path: str) -> str:
    return "/".join(part for part in path.strip("/").split("/") if part not in ("", ".")) or "."


def _text(data: bytes) -> str | None:
    if b"\0" in data:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


def _line(line: str) -> str:
    return line.rstrip("\n").rstrip("\r") if line.endswith("\n") else line + "  (no newline at end of file)"


def _join(*parts: str) -> str:
    return "; ".join(part for part in parts if part)


def paths_of(receipt: Receipt) -> tuple[str, ...] | None:
    """The paths a receipt covers: its snapshot's, else its call's; None for one that ran with no
    snapshot and no reverser (audit only), since what it changed is unknown."""
    if receipt.reversal is Reversal.AUDIT_ONLY:
        return None
    if snapshot_state(receipt) == "kept" and receipt.snapshot_path:
        return tuple(shown_paths(Path(receipt.snapshot_path)))
    return touched(receipt.call)
