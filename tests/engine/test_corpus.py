"""The corpus: lexical candidates from its full-text index, exact binding in the selector, per-program
statistics, and expiry; each checked against what the database holds."""

from __future__ import annotations

import copy
import json
import sqlite3
from pathlib import Path

import pytest

from engine.programs import corpus as corpus_module
from engine.programs.corpus import Corpus, ProgramStats, Run
from engine.programs.program import Program
from engine.programs.selector import match_query, select
from engine.store import Store
from engine.store.migrations import MIGRATIONS
from programs import SHIPPED

ARCHIVE = json.loads((SHIPPED / "archive-file.json").read_text(encoding="utf-8"))
DAY = 86400.0


def make(program_id: str, template: str, params: tuple[str, ...] = (), kind: str = "workspace",
         description: str = "", status: str = "verified") -> Program:
    """A small valid program of a family; its states check nothing, so any kind accepts it."""
    raw = copy.deepcopy(ARCHIVE)
    raw.update(id=program_id, signature=f"{kind}:{template.lower()}", goal_template=template,
               params={name: {"type": "string"} for name in params}, description=description, env={"kind": kind},
               verification={"status": status})
    for state in raw["states"]:
        state["check"] = {"all": []}
    return Program.from_json(raw)


@pytest.fixture
async def corpus(tmp_path: Path):
    store = await Store.open(tmp_path / "warden.db")
    yield Corpus(store, tmp_path / "programs")
    await store.close()


def rows(tmp_path: Path, sql: str, *params) -> list[tuple]:
    with sqlite3.connect(tmp_path / "warden.db") as db:
        return db.execute(sql, params).fetchall()


async def ids(corpus: Corpus, goal: str, kind: str = "workspace", **options) -> list[str]:
    return [program.id for program in await corpus.candidates(goal, kind, **options)]


async def test_candidates_share_a_word_with_the_goal_are_of_its_kind_and_best_ranked_first(corpus):
    await corpus.upsert(make("p-archive", "Archive the file {file}", ("file",), description="Move a file into archive/"))
    await corpus.upsert(make("p-note", "Publish the release note for version {version}", ("version",)))
    await corpus.upsert(make("p-web", "Archive the contact {name}", ("name",), kind="web"))
    await corpus.upsert(make("p-held", "Archive the folder {folder}", ("folder",), status="unverified"))

    assert await ids(corpus, "Publish note") == ["p-note"]
    assert (await ids(corpus, "Publish the note"))[0] == "p-note"  # "the" is shared by all: rank still tells
    assert await ids(corpus, "archive the FILE report.txt") == ["p-archive", "p-held", "p-note"]  # most shared first
    assert await ids(corpus, "Archive the contact Ada", "web") == ["p-web"]
    assert await ids(corpus, "Archive file x", statuses={"verified", "accepted"}) == ["p-archive"]
    assert await ids(corpus, "Archive file x", statuses=()) == []
    assert await ids(corpus, "Archive file x", limit=1) == ["p-archive"]
    assert await ids(corpus, "Water plants") == []


async def test_the_index_follows_every_write(corpus, tmp_path):
    await corpus.upsert(make("p-1", "Archive the file {file}", ("file",), status="unverified"))
    assert rows(tmp_path, "SELECT program_id, status FROM program_index") == [("p-1", "unverified")]

    await corpus.accept("p-1", "ada")
    assert rows(tmp_path, "SELECT program_id, status FROM program_index") == [("p-1", "accepted")]

    await corpus.upsert(make("p-2", "Archive the file {file}", ("file",)))  # same signature: replaces p-1
    assert rows(tmp_path, "SELECT program_id FROM program_index") == [("p-2",)]
    assert await ids(corpus, "Archive the file a.txt") == ["p-2"]

    await corpus.upsert(make("p-2", "Shred the paper {paper}", ("paper",)))  # same id, new family
    assert await ids(corpus, "Archive file a.txt") == []
    assert await ids(corpus, "Shred the paper memo") == ["p-2"]

    assert await corpus.remove("p-2")
    assert rows(tmp_path, "SELECT count(*) FROM program_index") == [(0,)]
    assert await ids(corpus, "Shred the paper memo") == []


@pytest.mark.parametrize("goal, found", [
    ('"', False), ('""', False), ('"Archive', True), ('Archive the file "a b"', True), ("Archive* the file x", True),
    ("NEAR(Archive file)", True), ("Archive AND the OR file NOT x", True), ("-Archive the file x", True),
    ("Archive (the file) x)", True), ("((((", False), ("{goal_template}: x", False), ("goal_template:Archive", True),
    ("Archive the file x^", True), ("Archive the file x;DROP TABLE programs", True), ("\x00Archive\x00", True),
    ("   ", False), ("", False), ("?!.,;:-*()[]{}'\"", False), ("_", False), ("x" * 5000, False),
    ("Archive the file " + "y" * 4096, False),  # over 4,096 characters: no template matches, so no candidate
])
async def test_hostile_goals_are_plain_words(corpus, tmp_path, goal, found):
    await corpus.upsert(make("p-archive", "Archive the file {file}", ("file",)))
    assert await ids(corpus, goal) == (["p-archive"] if found else [])
    assert rows(tmp_path, "SELECT count(*) FROM programs") == [(1,)]


async def test_a_goal_with_query_syntax_binds_as_text(corpus):
    await corpus.upsert(make("p-archive", "Archive the file {file}", ("file",)))
    goal = 'Archive the file "a b" OR NEAR(*)'
    picked = select(goal, await corpus.candidates(goal, "workspace"))
    assert picked is not None and picked[1] == {"file": '"a b" OR NEAR(*)'}


def test_the_match_query_quotes_every_word_and_is_none_without_words() -> None:
    assert match_query('NEAR("a" b*) AND -c') == '"near" OR "a" OR "b" OR "and" OR "c"'
    assert match_query("Straße STRASSE straße") == '"straße" OR "strasse"'  # as the index folds case: ß stays
    assert match_query("?!()*-\"") is None and match_query("") is None and match_query("__") is None


async def test_long_and_non_ascii_goals(corpus):
    await corpus.upsert(make("p-de", "Öffne die Datei {datei}", ("datei",)))
    await corpus.upsert(make("p-ja", "ファイル {name} を開く", ("name",)))
    await corpus.upsert(make("p-archive", "Archive the file {file}", ("file",)))

    for goal, expected in [("öffne die datei Bericht.txt", ("p-de", {"datei": "Bericht.txt"})),
                           ("ファイル 報告 を開く", ("p-ja", {"name": "報告"}))]:
        picked = select(goal, await corpus.candidates(goal, "workspace"))
        assert picked is not None and (picked[0].id, picked[1]) == expected
    assert await ids(corpus, "Offne die Datei x") == ["p-de"]  # diacritics are loose for finding,
    assert select("Offne die Datei x", [make("p-x", "Öffne die Datei {datei}", ("datei",))]) is None  # exact for binding

    longest = "Archive the file " + "z" * (4096 - len("Archive the file "))
    picked = select(longest, await corpus.candidates(longest, "workspace"))
    assert picked is not None and picked[1] == {"file": "z" * 4079}
    assert await ids(corpus, longest + "z") == []  # no template matches a goal over 4,096 characters


async def test_a_program_whose_template_leaves_a_declared_parameter_unbound_is_never_picked(corpus):
    await corpus.upsert(make("p-loose", "Archive the file {file}", ("file", "folder")))
    goal = "Archive the file report.txt"
    assert await ids(corpus, goal) == ["p-loose"]
    assert select(goal, await corpus.candidates(goal, "workspace")) is None

    await corpus.upsert(make("p-tight", "Archive the {what} {file}", ("what", "file")))
    picked = select(goal, await corpus.candidates(goal, "workspace"))
    assert picked is not None and picked[0].id == "p-tight" and picked[1] == {"what": "file", "file": "report.txt"}


async def test_the_most_specific_match_wins_and_ties_go_to_the_better_rank(corpus):
    await corpus.upsert(make("p-general", "Archive {thing}", ("thing",)))
    await corpus.upsert(make("p-specific", "Archive the file {file}", ("file",)))
    goal = "Archive the file report.txt"
    picked = select(goal, await corpus.candidates(goal, "workspace"))
    assert picked is not None and (picked[0].id, picked[1]) == ("p-specific", {"file": "report.txt"})

    first, second = make("p-a", "Move {file} away", ("file",)), make("p-b", "Move {item} off", ("item",))
    tie = select("Move x away", [first, second])
    assert tie is not None and tie[0].id == "p-a"
    assert select("Move x off", [first, second])[0].id == "p-b"


async def test_two_thousand_programs_are_not_parsed_to_choose_one(corpus, tmp_path, monkeypatch):
    for number in range(2000):
        await corpus.upsert(make(f"p-{number}", f"Water plant number {number} in the {{room}}", ("room",),
                                 description=f"Compiled from: water plant number {number} in the hall"))
    parsed: list[str] = []
    original = Program.from_json.__func__

    def counting(cls, raw, where="program"):
        parsed.append(raw["id"])
        return original(cls, raw, where)

    monkeypatch.setattr(Program, "from_json", classmethod(counting))
    cold = Corpus(corpus._store, tmp_path / "programs")  # nothing cached
    goal = "Water plant number 1234 in the kitchen"
    picked = select(goal, await cold.candidates(goal, "workspace"))
    assert picked is not None and (picked[0].id, picked[1]) == ("p-1234", {"room": "kitchen"})
    assert 0 < len(parsed) <= 20
    parsed.clear()
    assert select(goal, await cold.candidates(goal, "workspace"))[0].id == "p-1234"
    assert parsed == []  # the second selection parses nothing


async def test_an_older_database_gets_its_programs_indexed(tmp_path):
    raw = make("p-old", "Archive the file {file}", ("file",), description="Move a file").to_json()
    raw["verification"] = {"passed": True}  # an older record: no status
    web = make("p-oldweb", "Open the page {page}", ("page",), kind="web").to_json()
    with sqlite3.connect(tmp_path / "warden.db") as db:
        for script in MIGRATIONS[:5]:
            db.executescript(script)
        for old in (raw, web):
            db.execute("INSERT INTO programs (id, signature, body, created_at) VALUES (?, ?, ?, 1)",
                       (old["id"], old["signature"], json.dumps(old)))
        db.execute("INSERT INTO program_runs (program_id, task_id, outcome, at) VALUES ('p-old', 't-1', 'completed', 5)")
        db.execute("PRAGMA user_version = 5")
    store = await Store.open(tmp_path / "warden.db")
    try:
        corpus = Corpus(store, tmp_path / "programs")
        assert await ids(corpus, "Archive the file a", statuses={"verified"}) == ["p-old"]
        assert await ids(corpus, "Open the page x", "web") == ["p-oldweb"]
        assert await corpus.stats("p-old") == ProgramStats(1, 1, 0, 0, 5.0, None)
    finally:
        await store.close()
    assert rows(tmp_path, "SELECT detail FROM program_runs") == [("",)]


async def test_statistics_count_each_outcome_and_keep_the_last_failure(corpus, tmp_path):
    await corpus.upsert(make("p-1", "Archive the file {file}", ("file",)))
    await corpus.upsert(make("p-2", "Shred the paper {paper}", ("paper",)))
    await corpus.record_run("p-1", "t-1", "completed")  # the runner's three-argument call
    await corpus.record_run("p-1", "t-2", "fell back", "state s1: exists archive did not hold")
    await corpus.record_run("p-1", "t-3", "blocked", "fs.delete / is catastrophic")
    await corpus.record_run("p-1", "t-4", "completed")
    with sqlite3.connect(tmp_path / "warden.db") as db:  # distinct times, in order
        db.execute("UPDATE program_runs SET at = id * 10")

    stats = await corpus.stats("p-1")
    assert stats == ProgramStats(replays=4, successes=2, fallbacks=1, failures=1, last_used=40.0,
                                 last_failure=Run("blocked", "fs.delete / is catastrophic", 30.0))
    assert await corpus.stats("p-2") == ProgramStats()
    assert await corpus.stats("p-none") == ProgramStats()
    assert await corpus.all_stats() == {"p-1": stats, "p-2": ProgramStats()}
    assert rows(tmp_path, "SELECT task_id, detail FROM program_runs WHERE outcome = 'fell back'") == [
        ("t-2", "state s1: exists archive did not hold")]


async def test_expiry_removes_the_unused_then_the_least_recently_used(corpus, tmp_path):
    now = 1_000 * DAY
    for name in ("old", "replayed", "fresh", "held", "a", "b"):
        await corpus.upsert(make(f"p-{name}", f"Do the {name} thing {{x}}", ("x",)))
    with sqlite3.connect(tmp_path / "warden.db") as db:
        db.executemany("UPDATE programs SET created_at = ? WHERE id = ?", [
            (now - 90 * DAY, "p-old"), (now - 90 * DAY, "p-replayed"), (now - 1 * DAY, "p-fresh"),
            (now - 90 * DAY, "p-held"), (now - 5 * DAY, "p-a"), (now - 4 * DAY, "p-b")])
        db.execute("INSERT INTO program_runs (program_id, task_id, outcome, at) VALUES ('p-replayed', 't', 'fell back', ?)",
                   (now - 2 * DAY,))
        db.execute("INSERT INTO tasks (id, goal, spec, status, program_id, created_at, updated_at) "
                   "VALUES ('t-held', 'g', '{}', 'paused', 'p-held', 0, 0)")

    plan = await corpus.expiring(now, 30, 4)
    assert [(e.program_id, e.reason) for e in plan] == [
        ("p-old", "not used in the last 30 days"), ("p-a", "beyond the 4 most recently used")]
    assert plan[0].goal_template == "Do the old thing {x}" and plan[0].last_used == now - 90 * DAY
    assert len(rows(tmp_path, "SELECT id FROM programs")) == 6  # planning removes nothing
    assert [e.program_id for e in await corpus.expiring(now, 0, 0)] == []  # no age limit, no count limit
    assert [e.program_id for e in await corpus.expiring(now, 0, 2)] == ["p-old", "p-a", "p-b", "p-replayed"]

    assert await corpus.expire(now, 30, 4) == ["p-old", "p-a"]
    assert sorted(rows(tmp_path, "SELECT id FROM programs")) == [("p-b",), ("p-fresh",), ("p-held",), ("p-replayed",)]
    assert rows(tmp_path, "SELECT count(*) FROM program_index WHERE program_id IN ('p-old', 'p-a')") == [(0,)]
    assert not (tmp_path / "programs" / "p-old.json").exists() and (tmp_path / "programs" / "p-b.json").exists()


async def test_a_corpus_on_the_shipped_folder_never_writes_there(tmp_path, monkeypatch):
    shipped = tmp_path / "shipped"
    shipped.mkdir()
    (shipped / "p-e6204d372a.json").write_text(json.dumps(ARCHIVE), encoding="utf-8")
    before = {p.name: p.read_bytes() for p in shipped.iterdir()}
    monkeypatch.setattr(corpus_module, "SHIPPED", shipped)
    store = await Store.open(tmp_path / "warden.db")
    try:
        corpus = Corpus(store, shipped)
        assert await corpus.import_files(shipped) == []
        await corpus.upsert(make("p-new", "Shred the paper {paper}", ("paper",)))
        assert await corpus.remove("p-e6204d372a")
        assert await ids(corpus, "Shred the paper x") == ["p-new"]
    finally:
        await store.close()
    assert {p.name: p.read_bytes() for p in shipped.iterdir()} == before
