"""Programs: verify before store, refuse malformed files, and the shipped corpus replays."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from engine.demo import SCRATCH_BYTES, demo_tasks, release_note, seed_workspace
from engine.envs.workspace import WorkspaceEnv
from engine.events.records import AgentStepped, ProgramRejected, ProgramStored
from engine.programs.compiler import compile_run
from engine.programs.corpus import Corpus
from engine.programs.program import Program, ProgramError
from engine.programs.verifier import Verifier
from engine.runtime import Switches, build_registry
from engine.tasks.task import TaskMode, TaskSpec, TaskStatus, scripted
from engine.tools.call import ToolCall
from programs import SHIPPED
from tests.asking import ASKING


def tree(root):
    return {str(p.relative_to(root)): p.read_bytes() if p.is_file() else None for p in sorted(root.rglob("*"))}


async def test_verifier_rejects_a_lossy_program(runtime, run, tmp_path):
    spec = demo_tasks()[0]
    task = await run(runtime, spec)
    program = compile_run(task.goal, await runtime.queue.done_calls(task.id), runtime.registry, "workspace",
                          {"task": task.id})
    raw = copy.deepcopy(program.to_json())  # to_json shares the program's own dicts
    # Lossy: the write no longer carries the heading the evaluator looks for; its state check follows suit.
    write = next(t for t in raw["transitions"] if t["action"]["tool"] == "fs.write")
    write["action"]["args"]["content"] = "TODO\n"
    next(s for s in raw["states"] if s["id"] == write["to"])["check"] = {
        "text": {"path": write["action"]["args"]["path"], "equals": "TODO\n"}
    }
    lossy = Program.from_json(raw)
    clean_root = tmp_path / "clean"
    seed_workspace(clean_root)
    clean = WorkspaceEnv(clean_root, runtime.workspace.sandbox)
    before = tree(clean_root)
    verifier = Verifier(runtime.registry, runtime.gate, tmp_path / "scratch")

    assert (await verifier.verify(program, {"version": "1.2"}, clean, spec.evaluator)).passed  # the faithful one passes
    verdict = await verifier.verify(lossy, {"version": "1.2"}, clean, spec.evaluator)
    assert not verdict.passed
    assert verdict.reason == "replay completed but the task's evaluator failed"
    assert tree(clean_root) == before
    assert list((tmp_path / "scratch").iterdir()) == []


@pytest.mark.parametrize("verify_gate", [True, False])
async def test_a_run_that_succeeded_by_luck_is_not_served(open_runtime, run, db, ws, verify_gate):
    """The evaluator also wants a file the operator makes while the task waits for approval: the
    run succeeds, but its program is not served. Verification does not re-run the approved delete
    (finding 2 of the hardening review), so the program is held unverified for a person.
    Only with the verify gate switched off (an ablation) is it stored as servable anyway. The contained delete
    would run unasked by default: the runtime asks for every dangerous call (tests/asking.py)."""
    runtime = await open_runtime(Switches(verify_gate=verify_gate), policy=ASKING)
    shipped = db("SELECT id FROM programs")
    mirrored = sorted((runtime.home / "programs").iterdir())
    spec = TaskSpec(
        goal="Delete the scratch file scratch.txt",
        agent=scripted((ToolCall("fs.delete", {"path": "scratch.txt"}),)),
        evaluator={"all": [{"absent": "scratch.txt"}, {"exists": "signed-off.txt"}]},
    )
    task = await run(runtime, spec)
    assert task.status is TaskStatus.PAUSED
    (ws / "signed-off.txt").write_text("ok\n")
    [approval] = await runtime.pending_approvals()
    await runtime.approve(approval.id)
    await runtime.run_until_idle()

    assert (await runtime.queue.get(task.id)).status is TaskStatus.SUCCEEDED
    events = await runtime.history(task.id)
    rejected = [e for e in events if isinstance(e, ProgramRejected)]
    stored = [e for e in events if isinstance(e, ProgramStored)]
    assert not (runtime.home / "runs" / task.id).exists()
    if not verify_gate:
        assert (rejected, len(stored)) == ([], 1)
        assert len(db("SELECT id FROM programs")) == len(shipped) + 1
        return
    assert rejected == [] and [e.status for e in stored] == ["unverified"]
    assert len(list((runtime.home / "programs").iterdir())) == len(mirrored) + 1


def compiled_release_note(scratch: Path) -> dict:
    spec = release_note("1.2")
    steps = [ToolCall.from_json(step) for step in spec.agent["steps"]]
    registry = build_registry([WorkspaceEnv(scratch / "registry-ws")])
    return compile_run(spec.goal, steps, registry, "workspace", {"task": "test"}).to_json()


def test_f07_malformed_program_files_and_ids_that_are_paths_are_refused_in_one_line(tmp_path):
    broken = tmp_path / "broken.json"
    broken.write_text("{not json")
    dangling = tmp_path / "dangling.json"
    raw = compiled_release_note(tmp_path)
    raw["transitions"][-1]["to"] = "s9"
    dangling.write_text(json.dumps(raw))
    escaping = tmp_path / "escaping.json"
    escaping.write_text(json.dumps({**compiled_release_note(tmp_path), "id": "../../../victim"}))

    for path, why in ((broken, "JSON"), (dangling, "dangles"), (escaping, "names the program's file")):
        with pytest.raises(ProgramError) as caught:
            Program.load(path)
        message = str(caught.value)
        assert str(path) in message and why in message
        assert "\n" not in message


async def test_import_skips_bad_files_and_imports_the_good_one(runtime, db, tmp_path):
    incoming = tmp_path / "incoming"
    incoming.mkdir()
    (incoming / "a-broken.json").write_text("[1, 2")
    raw = compiled_release_note(tmp_path)
    (incoming / "b-good.json").write_text(json.dumps(raw))
    raw = {**raw, "id": "p-dangling", "signature": "workspace:other"}
    raw["transitions"][0]["from"] = "nowhere"
    (incoming / "c-dangling.json").write_text(json.dumps(raw))

    corpus = Corpus(runtime.store, runtime.home / "programs")
    problems = await corpus.import_files(incoming)
    assert len(problems) == 2
    assert "a-broken.json" in problems[0] and "c-dangling.json" in problems[1]
    assert all("\n" not in line for line in problems)
    assert [r["id"] for r in db("SELECT id FROM programs WHERE id IN (?, ?)", raw["id"], "p-dangling")] == []
    [row] = db("SELECT id FROM programs WHERE signature = ?", compiled_release_note(tmp_path)["signature"])
    assert (runtime.home / "programs" / f"{row['id']}.json").exists()


async def test_shipped_programs_load_and_archive_file_replays(runtime, run, db, ws):
    shipped = [Program.load(path) for path in sorted(SHIPPED.glob("*.json"))]
    assert {p.id for p in shipped} <= {r["id"] for r in db("SELECT id FROM programs")}

    task = await run(runtime, TaskSpec(goal="Archive the file scratch.txt", evaluator={"exists": "archive/scratch.txt"}))
    assert (task.status, task.mode) == (TaskStatus.SUCCEEDED, TaskMode.REPLAY), task.error
    assert task.program_id in {p.id for p in shipped}
    assert (ws / "archive" / "scratch.txt").read_bytes() == SCRATCH_BYTES
    assert not (ws / "scratch.txt").exists()
    assert not [e for e in await runtime.history(task.id) if isinstance(e, AgentStepped)]
