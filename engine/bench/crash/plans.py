"""Seeded plans of 8 to 20 operator calls, each valid: a call only refers to what earlier calls made.

The generator keeps a model of the workspace (each file's kind and contents that matter: JSON names,
database rows, archive members) and picks, at each step, among the operators the model allows.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from posixpath import basename, dirname, join
from typing import Any

from engine.bench.crash.operators import PREFIX

MIN_STEPS, MAX_STEPS = 8, 20
WORDS = ("alpha", "beta", "gamma", "delta", "omega", "kappa", "sigma", "zeta")
MODES = (0o600, 0o640, 0o644, 0o700, 0o755)


@dataclass
class Model:
    """What the plan has made so far: files by path (kind plus details), folders."""

    files: dict[str, dict] = field(default_factory=dict)
    dirs: set[str] = field(default_factory=set)
    counter: int = 0

    def name(self, rng: random.Random, suffix: str, inside: str | None = None) -> str:
        self.counter += 1
        folder = inside if inside is not None else rng.choice(["", "", *sorted(self.dirs)])
        return join(folder, f"n{self.counter}{suffix}") if folder else f"n{self.counter}{suffix}"

    def of(self, kind: str) -> list[str]:
        return sorted(path for path, meta in self.files.items() if meta["kind"] == kind)

    def under(self, folder: str) -> list[str]:
        return sorted(p for p in [*self.files, *self.dirs] if p.startswith(folder + "/"))

    def full_dirs(self) -> list[str]:
        return sorted(d for d in self.dirs if any(p.startswith(d + "/") for p in self.files))

    def fresh_dir(self, rng: random.Random) -> str:
        return self.name(rng, "")


Step = tuple[str, dict[str, Any]]
Maker = Callable[[Model, random.Random], Step | None]


def _line(rng: random.Random) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 4))) + "\n"


def _lines(rng: random.Random) -> str:
    return "".join(_line(rng) for _ in range(rng.randint(1, 6)))


def _pick(rng: random.Random, paths: list[str]) -> str | None:
    return rng.choice(paths) if paths else None


def create(m: Model, rng):
    path = m.name(rng, ".txt")
    m.files[path] = {"kind": "text"}
    return "create", {"path": path, "content": _lines(rng)}


def _text_edit(op: str, extra: Callable[[random.Random], dict] = lambda rng: {}) -> Maker:
    def make(m: Model, rng):
        path = _pick(rng, m.of("text"))
        return None if path is None else (op, {"path": path, **extra(rng)})

    return make


def copy_file(m: Model, rng):
    source = _pick(rng, sorted(m.files))
    if source is None:
        return None
    target = m.name(rng, "." + source.rsplit(".", 1)[-1] if "." in basename(source) else "")
    m.files[target] = copy.deepcopy(m.files[source])
    return "copy", {"source": source, "target": target}


def move_file(m: Model, rng):
    source = _pick(rng, sorted(m.files))
    if source is None:
        return None
    target = m.name(rng, "." + source.rsplit(".", 1)[-1] if "." in basename(source) else "")
    m.files[target] = m.files.pop(source)
    return "move", {"source": source, "target": target}


def rename_file(m: Model, rng):
    path = _pick(rng, sorted(m.files))
    if path is None:
        return None
    m.counter += 1
    name = f"r{m.counter}" + ("." + path.rsplit(".", 1)[-1] if "." in basename(path) else "")
    m.files[join(dirname(path), name)] = m.files.pop(path)
    return "rename", {"path": path, "name": name}


def delete_file(m: Model, rng):
    path = _pick(rng, sorted(m.files))
    if path is None or len(m.files) < 3:
        return None
    del m.files[path]
    return "delete", {"path": path}


def delete_tree(m: Model, rng):
    folder = _pick(rng, m.full_dirs())
    if folder is None:
        return None
    for path in m.under(folder):
        m.files.pop(path, None)
        m.dirs.discard(path)
    m.dirs.discard(folder)
    return "delete_tree", {"path": folder}


def mkdir(m: Model, rng):
    if len(m.dirs) >= 4:
        return None
    path = m.fresh_dir(rng)
    m.dirs.add(path)
    return "mkdir", {"path": path}


def _archive(op: str, kind: str) -> Maker:
    def make(m: Model, rng):
        folder = _pick(rng, m.full_dirs())
        if folder is None:
            return None
        archive = m.name(rng, "." + kind, inside=rng.choice(["", *sorted(d for d in m.dirs if d != folder
                                                                         and not d.startswith(folder + "/"))]))
        members = {path[len(folder) + 1:]: copy.deepcopy(m.files.get(path)) for path in m.under(folder)}
        m.files[archive] = {"kind": kind, "members": members}
        return op, {"source": folder, "archive": archive}

    return make


def _extract(op: str, kind: str) -> Maker:
    def make(m: Model, rng):
        archive = _pick(rng, m.of(kind))
        if archive is None:
            return None
        target = m.fresh_dir(rng)
        m.dirs.add(target)
        for name, meta in m.files[archive]["members"].items():
            if meta is None:
                m.dirs.add(join(target, name))
            else:
                m.files[join(target, name)] = copy.deepcopy(meta)
        return op, {"archive": archive, "target": target}

    return make


def _checksum(op: str) -> Maker:
    def make(m: Model, rng):
        path = _pick(rng, sorted(m.files))
        if path is None:
            return None
        output = m.name(rng, f".{op}")
        m.files[output] = {"kind": "text"}
        return op, {"path": path, "output": output}

    return make


def json_set(m: Model, rng):
    path = _pick(rng, m.of("json")) if rng.random() < 0.7 else None
    if path is None:
        path = m.name(rng, ".json")
        m.files[path] = {"kind": "json", "names": [], "lists": []}
    meta = m.files[path]
    name = rng.choice(WORDS)
    if name in meta["lists"]:
        return None
    if name not in meta["names"]:
        meta["names"].append(name)
    return "json_set", {"path": path, "name": name, "value": _line(rng).strip()}


def json_delete(m: Model, rng):
    path = _pick(rng, [p for p in m.of("json") if m.files[p]["names"]])
    if path is None:
        return None
    names = m.files[path]["names"]
    name = rng.choice(sorted(names))
    names.remove(name)
    return "json_delete", {"path": path, "name": name}


def json_append(m: Model, rng):
    path = _pick(rng, m.of("json"))
    if path is None:
        return None
    meta = m.files[path]
    name = "list-" + rng.choice(WORDS[:3])
    if name not in meta["lists"]:
        meta["lists"].append(name)
    return "json_append", {"path": path, "name": name, "value": _line(rng).strip()}


def sqlite_init(m: Model, rng):
    if len(m.of("db")) >= 2:
        return None
    path = m.name(rng, ".db")
    m.files[path] = {"kind": "db", "rows": []}
    return "sqlite_init", {"path": path}


def sqlite_insert(m: Model, rng):
    path = _pick(rng, m.of("db"))
    if path is None:
        return None
    rows = m.files[path]["rows"]
    row = max(rows, default=0) + 1
    rows.append(row)
    return "sqlite_insert", {"path": path, "id": row, "name": rng.choice(WORDS), "value": rng.randint(0, 999)}


def _sqlite_row(op: str) -> Maker:
    def make(m: Model, rng):
        path = _pick(rng, [p for p in m.of("db") if m.files[p]["rows"]])
        if path is None:
            return None
        rows = m.files[path]["rows"]
        row = rng.choice(sorted(rows))
        if op == "sqlite_delete":
            rows.remove(row)
            return op, {"path": path, "id": row}
        return op, {"path": path, "id": row, "value": rng.randint(1, 50)}

    return make


def csv_append(m: Model, rng):
    path = _pick(rng, m.of("csv")) if rng.random() < 0.7 else None
    if path is None:
        path = m.name(rng, ".csv")
        m.files[path] = {"kind": "csv"}
    return "csv_append", {"path": path, "cells": [rng.choice(WORDS), str(rng.randint(0, 99)), "a,b \"q\""]}


def gzip_file(m: Model, rng):
    path = _pick(rng, [p for p in m.of("text") if p + ".gz" not in m.files])
    if path is None:
        return None
    m.files[path + ".gz"] = {"kind": "gz", "inner": m.files.pop(path)}
    return "gzip", {"path": path}


def gunzip_file(m: Model, rng):
    path = _pick(rng, [p for p in m.of("gz") if p[:-3] not in m.files])
    if path is None:
        return None
    m.files[path[:-3]] = m.files.pop(path)["inner"]
    return "gunzip", {"path": path}


def chmod(m: Model, rng):
    path = _pick(rng, sorted(m.files))
    return None if path is None else ("chmod", {"path": path, "mode": rng.choice(MODES)})


def touch(m: Model, rng):
    path = _pick(rng, sorted(m.files))
    return None if path is None else ("touch", {"path": path})


def concat(m: Model, rng):
    texts = m.of("text")
    if not texts:
        return None
    output = m.name(rng, ".txt")
    step = "concat", {"first": rng.choice(texts), "second": rng.choice(texts), "output": output}
    m.files[output] = {"kind": "text"}
    return step


def split(m: Model, rng):
    path = _pick(rng, m.of("text"))
    if path is None:
        return None
    m.counter += 1
    prefix, parts = join(dirname(path), f"part{m.counter}"), rng.randint(2, 3)
    for number in range(parts):
        m.files[f"{prefix}.{number}"] = {"kind": "text"}
    return "split", {"path": path, "parts": parts, "prefix": prefix}


def line_count(m: Model, rng):
    path = _pick(rng, m.of("text"))
    if path is None:
        return None
    output = m.name(rng, ".count")
    m.files[output] = {"kind": "text"}
    return "line_count", {"path": path, "output": output}


MAKERS: tuple[Maker, ...] = (
    create, _text_edit("write", lambda rng: {"content": _lines(rng)}),
    _text_edit("append", lambda rng: {"content": _line(rng)}), _text_edit("prepend", lambda rng: {"content": _line(rng)}),
    copy_file, move_file, rename_file, delete_file, delete_tree, mkdir,
    _archive("tar_create", "tar"), _extract("tar_extract", "tar"), _archive("zip_create", "zip"),
    _extract("zip_extract", "zip"), _checksum("sha256"), _checksum("md5"),
    json_set, json_delete, json_append, sqlite_init, sqlite_insert, _sqlite_row("sqlite_update"),
    _sqlite_row("sqlite_delete"), csv_append,
    _text_edit("replace_text", lambda rng: {"old": rng.choice(WORDS), "new": rng.choice(WORDS).upper()}),
    _text_edit("sort_lines"), _text_edit("reverse_lines"), _text_edit("dedupe_lines"), _text_edit("upper"),
    gzip_file, gunzip_file, chmod, touch, concat, split, line_count,
    _text_edit("truncate", lambda rng: {"size": rng.randint(0, 40)}),
)


def key(plan: int, step: int) -> str:
    return f"p{plan:04d}s{step:02d}"


def plan(number: int, seed: int) -> list[dict[str, Any]]:
    """Plan `number` of the seed: its calls, each with its `key`."""
    rng = random.Random(f"{seed}:{number}")
    model = Model()
    steps: list[dict[str, Any]] = []
    length = rng.randint(MIN_STEPS, MAX_STEPS)
    while len(steps) < length:
        trial = copy.deepcopy(model)
        made = rng.choice(MAKERS)(trial, rng)
        if made is None:
            continue
        model = trial
        op, args = made
        steps.append({"tool": PREFIX + op, "args": {"key": key(number, len(steps)), **args}})
    return steps


def plans(count: int, seed: int) -> list[list[dict[str, Any]]]:
    return [plan(number, seed) for number in range(count)]
