"""A hand-edited program file is reloaded live through the verify gate: a faithful edit is served at once,
a lossy or broken one is refused in one line and the version before it goes on serving."""

from __future__ import annotations

import asyncio
import json

from engine.events.records import ProgramRejected, ProgramStored
from engine.runtime import Runtime
from engine.tasks.task import TaskMode, TaskSpec, TaskStatus
from engine.tools.call import ToolCall


def release(version: str) -> TaskSpec:
    note = f"notes/release-{version}.md"
    return TaskSpec(goal=f"Publish the release note for version {version}",
                    agent={"kind": "scripted", "steps": [ToolCall("fs.write", {"path": note, "content": f"# Release {version}\n"}).as_json()]},
                    evaluator={"text": {"path": note, "contains": f"# Release {version}"}})


async def until(condition, what: str, seconds: float = 10.0):
    for _ in range(int(seconds / 0.05)):
        if (found := await condition()):
            return found
        await asyncio.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


async def solve(runtime: Runtime, spec: TaskSpec):
    task = await runtime.submit(spec)
    await runtime.run_task(task.id)
    return await runtime.task(task.id)


async def test_edits_are_verified_live_and_a_bad_one_never_replaces_the_served_version(runtime: Runtime) -> None:
    first = await solve(runtime, release("1.0"))
    [stored] = [e for e in await runtime.history(first.id) if isinstance(e, ProgramStored)]
    program = await runtime.program(stored.program_id)
    assert program.status == "verified" and program.provenance["evaluator"]["text"]["contains"] == "# Release {version}"
    path = runtime.corpus.directory / f"{program.id}.json"
    stop = asyncio.Event()
    watcher = asyncio.create_task(runtime.watch_programs(stop))
    assert await asyncio.to_thread(runtime.corpus.following.wait, 10.0), "the watcher never started following"
    try:
        async def refusals():
            return [e.reason for e in await runtime.history() if isinstance(e, ProgramRejected)]

        faithful = json.loads(path.read_text())
        faithful["description"] = "Publish a release note (edited by hand)"
        path.write_text(json.dumps(faithful))
        served = await until(lambda: _description(runtime, program.id, "edited by hand"), "the faithful edit")
        assert served.status == "verified" and served.verification["how"].startswith("replayed in a fork")

        lossy = json.loads(path.read_text())
        lossy["transitions"][0]["action"]["args"]["content"] = "nothing of note\n"
        path.write_text(json.dumps(lossy))
        [reason] = await until(refusals, "the lossy edit's refusal")
        assert "evaluator" in reason, reason  # it cannot be proven on this workspace, where release 1.0 is out
        noted = await until(lambda: _file_edit(runtime, program.id), "the refused edit noted on the served program")
        assert noted.status == "verified" and noted.verification["file_edit"]["refused"] == reason
        assert json.loads(path.read_text())["transitions"][0]["action"]["args"]["content"] == "nothing of note\n", \
            "the person's file is left as they wrote it"

        path.write_text(json.dumps({**lossy, "transitions": [{**lossy["transitions"][0], "to": "nowhere"}]}))
        reasons = await until(lambda: _more(refusals, 1), "the broken edit's refusal")
        assert str(path) in reasons[-1] and "nowhere dangles" in reasons[-1] and "unchanged" in reasons[-1]

        kept = await runtime.program(program.id)
        assert kept.description == "Publish a release note (edited by hand)" and kept.status == "verified"
        second = await solve(runtime, release("1.1"))
        assert (second.status, second.mode) == (TaskStatus.SUCCEEDED, TaskMode.REPLAY)
        assert (runtime.workspace.root / "notes/release-1.1.md").read_text() == "# Release 1.1\n"
    finally:
        stop.set()
        await watcher


async def _description(runtime: Runtime, program_id: str, text: str):
    program = await runtime.program(program_id)
    return program if program is not None and text in program.description else None


async def _file_edit(runtime: Runtime, program_id: str):
    program = await runtime.program(program_id)
    return program if program is not None and "file_edit" in program.verification else None


async def _more(refusals, count: int):
    found = await refusals()
    return found if len(found) > count else None

