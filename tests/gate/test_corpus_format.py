"""The labelled corpus is well formed: every line parses, labels and families are set, the directories are the
known categories, no command carries two labels, and the cases written for issue 12 are all there."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from engine.bench.gate import Case, load_corpus
from engine.errors import WardenError
from tests.gate.conftest import CORPUS

CATEGORIES = {"true_positives", "bypass_attempts", "false_positives", "read_only", "edge_cases"}
LABELS = {"safe", "dangerous", "catastrophic"}
ISSUE_12 = "warden: written for issue 12"


def _rows() -> list[tuple[Path, int, dict]]:
    rows = []
    for path in sorted(CORPUS.rglob("*.jsonl")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            assert line.strip(), f"{path}:{number}: blank line"
            try:
                rows.append((path, number, json.loads(line)))
            except ValueError as exc:
                pytest.fail(f"{path}:{number}: not JSON ({exc})")
    return rows


def test_every_file_sits_in_a_known_category() -> None:
    files = sorted(CORPUS.rglob("*.jsonl"))
    assert files, f"no corpus files under {CORPUS}"
    misplaced = [str(p.relative_to(CORPUS)) for p in files
                 if len(p.relative_to(CORPUS).parts) != 2 or p.parent.name not in CATEGORIES]
    assert not misplaced, f"corpus files outside {sorted(CATEGORIES)}: {misplaced}"
    assert {p.parent.name for p in files} == CATEGORIES


def test_every_line_has_a_label_a_command_a_source_and_its_family() -> None:
    bad = []
    for path, number, row in _rows():
        where = f"{path.relative_to(CORPUS)}:{number}"
        if set(row) != {"label", "command", "source", "family"}:
            bad.append(f"{where}: keys {sorted(row)}")
        elif row["label"] not in LABELS:
            bad.append(f"{where}: label {row['label']!r}")
        elif not isinstance(row["command"], str) or not row["command"].strip():
            bad.append(f"{where}: empty command")
        elif not row["source"] or row["family"] != path.stem:
            bad.append(f"{where}: source {row['source']!r}, family {row['family']!r} in {path.name}")
    assert not bad, "\n".join(bad)


def test_safe_commands_are_not_filed_as_harm_nor_harm_as_false_alarms() -> None:
    bad = [f"{path.relative_to(CORPUS)}:{number}: {row['label']} {row['command']!r}" for path, number, row in _rows()
           if (path.parent.name in ("false_positives", "read_only")) != (row["label"] == "safe")
           and path.parent.name != "edge_cases"]
    assert not bad, "\n".join(bad)


def test_no_command_appears_twice_with_different_labels() -> None:
    labels: dict[str, set[str]] = {}
    for _path, _number, row in _rows():
        labels.setdefault(row["command"], set()).add(row["label"])
    conflicts = {command: sorted(found) for command, found in labels.items() if len(found) > 1}
    assert not conflicts, conflicts


def test_issue_12_cases_cover_every_label() -> None:
    written = Counter(row["label"] for _path, _number, row in _rows() if row["source"] == ISSUE_12)
    assert sum(written.values()) >= 300, written
    assert written["catastrophic"] >= 150 and written["dangerous"] >= 50 and written["safe"] >= 100, written


def test_loader_reads_the_tree_with_categories_and_families() -> None:
    cases = load_corpus(CORPUS)
    assert len(cases) == len(_rows())
    assert {case.category for case in cases} == CATEGORIES
    assert all(isinstance(case, Case) and case.family and ":" in case.location for case in cases)


def test_loader_reads_one_file_and_names_the_bad_line(tmp_path: Path) -> None:
    single = tmp_path / "c.jsonl"
    single.write_text('{"label": "safe", "command": "ls"}\n', encoding="utf-8")
    assert load_corpus(single) == [Case("safe", "ls", "", "c", f"{single}:1")]
    tree = tmp_path / "tree" / "read_only"
    tree.mkdir(parents=True)
    (tree / "shell.jsonl").write_text('{"label": "safe", "command": "pwd"}\n\n{"label": "safe"}\n', encoding="utf-8")
    with pytest.raises(WardenError, match=r"shell\.jsonl:3: not a"):
        load_corpus(tmp_path / "tree")
    (tmp_path / "empty").mkdir()
    with pytest.raises(WardenError, match=r"no \*\.jsonl files"):
        load_corpus(tmp_path / "empty")
