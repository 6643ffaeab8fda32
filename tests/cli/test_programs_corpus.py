"""`warden programs`: statistics in list and show, export and import between homes, delete and its
aliases, expiry by the policy, and the shipped `programs/` folder that is only ever read."""

from __future__ import annotations

import copy
import json
import sqlite3
import time
from pathlib import Path

from programs import SHIPPED
from tests.cli.test_submit import release, warden

SHIPPED_ID = "p-e6204d372a"
ARCHIVE = json.loads((SHIPPED / "archive-file.json").read_text(encoding="utf-8"))
DAY = 86400.0


def program_file(path: Path, program_id: str, template: str, verification: dict | None = None) -> Path:
    raw = copy.deepcopy(ARCHIVE)
    raw.update(id=program_id, signature=f"workspace:{template.lower()}", goal_template=template,
               verification=verification or {"status": "verified", "passed": True, "how": "says the file"})
    path.write_text(json.dumps(raw), encoding="utf-8")
    return path


def query(home: Path, sql: str, *params) -> list[tuple]:
    with sqlite3.connect(home / "warden.db") as db:
        return db.execute(sql, params).fetchall()


def shipped_tree() -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(SHIPPED.iterdir()) if p.is_file()}


def test_list_and_show_report_each_program_with_its_replays(tmp_path: Path) -> None:
    home = tmp_path / "home"
    tasks = tmp_path / "tasks.json"
    tasks.write_text(json.dumps([release("6.0"), release("6.1")]), encoding="utf-8")  # learned, then replayed
    assert warden(home, "submit", str(tasks), "--run").returncode == 0
    [(learned,)] = query(home, "SELECT id FROM programs WHERE id != ?", SHIPPED_ID)
    with sqlite3.connect(home / "warden.db") as db:
        db.execute("INSERT INTO program_runs (program_id, task_id, outcome, at, detail) VALUES (?, 't-x', 'fell back', ?, ?)",
                   (learned, time.time() + 5, "state s1: exists notes did not hold"))

    listed = warden(home, "programs", "--json")
    assert listed.returncode == 0, listed.stderr
    rows = json.loads(listed.stdout)
    assert [row["family"] for row in rows] == sorted(row["family"] for row in rows)  # sorted by family
    by_id = {row["id"]: row for row in rows}
    assert set(by_id) == {learned, SHIPPED_ID}
    mine = by_id[learned]
    assert (mine["kind"], mine["status"], mine["goal_template"]) == (
        "workspace", "verified", "Publish the release note for version {version}")
    assert mine["family"] == "workspace:publish the release note for version {version}"
    assert (mine["replays"], mine["successes"], mine["fallbacks"], mine["failures"]) == (2, 1, 1, 0)
    assert mine["last_failure"]["outcome"] == "fell back"
    assert by_id[SHIPPED_ID]["replays"] == 0 and by_id[SHIPPED_ID]["last_used"] is None
    assert json.loads(warden(home, "programs", "list", "--json").stdout) == rows

    table = warden(home, "programs", "list")
    assert table.returncode == 0 and table.stdout.startswith("programs: 2 stored")
    assert learned in table.stdout and SHIPPED_ID in table.stdout and "never" in table.stdout
    assert warden(home, "programs").stdout == table.stdout

    shown = warden(home, "programs", "show", learned)
    assert "● s0 start" in shown.stdout and "replays 2: 1 completed, 1 fell back, 0 failed" in shown.stdout
    assert "last failure: fell back at " in shown.stdout and "state s1: exists notes did not hold" in shown.stdout
    as_json = json.loads(warden(home, "programs", "show", learned, "--json").stdout)
    assert as_json["id"] == learned and as_json["stats"]["successes"] == 1
    assert as_json["stats"]["last_failure"]["detail"] == "state s1: exists notes did not hold"
    assert json.loads(warden(home, "programs", "--json", "show", learned).stdout) == as_json
    assert "last failure: none" in warden(home, "programs", "show", SHIPPED_ID).stdout


def test_export_then_import_never_trusts_the_files_verification(tmp_path: Path) -> None:
    first, second = tmp_path / "first", tmp_path / "second"
    exported = warden(first, "programs", "export", SHIPPED_ID)
    assert exported.returncode == 0
    [(body,)] = query(first, "SELECT body FROM programs WHERE id = ?", SHIPPED_ID)
    assert json.loads(exported.stdout) == json.loads(body)

    out = tmp_path / "out" / "archive.json"
    out.parent.mkdir()
    assert warden(first, "programs", "export", SHIPPED_ID, "--out", str(out)).returncode == 0
    assert json.loads(out.read_text(encoding="utf-8"))["verification"]["status"] == "verified"

    assert warden(second, "programs", "delete", SHIPPED_ID).returncode == 0
    imported = warden(second, "programs", "import", str(out))
    assert imported.returncode == 0, imported.stderr
    assert f"{out}: stored unverified" in imported.stdout
    [(body,)] = query(second, "SELECT body FROM programs WHERE id = ?", SHIPPED_ID)
    verification = json.loads(body)["verification"]
    assert verification["status"] == "unverified" and verification["passed"] is False
    assert verification["how"] == "not re-executed: no evaluator travels with it to judge a re-run"
    assert json.loads((second / "programs" / f"{SHIPPED_ID}.json").read_text())["verification"] == verification
    assert query(second, "SELECT status FROM program_index WHERE program_id = ?", SHIPPED_ID) == [("unverified",)]

    same_family = program_file(tmp_path / "again.json", "p-again", "Archive the file {file}")
    replaced = warden(second, "programs", "import", str(same_family))
    assert replaced.returncode == 0 and "stored unverified" in replaced.stdout  # nothing of its family was served
    assert query(second, "SELECT id FROM programs") == [("p-again",)]

    kept = warden(first, "programs", "import", str(same_family))  # the shipped one is served in the first home
    assert kept.returncode == 2 and f"not stored: {SHIPPED_ID} of the same family is served" in kept.stdout
    assert query(first, "SELECT id FROM programs") == [(SHIPPED_ID,)]

    missing = warden(second, "programs", "export", "p-none")
    assert missing.returncode == 2 and missing.stderr == "warden: no program p-none; `warden programs` lists them\n"


def test_import_names_each_bad_file_in_one_line_and_stores_the_good_ones(tmp_path: Path) -> None:
    home = tmp_path / "home"
    good = program_file(tmp_path / "good.json", "p-good", "Shred the paper {file}")
    dangling = program_file(tmp_path / "dangling.json", "p-bad", "Burn the paper {file}")
    raw = json.loads(dangling.read_text())
    raw["transitions"][0]["to"] = "nowhere"
    dangling.write_text(json.dumps(raw), encoding="utf-8")
    garbled = tmp_path / "garbled.json"
    garbled.write_text("{not json", encoding="utf-8")
    missing = tmp_path / "missing.json"

    result = warden(home, "programs", "import", str(dangling), str(good), str(garbled), str(missing))
    assert result.returncode == 2
    lines = result.stderr.splitlines()
    assert len(lines) == 3 and all(line.startswith("warden: ") for line in lines)
    assert str(dangling) in lines[0] and "dangles" in lines[0]
    assert str(garbled) in lines[1] and "not a readable JSON program" in lines[1]
    assert str(missing) in lines[2]
    assert f"{good}: stored unverified" in result.stdout
    assert sorted(query(home, "SELECT id FROM programs")) == [(SHIPPED_ID,), ("p-good",)]


def test_delete_and_its_aliases_forget_the_row_the_index_entry_and_the_file(tmp_path: Path) -> None:
    home = tmp_path / "home"
    files = [program_file(tmp_path / f"{n}.json", f"p-{n}", f"Do chore {n} with {{file}}") for n in ("a", "b", "c")]
    assert warden(home, "programs", "import", *map(str, files)).returncode == 0
    for action, program_id in (("delete", "p-a"), ("rm", "p-b"), ("discard", "p-c")):
        done = warden(home, "programs", action, program_id)
        assert done.returncode == 0 and done.stdout.strip() == f"removed {program_id}"
        assert not (home / "programs" / f"{program_id}.json").exists()
    assert query(home, "SELECT id FROM programs") == [(SHIPPED_ID,)]
    assert query(home, "SELECT program_id FROM program_index") == [(SHIPPED_ID,)]
    gone = warden(home, "programs", "delete", "p-a")
    assert gone.returncode == 2 and gone.stderr == "warden: no program p-a\n"


def test_the_shipped_folder_is_only_ever_read(tmp_path: Path) -> None:
    before = shipped_tree()
    home = tmp_path / "home"
    try:
        assert warden(home, "programs").returncode == 0
        assert (home / "programs" / f"{SHIPPED_ID}.json").exists()
        assert warden(home, "programs", "delete", SHIPPED_ID).returncode == 0
        assert shipped_tree() == before
        assert SHIPPED_ID not in warden(home, "programs").stdout  # a removed one stays removed

        linked = tmp_path / "linked"  # a home whose programs folder is the shipped one
        linked.mkdir()
        (linked / "programs").symlink_to(SHIPPED, target_is_directory=True)
        assert SHIPPED_ID in warden(linked, "programs").stdout
        imported = warden(linked, "programs", "import", str(program_file(tmp_path / "new.json", "p-new", "New {file}")))
        assert imported.returncode == 0
        assert warden(linked, "programs", "delete", SHIPPED_ID).returncode == 0
        assert query(linked, "SELECT id FROM programs") == [("p-new",)]
        assert shipped_tree() == before
    finally:
        for name in set(shipped_tree()) - set(before):  # never leave a stray file in the project's folder
            (SHIPPED / name).unlink()


def test_expire_follows_the_policy_and_only_when_asked(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    (home / "policy.toml").write_text("[programs]\nexpire_unused_days = 10\nkeep_at_most = 0\n", encoding="utf-8")
    files = [program_file(tmp_path / f"{n}.json", f"p-{n}", f"Do chore {n} with {{file}}") for n in ("old", "used")]
    assert warden(home, "programs", "import", *map(str, files)).returncode == 0
    now = time.time()
    with sqlite3.connect(home / "warden.db") as db:
        db.execute("UPDATE programs SET created_at = ? WHERE id IN ('p-old', 'p-used')", (now - 20 * DAY,))
        db.execute("INSERT INTO program_runs (program_id, task_id, outcome, at) VALUES ('p-used', 't', 'completed', ?)",
                   (now - 2 * DAY,))

    assert "p-old" in warden(home, "programs").stdout  # opening a home never expires anything
    dry = warden(home, "programs", "expire", "--dry-run")
    assert dry.returncode == 0, dry.stderr
    assert dry.stdout.splitlines()[0].startswith("would remove p-old (Do chore old with {file}): not used in the last 10 days")
    assert "would remove 1 program (unused for 10 days, no count limit)" in dry.stdout
    assert len(query(home, "SELECT id FROM programs")) == 3 and (home / "programs" / "p-old.json").exists()

    done = warden(home, "programs", "expire")
    assert done.returncode == 0 and done.stdout.startswith("removed p-old ") and "removed 1 program " in done.stdout
    assert sorted(query(home, "SELECT id FROM programs")) == [(SHIPPED_ID,), ("p-used",)]
    assert query(home, "SELECT count(*) FROM program_index WHERE program_id = 'p-old'") == [(0,)]
    assert not (home / "programs" / "p-old.json").exists()
    assert "removed 0 programs" in warden(home, "programs", "expire").stdout

    for bad, says in (("keep_at_most = -1", "programs.keep_at_most must be a whole number >= 0, not -1"),
                      ('expire_unused_days = "soon"', "programs.expire_unused_days must be a whole number >= 0, not 'soon'"),
                      ("keep = 3", "unknown [programs] key(s) ['keep']")):
        (home / "policy.toml").write_text(f"[programs]\n{bad}\n", encoding="utf-8")
        refused = warden(home, "programs", "expire")
        assert refused.returncode == 2 and refused.stderr.count("\n") == 1 and says in refused.stderr
    assert sorted(query(home, "SELECT id FROM programs")) == [(SHIPPED_ID,), ("p-used",)]


def test_every_action_answers_json_for_scripts(tmp_path: Path) -> None:
    home = tmp_path / "home"
    good = program_file(tmp_path / "good.json", "p-good", "Shred the paper {file}")
    garbled = tmp_path / "garbled.json"
    garbled.write_text("{not json", encoding="utf-8")

    imported = warden(home, "programs", "import", str(good), str(garbled), "--json")
    assert imported.returncode == 2 and imported.stderr == ""
    first, second = (json.loads(line) for line in imported.stdout.splitlines())
    assert first == {"program": str(good), "verdict": "unverified", "stored": True, "kept": None,
                     "reason": first["reason"]}
    assert second["program"] == str(garbled) and second["stored"] is False and "not a readable" in second["error"]

    accepted = warden(home, "programs", "accept", "p-good", "--json")
    assert accepted.returncode == 0 and json.loads(accepted.stdout) == {"accepted": "p-good", "status": "accepted"}
    expired = warden(home, "programs", "expire", "--dry-run", "--json")
    assert expired.returncode == 0 and json.loads(expired.stdout) == {"dry_run": True, "removed": []}
    removed = warden(home, "programs", "delete", "p-good", "--json")
    assert removed.returncode == 0 and json.loads(removed.stdout) == {"removed": "p-good"}
    assert query(home, "SELECT id FROM programs WHERE id = 'p-good'") == []
