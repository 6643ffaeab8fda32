"""A second task of a family is served by replaying the first one's program; a mismatch hands back to the agent."""

from __future__ import annotations

import json

from engine.demo import demo_tasks
from engine.events.records import ActionCompleted, AgentStepped, ReplayFellBack, StateChecked, TaskFailed
from engine.runtime import Switches
from engine.tasks.task import TaskMode, TaskSpec, TaskStatus, scripted
from engine.tools.call import ToolCall


async def test_second_task_of_a_family_replays_the_first_ones_program(runtime, run, db, ws):
    shipped = {p.id for p in await runtime.programs()}
    first = await run(runtime, demo_tasks()[0])
    assert (first.status, first.mode) == (TaskStatus.SUCCEEDED, TaskMode.AGENT)
    [program] = [p for p in await runtime.programs() if p.id not in shipped]
    [row] = db("SELECT id, signature, body FROM programs WHERE id = ?", program.id)
    assert (row["id"], row["signature"]) == (program.id, program.signature)
    mirrored = runtime.home / "programs" / f"{program.id}.json"
    assert json.loads(mirrored.read_text()) == json.loads(row["body"]) == program.to_json()

    second = await run(runtime, demo_tasks()[1])
    assert (second.status, second.mode, second.program_id) == (TaskStatus.SUCCEEDED, TaskMode.REPLAY, program.id)
    events = await runtime.history(second.id)
    assert not [e for e in events if isinstance(e, AgentStepped)]

    completed = [e for e in events if isinstance(e, ActionCompleted)]
    assert [(e.idx, e.source) for e in completed] == [(0, "replay"), (1, "replay"), (2, "replay")]
    for action in completed:
        last_check = [e for e in events[: events.index(action)] if isinstance(e, StateChecked)][-1]
        assert last_check.passed and last_check.state_id == program.transitions[action.idx].source
    checks = [e for e in events if isinstance(e, StateChecked)]
    assert [c.state_id for c in checks] == program.path()
    assert checks[-1].passed and checks[-1].state_id in program.terminal

    assert (ws / "notes" / "release-1.3.md").read_bytes() == b"# Release 1.3\n\nWhat changed in 1.3.\n"
    assert (ws / "CHANGELOG.md").read_bytes() == (
        b"# Changelog\n- 1.2: see notes/release-1.2.md\n- 1.3: see notes/release-1.3.md\n"
    )
    persisted = db("SELECT kind, payload FROM task_events WHERE task_id = ? ORDER BY id", second.id)
    assert [r["kind"] for r in persisted] == [e.kind for e in events]
    assert [json.loads(r["payload"]) for r in persisted] == [e.payload() for e in events]
    steps = db("SELECT idx, source, state_id, status FROM steps WHERE task_id = ? ORDER BY idx", second.id)
    assert steps == [{"idx": i, "source": "replay", "state_id": f"s{i}", "status": "done"} for i in range(3)]
    assert db("SELECT outcome FROM program_runs WHERE task_id = ?", second.id) == [{"outcome": "completed"}]


def publish_draft(release: str, clear_the_way: bool = False) -> TaskSpec:
    """A family whose states check what the next move needs: the destination must be free."""
    draft, published = f"drafts/{release}.md", f"published/{release}.md"
    plan = [ToolCall("fs.write", {"path": draft, "content": f"Draft {release}\n"})]
    if clear_the_way:
        plan.append(ToolCall("fs.move", {"src": published, "dst": f"archive/{release}.md"}))
    plan.append(ToolCall("fs.move", {"src": draft, "dst": published}))
    return TaskSpec(
        goal=f"Publish the draft of release {release}",
        agent=scripted(tuple(plan)),
        evaluator={"all": [{"text": {"path": published, "equals": f"Draft {release}\n"}}, {"absent": draft}]},
    )


async def _mismatch_mid_replay(runtime, run_approving, ws):
    """Store the family's program, then leave a stale file where its second step wants to move to."""
    first = await run_approving(runtime, publish_draft("1.7"))
    assert first.status is TaskStatus.SUCCEEDED, first.error
    (ws / "published").mkdir(exist_ok=True)
    (ws / "published" / "1.8.md").write_text("stale\n")
    second = await run_approving(runtime, publish_draft("1.8", clear_the_way=True))
    return second, await runtime.history(second.id)


async def test_replay_mismatch_falls_back_to_the_agent(runtime, run_approving, db, ws):
    task, events = await _mismatch_mid_replay(runtime, run_approving, ws)
    assert task.status is TaskStatus.SUCCEEDED, task.error
    [fell_back] = [e for e in events if isinstance(e, ReplayFellBack)]
    assert fell_back.state_id == "s1"
    at = events.index(fell_back)
    assert [e.source for e in events[:at] if isinstance(e, ActionCompleted)] == ["replay"]  # the draft was written
    assert not [e for e in events[:at] if isinstance(e, AgentStepped)]
    after = [e for e in events[at:] if isinstance(e, AgentStepped)]
    assert [e.call["args"]["src"] for e in after] == ["published/1.8.md", "drafts/1.8.md"]  # the write is not repeated
    assert (ws / "published" / "1.8.md").read_bytes() == b"Draft 1.8\n"
    assert (ws / "archive" / "1.8.md").read_bytes() == b"stale\n"
    assert not (ws / "drafts" / "1.8.md").exists()
    assert db("SELECT outcome FROM program_runs WHERE task_id = ?", task.id) == [{"outcome": "fell back"}]


async def test_without_fallback_a_replay_mismatch_fails_the_task(open_runtime, run_approving, ws):
    runtime = await open_runtime(Switches(fallback=False))
    task, events = await _mismatch_mid_replay(runtime, run_approving, ws)
    assert task.status is TaskStatus.FAILED
    assert "fallback is off" in task.error
    assert [e for e in events if isinstance(e, TaskFailed)]
    assert not [e for e in events if isinstance(e, AgentStepped)]
    assert (ws / "published" / "1.8.md").read_bytes() == b"stale\n"
    assert not (ws / "archive").exists()
